"""The shared variant rules of item names (rules/splits/variants.yaml)."""

from __future__ import annotations

import pytest

from actparse.corpora.splits.variants import (
    load_variant_rules,
    near_spellings,
    parse_variant_rules,
    variant_words,
)
from actparse.engine.rulefiles import RuleError

RULES = load_variant_rules()
NEAR = RULES.near
EDIT_CASES = [
    pytest.param(edit, word, near, expected, id=f"{edit}:{'+-'[not expected]}{near}")
    for edit in NEAR.edits
    for expected, pairs in (
        (True, NEAR.edit_examples[edit]),
        (False, NEAR.edit_counterexamples[edit]),
    )
    for word, near in pairs.items()
]


@pytest.mark.parametrize(("edit", "word", "near", "expected"), EDIT_CASES)
def test_near_spelling_edit_examples(edit: str, word: str, near: str, expected: bool) -> None:
    assert (near in near_spellings(word, [edit])) is expected


def test_every_edit_has_examples_and_counterexamples() -> None:
    for edit in NEAR.edits:
        assert NEAR.edit_examples[edit] and NEAR.edit_counterexamples[edit], edit


HEADS = RULES.compound_heads(RULES.compound_example_heads)
HEAD_CASES = [
    pytest.param(name, words, expected, id=f"{'+-'[not expected]}{name}")
    for pairs, expected in ((HEADS.examples, True), (HEADS.counterexamples, False))
    for name, words in pairs.items()
]


@pytest.mark.parametrize(("name", "words", "expected"), HEAD_CASES)
def test_compound_head_examples(name: str, words: str, expected: bool) -> None:
    wanted = tuple(w.strip() for w in words.split(",") if w.strip())
    assert (HEADS.words(name) == wanted) is expected


def test_variant_words_keep_the_floor() -> None:
    found = variant_words({"hat": 0, "book": 1, "water": 2}, set(), NEAR)
    assert not any(found[w] == 0 for w in found)  # "hat" is below every floor
    assert found["bok"] == 1 and "bookk" not in found  # four letters: double-letter-once only
    assert found["watr"] == found["watter"] == found["wtaer"] == 2


def test_variant_words_edit_one_word_of_a_spaced_compound() -> None:
    found = variant_words({"fire wood": 0}, set(), NEAR)
    assert found["fire wod"] == found["fier wood"] == 0
    assert "firew ood" not in found and "fir ewood" not in found


def test_variant_words_take_no_word_of_the_lexicon_and_no_shared_one() -> None:
    found = variant_words({"water": 0, "waters": 0, "wate": 1}, {"watr"}, NEAR)
    assert "watr" not in found  # a word of the lexicon's classes
    assert "waters" not in found and "wate" not in found  # item words stay the items'
    # "bots" is "boats" with a letter dropped and "boots" with its double letter once.
    two = variant_words({"boats": 0, "boots": 1}, set(), NEAR)
    assert "bots" not in two and two["baots"] == 0 and two["bootts"] == 1


def test_an_unknown_edit_or_key_fails_naming_the_file() -> None:
    doc = {
        "near_spellings": {"min_length": 5, "edits": [{"name": "letter-eaten", "examples": {}}]},
        "compound_heads": {
            "min_rest": 3,
            "example_heads": [],
            "examples": {},
            "counterexamples": {},
        },
    }
    with pytest.raises(RuleError, match=r"variants\.yaml.*letter-eaten"):
        parse_variant_rules(doc, "variants.yaml")
    with pytest.raises(RuleError, match=r"variants\.yaml"):
        parse_variant_rules({**doc, "plurals": []}, "variants.yaml")
