"""The chat parser's item words (plurals, near-spellings, collisions) and its speaker rule."""

from __future__ import annotations

import pytest

from actparse.corpora.chat.items import (
    base_lexicon,
    item_lexicon,
    item_words,
    load_item_word_rules,
)
from actparse.corpora.chat.parser import ChatParser, speakers_note
from actparse.corpora.chat.reader import dialogue_from_record
from actparse.corpora.splits.variants import near_spellings
from actparse.engine.folders import corpus_tag_rules
from actparse.engine.pipeline import pipeline
from actparse.engine.tags import Rule, RuleSet

RULES = load_item_word_rules()
PLURAL_CASES = [
    pytest.param(rule, word, plural, expected, id=f"{rule.name}:{'+-'[not expected]}{word}")
    for rule in RULES.plurals
    for expected, pairs in ((True, rule.examples), (False, rule.counterexamples))
    for word, plural in pairs.items()
]


@pytest.mark.parametrize(("rule", "word", "plural", "expected"), PLURAL_CASES)
def test_plural_rule_examples(rule, word: str, plural: str, expected: bool) -> None:
    assert (rule.apply(word) == plural) is expected


@pytest.mark.parametrize(
    ("edit", "word", "near"),
    [(e, w, n) for e, pairs in RULES.near.edit_examples.items() for w, n in pairs.items()],
)
def test_near_spelling_edit_examples(edit: str, word: str, near: str) -> None:
    assert near in near_spellings(word, [edit])


@pytest.mark.parametrize(
    ("word", "plural"),
    [
        ("book", "books"),
        ("berry", "berries"),
        ("box", "boxes"),
        ("knife", "knives"),
        ("woman", "women"),
        ("key", "keys"),
        ("chef", "chefs"),
    ],
)
def test_plurals(word: str, plural: str) -> None:
    assert RULES.plural(word) == plural


def test_near_spellings_only_for_long_names_and_only_with_a_count() -> None:
    lexicon = item_lexicon(("hat", "moonfruit"))
    assert "hatt" not in lexicon.item_words  # "hat" is shorter than min_length
    assert lexicon.item_words["monfruit"] == 1
    assert "monfruit" in lexicon.weak_words and "moonfruit" not in lexicon.weak_words


def test_a_doubled_letter_written_once_names_a_short_item_with_a_count() -> None:
    lexicon = item_lexicon(("book", "hat", "ball"))
    assert lexicon.item_words["bok"] == 0 and lexicon.item_words["bal"] == 2
    assert {"bok", "boks", "bal", "bals"} <= lexicon.weak_words
    assert "bok" not in item_lexicon(("hat", "cap")).item_words
    # Four letters have no other near-spelling: "boko", "bkoo" are not read.
    assert not {"boo", "bko", "boook"} & set(lexicon.item_words)


def test_the_first_letter_stays() -> None:
    assert "ater" not in near_spellings("water")


def test_near_spellings_never_take_a_shared_word() -> None:
    # The shared lexicon's words (number words, word classes) are never item words.
    exact, near = item_words(("three",), RULES, base_lexicon())[0]
    assert "three" not in exact  # a number word is no item word
    assert not set(near) & set(base_lexicon().classes)


def test_a_word_two_items_make_is_neither_item_word() -> None:
    # "boats" with a letter dropped is "bats", the plural of "bat": it names neither.
    (_, boat_near), (bat_exact, _) = item_words(("boats", "bat"), RULES, base_lexicon())
    assert "bats" not in boat_near and "bats" not in bat_exact
    assert "bat" in bat_exact and "bots" in boat_near


def test_multi_word_and_hyphenated_names() -> None:
    lexicon = item_lexicon(("sky-rope", "ice cream"))
    for word in ("sky - rope", "sky - ropes", "sky rope", "skyrope", "ice cream", "icecream"):
        assert word in lexicon.item_words, word


def test_any_number_of_items_and_counts() -> None:
    record = {
        "turns": [
            {"speaker": "a", "text": "i want 5 apples and the pears , you get the rest"},
            {"speaker": "b", "text": "ok"},
        ],
        "items": {"apple": 7, "pear": 2, "plum": 4, "fig": 1},
    }
    acts = pipeline("chat").parse(dialogue_from_record(record))
    assert acts[0].coarse == "propose"
    assert acts[0].split is not None
    assert acts[0].split.to_dict()["0"] == {"apple": 5, "pear": 2, "plum": 0, "fig": 0}


def test_three_speakers_get_acts_and_prices_and_no_splits() -> None:
    record = {
        "turns": [
            {"speaker": "a", "text": "i will take the hats for $20"},
            {"speaker": "b", "text": "how about $15 ?"},
            {"speaker": "c", "text": "i want the hats too"},
        ],
        "items": {"hat": 2},
    }
    acts = pipeline("chat").parse(dialogue_from_record(record))
    assert [a.price for a in acts] == [20.0, 15.0, None]
    assert all(a.split is None and speakers_note(3) in a.tags for a in acts)
    assert acts[1].coarse == "propose"


def test_one_speaker_is_said_too() -> None:
    record = {"turns": [{"speaker": "a", "text": "hello"}]}
    (act,) = pipeline("chat").parse(dialogue_from_record(record))
    assert act.coarse == "greet" and speakers_note(1) in act.tags


KINDS = RULES.kinds
KIND_CASES = [
    pytest.param(items, kind, expected, id=f"{'+-'[not expected]}{items}")
    for pairs, expected in ((KINDS.examples, True), (KINDS.counterexamples, False))
    for items, kind in pairs.items()
]


@pytest.mark.parametrize(("items", "kind", "expected"), KIND_CASES)
def test_majority_mass_examples(items: str, kind: str, expected: bool) -> None:
    names = [n.strip() for n in items.split(",")]
    assert (KINDS.kind(names) == kind) is expected


def test_mass_nouns_take_the_mass_settings_and_made_up_names_count() -> None:
    mass = item_lexicon(("rice", "oil", "salt"))
    count = item_lexicon(("glimmerstone", "moonfruit"))
    assert (mass.bare_noun, mass.unnamed, mass.claims_need_verb) == ("none", "running", True)
    assert (count.bare_noun, count.unnamed, count.claims_need_verb) == ("count", "opposite", False)


MASS_TRADE = {
    "turns": [
        {"speaker": "a", "text": "I really need rice."},
        {"speaker": "b", "text": "ok, you get 2 rice, I get the oil."},
    ],
    "items": {"rice": 3, "oil": 2, "salt": 1},
}


def test_a_need_is_no_claim_with_mass_nouns() -> None:
    acts = pipeline("chat").parse(dialogue_from_record(MASS_TRADE))
    assert acts[0].split is None and acts[0].coarse == "inform"
    assert acts[1].coarse == "propose"


def test_the_noun_kind_can_be_overridden() -> None:
    from actparse.corpora.chat.parser import ChatParser

    acts = pipeline("chat", ChatParser(noun_kind="count")).parse(dialogue_from_record(MASS_TRADE))
    assert acts[0].split is not None  # as a count noun, "rice" claims one
    with pytest.raises(ValueError, match="noun_kind"):
        ChatParser(noun_kind="liquid")


HEADS = RULES.compounds
HEAD_CASES = [
    pytest.param(name, words, expected, id=f"{'+-'[not expected]}{name}")
    for pairs, expected in ((HEADS.examples, True), (HEADS.counterexamples, False))
    for name, words in pairs.items()
]


@pytest.mark.parametrize(("name", "words", "expected"), HEAD_CASES)
def test_compound_head_examples(name: str, words: str, expected: bool) -> None:
    wanted = tuple(w.strip() for w in words.split(",") if w.strip())
    assert (HEADS.words(name) == wanted) is expected


def test_a_compound_head_gives_way_to_another_items_name() -> None:
    alone = item_lexicon(("food", "water", "firewood"))
    assert alone.item_words["wood"] == alone.item_words["fire wood"] == 2
    both = item_lexicon(("firewood", "wood"))
    assert both.item_words["wood"] == 1 and both.item_words["firewood"] == 0
    two = item_lexicon(("olive oil", "motor oil"))
    assert "oil" not in two.item_words


def test_a_clipped_compound_names_it_only_with_a_count() -> None:
    lexicon = item_lexicon(("food", "water", "firewood"))
    assert lexicon.item_words["fire"] == 2 and "fire" in lexicon.weak_words
    assert item_lexicon(("firewood", "fire")).item_words["fire"] == 1


def test_the_shared_lexicon_file_is_read_once_for_any_number_of_item_sets(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from actparse.engine import rulefiles

    reads: list[object] = []
    real = rulefiles.read_document

    def counting(path: object) -> object:
        reads.append(path)
        return real(path)  # type: ignore[arg-type]

    item_lexicon(("moonfruit", "sky-rope"))
    monkeypatch.setattr(rulefiles, "read_document", counting)
    item_lexicon(("quill", "lantern", "parchment"))
    item_lexicon(("ember", "sail"))
    assert [p for p in reads if "lexicon.yaml" in str(p)] == []


def test_a_parsers_own_rules_reach_the_split_loop() -> None:
    zork = Rule(name="zork-refuses", tag="disagree", match="text-search", values=(r"\bzork\b",))
    custom = RuleSet((*corpus_tag_rules("chat").rules, zork))
    record = {
        "turns": [
            {"speaker": "a", "text": "i want the hats and you get the ball"},
            {"speaker": "b", "text": "zork"},
        ],
        "items": {"hat": 2, "ball": 1},
    }
    dialogue = dialogue_from_record(record)
    shipped = pipeline("chat").parse(dialogue)
    assert "disagree" not in shipped[1].tags
    parser = ChatParser(rules=custom)
    # The split loop's own tags (the act's reasons) come from the parser's rule set.
    acts = pipeline("chat", parser).parse(dialogue)
    assert acts[1].coarse == "disagree" and "disagree" in acts[1].tags
    splitter = parser._context(dialogue).splitter
    assert splitter is not None and splitter.rules is custom


def test_each_message_of_an_item_dialogue_is_tagged_once(monkeypatch: pytest.MonkeyPatch) -> None:
    record = {
        "turns": [
            {"speaker": "a", "text": "i want the hats and you get the ball"},
            {"speaker": "b", "text": "no , i need a hat"},
            {"speaker": "a", "text": "ok deal"},
        ],
        "items": {"hat": 2, "ball": 1},
    }
    dialogue = dialogue_from_record(record)
    parser = ChatParser()
    expected = [a.coarse for a in pipeline("chat", parser).parse(dialogue)]
    calls: list[str] = []
    real = RuleSet.tags

    def counting(self: RuleSet, *args: object, **kwargs: object) -> object:
        calls.append(str(args[1]))
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(RuleSet, "tags", counting)
    assert [a.coarse for a in pipeline("chat", parser).parse(dialogue)] == expected
    assert len(calls) == len(record["turns"])


def test_counts_are_not_searched_for_prices_in_an_item_dialogue(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from actparse.corpora.chat.prices import PriceTracker

    tracker = PriceTracker()
    listing = PriceTracker.listing(dialogue_from_record({"turns": [], "items": {"hat": 2}}))
    searched: list[object] = []
    real = tracker.finder.find

    def counting(*args: object) -> object:
        searched.append(args)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(tracker.finder, "find", counting)
    assert tracker.find("i want 2 hats and 1 ball", listing, marked_only=True) == []
    assert searched == []
    assert [m.value for m in tracker.find("2 hats for 20 euros", listing, True)] == [20.0]
    assert [m.value for m in tracker.find("2 hats for $20", listing, True)] == [20.0]
