"""MutualFriends as the registry knows it: its format and how it is detected.

Only this module is imported to know the corpus (through the ``actparse_corpora`` entry
point); the reader, writer, parser and evaluator are dotted paths, imported on first use.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from actparse.io.layouts import cocoa_kbs_are_mappings
from actparse.registry import Corpus, Format

__all__ = ["SPEC", "is_mutualfriends"]

_MF = "actparse.corpora.mutualfriends"


def is_mutualfriends(raw: Mapping[str, Any]) -> bool:
    """Whether a record is a MutualFriends dialogue, in either layout.

    The HuggingFace layout (``scenario_kbs``), or a Cocoa transcript whose knowledge bases are lists
    of friends (a sale's are mappings: Craigslist)."""
    return "scenario_kbs" in raw or cocoa_kbs_are_mappings(raw) is False


SPEC = Corpus(
    name="mutualfriends",
    title="MutualFriends",
    order=40,
    formats=(
        Format(
            name="mutualfriends",
            help="HF JSON lines or Cocoa transcripts",
            detect=is_mutualfriends,
            reader=f"{_MF}.reader:dialogue_from_mutualfriends",
            writer=f"{_MF}.writer:write_mutualfriends",
        ),
    ),
    parser=f"{_MF}.parser:MutualFriendsParser",
    evaluator=f"{_MF}.evaluate:evaluate_mutualfriends",
    headline="selection_agreement",
    rules="mutualfriends",
)
