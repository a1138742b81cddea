"""Records nested too deep or holding numbers too large, on every command (issue 28).

A record may nest at most ``MAX_NESTING`` deep and hold integers of at most 4,300 digits
(:mod:`actparse.io.bounds`); a number read as a float must fit one. Past a bound the
record is an error naming its file and line: ``label --on-error keep`` writes it as an
error record and every other record labelled (``--jobs 1`` and ``2``); ``--on-error
stop``, ``eval``, ``report`` and ``train-prices`` stop with that message, status 2, never
a traceback. Nesting within the bound survives every path (workers receive it pickled).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from corpus_fixtures import FIXTURES
from typer.testing import CliRunner

from actparse.cli import app
from actparse.io.batch import Item, label_items
from actparse.io.bounds import MAX_NESTING

runner = CliRunner()
DEEP = 100_000
TOO_DEEP = f"nested more than {MAX_NESTING} deep"
TOO_LONG = "an integer of more than 4,300 digits"
TOO_LARGE = "a number is too large"


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def _hf() -> list[str]:
    return (FIXTURES / "craigslist_validation_20.jsonl").read_text().splitlines()[:3]


def _elements(name: str) -> list[str]:
    return [json.dumps(r) for r in json.loads((FIXTURES / name).read_text())[:3]]


def _with_field(record: str, json_text: str) -> str:
    """A JSON object's text with a field ``extra`` first, holding ``json_text``."""
    return record.replace("{", '{"extra": ' + json_text + ", ", 1)


def _hf_target(value: int) -> str:
    record = json.loads(_hf()[1])
    record["agent_info"]["Target"][0] = value
    return json.dumps(record)


def _cocoa_target(value: int) -> str:
    record = json.loads(_elements("craigslist_transcripts_20.json")[1])
    record["scenario"]["kbs"][0]["personal"]["Target"] = value
    return json.dumps(record)


def _lines(*lines: str) -> str:
    return "\n".join(lines) + "\n"


def _list(*elements: str) -> str:
    return "[\n" + ",\n".join(elements) + "\n]\n"


#: id: (file name, content, the line the error names, what it says).
CASES: dict[str, tuple[str, str, str, str]] = {
    "deep-first-line": (
        "t.jsonl",
        _lines(_with_field("{}", _nested(DEEP)).replace(", }", "}"), *_hf()),
        "1",
        TOO_DEEP,
    ),
    "deep-middle-line": (
        "t.jsonl",
        _lines(_hf()[0], _with_field(_hf()[1], _nested(DEEP)), _hf()[2]),
        "2",
        TOO_DEEP,
    ),
    "middle-line-past-the-bound-json-reads": (
        "t.jsonl",
        _lines(_hf()[0], _with_field(_hf()[1], _nested(500)), _hf()[2]),
        "2",
        TOO_DEEP,
    ),
    "deep-casino-element": (
        "t.json",
        _list(
            *(lambda e: [e[0], _with_field(e[1], _nested(DEEP)), e[2]])(_elements("casino_20.json"))
        ),
        r"\d+: dialogue 2",
        TOO_DEEP,
    ),
    "deep-cocoa-element": (
        "t.json",
        _list(
            *(lambda e: [e[0], _nested(DEEP), e[2]])(_elements("craigslist_transcripts_20.json"))
        ),
        r"\d+: dialogue 2",
        TOO_DEEP,
    ),
    "hf-target-10-400": (
        "t.jsonl",
        _lines(_hf()[0], _hf_target(10**400), _hf()[2]),
        "2",
        TOO_LARGE,
    ),
    "hf-5000-digit-integer": (
        "t.jsonl",
        _lines(_hf()[0], _with_field(_hf()[1], "9" * 5000), _hf()[2]),
        "2",
        TOO_LONG,
    ),
    "cocoa-target-10-400": (
        "t.json",
        _list(
            *(lambda e: [e[0], _cocoa_target(10**400), e[2]])(
                _elements("craigslist_transcripts_20.json")
            )
        ),
        "2",
        TOO_LARGE,
    ),
    "5000-digit-integer-in-a-list-element": (
        "t.json",
        _list(
            *(lambda e: [e[0], _with_field(e[1], "7" * 5000), e[2]])(_elements("casino_20.json"))
        ),
        r"\d+: dialogue 2",
        TOO_LONG,
    ),
    "5000-digit-integer-as-a-list-element": (
        "t.json",
        _list(*(lambda e: [e[0], "7" * 5000, e[2]])(_elements("casino_20.json"))),
        r"\d+: dialogue 2",
        TOO_LONG,
    ),
}
PARAMS = [pytest.param(*case, id=name) for name, case in CASES.items()]


def _write(tmp_path: Path, name: str, content: str) -> Path:
    path = tmp_path / name
    path.write_text(content)
    return path


def _run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output and "RecursionError" not in result.output
    return result.exit_code, " ".join(result.output.split())


@pytest.mark.usefixtures("tasks_of_one")
@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize(("name", "content", "line", "problem"), PARAMS)
def test_keep_writes_the_record_as_an_error_and_labels_the_others(
    name: str, content: str, line: str, problem: str, jobs: str, tmp_path: Path
) -> None:
    path = _write(tmp_path, name, content)
    out = tmp_path / "out.jsonl"
    code, output = _run("label", str(path), "-o", str(out), "--on-error", "keep", "--jobs", jobs)
    assert code == 0, output
    records = [json.loads(text) for text in out.read_text().splitlines()]
    errors = [r["actparse_error"] for r in records if "actparse_error" in r]
    count = len(content.splitlines()) if name.endswith(".jsonl") else 3
    assert len(records) == count and len(errors) == 1, errors
    assert problem in errors[0]
    assert re.match(rf"{path}:{line}[:;]", errors[0]), errors[0]


@pytest.mark.usefixtures("tasks_of_one")
@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize(("name", "content", "line", "problem"), PARAMS)
def test_stop_names_file_and_line(
    name: str, content: str, line: str, problem: str, jobs: str, tmp_path: Path
) -> None:
    path = _write(tmp_path, name, content)
    out = tmp_path / "out.jsonl"
    code, output = _run("label", str(path), "-o", str(out), "--jobs", jobs)
    assert code == 2 and problem in output, output
    assert re.search(rf"error: {path}:{line}[:;]", output), output
    assert not out.exists()


def _commands(path: Path, tmp_path: Path) -> list[list[str]]:
    commands = [["report", str(path), "-o", str(tmp_path / "r.html")]]
    if path.name.endswith(".jsonl") or "casino" in path.read_text()[:2000]:
        commands.append(["eval", str(path)])
    if "scenario" in path.read_text()[:20000] or path.name.endswith(".jsonl"):
        commands.append(["train-prices", str(path), "-o", str(tmp_path / "lex.json")])
    return commands


@pytest.mark.parametrize(("name", "content", "line", "problem"), PARAMS)
def test_eval_report_and_train_prices_name_file_and_line(
    name: str, content: str, line: str, problem: str, tmp_path: Path
) -> None:
    path = _write(tmp_path, name, content)
    for command in _commands(path, tmp_path):
        code, output = _run(*command)
        assert code == 2 and problem in output, (command, output)
        assert re.search(rf"error: {path}:{line}[:;]", output), output


@pytest.mark.usefixtures("tasks_of_one")
@pytest.mark.parametrize("jobs", [1, 2])
def test_nesting_within_the_bound_survives_every_path(jobs: int, tmp_path: Path) -> None:
    """A CaSiNo dialogue with a field nested as deep as allowed goes to a worker (pickled),
    is labelled, written back as JSON, and reads back the same."""
    deep: Any = []
    for _ in range(MAX_NESTING - 2):  # the record and its field are two levels
        deep = [deep]
    elements = json.loads((FIXTURES / "casino_20.json").read_text())[:3]
    elements[1]["extra"] = deep
    path = tmp_path / "t.json"
    path.write_text(json.dumps(elements))
    out = tmp_path / "out.jsonl"
    code, output = _run("label", str(path), "-o", str(out), "--jobs", str(jobs))
    assert code == 0, output
    written = [json.loads(text) for text in out.read_text().splitlines()]
    assert written[1]["extra"] == deep
    for command in _commands(path, tmp_path):
        assert _run(*command)[0] == 0, command


@pytest.mark.parametrize("digits", [401, 5001])
def test_keep_writes_a_record_json_cannot_hold(digits: int) -> None:
    """A record handed over in Python (the API) with an integer too large for a float, or
    for JSON text (past 4,300 digits), is still one error record, not a crash."""
    record: dict[str, Any] = json.loads(_hf()[0])
    record["agent_info"]["Target"][0] = 10 ** (digits - 1)
    (outcome,) = label_items([Item("<api>", 1, "hf", raw=record)], on_error="keep")
    kept = json.loads(outcome.line)
    assert outcome.error is not None and kept["actparse_error"].startswith("<api>:1: ")
    assert TOO_LARGE in kept["actparse_error"]


@pytest.mark.parametrize("mode", ["keep", "stop"])
@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_a_parquet_column_nested_too_deep_names_the_file(
    mode: str, suffix: str, tmp_path: Path
) -> None:
    """pyarrow reads no Parquet schema nested past 100: the file is refused, by name."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    rows = [json.loads(line) for line in _hf()]
    deep: Any = 1
    for _ in range(150):
        deep = [deep]
    for row in rows:
        row["extra"] = deep
    path = tmp_path / "t.parquet"
    pq.write_table(pa.Table.from_pylist(rows), path)
    out = tmp_path / f"out{suffix}"
    code, output = _run("label", str(path), "-o", str(out), "--on-error", mode)
    assert code == 2 and f"error: {path}: not a readable Parquet file" in output, output


def _turn_table(value: int) -> str:
    rows = [
        {"dialogue_id": "a", "speaker": "buyer", "text": "would you take $40?", "turn": value},
        {"dialogue_id": "a", "speaker": "seller", "text": "no", "turn": 2},
        {"dialogue_id": "b", "speaker": "buyer", "text": "ok", "turn": 1},
    ]
    return _lines(*map(json.dumps, rows))


@pytest.mark.usefixtures("tasks_of_one")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_turn_table_turn_too_large_costs_its_dialogue_only(jobs: str, tmp_path: Path) -> None:
    path = _write(tmp_path, "t.jsonl", _turn_table(10**400))
    out = tmp_path / "out.jsonl"
    code, output = _run("label", str(path), "-o", str(out), "--on-error", "keep", "--jobs", jobs)
    assert code == 0, output
    rows = [json.loads(text) for text in out.read_text().splitlines()]
    assert [bool(r.get("actparse_error")) for r in rows] == [True, True, False]
    assert rows[0]["actparse_error"].startswith(f"{path}:1: turn must be a number")
    code, output = _run("label", str(path), "-o", str(out), "--jobs", jobs)
    assert code == 2 and f"error: {path}:1: turn must be a number" in output


def test_eval_a_reference_price_too_large_names_file_and_line(tmp_path: Path) -> None:
    record = json.loads(_hf()[1])
    record["dialogue_acts"]["price"][0] = 10**400
    path = _write(tmp_path, "t.jsonl", _lines(_hf()[0], json.dumps(record), _hf()[2]))
    for command in _commands(path, tmp_path):
        code, output = _run(*command)
        # The reference reader names the field too: "dialogue_acts.price[0]: 401-digit ...".
        assert code == 2 and f"error: {path}:2: dialogue_acts.price[0]" in output, output
        assert "too large" in output and "Traceback" not in output, (command, output)


def test_the_api_refuses_a_record_nested_too_deep() -> None:
    from actparse import InputError, label_record

    record: dict[str, Any] = json.loads(_hf()[0])
    deep: Any = []
    for _ in range(500):
        deep = [deep]
    with pytest.raises(InputError, match=TOO_DEEP):
        label_record({**record, "extra": deep})


@pytest.mark.usefixtures("tasks_of_one")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_convokit_folder_with_a_deep_and_a_long_utterance_line(jobs: str, tmp_path: Path) -> None:
    import shutil

    folder = tmp_path / "corpus"
    fixture = Path(__file__).parents[1] / "corpora" / "chat" / "fixtures" / "convokit_corpus"
    shutil.copytree(fixture, folder)
    utterances = folder / "utterances.jsonl"
    lines = utterances.read_text().splitlines()
    lines[1] = _with_field(lines[1], _nested(DEEP))
    lines[2] = _with_field(lines[2], "9" * 5000)
    utterances.write_text(_lines(*lines))
    out = tmp_path / "labelled"
    result = runner.invoke(
        app, ["label", str(folder), "-o", str(out), "--on-error", "keep", "--jobs", jobs]
    )
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    lines = (out / "actparse_errors.jsonl").read_text().splitlines()
    found = [json.loads(line)["error"] for line in lines]
    assert len(found) == 2 and TOO_DEEP in found[0] and TOO_LONG in found[1], found
    stopped = str(tmp_path / "stopped")
    for command in (["label", str(folder), "-o", stopped, "--jobs", jobs], ["eval", str(folder)]):
        code, output = _run(*command)
        assert code == 2 and f"{utterances}:2: {TOO_DEEP}" in output, output
