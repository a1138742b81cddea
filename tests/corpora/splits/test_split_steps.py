"""Golden examples of the steps of the split parser, one table per step: the side each
mention gets from the scan of its clause (:mod:`actparse.corpora.splits.sides`) and
from its neighbours after it. Known misses are strict xfails: fixing one is a reason to
move it up."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from actparse.corpora.splits.claims import parse_split
from actparse.corpora.splits.completion import complete_split
from actparse.corpora.splits.lexicon import SplitLexicon, load_split_lexicon
from actparse.corpora.splits.mentions import find_mentions
from actparse.corpora.splits.sides import assign_sides
from actparse.corpora.splits.tokens import tokenize
from actparse.models import ItemSplit

LEXICONS = {"dond": load_split_lexicon("dealornodeal"), "casino": load_split_lexicon("casino")}
#: (side, why) of each mention of a message, left to right.
Sides = list[tuple[int | None, str]]


def sides(corpus: str, text: str) -> Sides:
    """The side (and why) :func:`assign_sides` gives each mention of ``text``."""
    lexicon: SplitLexicon = LEXICONS[corpus]
    tokens = tokenize(text, lexicon)
    mentions = find_mentions(tokens, lexicon)
    assign_sides(tokens, mentions, lexicon)
    return [(m.side, m.why) for m in mentions]


def params(rows: Sequence[tuple[Any, ...]], misses: Sequence[tuple[Any, ...]] = ()) -> list[Any]:
    """Rows ``(id, *values)`` as parameters; ``misses`` as strict xfails."""
    miss = pytest.mark.xfail(strict=True, reason="known miss")
    return [pytest.param(*row[1:], id=row[0]) for row in rows] + [
        pytest.param(*row[1:], id=row[0], marks=miss) for row in misses
    ]


# (id, corpus, utterance, expected (side, why) per mention); side 0 is the writer's.

#: The scan (sides._scan_clauses): clauses of purpose, reasons, sentence ends.
SCAN = [
    (
        "purpose-claims-nothing",
        "dond",
        "i need the hats to cook the books",
        [(0, "subject"), (None, "")],
    ),
    (
        "reason-then-subject",
        "casino",
        "since you need water , i get 3 food",
        [(1, "subject"), (0, "subject")],
    ),
    (
        "sentence-end-forgets",
        "dond",
        "you get the hats . the books",
        [(1, "subject"), (1, "elliptic")],
    ),
    (
        "boundary-ends-negation",
        "dond",
        "i don't need the hats , just the ball",
        [(1, "subject+not"), (0, "subject")],
    ),
]
#: A mention takes its clause's side (sides._claim_mention).
CLAIM = [
    ("subject-claims", "dond", "i get the books", [(0, "subject")]),
    ("bare-subject-claims-nothing", "casino", "i will conserve my water", [(None, "")]),
    ("subject-with-count", "casino", "i will keep 2 water", [(0, "subject")]),
    ("thanks-with-count", "dond", "thank you for the 2 hats", [(0, "thanks")]),
    (
        "thanks-without-verb",
        "casino",
        "thank you for the firewood, so i can keep warm",
        [(None, "")],
    ),
    ("take-everything", "dond", "i'll take everything", [(0, "subject")]),
    ("we-each-count", "dond", "we each get one ball", [(0, "both")]),
]
CLAIM_MISSES = [
    ("everything-not-offered", "dond", "everything has been cancelled", [(None, "")]),
]
#: A pronoun names the side of what follows (sides._mark_person).
PERSON = [
    ("subject-you", "dond", "you can have the hats", [(1, "subject")]),
    ("recipient", "dond", "give me the ball", [(0, "recipient")]),
    ("benefit-before", "dond", "for me 1 book", [(0, "benefit-before")]),
    ("from-me", "dond", "3 hats from me", [(1, "benefit-after")]),
    ("negated-suggestion", "dond", "why don't you take the books", [(1, "subject")]),
    ("want-me-to", "dond", "you want me to take all 3 hats", [(0, "subject")]),
    (
        "recipient-then-subject",
        "dond",
        "you give me the balls and take the rest",
        [(0, "recipient"), (1, "subject")],
    ),
]
#: Other words that set or end a clause (sides._mark_marker).
MARKER = [
    ("mine", "dond", "the books are mine", [(0, "benefit-after")]),
    ("third-person", "dond", "they need the balls", [(None, "")]),
    ("my-taking", "dond", "would my taking 2 hats work?", [(0, "subject")]),
    ("your-group", "casino", "your group can have the food", [(1, "subject")]),
    ("deal-for", "dond", "you said a proposal for 3 books", [(0, "elliptic")]),
    (
        "i-think",
        "dond",
        "you get the ball i think that will work: 1 book, 1 hat",
        [(1, "subject"), (1, "elliptic"), (1, "elliptic")],
    ),
]
#: Giving verbs (sides._mark_giving).
GIVING = [
    ("imperative-give", "dond", "give the books", [(0, "imperative+give")]),
    ("i-give-you", "dond", "i give you the books", [(1, "recipient")]),
    ("modal-do", "dond", "i can do 2 hats", [(0, "subject+do-take")]),
    ("do-with", "casino", "i can do with 2 water", [(0, "subject")]),
    ("not-give", "dond", "i can not give you the ball", [(0, "recipient+not")]),
]
#: Verbs of having (sides._mark_having).
HAVING = [
    ("imperative-take", "dond", "fine , take the hat", [(1, "imperative")]),
    ("dropped-subject", "dond", "sorry , need the ball", [(0, "dropped-subject")]),
    ("dont-need", "dond", "i don't need the hats", [(1, "subject+not")]),
    (
        "concede-and-take",
        "dond",
        "you give me the hats and i take the books",
        [(0, "recipient"), (0, "subject")],
    ),
]
#: The neighbours' rules after the scan (neighbours.apply_relations).
RELATIONS = [
    (
        "benefit-after",
        "dond",
        "balls for me , everything else for you",
        [(0, "benefit-after"), (1, "benefit-after")],
    ),
    ("everything-but", "dond", "i get everything but the ball", [(0, "subject"), (1, "except")]),
    ("exchange", "casino", "how about 2 water for 3 food?", [(0, "elliptic"), (1, "exchange")]),
    (
        "alternatives",
        "dond",
        "i want the book or a hat",
        [(None, "alternative"), (None, "alternative")],
    ),
    ("elliptic-list", "dond", "1 book, 1 hat", [(0, "elliptic"), (0, "elliptic")]),
    (
        "or-sentence",
        "dond",
        "i want the books . or the hats",
        [(0, "subject"), (None, "alternative")],
    ),
]

STEPS = SCAN + CLAIM + PERSON + MARKER + GIVING + HAVING + RELATIONS


@pytest.mark.parametrize(("corpus", "text", "expected"), params(STEPS, CLAIM_MISSES))
def test_sides_step(corpus: str, text: str, expected: Sides) -> None:
    assert sides(corpus, text) == expected


#: (kind, count, written) of each mention of a message, left to right.
Kinds = list[tuple[str, int | None, bool]]


def kinds(corpus: str, text: str, context_item: int | None = None) -> Kinds:
    """The kind, count and whether written of each mention :func:`find_mentions` finds."""
    lexicon: SplitLexicon = LEXICONS[corpus]
    mentions = find_mentions(tokenize(text, lexicon), lexicon, context_item)
    return [(m.kind, m.count, m.explicit) for m in mentions]


# (id, corpus, utterance, expected (kind, count, written) per mention).

#: The word before an item noun writes its quantity (quantities.written_quantity).
WRITTEN = [
    ("to-for-two", "dond", "i need to hats", [("count", 2, True)]),
    ("slash-count", "casino", "2/3 water", [("count", 2, True)]),
    ("n-of-the-m", "casino", "2 of the 3 wood", [("count", 2, True)]),
    ("a-lot-of", "casino", "a lot of water", [("bare", None, False)]),
    ("an-extra-is-one", "casino", "an extra food", [("count", 1, True)]),
    ("all-n", "dond", "all 3 hats", [("count", 3, True)]),
    ("half", "dond", "half the books", [("half", None, True)]),
    ("majority", "casino", "the majority of the water", [("majority", None, True)]),
]
#: No word writes it (quantities.implied_quantity).
IMPLIED_QUANTITY = [
    ("single-unit", "casino", "the package of food", [("count", 1, False)]),
    ("that-amount", "casino", "i could use that food", [("bare", None, False)]),
    ("the-singular", "dond", "the hat", [("all", None, False)]),
    ("bare-plural", "dond", "hats", [("all", None, False)]),
    ("bare-amount", "casino", "water", [("bare", None, False)]),
]
#: An item noun heads a mention (mentions._noun_mention).
NOUN = [
    ("other-items", "dond", "all the other items", [("rest", None, True)]),
    ("unit-after", "casino", "2 firewood packages", [("count", 2, True)]),
    ("compound", "casino", "water bottles", []),
    ("count-after", "casino", "water: 2", [("count", 2, True)]),
    ("comparative", "casino", "you need the water more", [("bare", None, False)]),
    ("relative", "casino", "1 more food", [("count", 1, True)]),
]
#: Phrases about every item (mentions._whole_mention).
WHOLE = [
    ("the-rest", "dond", "you get the rest", [("rest", None, True)]),
    ("rest-of-the-deal", "dond", "the rest of the deal", []),
    ("pack-of-everything", "casino", "1 pack of everything", [("each-item", 1, True)]),
    ("everything", "dond", "you get everything", [("every", None, True)]),
    (
        "everything-after-items",
        "dond",
        "i want the books and everything",
        [("all", None, False), ("rest", None, True)],
    ),
    ("one-of-each", "dond", "one of each", [("each-item", 1, True)]),
]
#: A number with no noun (mentions._implied_mention), the item talked about last water.
IMPLIED = [
    ("of-those", "casino", "i am ok with you getting 2 of those", [("count", 2, True)]),
    ("units", "casino", "i can do with 2 packages", [("count", 2, True)]),
    (
        "you-can-have-n",
        "dond",
        "can i have 1 book and you can have 2 ?",
        [("count", 1, True), ("count", 2, True)],
    ),
    ("n-for-you", "casino", "2 water for me , 1 for you", [("count", 2, True), ("count", 1, True)]),
    ("no-verb-before", "casino", "it is 2 .", []),
]


@pytest.mark.parametrize(
    ("corpus", "text", "expected"), params(WRITTEN + IMPLIED_QUANTITY + NOUN + WHOLE)
)
def test_mentions_step(corpus: str, text: str, expected: Kinds) -> None:
    assert kinds(corpus, text) == expected


@pytest.mark.parametrize(("corpus", "text", "expected"), params(IMPLIED))
def test_implied_count(corpus: str, text: str, expected: Kinds) -> None:
    assert kinds(corpus, text, context_item=1) == expected


# (id, corpus, utterance, item totals, expected (counts per side, side of "the rest")).

#: The steps of claims.resolve_claims: halves, every item, one item's count, the rest of
#: an item.
CLAIMS = [
    (
        "half-even",
        "casino",
        "half the water",
        (3, 2, 3),
        ([[None, 1, None], [None, 1, None]], None),
    ),
    ("half-odd", "casino", "half the water", (3, 3, 3), ([[None] * 3, [None] * 3], None)),
    (
        "negated-all",
        "dond",
        "i can't have all the balls",
        (1, 1, 2),
        ([[None] * 3, [None] * 3], None),
    ),
    ("the-rest", "dond", "you get the rest", (1, 1, 2), ([[None] * 3, [None] * 3], 1)),
    ("everything", "dond", "i get everything", (1, 1, 2), ([[1, 1, 2], [None] * 3], None)),
    ("one-of-each", "dond", "one of each for me", (1, 1, 2), ([[1, 1, 1], [None] * 3], None)),
    (
        "both-one-of-each",
        "dond",
        "we both get one of everything",
        (2, 2, 2),
        ([[1, 1, 1], [1, 1, 1]], None),
    ),
    (
        "the-after-a-count-is-the-rest",
        "dond",
        "you can have one book and the balls and i take the book and the hat",
        (3, 1, 2),
        ([[2, 1, None], [1, None, 2]], None),
    ),
    (
        "majority",
        "casino",
        "i want the majority of the water",
        (3, 3, 3),
        ([[None, 2, None], [None] * 3], None),
    ),
    (
        "implied-over-total",
        "dond",
        "someone gets 5 and someone gets 4",
        (3, 1, 2),
        ([[None] * 3, [None] * 3], None),
    ),
    ("each-not-half", "dond", "we each get a ball", (1, 1, 3), ([[None] * 3, [None] * 3], None)),
    (
        "later-claim-wins",
        "dond",
        "i get 2 books . you get 2 books",
        (3, 1, 2),
        ([[None] * 3, [2, None, None]], None),
    ),
    (
        "rest-of-item",
        "dond",
        "you get 1 book and i get the rest of the books",
        (3, 1, 2),
        ([[2, None, None], [1, None, None]], None),
    ),
]


@pytest.mark.parametrize(("corpus", "text", "totals", "expected"), params(CLAIMS))
def test_claims_step(
    corpus: str, text: str, totals: tuple[int, ...], expected: tuple[list[Any], int | None]
) -> None:
    claims = parse_split(text, LEXICONS[corpus], totals).claims
    assert (claims.counts, claims.rest) == expected


# (id, utterance, Deal or No Deal totals, the deal on the table or None, expected split).
Counts = tuple[tuple[int | None, ...], tuple[int | None, ...]]

#: The steps of completion.complete_split: following the table, "the rest" from the table,
#: remainders per item, open items.
COMPLETE = [
    (
        "relative-adds",
        "i want 1 more book",
        (3, 1, 2),
        ((1, 0, 1), (2, 1, 1)),
        ((2, 0, 1), (1, 1, 1)),
    ),
    (
        "the-singular-follows-the-table",
        "i'll take both balls and the hat",
        (1, 2, 2),
        ((0, 1, 0), (1, 1, 2)),
        ((0, 1, 2), (1, 1, 0)),
    ),
    (
        "rest-keeps-the-table",
        "ok, if i get everything else",
        (3, 1, 2),
        ((0, 0, 0), (3, 0, 0)),
        ((0, 1, 2), (3, 0, 0)),
    ),
    (
        "remainder-and-rest",
        "i get the books , you get the rest",
        (3, 1, 2),
        None,
        ((3, 0, 0), (0, 1, 2)),
    ),
    ("open-items-opposite", "i'd like 3 books", (3, 1, 2), None, ((3, 0, 0), (0, 1, 2))),
]


@pytest.mark.parametrize(("text", "totals", "running", "expected"), params(COMPLETE))
def test_complete_step(
    text: str, totals: tuple[int, ...], running: Counts | None, expected: Counts
) -> None:
    lexicon = LEXICONS["dond"]
    parsed = parse_split(text, lexicon, totals)
    table = ItemSplit(lexicon.items, running) if running is not None else None
    unnamed = parsed.completion(lexicon.unnamed, len(totals), totals)
    split = complete_split(parsed.claims, 0, totals, lexicon.items, unnamed, table)
    assert split.counts == expected
