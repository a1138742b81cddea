"""What the command prints is printed as it is (an id or a file name is never read as
rich markup) and says what is wrong in words, not in Python's."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from corpus_fixtures import CorpusFixtures
from typer.testing import CliRunner

from actparse.cli import app
from actparse.io.messages import describe

runner = CliRunner()
PYTHON_WORDING = (
    "object has no attribute",
    "index out of range",
    "not subscriptable",
    "has no len()",
    "indices must be integers",
    "is not iterable",
    "Errno",
    "Traceback",
)


def _casino(fixtures: CorpusFixtures, tmp_path: Path, speaker: str) -> Path:
    dialogues = json.loads((fixtures / "casino_20.json").read_text())
    dialogues[0]["chat_logs"][0]["id"] = speaker
    path = tmp_path / "casino.json"
    path.write_text(json.dumps(dialogues[:1]))
    return path


@pytest.mark.parametrize("speaker", ["[/x]", "[bold]agent[/bold]", "[link=x]y"], ids=str)
def test_an_id_that_looks_like_markup_is_printed_as_it_is(
    speaker: str, fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    result = runner.invoke(app, ["label", str(_casino(fixtures, tmp_path, speaker))])
    assert result.exit_code == 2
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"got {speaker!r}" in result.output


def test_a_file_name_that_looks_like_markup_is_printed_as_it_is(
    fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    out = tmp_path / "[bold]out.jsonl"
    source = str(fixtures / "craigslist_validation_20.jsonl")
    result = runner.invoke(app, ["label", source, "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert f"labelled 20 dialogues to {out}" in result.output


def test_the_parquet_install_hint_keeps_its_brackets(
    fixtures: CorpusFixtures, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # as if pyarrow were not installed
    source = str(fixtures / "craigslist_validation_20.jsonl")
    result = runner.invoke(app, ["label", source, "-o", str(tmp_path / "out.parquet")])
    assert result.exit_code == 2
    assert "pip install 'actparse[parquet]'" in result.output


def _hf(fixtures: CorpusFixtures) -> dict[str, Any]:
    with (fixtures / "craigslist_validation_20.jsonl").open() as fh:
        record: dict[str, Any] = json.loads(fh.readline())
    return record


SHAPES = [
    pytest.param(
        lambda r: {**r, "agent_info": []},
        "a field holds a list where an object was expected",
        id="list-for-object",
    ),
    pytest.param(
        lambda r: {**r, "agent_info": {**r["agent_info"], "Role": ["buyer"]}},
        "a list has fewer entries than the record needs",
        id="list-one-short",
    ),
    pytest.param(
        lambda r: {**r, "items": None},
        "a field holds null where an object or a list was expected",
        id="null-for-object",
    ),
    pytest.param(
        lambda r: {**r, "agent_turn": 5},
        "agent_turn must be a list, got a number",
        id="number-for-list",
    ),
    pytest.param(
        lambda r: {**r, "items": {**r["items"], "Title": 5}},
        "a field holds a number where an object or a list was expected",
        id="number-for-list-of-titles",
    ),
    pytest.param(
        lambda r: {k: v for k, v in r.items() if k != "items"},
        "missing field 'items'",
        id="missing-field",
    ),
]


@pytest.mark.parametrize(("make", "words"), SHAPES)
@pytest.mark.parametrize("on_error", ["stop", "keep"])
def test_a_record_of_the_wrong_shape_is_described_in_words(
    make: Any, words: str, on_error: str, fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    source = tmp_path / "bad.jsonl"
    source.write_text(json.dumps(make(_hf(fixtures))) + "\n")
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["label", str(source), "-o", str(out), "--on-error", on_error])
    if on_error == "stop":
        assert result.exit_code == 2
        told = result.output
    else:
        assert result.exit_code == 1, result.output  # its one record could not be labelled
        told = json.loads(out.read_text())["actparse_error"]
    assert f"bad.jsonl:1: {words}" in told
    assert not any(python in told for python in PYTHON_WORDING), told


@pytest.mark.parametrize(
    ("error", "words"),
    [
        pytest.param(
            AttributeError("'list' object has no attribute 'get'"),
            "a field holds a list where an object was expected",
            id="attribute-error",
        ),
        pytest.param(
            IndexError("list index out of range"),
            "a list has fewer entries than the record needs",
            id="index-error",
        ),
        pytest.param(
            TypeError("'NoneType' object is not iterable"),
            "a field holds null where a list was expected",
            id="not-iterable",
        ),
        pytest.param(
            TypeError("unhashable type: 'dict'"),
            "a field holds an object where a single value was expected",
            id="unhashable",
        ),
        pytest.param(
            OverflowError("cannot convert float infinity to integer"),
            "a number is infinite",
            id="infinity",
        ),
        pytest.param(KeyError("agent_turn"), "missing field 'agent_turn'", id="key-error"),
        pytest.param(RecursionError(), "nested too deeply to read", id="recursion"),
        pytest.param(
            OSError(28, "No space left on device", "out.jsonl"),
            "out.jsonl: no space left on device",
            id="os-error",
        ),
        pytest.param(
            ValueError("agent_turn 3 must be agent 0 or 1, got 7"),
            "agent_turn 3 must be agent 0 or 1, got 7",
            id="own-words-kept",
        ),
    ],
)
def test_describe_turns_python_wording_into_words(error: BaseException, words: str) -> None:
    assert describe(error).startswith(words)


def test_one_dialogue_is_counted_in_the_singular(fixtures: CorpusFixtures, tmp_path: Path) -> None:
    source = tmp_path / "one.jsonl"
    source.write_text((fixtures / "craigslist_validation_20.jsonl").read_text().splitlines()[0])
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["label", str(source), "-o", str(out), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert f"labelled 1 dialogue to {out}" in result.output
