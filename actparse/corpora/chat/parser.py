"""The parser of your own dialogues (a first version: every message ``unknown``).

To be replaced by the rules every corpus shares: coarse acts, prices, item splits and
strategies.
"""

from __future__ import annotations

from actparse.corpora.chat.reader import CORPUS
from actparse.models import Act, Dialogue

__all__ = ["FORMAL", "INTENTS", "ChatParser"]

#: Formal actions a table may carry, each its own coarse act.
FORMAL = ("offer", "accept", "reject", "quit")
INTENTS = (
    "greet",
    "inquire",
    "inform",
    "propose",
    "insist",
    "press",
    "agree",
    "disagree",
    *FORMAL,
    "unknown",
)


class ChatParser:
    """One act per turn of a dialogue of no known corpus."""

    corpus = CORPUS
    intents = INTENTS

    def parse(self, dialogue: Dialogue) -> list[Act]:
        """One act per turn."""
        return [
            Act(t.index, t.agent, t.action if t.action in FORMAL else "unknown")
            for t in dialogue.turns
        ]
