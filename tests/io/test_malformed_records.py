"""Malformed records of every built-in format: a required field missing, or holding a
number where a list belongs, a list where a string belongs, or null. The reader raises
an ``InputError`` naming the field, never a bare ``KeyError`` or ``TypeError``, and
``label --on-error keep`` writes the record back with its ``actparse_error``."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from corpus_fixtures import FIXTURES
from typer.testing import CliRunner

from actparse import registry
from actparse.cli import app
from actparse.errors import InputError
from actparse.io.records import parse_text_line

MISSING = object()


def _first(name: str) -> dict[str, Any]:
    if name.endswith(".txt"):
        line = (FIXTURES / name).read_text().splitlines()[0]
        return parse_text_line(line, name, 1, "dealornodeal")
    if name.endswith(".jsonl"):
        return json.loads((FIXTURES / name).read_text().splitlines()[0])  # type: ignore[no-any-return]
    return json.loads((FIXTURES / name).read_text())[0]  # type: ignore[no-any-return]


#: format, fixture, whether the format is a JSON list, and per field (a path into the
#: record) the wrong values it is tried with.
FORMATS = {
    "hf": (
        "craigslist_validation_20.jsonl",
        False,
        {
            ("utterance",): ("missing", "number", "null"),
            ("utterance", 0): ("list",),
            ("agent_turn",): ("missing",),
        },
    ),
    "cocoa": (
        "craigslist_transcripts_20.json",
        True,
        {
            ("events",): ("missing", "number", "null"),
            ("events", 0, "data"): ("list",),
        },
    ),
    "casino": (
        "casino_20.json",
        True,
        {
            ("chat_logs",): ("missing", "number", "null"),
            ("chat_logs", 0, "text"): ("list",),
            ("chat_logs", 0, "id"): ("missing",),
        },
    ),
    "dealornodeal": (
        "dealornodeal_val_20.txt",
        False,
        {
            ("dialogue",): ("missing", "list", "null"),
            ("input", "count"): ("number",),
        },
    ),
    "mutualfriends": (
        "mutualfriends_handmade.jsonl",
        False,
        {
            ("events", "data_messages"): ("missing", "number", "null"),
            ("scenario_kbs",): ("missing",),
        },
    ),
}
VALUES: dict[str, Any] = {"missing": MISSING, "number": 5, "list": ["x"], "null": None}

CASES = [
    pytest.param(fmt, path, kind, id=f"{fmt}-{'.'.join(map(str, path))}-{kind}")
    for fmt, (_name, _listed, fields) in FORMATS.items()
    for path, kinds in fields.items()
    for kind in kinds
]


def _broken(fmt: str, path: tuple[Any, ...], kind: str) -> dict[str, Any]:
    raw = copy.deepcopy(_first(FORMATS[fmt][0]))
    parent = raw
    for key in path[:-1]:
        parent = parent[key]
    if VALUES[kind] is MISSING:
        del parent[path[-1]]
    else:
        parent[path[-1]] = VALUES[kind]
    return raw


@pytest.mark.parametrize(("fmt", "path", "kind"), CASES)
def test_the_reader_raises_an_input_error_naming_the_field(
    fmt: str, path: tuple[Any, ...], kind: str
) -> None:
    reader = registry.handlers(fmt).reader
    with pytest.raises(InputError) as raised:
        reader(_broken(fmt, path, kind))
    field = next(key for key in reversed(path) if isinstance(key, str))
    assert field in str(raised.value)


@pytest.mark.parametrize(("fmt", "path", "kind"), CASES)
def test_label_keep_writes_it_back_with_its_error(
    fmt: str, path: tuple[Any, ...], kind: str, tmp_path: Path
) -> None:
    name, listed, _fields = FORMATS[fmt]
    records = [_broken(fmt, path, kind), _first(name)]
    source = tmp_path / ("in.json" if listed else "in.jsonl")
    if listed:
        source.write_text(json.dumps(records))
    else:
        source.write_text("".join(json.dumps(r) + "\n" for r in records))
    out = tmp_path / "out.jsonl"
    args = ["label", str(source), "-o", str(out), "-f", fmt, "-j", "1", "--on-error", "keep"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert [("actparse_error" in r) for r in written] == [True, False]
    assert written[0]["actparse_error"].startswith(f"{source}:1: ")
