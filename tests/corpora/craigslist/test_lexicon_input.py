"""A price lexicon that is wrong but readable is refused with a message naming the file
(and the key), from the library and from ``--lexicon``; never a traceback, never
accepted silently."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from corpus_fixtures import CorpusFixtures
from typer.testing import CliRunner

from actparse.cli import app
from actparse.corpora.craigslist.lexicon import load_lexicon
from actparse.engine.rulefiles import RuleError

runner = CliRunner()
GOOD = {"left": {"$": 3, "<s>": 0}, "right": {"</s>": 2}}

CASES = [
    pytest.param(
        json.dumps({"left": {"$": None}, "right": {"x": 1}}),
        r"lex\.json: left\['\$'\]: a count must be a whole number .*got null",
        id="null-count",
    ),
    pytest.param(
        '{"left": {"$": Infinity}, "right": {"x": 1}}',
        r"lex\.json: left\['\$'\]: a count must be a whole number .*got inf",
        id="inf-count",
    ),
    pytest.param(
        '{"left": {"$": 1}, "right": {"x": NaN}}',
        r"lex\.json: right\['x'\]: a count must be a whole number .*got nan",
        id="nan-count",
    ),
    pytest.param(
        json.dumps({"left": {"$": -4}, "right": {"x": 1}}),
        r"lex\.json: left\['\$'\]: a count must be a whole number .*got -4",
        id="negative-count",
    ),
    pytest.param(
        '{"left": {"$": 1' + "0" * 400 + '}, "right": {"x": 1}}',
        r"lex\.json:1: the integer 1000.* \(401 characters\) is too large",
        id="count-10**400",
    ),
    pytest.param(
        '{"left": {"$": 1' + "0" * 5000 + '}, "right": {"x": 1}}',
        r"lex\.json:1: the integer 1000.* \(5,001 characters\) is too large",
        id="count-of-5000-digits",
    ),
    pytest.param(
        json.dumps({"left": {"$": 1.5}, "right": {"x": 1}}),
        r"lex\.json: left\['\$'\]: a count must be a whole number .*got 1\.5",
        id="fractional-count",
    ),
    pytest.param(
        json.dumps({"left": {"$": True}, "right": {"x": 1}}),
        r"lex\.json: left\['\$'\]: a count must be a whole number .*got true or false",
        id="boolean-count",
    ),
    pytest.param(
        json.dumps({"left": {"$": "7"}, "right": {"x": 1}}),
        r"lex\.json: left\['\$'\]: a count must be a whole number .*got 7",
        id="count-as-text",
    ),
    pytest.param(
        json.dumps({"left": {}, "right": {}}),
        r"lex\.json: 'left' has no contexts, so no bare number would ever be a price",
        id="empty",
    ),
    pytest.param(
        json.dumps({"left": {"$": 1}, "right": {}}),
        r"lex\.json: 'right' has no contexts",
        id="empty-right",
    ),
    pytest.param(
        json.dumps({"left": [], "right": {"x": 1}}),
        r"lex\.json: 'left' must be an object of contexts and counts, got a list",
        id="list-as-side",
    ),
    pytest.param(
        json.dumps(
            {"format": "actparse-price-lexicon/1", "provenance": [1, 2], **GOOD},
        ),
        r"lex\.json: 'provenance' must be an object .*got a list",
        id="list-as-provenance",
    ),
    pytest.param(
        '{"left": {"$": 1}, "right": {"x": 1}, "note": ' + "[" * 100_000 + "]" * 100_000 + "}",
        r"lex\.json:1: nested more than 100 deep",
        id="deep-nesting",
    ),
    pytest.param("null", r"lex\.json: not a price lexicon .*got null", id="null-document"),
    pytest.param("[1, 2]", r"lex\.json: not a price lexicon .*got a list", id="list-document"),
    pytest.param("hello", r"lex\.json:1: not valid JSON: Expecting value", id="not-json"),
    pytest.param(
        "\ufeff" + json.dumps(GOOD),
        r"lex\.json:1: starts with a byte order mark \(BOM\)",
        id="bom",
    ),
    pytest.param(
        b'{"left": {"$": 1},\n "right": {"x\xff": 1}}',
        r"lex\.json:2: not UTF-8 text",
        id="invalid-utf8",
    ),
]


def _write(tmp_path: Path, content: str | bytes, name: str = "lex.json") -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


@pytest.mark.parametrize(("content", "message"), CASES)
def test_load_lexicon_names_the_file_and_the_problem(
    content: str | bytes, message: str, tmp_path: Path
) -> None:
    with pytest.raises(RuleError, match=message):
        load_lexicon(_write(tmp_path, content))


@pytest.mark.parametrize(("content", "message"), CASES)
def test_the_lexicon_option_fails_with_the_message_and_no_traceback(
    content: str | bytes, message: str, tmp_path: Path, fixtures: CorpusFixtures
) -> None:
    lexicon = _write(tmp_path, content)
    source = str(fixtures / "craigslist_validation_20.jsonl")
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["label", source, "--lexicon", str(lexicon), "-o", str(out)])
    assert result.exit_code == 2
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.output.startswith("error: ") and re.search(message, result.output)
    assert "Traceback" not in result.output
    assert not out.exists() and not list(tmp_path.glob(".*.part"))


def test_a_lexicon_is_json_whatever_its_name(tmp_path: Path) -> None:
    with pytest.raises(RuleError, match=r"lex\.txt:1: not valid JSON"):
        load_lexicon(_write(tmp_path, "left: {a: 1}\nright: {b: 1}\n", "lex.txt"))
    assert load_lexicon(_write(tmp_path, json.dumps(GOOD), "lex.txt")).left == {"$", "<s>"}


def test_a_good_lexicon_still_loads_with_zero_counts(tmp_path: Path) -> None:
    # 0: a context calibration added that weak supervision never saw.
    lexicon = load_lexicon(_write(tmp_path, json.dumps(GOOD)))
    assert lexicon.left_counts == {"$": 3, "<s>": 0} and lexicon.right == {"</s>"}
