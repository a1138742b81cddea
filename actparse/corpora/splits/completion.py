"""Step 5: the split a message proposes, its claims completed from the deal on the table.

:func:`complete_split` turns a message's claims (:class:`~.claims.Claims`) into an
:class:`~actparse.models.ItemSplit` between agent 0 and agent 1, filling the items the
message leaves unnamed as the corpus does (the side opposite the one named in Deal or No
Deal; the running deal in CaSiNo).
"""

from __future__ import annotations

from collections.abc import Sequence

from actparse.corpora.splits.claims import Claims
from actparse.corpora.splits.mentions import OTHER, SELF
from actparse.models import ItemSplit

__all__ = ["complete_split"]


def complete_split(
    claims: Claims,
    writer: int,
    totals: Sequence[int],
    items: Sequence[str],
    unnamed: str,
    running: ItemSplit | None = None,
) -> ItemSplit:
    """The claims as a split between agents 0 and 1 (the writer is ``writer``).

    Per item: a named share gives the other side the remainder. "The rest" is what the
    side opposite it does not get: named in the message, or else its share of the running
    deal ("ok, if i get everything else"). Items still open go to the side opposite the
    one the message named (``unnamed="opposite"``, when it named one side only) or keep
    their counts in the running deal (``unnamed="running"``); anything left is ``None``.
    """
    mine: list[int | None] = list(claims.counts[SELF])
    theirs: list[int | None] = list(claims.counts[OTHER])
    prior: tuple[tuple[int | None, ...], tuple[int | None, ...]] | None = None
    if running is not None:
        prior = (running.counts[writer], running.counts[writer ^ 1])
    if prior is not None:
        _follow_running(claims, prior, mine, theirs, totals)
    if claims.rest is not None:
        _rest_from_running(claims.rest, prior, mine, theirs, len(totals))
    _complete_items(claims, mine, theirs, totals)
    _place_open_items(claims, unnamed, prior, mine, theirs, totals)
    counts = (tuple(mine), tuple(theirs)) if writer == 0 else (tuple(theirs), tuple(mine))
    return ItemSplit(items=tuple(items), counts=counts)


#: The writer's and the reader's counts in the deal on the table.
_Prior = tuple[tuple[int | None, ...], tuple[int | None, ...]]


def _follow_running(
    claims: Claims,
    prior: _Prior,
    mine: list[int | None],
    theirs: list[int | None],
    totals: Sequence[int],
) -> None:
    """A relative count adds to what the side has on the table.

    For example "1 more food"; a singular noun with no count keeps the side's share of the table;
    an item moved by a swap is one more than the side had (a-swap-moves-one)."""
    for side, item in claims.relative:
        shares = (mine, theirs)
        had = prior[side][item]
        added = shares[side][item]
        if had is not None and added is not None:
            shares[side][item] = min(had + added, totals[item])
            (theirs if side == SELF else mine)[item] = None
    for side, item in claims.moved:
        had, shares = prior[side][item], (mine, theirs)
        if had is not None and had < totals[item]:
            shares[side][item], shares[side ^ 1][item] = had + 1, totals[item] - had - 1
    for side, item in claims.singular - claims.moved:
        # the-singular-follows-the-table: "i'll take both balls and the hat" when the
        # table gives the writer one of two hats is that one hat.
        had = prior[side][item]
        shares = (mine, theirs)
        other = shares[side ^ 1][item]
        if had is not None and 0 < had < totals[item] and other in (None, totals[item] - had):
            shares[side][item], shares[side ^ 1][item] = had, totals[item] - had


def _rest_from_running(
    rest: int, prior: _Prior | None, mine: list[int | None], theirs: list[int | None], n: int
) -> None:
    """The side opposite "the rest" keeps its share of the table when the message names none.

    When the message names nothing for the side opposite "the rest", that side keeps
    its share of the table ("ok, if i get everything else"). ``rest``: the side of "the
    rest"; ``n``: how many items."""
    keeper = rest ^ 1
    shares = (mine, theirs)
    if prior is not None and all(c is None for c in shares[keeper]):
        for item in range(n):
            if shares[rest][item] is None and prior[keeper][item] is not None:
                shares[keeper][item] = prior[keeper][item]


def _complete_items(
    claims: Claims, mine: list[int | None], theirs: list[int | None], totals: Sequence[int]
) -> None:
    """Per item, a named share gives the other side the remainder.

    An item neither side has goes whole to the side of "the rest"."""
    for item in range(len(totals)):
        total = totals[item]
        a, b = mine[item], theirs[item]
        if a is not None and b is None:
            theirs[item] = max(total - a, 0)
        elif b is not None and a is None:
            mine[item] = max(total - b, 0)
        elif a is None and b is None and claims.rest is not None:
            if claims.rest == SELF:
                mine[item], theirs[item] = total, 0
            else:
                mine[item], theirs[item] = 0, total


def _place_open_items(
    claims: Claims,
    unnamed: str,
    prior: _Prior | None,
    mine: list[int | None],
    theirs: list[int | None],
    totals: Sequence[int],
) -> None:
    """Place the items the message left open.

    Items still open go to the side opposite the one the message named (``unnamed``
    "opposite"), or else keep their counts on the table; where the message named one
    side only, what is still unplaced goes opposite it."""
    n = len(totals)
    open_items = [i for i in range(n) if mine[i] is None]
    if open_items and unnamed == "opposite" and len(claims.named_sides) == 1:
        (named,) = claims.named_sides
        for item in open_items:
            if named == SELF:
                mine[item], theirs[item] = 0, totals[item]
            else:
                mine[item], theirs[item] = totals[item], 0
    elif open_items and prior is not None:
        for item in open_items:
            mine[item], theirs[item] = prior[0][item], prior[1][item]
    if len(claims.named_sides) == 1:
        # Items neither the message nor the deal on the table has placed yet go to the
        # side opposite the one the message named ("I'd like 3 food and 2 water").
        (named,) = claims.named_sides
        for item in range(n):
            if mine[item] is None and theirs[item] is None:
                if named == SELF:
                    mine[item], theirs[item] = 0, totals[item]
                else:
                    mine[item], theirs[item] = totals[item], 0
