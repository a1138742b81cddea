"""The extras placed after each side takes one of every item (extras-after-one-each).

"We each take one of each, then you can take the extra food and wood and I will take the
extra water": once a message gives each side one of every item, "the extra/remaining X"
(and a plain "the X" or "X" after it) is what is left of the item once both sides have
their one, added to that side's one. Before such a base, "the extra water" stays a wish
and "all the extra food" stays all of it.
"""

from __future__ import annotations

from collections.abc import Sequence

from actparse.corpora.splits.lexicon import SplitLexicon
from actparse.corpora.splits.mentions import OTHER, SELF, Mention

__all__ = ["place_extras"]

#: Mentions after the base that name the leftover of an item: "the extra water"
#: (bare), "the remaining food" (rest-item), "the food" (an unwritten "all").
_EXTRA_KINDS = frozenset({"bare", "rest-item", "all"})


def place_extras(
    tokens: Sequence[str],
    mentions: Sequence[Mention],
    counts: list[list[int | None]],
    totals: Sequence[int],
    lexicon: SplitLexicon,
) -> set[int]:
    """Give each item named after a base of one each its leftover (extras-after-one-each).

    ``counts`` (writer-relative, ``[side][item]``) is changed in place: the side named
    gets all but the other side's one. The sides given an extra are returned."""
    if any(total < 2 for total in totals):
        return set()  # an item of which both sides cannot have one
    base_end = _one_each_base(tokens, mentions, totals, lexicon)
    if base_end is None:
        return set()
    sides: set[int] = set()
    for m in mentions:
        if m.start <= base_end or m.side is None or m.item is None or m.negated:
            continue
        if m.kind not in _EXTRA_KINDS or (m.kind == "all" and m.explicit):
            continue  # a count stays a count; "all the extra food" stays all of it
        counts[m.side][m.item] = totals[m.item] - 1
        counts[m.side ^ 1][m.item] = 1
        sides.add(m.side)
    return sides


def _one_each_base(
    tokens: Sequence[str],
    mentions: Sequence[Mention],
    totals: Sequence[int],
    lexicon: SplitLexicon,
) -> int | None:
    """Where the message has given each side one of every item, or ``None``.

    "we each take one of each", "we both get one of everything"; or one side's one of every
    item followed by "i will do the same"."""
    for m in mentions:
        if m.kind == "each-item" and m.both and m.count == 1:
            return m.end
    for side in (SELF, OTHER):
        ones = [
            m
            for m in mentions
            if m.side == side and m.kind == "count" and m.count == 1 and m.explicit
        ]
        if {m.item for m in ones} != set(range(len(totals))):
            continue
        last = max(m.end for m in ones)
        same = next(
            (i for i in range(last + 1, len(tokens)) if lexicon.has("likewise", tokens[i])), None
        )
        if same is not None and not any(last < m.start < same for m in mentions):
            return same
    return None
