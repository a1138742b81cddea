"""The two parties of a two-party corpus: agents 0 and 1.

The parsers of the two-party negotiations index the parties by a turn's agent. Their
readers refuse any other agent in a record; a :class:`~actparse.models.Dialogue` built
by hand is checked here, by those parsers, since ``Dialogue`` itself also carries
dialogues of three speakers and more (your own dialogues).
"""

from __future__ import annotations

from actparse.errors import InputError
from actparse.models import Dialogue

__all__ = ["check_two_parties"]


def check_two_parties(dialogue: Dialogue) -> None:
    """Raise :class:`~actparse.errors.InputError` at the first turn of an agent not 0 or 1.

    The message names the turn's index, its agent and the dialogue's corpus."""
    for turn in dialogue.turns:
        # bool is an int: True would index the parties as agent 1, unnoticed.
        if isinstance(turn.agent, bool) or turn.agent not in (0, 1):
            raise InputError(
                f"turn {turn.index}: agent {turn.agent!r}; the {dialogue.corpus} corpus "
                "takes agents 0 and 1, its two parties"
            )
