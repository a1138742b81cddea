"""CaSiNo as the registry knows it: its format and how it is detected.

Only this module (and the package's light ``__init__``) is imported to know the corpus,
through the ``actparse_corpora`` entry point; the rest is named by dotted path.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from actparse.registry import Corpus, Format

__all__ = ["SPEC", "is_casino"]

_CASINO = "actparse.corpora.casino.core"


def is_casino(raw: Mapping[str, Any]) -> bool:
    """Whether a record is a CaSiNo dialogue (its chat logs)."""
    return "chat_logs" in raw


SPEC = Corpus(
    name="casino",
    title="CaSiNo",
    order=30,
    formats=(
        Format(
            name="casino",
            help="the original JSON list",
            detect=is_casino,
            reader=f"{_CASINO}:dialogue_from_casino",
            writer="actparse.io.writers:write_acts",
        ),
    ),
    parser=f"{_CASINO}:CasinoParser",
    evaluator=f"{_CASINO}:evaluate_casino",
    headline="final_split_accuracy",
    rules="casino",
)
