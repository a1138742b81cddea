"""Both views of one dialogue: parse one, mirror its acts for the other.

Deal or No Deal lists every dialogue twice, once from each side, one view right after
the other: the same turns in the same order with the agents swapped (each view calls
its own side agent 0) and the two parties' items swapped. The split parser treats the
agents alike: it only ever compares a turn's agent with another or takes the other one
(``1 - writer``), and a split's shares follow the agents. So the acts of the second view
are those of the first with every agent swapped and every split's two shares swapped,
and :class:`ViewMemo` hands those out instead of parsing the dialogue again.

The key holds everything :meth:`SplitDialogueParser.parse` reads of a dialogue (every
turn's fields, and the parties), so a view matches only
the exact mirror image of one parsed before; ``tests/corpora/splits/test_views.py``
checks on the shared files that both views come out the same with and without the memo.
A rule that treats agent 0 and agent 1 differently breaks the premise: that test fails.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from actparse.models import Act, Dialogue, ItemSplit

__all__ = ["ViewMemo", "mirror_act", "view_key"]


def _hashable(data: Any) -> Hashable:
    """A turn's data as a key (its ``repr``: two different values never share one)."""
    return None if data is None else repr(data)


def view_key(dialogue: Dialogue, *, mirrored: bool = False) -> Hashable:
    """What the parse reads of ``dialogue``, or of its other view.

    With ``mirrored``, of its other view (the agents and the parties swapped)."""
    flip = 1 if mirrored else 0
    turns = tuple(
        (t.index, t.agent ^ flip, t.action, t.text, t.offer_price, _hashable(t.data), t.labels)
        for t in dialogue.turns
    )
    parties = tuple(dialogue.parties)
    return turns, (parties[::-1] if mirrored and len(parties) == 2 else parties)


def mirror_act(act: Act) -> Act:
    """The act as the other view has it: the agents swapped, and a split's shares."""
    split = act.split
    if split is not None:
        split = ItemSplit(split.items, (split.counts[1], split.counts[0]), split.uncertain)
    return act._replace(agent=1 - act.agent, split=split)


class ViewMemo:
    """The acts of the last few dialogues parsed, to mirror for their other view.

    Bounded to ``size`` dialogues (the other view comes right after), so it holds a few
    dialogues' acts at most; a size of 0 turns it off.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        #: How many dialogues got mirrored acts.
        self.hits = 0
        self._kept: dict[Hashable, tuple[Act, ...]] = {}

    def parse(self, dialogue: Dialogue, parse: Callable[[Dialogue], list[Act]]) -> list[Act]:
        """The acts of ``dialogue``, mirrored from its other view when that was parsed lately.

        "Lately" is among the last ``size`` dialogues; otherwise the acts are
        ``parse(dialogue)``."""
        if self.size <= 0 or len(dialogue.parties) != 2:
            return parse(dialogue)
        kept = self._kept.get(view_key(dialogue, mirrored=True))
        if kept is not None:
            self.hits += 1
            return [mirror_act(act) for act in kept]
        acts = parse(dialogue)
        while len(self._kept) >= self.size:
            self._kept.pop(next(iter(self._kept)), None)  # the oldest
        self._kept[view_key(dialogue)] = tuple(acts)
        return acts
