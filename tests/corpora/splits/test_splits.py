"""The shared split parser: tokens, mentions, completion, and golden tables of proposals
(utterance, item counts, the split it proposes), one table per corpus lexicon. The
lexicon file itself is tested in test_split_lexicon.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from actparse.corpora.splits.claims import parse_split
from actparse.corpora.splits.completion import complete_split
from actparse.corpora.splits.lexicon import load_split_lexicon
from actparse.corpora.splits.mentions import OTHER, SELF, find_mentions
from actparse.corpora.splits.stated import names_no_count
from actparse.corpora.splits.tokens import tokenize
from actparse.models import ItemSplit

DOND = load_split_lexicon("dealornodeal")
CASINO = load_split_lexicon("casino")
Counts = tuple[tuple[int | None, ...], tuple[int | None, ...]]


def proposal(
    text: str,
    corpus: str,
    totals: tuple[int, ...],
    running: Counts | None = None,
    context: str | None = None,
) -> Counts | None:
    """What ``text`` proposes, written by agent 0: (writer's counts, reader's counts),
    or ``None`` when it proposes nothing. ``running`` is the deal on the table, ``context``
    the item the talk was about last."""
    lexicon = DOND if corpus == "dealornodeal" else CASINO
    item = None if context is None else lexicon.items.index(context)
    parsed = parse_split(text, lexicon, totals, context_item=item)
    if not parsed.has_claim:
        return None
    table = ItemSplit(lexicon.items, running) if running is not None else None
    if names_no_count(parsed.mentions, parsed.stated, 0, totals, table):
        return None  # a-stated-need-names-no-count, as the dialogue reads it
    unnamed = parsed.completion(lexicon.unnamed, len(totals), totals)
    split = complete_split(parsed.claims, 0, totals, lexicon.items, unnamed, table)
    return split.counts


# --------------------------------------------------------------------------------------
# Golden tables: a data file beside each corpus' tests, tests/corpora/<corpus>/
# split_golden.yaml. Deal or No Deal items: (book, hat, ball); CaSiNo: (food, water,
# firewood).
# --------------------------------------------------------------------------------------

CORPORA_TESTS = Path(__file__).resolve().parent.parent
KNOWN_MISS = pytest.mark.xfail(strict=True, reason="known miss")
ROW_KEYS = {"id", "text", "totals", "expected", "running", "context", "miss"}


def _counts(value: dict[str, list[int | None]] | None) -> Counts | None:
    """A row's counts, (writer's, reader's), or ``None`` when it proposes nothing."""
    if value is None:
        return None
    return tuple(value["writer"]), tuple(value["reader"])


def golden(corpus: str, table: str, *counts: str, context: bool = False) -> list[Any]:
    """The rows of ``table`` in ``tests/corpora/<corpus>/split_golden.yaml`` as test cases
    named by their ids: (text, totals, the ``counts`` fields, and with ``context`` the item
    talked about), known misses as strict xfails. A misspelt key or a repeated id fails the
    collection."""
    path = CORPORA_TESTS / corpus / "split_golden.yaml"
    rows = yaml.safe_load(path.read_text(encoding="utf-8"))[table]
    ids = [row["id"] for row in rows]
    if len(set(ids)) != len(ids) or any(set(row) - ROW_KEYS for row in rows):
        raise ValueError(f"{path} {table}: a repeated id or a key not in {sorted(ROW_KEYS)}")
    return [
        pytest.param(
            row["text"],
            tuple(row["totals"]),
            *(_counts(row[field]) for field in counts),
            *([row["context"]] if context else []),
            id=row["id"],
            marks=[KNOWN_MISS] if row.get("miss") else [],
        )
        for row in rows
    ]


@pytest.mark.parametrize(
    ("text", "totals", "expected"), golden("dealornodeal", "golden", "expected")
)
def test_dealornodeal_golden(text: str, totals: tuple[int, ...], expected: Counts | None) -> None:
    assert proposal(text, "dealornodeal", totals) == expected


@pytest.mark.parametrize(("text", "totals", "expected"), golden("casino", "golden", "expected"))
def test_casino_golden(text: str, totals: tuple[int, ...], expected: Counts | None) -> None:
    assert proposal(text, "casino", totals) == expected


# --------------------------------------------------------------------------------------
# Tokens and mentions
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        pytest.param("I can`t", ("i", "can", "not"), id="backtick"),
        pytest.param("I\u2019ll take it", ("i", "will", "take", "it"), id="curly-apostrophe"),
        pytest.param("you'd", ("you", "would"), id="clitic"),
        pytest.param("couldent", ("could", "not"), id="misspelt-negation"),
        pytest.param("gimme 2books", ("give", "me", "2", "books"), id="gimme-and-glued-number"),
        pytest.param("i ; ll take it", ("i", "will", "take", "it"), id="stray-apostrophe"),
        pytest.param("ok ; take it", ("ok", ";", "take", "it"), id="semicolon-stays"),
        pytest.param("everything else", ("the-rest",), id="phrase"),
        pytest.param("in exchange for", ("exchange-for",), id="longest-phrase-first"),
        # typo-tolerant-items: swapped letters in item words, a dropped one in long ones
        pytest.param("the aht and obok", ("the", "hat", "and", "book"), id="typo-swapped-letters"),
        pytest.param("you get everthing", ("you", "get", "everything"), id="typo-dropped-letter"),
        pytest.param("i get everythign else", ("i", "get", "the-rest"), id="typo-then-phrase"),
        pytest.param("your intial offer", ("your", "initial", "offer"), id="typo-original"),
        pytest.param(
            "i take theball and onehat",
            ("i", "take", "the", "ball", "and", "one", "hat"),
            id="typo-glued",
        ),
        pytest.param("the balll", ("the", "ball"), id="typo-letter-twice"),
        pytest.param("youcan have it", ("you", "can", "have", "it"), id="typo-glued-person"),
        pytest.param(
            "i'll take the bsall", ("i", "will", "take", "the", "ball"), id="typo-stray-key"
        ),
        # a stray letter from a key far from its neighbours', or inside "hat", is no typo
        pytest.param(
            "the brook and the heat",
            ("the", "brook", "and", "the", "heat"),
            id="typo-stray-far-key",
        ),
        # ... but never another word ("that", "at", "all" stay themselves)
        pytest.param(
            "that is all at once", ("that", "is", "all", "at", "once"), id="typo-real-words"
        ),
    ],
)
def test_tokenize(text: str, tokens: tuple[str, ...]) -> None:
    assert tokenize(text, DOND) == tokens


def test_multi_word_item_names_are_one_token() -> None:
    assert tokenize("2 fire wood", CASINO) == ("2", "fire wood")
    (mention,) = find_mentions(tokenize("2 fire wood", CASINO), CASINO)
    assert (mention.item, mention.kind, mention.count) == (2, "count", 2)


@pytest.mark.parametrize(
    ("text", "kind", "count"),
    [
        pytest.param("two of the hats", "count", 2, id="n-of-the"),
        pytest.param("all 3 hats", "count", 3, id="all-n"),
        pytest.param("both hats", "all", None, id="both"),
        pytest.param("the hats", "all", None, id="the-plural"),
        pytest.param("a hat", "count", 1, id="article"),
        pytest.param("no hats", "count", 0, id="no"),
        pytest.param("half the hats", "half", None, id="half"),
        pytest.param("the other hat", "rest-item", None, id="the-other"),
        pytest.param("hats", "all", None, id="bare-plural"),
    ],
)
def test_quantities(text: str, kind: str, count: int | None) -> None:
    (mention,) = find_mentions(tokenize(text, DOND), DOND)
    assert (mention.kind, mention.count) == (kind, count)


def test_bare_nouns_are_preferences_in_casino() -> None:
    (mention,) = find_mentions(tokenize("I love water", CASINO), CASINO)
    assert mention.kind == "bare"
    assert not parse_split("I love water", CASINO, (3, 3, 3)).has_claim


def test_a_number_with_no_noun_counts_the_item_talked_about() -> None:
    parsed = parse_split("you can have 2", CASINO, (3, 3, 3), context_item=1)
    assert parsed.claims.counts[OTHER] == [None, 2, None]


def test_a_list_with_no_person_is_about_the_default_side() -> None:
    mine = parse_split("ball and one hat ?", DOND, (1, 2, 1))
    theirs = parse_split("ball and one hat ?", DOND, (1, 2, 1), default_side=OTHER)
    assert mine.claims.counts[SELF] == [None, 1, 1]
    assert theirs.claims.counts[OTHER] == [None, 1, 1]
    assert mine.elliptic and theirs.elliptic


def test_mentions_explain_themselves() -> None:
    parsed = parse_split("you get 2 hats", DOND, (1, 3, 1))
    assert [m.describe(DOND.items) for m in parsed.mentions] == ["count2:hat->other(subject)"]


# --------------------------------------------------------------------------------------
# Completion against the deal on the table
# --------------------------------------------------------------------------------------


def test_unnamed_items_go_opposite_or_stay_on_the_table() -> None:
    running = ((1, 1, 1), (2, 2, 2))
    text = "I need 2 firewood"
    assert proposal(text, "casino", (3, 3, 3), running) == ((1, 1, 2), (2, 2, 1))
    # with nothing on the table, the side named gets only what it names
    assert proposal(text, "casino", (3, 3, 3)) == ((0, 0, 2), (3, 3, 1))
    assert proposal("i want the hats", "dealornodeal", (1, 2, 3), ((1, 0, 0), (0, 2, 3))) == (
        (0, 2, 0),
        (1, 0, 3),
    )


def test_a_share_counted_item_by_item_leaves_the_last_item_to_the_other() -> None:
    # "I get 3 food and 2 firewood" counts two of three items for the writer: the water
    # is the reader's, whatever the table said.
    running = ((1, 1, 1), (2, 2, 2))
    text = "So how about I get 3 food and 2 firewood?"
    assert proposal(text, "casino", (3, 3, 3), running) == ((3, 0, 2), (0, 3, 1))


def test_a_count_given_as_a_reason_does_not_spell_out_a_share() -> None:
    # "since I only get 1 food" restates the table: the water stays where it was.
    running = ((1, 2, 1), (2, 1, 2))
    text = "Fine, then I will need 2 firewood, since I only get 1 food."
    assert proposal(text, "casino", (3, 3, 3), running) == ((1, 2, 2), (2, 1, 1))
    # Without the reason, a majority share counted item by item leaves the water to the
    # other side; a share of half or less moves counts of the table
    # (a-minority-share-keeps-the-table).
    text = "Fine, then I will need 2 firewood and 2 food."
    assert proposal(text, "casino", (3, 3, 3), running) == ((2, 0, 2), (1, 3, 1))
    text = "Fine, then I will need 2 firewood and 1 food."
    assert proposal(text, "casino", (3, 3, 3), running) == ((1, 2, 2), (2, 1, 1))


def test_the_rest_is_what_the_table_leaves() -> None:
    # the reader asked for the ball and a hat; "i get everything else" keeps that.
    running = ((3, 1, 0), (0, 1, 1))
    assert proposal("ok , only if i get everything else .", "dealornodeal", (3, 2, 1), running) == (
        (3, 1, 0),
        (0, 1, 1),
    )


def test_increments_add_to_the_table() -> None:
    running = ((1, 1, 1), (2, 2, 2))
    assert proposal("can I get 1 more food then?", "casino", (3, 3, 3), running) == (
        (2, 1, 1),
        (1, 2, 2),
    )
    assert proposal(
        "throw in a ball and its a deal", "dealornodeal", (4, 1, 2), ((4, 0, 0), (0, 1, 2))
    ) == (
        (4, 0, 1),
        (0, 1, 1),
    )


@pytest.mark.parametrize(
    ("text", "default", "sides"),
    [
        # elliptic-before-rest: a list before "the rest" given to one side is the other's,
        # whichever side the talk was about ...
        pytest.param(
            "okay the book and one ball u take rest", OTHER, [SELF, SELF, OTHER], id="u-take-rest"
        ),
        pytest.param("ball you can have the rest", OTHER, [SELF, OTHER], id="ball-you-rest"),
        # ... unless "the rest" ends the list itself (the list keeps the talk's side).
        pytest.param("ok hat and rest for me", SELF, [SELF, SELF], id="hat-and-rest-for-me"),
    ],
)
def test_a_list_before_the_rest_is_the_other_share(
    text: str, default: int, sides: list[int]
) -> None:
    parsed = parse_split(text, DOND, (2, 3, 2), default_side=default)
    assert [m.side for m in parsed.mentions] == sides


def test_a_verb_of_wanting_after_a_comma_is_the_writers() -> None:
    # dropped-subject: not the side the talk was about (the reader's here)
    parsed = parse_split("sorry , need the hat and 2 books", DOND, (3, 1, 2), default_side=OTHER)
    assert [m.side for m in parsed.mentions] == [SELF, SELF]


#: Deal or No Deal proposals against the deal on the table (the ``on_the_table`` rows of
#: tests/corpora/dealornodeal/split_golden.yaml): the table and the deal after, each as
#: (writer's, reader's) counts.
@pytest.mark.parametrize(
    ("text", "totals", "running", "expected"),
    golden("dealornodeal", "on_the_table", "running", "expected"),
)
def test_dealornodeal_against_the_table(
    text: str, totals: tuple[int, ...], running: Counts, expected: Counts
) -> None:
    assert proposal(text, "dealornodeal", totals, running) == expected


#: CaSiNo proposals against the deal on the table (the ``on_the_table`` rows of
#: tests/corpora/casino/split_golden.yaml), as for Deal or No Deal.
@pytest.mark.parametrize(
    ("text", "totals", "running", "expected"),
    golden("casino", "on_the_table", "running", "expected"),
)
def test_casino_against_the_table(
    text: str, totals: tuple[int, ...], running: Counts, expected: Counts
) -> None:
    assert proposal(text, "casino", totals, running) == expected


#: CaSiNo proposals after talk about one item (the ``after_talk`` rows of
#: tests/corpora/casino/split_golden.yaml): ``context`` is the item talked about last.
@pytest.mark.parametrize(
    ("text", "totals", "expected", "context"),
    golden("casino", "after_talk", "expected", context=True),
)
def test_casino_after_talk(
    text: str, totals: tuple[int, ...], expected: Counts | None, context: str
) -> None:
    assert proposal(text, "casino", totals, context=context) == expected


def test_complete_split_is_from_agent_0() -> None:
    parsed = parse_split("i'll take the ball", DOND, (1, 1, 1))
    split = complete_split(parsed.claims, 1, (1, 1, 1), DOND.items, "opposite")
    assert split.counts == ((1, 1, 0), (0, 0, 1))
