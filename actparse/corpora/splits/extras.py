"""The extras placed after each side takes one of every item (extras-after-one-each).

"We each take one of each, then you can take the extra food and wood and I will take the
extra water": once a message gives each side one of every item, "the extra/remaining X"
(and a plain "the X" or "X" after it) is what is left of the item once both sides have
their one, added to that side's one. Before such a base, "the extra water" stays a wish
and "all the extra food" stays all of it. Once a message of the dialogue gave the base,
a later "the extra water", "the remaining food" (and the items listed after it) is the
unit left too (extras-after-one-each-said-before); a later "the food" is all of it.
"""

from __future__ import annotations

import itertools
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
    base_said: bool = False,
) -> tuple[set[int], bool]:
    """Give each item named after a base of one each its leftover (extras-after-one-each).

    ``counts`` (writer-relative, ``[side][item]``) is changed in place: the side named
    gets all but the other side's one. ``base_said``: an earlier message of the dialogue
    gave each side one of every item; then only "the extra/remaining X" counts. Returns
    the sides given an extra and whether this message gives the base."""
    if any(total < 2 for total in totals):
        return set(), False  # an item of which both sides cannot have one
    base_end = _one_each_base(tokens, mentions, totals, lexicon)
    if base_end is None and not base_said:
        return set(), False
    # extras-after-one-each-said-before: "we each get one of each" - "you can have the
    # remaining firewood if you give me the remaining water".
    after = -1 if base_end is None else base_end
    counted = {m.item for m in mentions if m.kind == "count" and m.start > after}
    sides: set[int] = set()
    last: Mention | None = None  # the extra placed last
    for m in mentions:
        if m.start <= after or m.side is None or m.item is None or m.negated:
            continue
        if m.kind not in _EXTRA_KINDS or (m.kind == "all" and m.explicit) or m.item in counted:
            continue  # a count stays a count; "all the extra food" stays all of it
        listed = last is not None and _listed_after(last, m, tokens, lexicon)
        if base_end is None and not listed and not _names_extra(m, tokens, lexicon):
            continue  # "the food" after a base said before is all of it
        counts[m.side][m.item] = totals[m.item] - 1
        counts[m.side ^ 1][m.item] = 1
        sides.add(m.side)
        last = m
    return sides, base_end is not None


def _listed_after(last: Mention, m: Mention, tokens: Sequence[str], lexicon: SplitLexicon) -> bool:
    """``m`` is the next item of the same side's list ("the extra firewood and food")."""
    between = tokens[last.end + 1 : m.start]
    return m.side == last.side and all(w == "," or lexicon.has("conjunction", w) for w in between)


def _names_extra(m: Mention, tokens: Sequence[str], lexicon: SplitLexicon) -> bool:
    """The item phrase says it is the leftover: "the remaining food", "the extra water".

    Not "extra water" with no article, a wish."""
    if m.kind == "rest-item":
        return True
    words = tokens[m.start : m.end + 1]
    return any(
        lexicon.has("determiner", a) and lexicon.has("item_adjective", b)
        for a, b in itertools.pairwise(words)
    )


def _one_each_base(
    tokens: Sequence[str],
    mentions: Sequence[Mention],
    totals: Sequence[int],
    lexicon: SplitLexicon,
) -> int | None:
    """Where the message has given each side one of every item, or ``None``.

    "we each take one of each", "we both get one of everything", "we each get one food, one
    water and one firewood"; or one side's one of every item followed by "i will do the
    same"."""
    for m in mentions:
        if m.kind == "each-item" and m.both and m.count == 1:
            return m.end
    # "we each get one food, one water and one firewood"
    both = [m for m in mentions if m.kind == "count" and m.both and m.count == 1]
    if both and {m.item for m in both} == set(range(len(totals))):
        return max(m.end for m in both)
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
