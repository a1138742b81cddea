"""Step 2's reading of a quantity, looking back from an item noun.

These are the steps of :func:`~actparse.corpora.splits.mentions._quantity`.

:func:`look_back` walks over the determiners, vague words and fillers before the noun;
:func:`written_quantity` reads the word before them (a number, "all", "the rest",
"half", "the majority"); :func:`implied_quantity` is the quantity the noun has when no
such word stands there. The last two answer ``(start, kind, number, explicit)``, the
fields of :class:`~actparse.corpora.splits.mentions.Quantity` before ``relative`` and
``fewer``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from actparse.corpora.splits.lexicon import SplitLexicon

__all__ = [
    "Found",
    "LookBack",
    "counts_some_of_the_rest",
    "implied_quantity",
    "look_back",
    "written_quantity",
]

#: A quantity without ``relative``: (first token, kind, number, written).
Found = tuple[int, str, "int | None", bool]


class LookBack(NamedTuple):
    """What stands between an item noun and the word that may give its quantity."""

    #: The word before the determiners, vague words and fillers (-1: none).
    j: int
    #: The first token of the phrase so far.
    start: int
    determiner: bool
    vague: bool
    #: A vague word that measures an amount ("lot", "some"), not an adjective ("extra").
    measure: bool
    #: A unit in the singular ("the package of food").
    single_unit: bool
    #: A word of addition stands before the noun ("1 more food").
    relative: bool
    #: A word of subtraction stands before the noun ("1 less food").
    fewer: bool


def look_back(tokens: Sequence[str], classes: Sequence[frozenset[str]], noun: int) -> LookBack:
    """Walk back from the noun over determiners, vague words and fillers.

    Vague words are "lot", "some", "more"; ``classes`` are the word classes of ``tokens``."""
    relative = fewer = False
    j = noun - 1
    start = noun
    determiner = False
    vague = False
    # A vague word that measures an amount ("lot", "some"), not an adjective ("extra").
    measure = False
    single_unit = False
    while j >= 0:
        word = classes[j]
        if "determiner" in word:
            determiner = True
        elif "vague" in word:
            vague = True
            measure = measure or "item_adjective" not in word
            relative = relative or "relative" in word
            # one-less-is-one-more-for-the-other: of the vague words, the comparatives
            # that are no words of addition ("less", "fewer") take away.
            fewer = fewer or ("comparative" in word and "relative" not in word)
        elif "filler" not in word:
            break
        if "unit" in word and not tokens[j].endswith("s"):
            single_unit = True
        start = j
        j -= 1
    return LookBack(j, start, determiner, vague, measure, single_unit, relative, fewer)


def written_quantity(
    tokens: Sequence[str],
    classes: Sequence[frozenset[str]],
    noun: int,
    back: LookBack,
    lexicon: SplitLexicon,
    plural: bool,
) -> Found | None:
    """The quantity the word before the phrase writes.

    That word is ``back.j``, a token: a number ("2/3 water" two, "2 of the 3 wood" two, "all 3
    waters" three, "a lot of" no count), "all", "the rest", "half", "the majority"; ``None`` if it
    writes none. ``plural``: the noun is a plural."""
    j, start, measure = back.j, back.start, back.measure
    tok = tokens[j]
    word = classes[j]
    value = lexicon.number(tok)
    if tok == "to" and j == noun - 1 and plural:
        # "i need to hats": "two" typed as it sounds (to-for-two); "to" is never
        # right before a bare plural item otherwise.
        value = 2
    if value is not None and j >= 2 and tokens[j - 1] == "/" and tokens[j - 2].isdecimal():
        # "2/3 water": two of the three.
        return (j - 2, "count", int(tokens[j - 2]), True)
    if (
        value is not None
        and j >= 3
        and "determiner" in classes[j - 1]
        and tokens[j - 2] == "of"
        and lexicon.number(tokens[j - 3]) is not None
    ):
        # "2 of the 3 wood": two.
        return (j - 3, "count", lexicon.number(tokens[j - 3]), True)
    if value is not None:
        # "a lot of water": the article belongs to the vague word; "an extra food" is
        # one (an-extra-is-one).
        if measure and "article" in word:
            return (start, "bare", None, False)
        # "all 3 waters", "all 2 firewood": the number counts them.
        if j > 0 and "all" in classes[j - 1]:
            return (j - 1, "count", value, True)
        return (j, "count", value, True)
    if "each" in word and j > 0 and tokens[j + 1] == "of":
        # n-each-of-the-list: "one each of firewood and food" is one of each item named.
        count = lexicon.number(tokens[j - 1])
        if count is not None:
            return (j - 1, "count", count, True)
    if "all" in word:
        return (j, "all", None, True)
    if "rest" in word:
        return (j, "rest-item", None, True)
    if "half" in word:
        return (j, "half", None, True)
    if "majority" in word:
        return (j, "majority", None, True)
    return None


def implied_quantity(
    classes: Sequence[frozenset[str]],
    noun: int,
    back: LookBack,
    lexicon: SplitLexicon,
    plural: bool,
) -> Found:
    """The quantity no word writes.

    A vague word names no count; "the" names one unit, the amount talked about ("that food", where
    items are amounts), or every one (a plural, or where the lexicon says so); a bare noun is a
    preference where items are amounts, else all of a plural or one of a singular."""
    start = back.start
    if back.vague:
        return (start, "bare", None, False)
    if back.determiner:
        if back.single_unit:
            # "the package of food" is one package.
            return (start, "count", 1, False)
        if not plural and "demonstrative" in classes[start] and lexicon.bare_noun == "none":
            # "i could use that food": the amount talked about, not all of it, where
            # items are amounts (a bare noun is a preference); "that hat" names the hat.
            return (start, "bare", None, False)
        if not plural and lexicon.bare_noun == "none" and _needed_after(classes, noun):
            # the-item-someone-needs-is-an-amount: "i can give you the water you need" is
            # the amount talked about, as "that water" is.
            return (start, "bare", None, False)
        if plural or lexicon.the_singular == "all":
            return (start, "all", None, False)
        return (start, "count", 1, False)
    if lexicon.bare_noun == "none":
        return (noun, "bare", None, False)
    return (noun, ("all" if plural else "count"), (None if plural else 1), False)


def _needed_after(classes: Sequence[frozenset[str]], noun: int) -> bool:
    """A person and a verb of need or wish follow the item noun ("the water you need")."""
    after = classes[noun + 1 : noun + 3]
    return len(after) == 2 and bool(after[0] & {"self", "other", "we"}) and "possess" in after[1]


def counts_some_of_the_rest(
    tokens: Sequence[str], classes: Sequence[frozenset[str]], start: int, lexicon: SplitLexicon
) -> bool:
    """A number of one or more counts the words of the rest at ``start`` ("1 other item").

    "All 4 other items" and "the 2 other items" are every item left (a word of all or a
    determiner before the number); "only 1 other item", "a couple other things" are some of
    them."""
    if start == 0:
        return False
    value = lexicon.number(tokens[start - 1])
    if value is None or value < 1:
        return False
    before = classes[start - 2] if start >= 2 else frozenset()
    return "all" not in before and "determiner" not in before
