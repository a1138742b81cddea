"""Step 2: the item phrases of a message, each with its quantity.

:func:`find_mentions` finds item nouns with the quantity written before them ("two of the
hats", "all 3 waters", "the book", "a lot of water"), "the rest", "everything", "one of
each", and numbers standing for the item talked about last ("you can have 2"). Which
side each mention is on is step 3 (:mod:`actparse.corpora.splits.sides`); the helpers
here that tell a written count (:func:`counted`) and whether two mentions form one list
(:func:`conjoined`) serve both steps, and so does :func:`person` (the side a pronoun
names), from :mod:`actparse.corpora.splits.words` (it is named here too).
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from actparse.corpora.splits.lexicon import SplitLexicon
from actparse.corpora.splits.quantities import (
    counts_some_of_the_rest,
    implied_quantity,
    look_back,
    written_quantity,
)
from actparse.corpora.splits.tokens import EXCHANGE_FOR
from actparse.corpora.splits.uniform import each_of, mark_larger_shares, whole_item_phrases
from actparse.corpora.splits.words import (
    EITHER,
    OTHER,
    SELF,
    message_classes,
    per_lexicon,
    person,
)

__all__ = [
    "EITHER",
    "OTHER",
    "SELF",
    "Mention",
    "Quantity",
    "conjoined",
    "counted",
    "find_mentions",
    "person",
]

_SIDE_NAMES = {SELF: "self", OTHER: "other"}
#: The word classes :func:`find_mentions` acts on in its second pass besides numbers and
#: item words ("the rest", "everything", "one of each").
_SECOND_PASS = frozenset({"rest", "everything", "each"})


class _PassWords(NamedTuple):
    """The words each pass of :func:`find_mentions` acts on.

    A token outside them is only ever read as a neighbour."""

    #: Where the first pass starts a mention: item words and nouns like "items".
    nouns: frozenset[str]
    #: Besides digits, what the second pass acts on: item words (for the item talked
    #: about last), number words, and the words of :data:`_SECOND_PASS`.
    second: frozenset[str]


def _pass_words(lexicon: SplitLexicon) -> _PassWords:
    items = frozenset(lexicon.item_words)
    acting = (word for word, found in lexicon.classes.items() if not _SECOND_PASS.isdisjoint(found))
    return _PassWords(
        items | lexicon.words["generic"], items | frozenset(lexicon.numbers) | frozenset(acting)
    )


@dataclass
class Mention:
    """An item phrase: its tokens, its item, the kind of quantity and the count.

    An item phrase: tokens ``start..end`` (inclusive), which item (``None`` for phrases
    about every item), the kind of quantity and the count.

    Kinds: ``count`` (n of the item), ``all`` (every one), ``majority`` (more than half),
    ``rest-item`` (what the other side leaves of the item), ``half`` (half to each side),
    ``bare`` (the item named with no quantity), ``rest`` (every item's remainder),
    ``every`` (every item) and ``each-item`` (n of every item).
    """

    start: int
    end: int
    item: int | None
    kind: str
    count: int | None = None
    #: The quantity was written (a number, "all", "half"), not implied by "the" or nothing.
    explicit: bool = False
    #: ``SELF``/``OTHER`` once assigned; ``None`` while nobody's.
    side: int | None = None
    #: Both sides get the count ("one ball each").
    both: bool = False
    #: The clause denies the claim ("you can't have all the balls").
    negated: bool = False
    #: The count adds to the deal on the table ("1 more food", "another water").
    relative: bool = False
    #: The count takes away from the side's share of the table ("1 less food"): it is
    #: as many more for the other side (one-less-is-one-more-for-the-other).
    fewer: bool = False
    #: The item is implied by the talk, not named ("you can have 2").
    implied: bool = False
    #: Why the side was chosen (``subject``, ``recipient``, ``benefit-after``, ...).
    why: str = ""
    #: The mention is in a clause of reason ("since i only get 1 food"): it restates
    #: the deal rather than spelling it out.
    reason: bool = False
    #: "The hat" of several hats: a singular noun with no count, which names every one
    #: unless the deal on the table gives the side part of them.
    singular: bool = False
    #: The count is an article ("a hat"), not a written number ("one hat", "2 hats").
    article: bool = False
    #: One item moved by a swap ("swap the hat for a ball"): against the deal on the
    #: table, the side gets one more of it than it had.
    moved: bool = False

    def describe(self, items: Sequence[str]) -> str:
        """A short trace such as ``count2:hat->other(subject)``."""
        what = items[self.item] if self.item is not None else "*"
        count = "" if self.count is None else str(self.count)
        side = _SIDE_NAMES.get(self.side, "?") if self.side is not None else "?"
        return f"{self.kind}{count}:{what}->{side}({self.why})"


#: A mention's first token (the order of a message's mentions).
_start = operator.attrgetter("start")


class Quantity(NamedTuple):
    """The quantity written before an item noun."""

    #: The first token of the phrase.
    start: int
    #: The kind of mention (see :class:`Mention`).
    kind: str
    number: int | None
    #: Written as a number, "all" or "half", not implied by "the" or nothing.
    explicit: bool
    #: A word of addition stands before the noun ("1 more food").
    relative: bool = False
    #: A word of subtraction stands before the noun ("1 less food").
    fewer: bool = False


def _quantity(
    tokens: Sequence[str], classes: Sequence[frozenset[str]], noun: int, lexicon: SplitLexicon
) -> Quantity:
    """Look back from an item noun (or a noun like "items") for its quantity.

    ``classes`` are the word classes of ``tokens``. The steps are in
    :mod:`actparse.corpora.splits.quantities`."""
    back = look_back(tokens, classes, noun)
    plural = _plural(tokens[noun])
    found = None
    if back.j >= 0:
        found = written_quantity(tokens, classes, noun, back, lexicon, plural)
    if found is None:
        found = implied_quantity(classes, noun, back, lexicon, plural)
    return Quantity(*found, back.relative, back.fewer)


def conjoined(
    tokens: Sequence[str], before: Mention, after: Mention, lexicon: SplitLexicon
) -> bool:
    """Two mentions in one list ("the balls and hats", "a hat, a ball")."""
    gap = tokens[before.end + 1 : after.start]
    return lexicon.words["conjunction"].issuperset(gap)


@dataclass(slots=True)
class _Found:
    """The mentions of a message found so far, and the tokens inside them."""

    mentions: list[Mention]
    #: Tokens inside a mention: the second pass does not read them again.
    consumed: set[int]
    #: An "everything" that may be the complement of named items.
    saw_every: bool = False


def find_mentions(
    tokens: Sequence[str], lexicon: SplitLexicon, context_item: int | None = None
) -> list[Mention]:
    """Every item phrase of a message, left to right.

    ``context_item`` is the item the dialogue talked about last: a number with no noun
    ("i can take 1 and you 2") counts it when the message names no item before.
    """
    found = _Found([], set())
    mentions, consumed = found.mentions, found.consumed
    classes = message_classes(tokens, lexicon)
    item_words = lexicon.item_words
    # First pass: item nouns and nouns like "items", found in one sweep (most tokens are
    # neither).
    pass_words = per_lexicon(lexicon, _pass_words)
    for i in [i for i, tok in enumerate(tokens) if tok in pass_words.nouns]:
        mention = _noun_mention(tokens, classes, i, lexicon)
        if mention is not None:
            mentions.append(mention)
            consumed.update(range(mention.start, mention.end + 1))
    for p in whole_item_phrases(tokens, classes, lexicon):  # "split everything" (uniform.py)
        if consumed.isdisjoint(p.span):
            mentions.append(Mention(*p[:2], None, *p[2:4], True, p.side, why=p.why))
            consumed.update(p.span)
    # Second pass: the tokens it can act on (item words, for the item talked about last;
    # numbers; "the rest", "everything", "each"), again found in one sweep.
    second_pass_words = pass_words.second
    last_item = context_item
    for i in [i for i, tok in enumerate(tokens) if tok in second_pass_words or tok.isdecimal()]:
        tok = tokens[i]
        if i in consumed:
            item = item_words.get(tok)
            if item is not None:
                last_item = item
            continue
        if not _whole_mention(found, tokens, classes, i, lexicon):
            _implied_mention(found, tokens, i, lexicon, last_item)
    mentions.sort(key=_start)
    mark_larger_shares(tokens, mentions, lexicon)  # "more food for me, more water for you"
    # "everything" next to named items is their complement ("you get everything").
    if found.saw_every and any(m.item is not None for m in mentions):
        for m in mentions:
            if m.kind == "every":
                m.kind = "rest"
    _spread_quantities(tokens, mentions, lexicon)
    return mentions


def _noun_mention(
    tokens: Sequence[str], classes: Sequence[frozenset[str]], i: int, lexicon: SplitLexicon
) -> Mention | None:
    """The mention an item noun at ``i`` heads, with its quantity, if any.

    Not if it is a weak word with no number, or the first noun of a compound ("water bottles"); a
    noun like "items" heads one only as "all the other items"."""
    tok = tokens[i]
    item = lexicon.item_words.get(tok)
    if item is None:
        start, kind, *_ = _quantity(tokens, classes, i, lexicon)
        if kind == "rest-item" and counts_some_of_the_rest(tokens, classes, start, lexicon):
            # a-counted-other-item-is-not-the-rest: "only 1 other item", "two other
            # things" is that many of the items left, which ones unsaid: not all of them.
            return None
        if kind == "rest-item" and not any(
            "vague" in word for word in classes[max(start - 2, 0) : i]
        ):
            # "all 4 other items"
            return Mention(start, i, None, "rest", explicit=True)
        return None
    start, kind, count, explicit, relative, fewer = _quantity(tokens, classes, i, lexicon)
    if tok in lexicon.weak_words and (
        lexicon.number(tokens[start]) is None or "article" in classes[start]
    ):
        return None
    following = classes[i + 1]  # the word classes of the token after the noun
    end = i
    if "unit" in following and kind == "count" and start == i - 1:
        # "2 firewood packages", "1 water bottle": the unit belongs to the mention.
        end = i + 1
    elif "compound_head" in following:
        # "water bottles", "food supply": another noun, not the item.
        return None
    if kind in ("bare", "all") and not explicit:
        after = _count_after(tokens, i, lexicon)
        if after is not None:
            # "water: 2", "food - 1"
            kind, count, explicit = "count", after, True
    if "comparative" in following and not explicit:
        # "you need the water more": a preference, not a claim.
        kind, count = "bare", None
    mention = Mention(start, end, item, kind, count, explicit)
    # Only count nouns: where items are mass nouns ("the water") "the" is all of it.
    mention.singular = (
        lexicon.bare_noun == "count" and kind == "all" and not explicit and not _plural(tok)
    )
    mention.article = "article" in classes[start]
    # "1 more food", "another water": added to what the side had.
    mention.relative = kind == "count" and (relative or fewer or "relative" in classes[start])
    mention.fewer = kind == "count" and fewer
    return mention


def _whole_mention(
    found: _Found,
    tokens: Sequence[str],
    classes: Sequence[frozenset[str]],
    i: int,
    lexicon: SplitLexicon,
) -> bool:
    """A phrase about every item at ``i``.

    "The rest" (not "the rest of the trip"), "everything" ("1 pack of everything" is n of each),
    "one of each". Whether the word was one of these, found or not."""
    word = classes[i]
    if "rest" in word and "rest_alone" in word:
        if not _rest_of_something_else(tokens, i, lexicon):
            found.mentions.append(Mention(i, i, None, "rest", explicit=True))
    elif "everything" in word:
        start, kind, count, *_ = _quantity(tokens, classes, i, lexicon)
        if kind == "count" and count is not None and start < i:
            # "1 pack of everything": n of every item.
            found.mentions.append(Mention(start, i, None, "each-item", count, True))
        else:
            found.mentions.append(Mention(i, i, None, "every", explicit=True))
            found.saw_every = True
    elif "each" in word and i > 0:
        j = i - 1
        if tokens[j] == "of" and j > 0:
            j -= 1
            while j > 0 and "filler" in classes[j]:
                j -= 1  # "two thirds of each", "1 pack of each"
            value = lexicon.number(tokens[j])
            if value is not None and j not in found.consumed:
                # "one of each": n of every item.
                found.mentions.append(Mention(j, i, None, "each-item", value, True))
                found.consumed.update(range(j, i + 1))
    else:
        return False
    return True


def _implied_mention(
    found: _Found, tokens: Sequence[str], i: int, lexicon: SplitLexicon, last_item: int | None
) -> None:
    """A number at ``i`` with no noun counts the item talked about last.

    For example "2 of those", "2 packages", or after a verb of having, its recipient or "with",
    before a boundary, a person, "each" or "for" ("you can have 2", "2 water for me, 1 for you")."""
    tok = tokens[i]
    n = len(tokens)
    # A number that may stand for the item talked about last (asked by three rules).
    bare_number = (
        last_item is not None
        and (tok.isdecimal() or tok in lexicon.numbers)
        and _standalone_number(tok, lexicon)
    )
    nxt = tokens[i + 1] if i + 1 < n else "."
    if bare_number and nxt == "of" and i + 2 < n and lexicon.has("anaphor", tokens[i + 2]):
        # "i am ok with you getting 2 of those": the item talked about last.
        mention = Mention(i, i + 2, last_item, "count", lexicon.number(tok), True)
        mention.implied = True
        found.mentions.append(mention)
        found.consumed.update(range(i, i + 3))
    elif bare_number and lexicon.has("unit", nxt) and (i + 2 >= n or tokens[i + 2] != "of"):
        # "i can do with 2 packages": units of the item talked about last.
        mention = Mention(i, i + 1, last_item, "count", lexicon.number(tok), True)
        mention.implied = True
        found.mentions.append(mention)
        found.consumed.update((i, i + 1))
    elif (
        bare_number
        and i > 0
        and (
            (
                _takes_a_count(tokens, i, lexicon)
                and (
                    lexicon.has("boundary", nxt)
                    or lexicon.has("each", nxt)
                    or lexicon.has("clause_start", nxt)
                    or person(nxt, lexicon, subject=True) is not None
                    or nxt in ("for", EXCHANGE_FOR)
                )
            )
            # "2 water for me, 1 for you"
            or (lexicon.has("benefit", nxt) and _is_pronoun(tokens, i + 2, lexicon))
        )
    ):
        # "can i have 1 book and you can have 2?": a number with no noun counts the
        # item named last in the sentence.
        mention = Mention(i, i, last_item, "count", lexicon.number(tok), True)
        mention.implied = True
        found.mentions.append(mention)
        found.consumed.add(i)


def _plural(token: str) -> bool:
    """A plural noun ("hats", not "hat" or "glass")."""
    return token.endswith("s") and not token.endswith("ss")


def _count_after(tokens: Sequence[str], noun: int, lexicon: SplitLexicon) -> int | None:
    """A count written after its item ("water: 2", "food - 1", "firewood x2")."""
    if noun + 2 < len(tokens) and tokens[noun + 1] in (":", "-", "=", "x"):
        value = lexicon.number(tokens[noun + 2])
        if tokens[noun + 2].isdecimal() and value is not None:
            return value
    return None


def _takes_a_count(tokens: Sequence[str], i: int, lexicon: SplitLexicon) -> bool:
    """A bare number at ``i`` takes a count of the item talked about.

    It does when it follows a verb of having or giving ("you can have 2", "like all three"), its
    recipient ("give you two"), a pronoun heading a list ("me 1") or "with" ("fine with one")."""
    j = i - 1
    if lexicon.has("all", tokens[j]) and j > 0:
        j -= 1  # "would you like all three?"
    prev = tokens[j]
    if lexicon.has("possess", prev) or lexicon.has("give", prev) or prev == "with":
        return True
    if person(prev, lexicon, subject=False) is None:
        return False
    # "give you two"; "you get 2, me 1"
    return j == 0 or lexicon.has("give", tokens[j - 1]) or lexicon.has("boundary", tokens[j - 1])


def _rest_of_something_else(tokens: Sequence[str], i: int, lexicon: SplitLexicon) -> bool:
    """Not the rest of the items: "the rest of the deal", "the rest of the trip"."""
    if i + 1 >= len(tokens) or tokens[i + 1] != "of":
        return False
    for tok in tokens[i + 2 : i + 5]:
        if tok in lexicon.item_words or lexicon.has("generic", tok):
            return False
        if not lexicon.has("determiner", tok):
            return True
    return True


def _is_pronoun(tokens: Sequence[str], i: int, lexicon: SplitLexicon) -> bool:
    return i < len(tokens) and person(tokens[i], lexicon, subject=False) is not None


def _standalone_number(token: str, lexicon: SplitLexicon) -> bool:
    return lexicon.number(token) is not None and not lexicon.has("article", token)


def _spread_quantities(
    tokens: Sequence[str], mentions: Sequence[Mention], lexicon: SplitLexicon
) -> None:
    """Quantities that reach over a list.

    "Split the balls and hats" halves both; "one ball each" gives both sides one."""
    # Mentions a count before them in their list reached.
    spread: set[int] = set()
    for before, after in itertools.pairwise(mentions):
        # A one-token mention first: most mentions after a list's first are longer ("2
        # water"), and that test is cheaper than the gap's.
        if after.start != after.end or not conjoined(tokens, before, after, lexicon):
            continue
        listed = each_of(tokens, before.start, lexicon) and not after.explicit
        # "split the balls and hats", "all the food and water": the quantity reaches the
        # bare noun after it.
        if before.kind in ("half", "rest-item"):
            after.kind, after.count, after.explicit = before.kind, None, True
        elif before.kind == "all" and before.explicit and after.kind == "bare":
            after.kind, after.count, after.explicit = "all", None, True
        elif (
            before.kind == "all"
            and lexicon.has("determiner", tokens[before.start])
            and _plural(tokens[before.end])
            and after.kind == "count"
            and not after.explicit
        ):
            # "the books and hat": a plural's determiner reaches the bare noun after it
            # ("the book and hat" may mean one hat).
            after.kind, after.count = "all", None
        elif (
            before.kind == "count"
            and (after.kind == "bare" or listed)
            and (before.explicit or "of" in tokens[before.start : before.end])
        ):
            # "1 of the food and firewood", "2 water and firewood for me": where an item
            # named with no quantity claims nothing, a written count before it in the
            # list counts it too (count-spreads-over-the-list).
            after.kind, after.count, after.explicit = "count", before.count, True
            spread.add(id(after))
    each = lexicon.words["each"]
    for m in mentions:
        if m.item is None or m.kind != "count":
            continue
        nxt = tokens[m.end + 1] if m.end + 1 < len(tokens) else ""
        lead = tokens[max(m.start - 3, 0) : m.start]
        # "one ball each", "we each get 1"; but "each" after a list one count spreads
        # over runs over its items ("2 packages of firewood and water each")
        # (each-over-the-list).
        if nxt in each and id(m) in spread:
            continue
        if nxt in each or not each.isdisjoint(lead):
            m.both = True


def counted(tokens: Sequence[str], m: Mention, lexicon: SplitLexicon) -> bool:
    """The mention's quantity is written as a number, "all" or "n of each".

    Also a count spread over a list or after the noun ("1 each of the food and water", "water:
    2") (a-spread-count-is-written); not an article, "the", or "everything"."""
    if m.kind in ("every", "rest", "rest-item", "half", "bare"):
        return False
    if m.kind == "each-item":
        return True
    first = tokens[m.start]
    if lexicon.number(first) is not None:
        return not lexicon.has("article", first)
    return m.explicit and (m.kind == "all" or (m.kind == "count" and m.start == m.end))
