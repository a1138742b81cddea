"""Deal or No Deal as the registry knows it: its format and how it is detected.

Only this module (and the package's light ``__init__``) is imported to know the corpus,
through the ``actparse_corpora`` entry point; the rest is named by dotted path.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from actparse.registry import Corpus, Format

__all__ = ["SPEC", "is_dealornodeal"]

_DOND = "actparse.corpora.dealornodeal.core"


def is_dealornodeal(raw: Mapping[str, Any]) -> bool:
    """Whether a record is a Deal or No Deal dialogue (its text and both inputs)."""
    return "dialogue" in raw and "input" in raw


SPEC = Corpus(
    name="dealornodeal",
    title="Deal or No Deal",
    order=20,
    formats=(
        Format(
            name="dealornodeal",
            help="the original text or HF JSON lines",
            detect=is_dealornodeal,
            reader=f"{_DOND}:dialogue_from_dealornodeal",
            writer="actparse.io.writers:write_acts",
            text_marker="<",
            text_reader=f"{_DOND}:text_line_to_record",
        ),
    ),
    parser=f"{_DOND}:DealOrNoDealParser",
    evaluator=f"{_DOND}:evaluate_dealornodeal",
    headline="final_split_accuracy",
    rules="dealornodeal",
    view_key=f"{_DOND}:dialogue_key",
)
