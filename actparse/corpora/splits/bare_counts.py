"""A number with no noun whose item the message itself names next.

:func:`~actparse.corpora.splits.mentions.find_mentions` gives a number with no noun the item
talked about last ("you can have 2"). When the message has named no item before the number but
names one item right after it, for the other side, and the two counts make up that item, the
number is that item's other share: "i'd give you 2 and i will take 1 food" is about food
whatever the talk was about before.
"""

from __future__ import annotations

from collections.abc import Sequence

from actparse.corpora.splits.mentions import Mention

__all__ = ["count_the_item_named_next"]


def count_the_item_named_next(mentions: Sequence[Mention], totals: Sequence[int]) -> None:
    """Give an implied count the item named next when together they split it.

    The message has one such count before its only named item, with a written count for the
    other side; the two counts add up to that item's total."""
    named = [m for m in mentions if m.item is not None and not m.implied]
    if len(named) != 1:
        return
    (noun,) = named
    item = noun.item
    if item is None or noun.kind != "count" or not noun.explicit or noun.count is None:
        return
    before = [m for m in mentions if m.implied and m.start < noun.start]
    if len(before) != 1:
        return
    for m in before:
        # a-bare-count-splits-the-item-named-next: "give you 2 and i will take 1 food"
        if (
            m.item != item
            and m.count is not None
            and m.side is not None
            and noun.side is not None
            and m.side != noun.side
            and item < len(totals)
            and m.count + noun.count == totals[item]
        ):
            m.item = item
