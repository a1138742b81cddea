"""Step 4: what a message claims, and the split it proposes.

:func:`resolve_claims` turns the mentions with their sides into writer-relative counts:
each side's share of every item, with the remainder of a named share going to the other
side, "the rest" filling what is left, and halves and "each" giving both sides the same.
:func:`parse_split` runs steps 1-4 on one message (:class:`SplitParse`);
:func:`~actparse.corpora.splits.completion.complete_split` turns its claims into a split.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from actparse.corpora.splits.bare_counts import count_the_item_named_next
from actparse.corpora.splits.clauses import granted_sides
from actparse.corpora.splits.extras import place_extras
from actparse.corpora.splits.lexicon import SplitLexicon
from actparse.corpora.splits.mentions import EITHER, OTHER, SELF, Mention, find_mentions
from actparse.corpora.splits.sides import assign_sides
from actparse.corpora.splits.stated import stated_mentions
from actparse.corpora.splits.tokens import tokenize
from actparse.corpora.splits.uniform import halve_open_items

__all__ = ["Claims", "SplitParse", "parse_split", "resolve_claims"]


@dataclass
class Claims:
    """What a message says each side gets, relative to its writer.

    ``counts[side][item]`` is ``None`` when the message does not say; ``rest`` is the
    side that gets whatever is left.
    """

    counts: list[list[int | None]]
    rest: int | None = None
    named_sides: set[int] = field(default_factory=set)
    #: (side, item) whose count adds to the deal on the table.
    relative: set[tuple[int, int]] = field(default_factory=set)
    #: (side, item) named by a singular noun with no count ("the hat").
    singular: set[tuple[int, int]] = field(default_factory=set)
    #: (side, item) of which the side gets one more than the table gave it (a swap).
    moved: set[tuple[int, int]] = field(default_factory=set)

    def empty(self) -> bool:
        """The message gives nothing to anybody."""
        return self.rest is None and all(c is None for side in self.counts for c in side)


def resolve_claims(mentions: Sequence[Mention], totals: Sequence[int]) -> Claims:
    """The counts the mentions give each side; a later claim on an item wins."""
    n = len(totals)
    claims = Claims(counts=[[None] * n, [None] * n])
    rest_items: list[tuple[int, int]] = []
    # (side, item) counted by a written number ("one book", "1 of each"), not an article.
    written: set[tuple[int, int]] = set()
    for m in mentions:
        if m.kind == "half" and m.item is not None:
            _claim_half(claims, m.item, totals)
            continue
        if m.side is None:
            continue
        # "1 less food" for one side is 1 more for the other.
        side = m.side ^ 1 if m.fewer else m.side
        if m.negated and (m.explicit or m.kind in ("every", "rest")):
            # "you can't have all the balls", "i don't need 3 food" do not say how many
            # ("i don't need the books" does: the reader gets them).
            continue
        if _claim_every_item(claims, m, side, totals, written):
            continue
        if m.item is None:
            continue
        if m.kind == "rest-item":
            rest_items.append((side, m.item))
            claims.named_sides.add(side)
            continue
        count = _item_count(claims, m, side, m.item, totals[m.item], written)
        if count is not None:
            _record_count(claims, m, side, m.item, count, totals[m.item], written)
    _fill_rest_items(claims, rest_items, totals)
    claims.named_sides = granted_sides(mentions, claims.named_sides)
    halve_open_items(claims.counts, totals, mentions)  # "split everything" (uniform.py)
    return claims


def _claim_half(claims: Claims, item: int, totals: Sequence[int]) -> None:
    """Half of the item to each side, whatever the mention's side; an odd count says nothing."""
    if totals[item] % 2 == 0:
        claims.counts[SELF][item] = claims.counts[OTHER][item] = totals[item] // 2


def _claim_every_item(
    claims: Claims,
    m: Mention,
    side: int,
    totals: Sequence[int],
    written: set[tuple[int, int]],
) -> bool:
    """A mention of every item: "the rest", "everything" or "one of each".

    "The rest" is the side's remainder; "everything" gives the side all of each item; "one of each"
    fills what the message has not given the side already (and the other side too, "we both get one
    of everything", when the two counts make the total). Whether ``m`` was one."""
    n = len(totals)
    if m.kind == "rest":
        claims.rest = side
        claims.named_sides.add(side)
        return True
    if m.kind == "every":
        for item in range(n):
            claims.counts[side][item] = totals[item]
            claims.counts[side ^ 1][item] = None
        claims.named_sides.add(side)
        return True
    if m.kind == "each-item":
        # "one of each" fills what the message has not given this side already.
        each = m.count or 0
        for item in range(n):
            if m.both and 2 * each != totals[item]:
                continue  # "we both get one of everything": at least one, no more said
            if claims.counts[side][item] is None:
                claims.counts[side][item] = min(each, totals[item])
                written.add((side, item))
            if m.both and claims.counts[side ^ 1][item] is None:
                claims.counts[side ^ 1][item] = each
        claims.named_sides.add(side)
        return True
    return False


def _item_count(
    claims: Claims, m: Mention, side: int, item: int, total: int, written: set[tuple[int, int]]
) -> int | None:
    """The count a mention of one item claims.

    "All" is the total, or what a written count for the other side leaves; "the majority" more than
    half; a count no more than the total (an implied one over it is not a count). ``None``: no
    count."""
    count: int
    if m.kind == "all":
        if not m.explicit and (side, item) in written:
            # a-written-count-outranks-the-article: "i'd get 2 firewood and 1 water, as
            # long as i get the firewood" keeps the two the message counted.
            return None
        count = total
        given = claims.counts[side ^ 1][item]
        if (
            not m.explicit
            and given is not None
            and 0 < given < total
            and (side ^ 1, item) in written
        ):
            # the-after-a-count-is-the-rest: "you can have one book and the balls and
            # i take the book and the hat", "if i can have one of each you can have
            # the hat and balls": what the written count leaves.
            count = total - given
    elif m.kind == "majority":
        # "the majority of the water": more than half.
        count = total // 2 + 1
    elif m.kind == "count" and m.count is not None:
        if m.implied and m.count > total:
            # "someone gets 5 and someone gets 4": not a count of the item.
            return None
        count = min(m.count, total)
    else:
        return None
    return count


def _record_count(
    claims: Claims,
    m: Mention,
    side: int,
    item: int,
    count: int,
    total: int,
    written: set[tuple[int, int]],
) -> None:
    """The side gets ``count`` of the item, noted as written, relative or singular.

    Both sides get it when the two make the total ("we each get a water" of three says no more
    than "at least one"); a later claim wins over an earlier one it contradicts."""
    claims.counts[side][item] = count
    claims.named_sides.add(side)
    if m.kind == "count" and m.explicit and not m.article:
        written.add((side, item))
    else:
        written.discard((side, item))
    for marks, marked in (
        (claims.relative, m.relative),
        # A side denied "the ball" gets none of it (a-denied-item-is-all-of-it).
        (claims.singular, m.singular and not m.negated),
        (claims.moved, m.moved),
    ):
        (marks.add if marked else marks.discard)((side, item))
    other = claims.counts[side ^ 1][item]
    if m.both:
        if 2 * count == total:
            claims.counts[side ^ 1][item] = count
        else:
            # "we each get a water" of three says no more than "at least one".
            claims.counts[side][item] = None
    elif other is not None and other + count != total:
        # The later claim wins over an earlier one it contradicts.
        claims.counts[side ^ 1][item] = None


def _fill_rest_items(
    claims: Claims, rest_items: list[tuple[int, int]], totals: Sequence[int]
) -> None:
    """Give the other side what remains of an item for "the rest of" it.

    "The rest of the water": what the other side does not get of the item, all of it
    if the message gave the other side none."""
    for side, item in rest_items:
        if claims.counts[side][item] is None:
            taken = claims.counts[side ^ 1][item]
            claims.counts[side][item] = totals[item] - taken if taken is not None else totals[item]


@dataclass(frozen=True)
class SplitParse:
    """Everything the parser found in one message, for the act and its explanation."""

    tokens: tuple[str, ...]
    mentions: tuple[Mention, ...]
    claims: Claims
    #: The message adds to the deal on the table ("throw in a ball", "the hat too").
    increment: bool = False
    #: The message points back at a first offer ("your original offer"): whose,
    #: ``SELF``/``OTHER`` relative to the writer or :data:`EITHER`.
    refers_back: int | None = None
    #: The message gives each side one of every item ("we each take one of each").
    one_each: bool = False
    #: The positions in ``mentions`` of items named only as a need, a liking or a
    #: holding ("i really need the water"; :mod:`~actparse.corpora.splits.stated`).
    stated: tuple[int, ...] = ()

    @property
    def has_claim(self) -> bool:
        """The message gives some item to some side."""
        return not self.claims.empty()

    @property
    def elliptic(self) -> bool:
        """The sides came from the default, not from the words."""
        return any(m.why == "elliptic" for m in self.mentions)

    def last_item(self) -> int | None:
        """The item named last (the context for the next message's bare numbers)."""
        return next((m.item for m in reversed(self.mentions) if m.item is not None), None)

    def names_one_side(self) -> bool:
        """The message gives named items to one side only, not to both.

        One side: "i'd like the hats", "if i get the ball you can have the rest". Both: "i get 3
        food, you get 3 water"."""
        sides = {
            m.side
            for m in self.mentions
            if m.side is not None and m.item is not None and m.kind not in ("bare", "rest-item")
        }
        return len(sides) == 1

    def completion(self, unnamed: str, n_items: int, totals: Sequence[int] = ()) -> str:
        """How to fill the items this message leaves unnamed, given the corpus default.

        "Throw in a ball", "the ball too" and a part of an item for one side ("can i have one
        book?", :meth:`adjusts_counts`) keep the rest of the deal on the table (``running``), except
        that a share counted item by item for one side ("how about I get 3 food and 2 firewood?")
        leaves what it omits to the other side (``opposite``; if the table keeps it, a majority),
        unless the message trades one item for another ("could i trade you a firewood for food, so
        you get 3 food and 1 firewood?")."""
        kept = totals if unnamed == "running" else ()
        if self.increment or self.adjusts_counts(totals):
            unnamed = "running"
        if any(m.why.startswith("exchange") for m in self.mentions):
            # an-exchange-keeps-the-table: a trade moves counts of the table, so what the
            # message leaves unnamed stays put however much of one side it counts.
            return unnamed
        if unnamed == "running" and self.spells_out_one_side(n_items, kept):
            return "opposite"
        return unnamed

    def adjusts_counts(self, totals: Sequence[int]) -> bool:
        """The message gives one side part of an item and says nothing else.

        For example "can i have one book?", "1 ball then", "i would need 3 books" of four: it moves
        a count of the deal on the table, whose other items stay where they are."""
        if not totals or len(self.claims.named_sides) != 1 or self.claims.rest is not None:
            return False
        (side,) = self.claims.named_sides
        named = [(k, c) for k, c in enumerate(self.claims.counts[side]) if c is not None]
        # An item given whole ("i want the hats") or not at all leaves the rest to the
        # other side, as the corpus says; a part of an item adjusts a count.
        return bool(named) and all(0 < c < totals[k] for k, c in named)

    def spells_out_one_side(self, n_items: int, totals: Sequence[int] = ()) -> bool:
        """The message counts all but one item for one side.

        For example "how about I get 3 food and 2 firewood?": the item it leaves out is the other
        side's. With ``totals``, only a share of more than half of what it counts (5 of 6 there):
        "ok so I keep 2 food 1 water" (3 of 6) moves counts (a-minority-share-keeps-the-table)."""
        if len(self.claims.named_sides) != 1 or self.claims.rest is not None:
            return False
        (side,) = self.claims.named_sides
        # A reason restates the deal, not the share; a written "all" counts (written-all-counts).
        counted = {
            m.item
            for m in self.mentions
            if m.side == side and (m.kind == "count" or (m.kind == "all" and m.explicit))
            if m.item is not None and not m.reason
        }
        surplus = sum(2 * c - t for c, t in zip(self.claims.counts[side], totals) if c is not None)
        return len(counted) >= n_items - 1 >= 2 and (not totals or surplus > 0)

    def first_side(self) -> int | None:
        """The side of the first mention with one (what the message is about)."""
        return next((m.side for m in self.mentions if m.side is not None), None)

    @property
    def names_items(self) -> bool:
        """The message names an item at all (a claim or a preference)."""
        return any(m.item is not None for m in self.mentions)


def parse_split(
    text: str,
    lexicon: SplitLexicon,
    totals: Sequence[int],
    tokens: Sequence[str] | None = None,
    default_side: int = SELF,
    context_item: int | None = None,
    one_each: bool = False,
) -> SplitParse:
    """Steps 1-4 on one message: its tokens, mentions with sides, and claims.

    ``default_side`` is the side an item list with no person in it is about;
    ``context_item`` the item talked about last (for numbers with no noun); ``one_each``:
    an earlier message gave each side one of every item.
    """
    toks = tuple(tokens) if tokens is not None else tokenize(text, lexicon)
    mentions = find_mentions(toks, lexicon, context_item)
    assign_sides(toks, mentions, lexicon, default_side)
    count_the_item_named_next(mentions, totals)  # "give you 2 and i take 1 food"
    claims = resolve_claims(mentions, totals)
    # extras-after-one-each: "we each take one of each, then you take the extra food".
    sides, base = place_extras(toks, mentions, claims.counts, totals, lexicon, one_each)
    claims.named_sides |= sides
    increment = not lexicon.words["increment"].isdisjoint(toks) or _continues(toks, lexicon)
    back = _refers_back(toks, lexicon)
    stated = stated_mentions(toks, mentions, lexicon)
    return SplitParse(toks, tuple(mentions), claims, increment, back, base, stated)


def _continues(tokens: Sequence[str], lexicon: SplitLexicon) -> bool:
    """The message opens with "and", continuing the deal on the table.

    An interjection may come first ("and the hat ?", "ok and i get the books ?"); such a message
    continues the deal on the table rather than replacing it."""
    for tok in tokens:
        if lexicon.has("interjection", tok) or tok == ",":
            continue
        return tok == "and"
    return False


def _refers_back(tokens: Sequence[str], lexicon: SplitLexicon) -> int | None:
    """Whose first offer a reference back to "your original offer" points at.

    Whose first offer "your original offer", "my initial deal", "the first
    arrangement" points at: ``SELF``/``OTHER``, :data:`EITHER` when it does not say,
    ``None`` when the message points at none."""
    if lexicon.words["deal_noun"].isdisjoint(tokens):
        return None  # most messages: spare the scan
    for i in range(1, len(tokens)):
        if not lexicon.has("deal_noun", tokens[i]) or not lexicon.has("original", tokens[i - 1]):
            continue
        owner = tokens[i - 2] if i > 1 else ""
        if lexicon.has("my", owner):
            return SELF
        if lexicon.has("your", owner):
            return OTHER
        return EITHER
    return None
