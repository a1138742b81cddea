"""Step 2's phrases that give every item the same quantity, or each side its larger share.

:func:`whole_item_phrases` finds the phrases about every item at once that name no item:
an even split ("split everything", "split it down the middle", "half-half"), which halves
every item (even-split-halves-every-item), and a count for every item ("2 for all 3
categories", "2-1 straight down"), which gives the side that many of each
(a-count-for-every-item, a-count-across-the-board). :func:`mark_larger_shares` finds the lists
of "more X for me, more Y for you", where "more" is the larger share of each item
(more-for-each-side). :func:`~actparse.corpora.splits.mentions.find_mentions` makes the
mentions of them; nothing here knows a corpus.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

from actparse.corpora.splits.lexicon import SplitLexicon
from actparse.corpora.splits.words import OTHER, SELF, person

__all__ = ["Phrase", "each_of", "halve_open_items", "mark_larger_shares", "whole_item_phrases"]

#: Words between a count and the word of every item it counts ("2 packages extra for
#: each item"): fillers and vague words, at most this many.
_GAP = 3


class Phrase(NamedTuple):
    """A phrase about every item: tokens ``start..end``, its kind and number."""

    start: int
    end: int
    #: ``half`` (every item halved) or ``each-item`` (``number`` of every item).
    kind: str
    number: int | None = None
    #: A count for every item is the writer's unless a person says otherwise ("2 for all
    #: 3 categories" after the partner's talk); halves need no side.
    side: int | None = None
    why: str = ""

    @property
    def span(self) -> range:
        """The tokens of the phrase."""
        return range(self.start, self.end + 1)


def whole_item_phrases(
    tokens: Sequence[str], classes: Sequence[frozenset[str]], lexicon: SplitLexicon
) -> list[Phrase]:
    """The phrases of a message that give every item the same quantity, left to right."""
    found: list[Phrase] = []
    taken = -1
    for i, word in enumerate(classes[: len(tokens)]):
        if i <= taken:
            continue
        phrase = None
        if "halving_verb" in word or "even" in word:
            phrase = _even_split(tokens, classes, i)
        elif lexicon.number(tokens[i]) is not None and "article" not in word:
            phrase = _count_for_every_item(tokens, classes, i, lexicon)
        if phrase is not None:
            found.append(phrase)
            taken = phrase.end
    return found


def _even_split(tokens: Sequence[str], classes: Sequence[frozenset[str]], i: int) -> Phrase | None:
    """An even split of every item at ``i``, if it is one.

    A verb of halving whose object is every item ("split everything", "split all of the objects")
    or, with a word of an even split after it, "it", "the items" or nothing ("split it down the
    middle", "divide the items evenly", "split evenly"); "half-half", "50/50" on their own. Not a
    noun ("the split", "an even split"), nor "split them", "50/50 on the water" (some items)."""
    n = len(tokens)
    word = classes[i]
    nxt = classes[i + 1] if i + 1 < n else frozenset()
    if "halving_verb" not in word:
        # "make it half-half", "let's go 50/50": not before the item it halves ("50/50 on
        # the water"), nor of points ("a 50/50 split", "50/50 is what i'm going for").
        led = i > 0 and "even_lead" in classes[i - 1] and "even" in word and "half" not in word
        alone = led and "benefit" not in nxt and (i + 1 >= n or tokens[i + 1] not in ("on", "of"))
        return Phrase(i, i, "half") if alone else None
    if i > 0 and ("determiner" in classes[i - 1] or "article" in classes[i - 1]):
        return None  # "the split", "a split": a noun
    j = i + 1
    if j < n and tokens[j] == "up":
        j += 1  # "split up everything"
    if j < n and "everything" in classes[j]:
        return Phrase(i, j, "half")
    end = _every_item_object(tokens, classes, j)
    if end is not None:
        return Phrase(i, end, "half")
    if j < n and tokens[j] == "it":
        j += 1
    elif j + 1 < n and "determiner" in classes[j] and "generic" in classes[j + 1]:
        j += 2  # "divide the items evenly"
    if j < n and tokens[j] == "up":
        j += 1  # "split it up evenly"
    if j < n and "even" in classes[j]:
        return Phrase(i, j, "half")
    return None


def _every_item_object(
    tokens: Sequence[str], classes: Sequence[frozenset[str]], j: int
) -> int | None:
    """The last token of "all (of) (the) items" at ``j``, if one stands there.

    "All" alone, before a boundary, is every item too ("split all ."); "all the hats" is not."""
    n = len(tokens)
    k = j
    saw_all = k < n and "all" in classes[k] and tokens[k] != "both"
    if saw_all:
        k += 1
    if k < n and tokens[k] == "of":
        k += 1
    if not saw_all:
        return None  # "split the items", "divide items" may be talk about deals
    if k + 1 < n and ("determiner" in classes[k] or "generic" in classes[k + 1]):
        k += 1  # "all the items", "all of hte objects"
    if k < n and "generic" in classes[k]:
        return k
    if k == j + 1 and (k >= n or "boundary" in classes[k]):
        return j
    return None


def _count_for_every_item(
    tokens: Sequence[str], classes: Sequence[frozenset[str]], i: int, lexicon: SplitLexicon
) -> Phrase | None:
    """A count at ``i`` of every item, if it is one.

    a-count-for-every-item: "2 for all 3 categories", "2 packages extra for each item", "2 for
    everything"; a-count-across-the-board: "2 across the board", "2-1 straight down" (the first
    count is the side's; the other side gets the rest)."""
    n = len(tokens)
    count = lexicon.number(tokens[i])
    j = i + 1
    if j + 1 < n and tokens[j] in ("-", "/", "to") and tokens[j + 1].isdecimal():
        j += 2  # "2-1": the second count is the other side's, the remainder
    if j < n and "every_item" in classes[j]:
        return _every_item_count(i, j, count)
    k = i + 1
    while k < n and k <= i + _GAP and ("filler" in classes[k] or "vague" in classes[k]):
        k += 1
    if k + 1 >= n or tokens[k] not in ("for", "on", "in"):
        return None
    k += 1
    if "everything" in classes[k]:
        return _every_item_count(i, k, count)
    if not ("all" in classes[k] or "each" in classes[k]) or tokens[k] == "both":
        return None
    k += 1
    if k < n and lexicon.number(tokens[k]) is not None:
        k += 1  # "for all 3 categories"
    if k < n and "generic" in classes[k]:
        return _every_item_count(i, k, count)
    return None


def _every_item_count(start: int, end: int, count: int | None) -> Phrase:
    """``count`` of every item, for the writer (a person before it may say otherwise)."""
    return Phrase(start, end, "each-item", count, SELF, "count-for-every-item")


def each_of(tokens: Sequence[str], start: int, lexicon: SplitLexicon) -> bool:
    """The count at ``start`` is "n each of" a list: it counts every item of the list.

    n-each-of-the-list: "one each of firewood and food" is one of each."""
    return start + 1 < len(tokens) and lexicon.has("each", tokens[start + 1])


class _ItemMention(Protocol):
    """What :func:`mark_larger_shares` reads and sets of a mention (:class:`.mentions.Mention`)."""

    start: int
    end: int
    item: int | None
    kind: str
    explicit: bool


def mark_larger_shares(
    tokens: Sequence[str], mentions: Sequence[_ItemMention], lexicon: SplitLexicon
) -> None:
    """Make the items of "more X for me, more Y for you" each side's larger share.

    more-for-each-side: each side gets more than half of the items in the list after its "more"
    (3 of each: 2; the kind ``majority``). Only when "more ... for <person>" names both sides:
    "more food for me" alone is a wish, not a share. ``mentions`` are a message's, in order."""
    n = len(tokens)
    conjunction = lexicon.words["conjunction"]
    lists: list[list[_ItemMention]] = []
    for m in mentions:
        if m.kind != "bare" or m.item is None:
            continue
        if lists and conjunction.issuperset(tokens[lists[-1][-1].end + 1 : m.start]):
            lists[-1].append(m)
        else:
            lists.append([m])
    sides: dict[int, int] = {}
    for number, members in enumerate(lists):
        start, end = members[0].start, members[-1].end
        if tokens[start] != "more" or end + 2 >= n or not lexicon.has("benefit", tokens[end + 1]):
            continue
        side = person(tokens[end + 2], lexicon, subject=False)
        if side is not None:
            sides[number] = side
    if set(sides.values()) != {SELF, OTHER}:
        return
    for number in sides:
        for m in lists[number]:
            m.kind, m.explicit = "majority", True


def halve_open_items(
    counts: list[list[int | None]], totals: Sequence[int], mentions: Sequence[_ItemMention]
) -> None:
    """Halve every item the message has not placed, if it splits everything evenly.

    even-split-halves-every-item: "split everything" gives each side half of each item ``counts``
    (the writer's and the reader's) leave open, whatever the side of the phrase. An odd count cannot
    be halved: unless the message places every such item itself ("split all of the items, you can
    have the hat"), the even split says nothing (its-odd-items-must-be-placed)."""
    if not any(m.kind == "half" and m.item is None for m in mentions):
        return
    open_items = [k for k in range(len(totals)) if counts[0][k] is None and counts[1][k] is None]
    if any(totals[k] % 2 for k in open_items):
        return
    for k in open_items:
        counts[0][k] = counts[1][k] = totals[k] // 2
