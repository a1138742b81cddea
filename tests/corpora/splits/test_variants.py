"""The shared variant rules of item names (rules/splits/variants.yaml)."""

from __future__ import annotations

import pytest

from actparse.corpora.splits.lexicon import LEXICON_FILE, SplitLexicon, parse_split_lexicon
from actparse.corpora.splits.variants import (
    load_variant_rules,
    near_spellings,
    parse_variant_rules,
    variant_words,
)
from actparse.engine.rulefiles import RuleError, load_file

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
    # The floor counts the letters of the name, as variant_words does.
    edits = NEAR.edits_for(sum(ch.isalpha() for ch in word), [edit])
    assert (near in near_spellings(word, edits)) is expected


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


# --------------------------------------------------------------------------------------
# The setting near_spellings of a split lexicon
# --------------------------------------------------------------------------------------


def _lexicon(items: list[dict[str, object]], edits: object) -> SplitLexicon:
    doc, source = load_file(None, LEXICON_FILE, lambda d, s: (d, s))
    spec = {"items": items, "near_spellings": edits}
    return parse_split_lexicon(doc, source, spec, "test/splits.yaml", "test")


def test_a_lexicon_reads_the_near_spellings_of_its_names_by_the_edits_it_names() -> None:
    lexicon = _lexicon(
        [
            {"name": "book", "words": ["book", "books", "novel"]},
            {"name": "firewood", "words": ["firewood", "fire wood"], "weak_words": ["fires"]},
        ],
        ["double-letter-once", "letter-dropped", "letter-replaced"],
    )
    words = lexicon.item_words
    assert words["bok"] == words["boks"] == 0 and words["fire woof"] == words["firwood"] == 1
    assert "novl" not in words  # a synonym's slips are too often other words
    assert "fies" not in words and "fires" in lexicon.weak_words  # nor a weak word's
    assert "bookk" not in words  # letter-doubled is not named
    assert {"bok", "fire woof"} <= lexicon.variants and "book" not in lexicon.variants
    # A near-spelling that is a word of a class of the lexicon is no item word.
    assert "sme" not in _lexicon([{"name": "some", "words": ["some"]}], ["letter-dropped"]).variants


def test_a_near_spelling_two_names_make_names_neither() -> None:
    lexicon = _lexicon(
        [{"name": "boats", "words": ["boats"]}, {"name": "boots", "words": ["boots"]}],
        ["letter-dropped", "double-letter-once"],
    )
    assert "bots" not in lexicon.item_words and lexicon.item_words["bats"] == 0


def test_a_lexicon_without_the_setting_has_no_near_spelling() -> None:
    assert not _lexicon([{"name": "water", "words": ["water"]}], []).variants


def test_an_unknown_edit_in_a_lexicon_fails_naming_its_file() -> None:
    with pytest.raises(RuleError, match=r"test/splits\.yaml.*letter-eaten"):
        _lexicon([{"name": "water", "words": ["water"]}], ["letter-eaten"])
