"""The split lexicon files (the shared rules/splits/lexicon.yaml and each corpus'
rules/<corpus>/splits.yaml): found, loaded once per corpus, and every mistake in them
named by file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from actparse.corpora.splits.claims import parse_split
from actparse.corpora.splits.lexicon import CORPUS_FILE, LEXICON_FILE, load_split_lexicon
from actparse.engine.rulefiles import RuleError, shipped

DOND = load_split_lexicon("dealornodeal")
CASINO = load_split_lexicon("casino")


def test_shipped_lexicon_is_found_and_loads_for_both_corpora() -> None:
    assert shipped(*LEXICON_FILE).is_file()
    assert shipped("casino", CORPUS_FILE).is_file()
    assert shipped("dealornodeal", CORPUS_FILE).is_file()
    assert DOND.items == ("book", "hat", "ball")
    assert CASINO.items == ("food", "water", "firewood")
    assert DOND.unnamed == "opposite" and CASINO.unnamed == "running"


def _lexicon_text() -> str:
    return shipped(*LEXICON_FILE).read_text(encoding="utf-8")


def _casino_text() -> str:
    return shipped("casino", CORPUS_FILE).read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        pytest.param(
            lambda t: t.replace("  self: [i]\n", "  self: [i]\n  selff: [me]\n"),
            r"bad\.yaml:\d+: words: unknown key\(s\) \['selff'\]",
            id="unknown-word-class",
        ),
        pytest.param(
            lambda t: t.replace("  self: [i]\n", ""),
            r"bad\.yaml:\d+: words: missing class\(es\) \['self'\]",
            id="missing-word-class",
        ),
        pytest.param(
            lambda t: t + "\ncorpora: {}\n",
            r"bad\.yaml:1: the lexicon: unknown key\(s\) \['corpora'\]",
            id="corpus-part-in-the-shared-file",
        ),
        pytest.param(lambda t: t + "\n  - [", r"bad\.yaml:\d+: not valid YAML", id="bad-yaml"),
    ],
)
def test_bad_lexicons_name_file_and_line(tmp_path: Path, edit, message: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "bad.yaml"
    path.write_text(edit(_lexicon_text()), encoding="utf-8")
    with pytest.raises(RuleError, match=message):
        load_split_lexicon("casino", path)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        pytest.param(
            lambda t: t.replace("unnamed: running", "unnamed: sideways"),
            r"bad\.yaml:\d+: casino\.unnamed must be one of",
            id="bad-setting",
        ),
        pytest.param(
            lambda t: t.replace("words: [food, foods,", "words: [water, food, foods,"),
            r"bad\.yaml:\d+: word 'water' names two items",
            id="word-names-two-items",
        ),
        pytest.param(
            lambda t: t.replace("bare_noun: none", "bare_nouns: none"),
            r"bad\.yaml:\d+: the lexicon of casino: unknown key\(s\) \['bare_nouns'\]",
            id="unknown-key",
        ),
        pytest.param(lambda t: t + "\n  - [", r"bad\.yaml:\d+: not valid YAML", id="bad-yaml"),
    ],
)
def test_bad_corpus_parts_name_file_and_line(tmp_path: Path, edit, message: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "bad.yaml"
    path.write_text(edit(_casino_text()), encoding="utf-8")
    with pytest.raises(RuleError, match=message):
        load_split_lexicon("casino", corpus_path=path)


def test_a_corpus_without_a_part_is_named() -> None:
    with pytest.raises(RuleError, match=r"rules/craigslist/splits\.yaml: no split lexicon"):
        load_split_lexicon("craigslist")


def test_the_shipped_lexicon_is_built_once_per_corpus() -> None:
    assert load_split_lexicon("casino") is CASINO
    assert load_split_lexicon("dealornodeal") is DOND


def test_a_lexicon_file_is_read_anew_for_each_call(tmp_path: Path) -> None:
    path = tmp_path / "lexicon.yaml"
    path.write_text(_lexicon_text(), encoding="utf-8")
    first = load_split_lexicon("casino", path)
    assert first == CASINO and first is not load_split_lexicon("casino", path)
    part = tmp_path / "splits.yaml"
    part.write_text(_casino_text(), encoding="utf-8")
    assert load_split_lexicon("casino", corpus_path=part) == CASINO


@pytest.mark.parametrize("text", ["I want ² water", "give me ⅔ of the food", "٣ books"])
def test_unusual_digits_do_not_crash(text: str) -> None:
    """Superscripts and vulgar fractions are digits to str.isdigit but not to int()."""
    lexicon = load_split_lexicon("casino")
    parse_split(text, lexicon, (3, 3, 3))
