"""An output named ``.json`` is one JSON list, as Cocoa transcripts and CaSiNo's files are."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from corpus_fixtures import CorpusFixtures
from typer.testing import CliRunner

from actparse.cli import app
from actparse.io.output import JsonListSink, open_output
from actparse.io.turn_files import read_turn_table

runner = CliRunner()


def _label(*args: str) -> None:
    result = runner.invoke(app, ["label", *args])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(
    "name",
    ["casino_20.json", "craigslist_transcripts_20.json", "craigslist_validation_20.jsonl"],
)
def test_a_json_output_is_the_json_lines_records_as_one_list(
    fixtures: CorpusFixtures, tmp_path: Path, name: str
) -> None:
    """It was JSON lines under the ``.json`` name, which ``json.load`` refused."""
    lines, listed = tmp_path / "out.jsonl", tmp_path / "out.json"
    _label(str(fixtures / name), "-o", str(lines))
    _label(str(fixtures / name), "-o", str(listed))
    records = [json.loads(line) for line in lines.read_text(encoding="utf-8").splitlines()]
    assert json.loads(listed.read_text(encoding="utf-8")) == records
    # Labelled again, the list is the same list: actparse's own fields are replaced.
    again = tmp_path / "again.json"
    _label(str(listed), "-o", str(again))
    assert json.loads(again.read_text(encoding="utf-8")) == records


def test_a_json_gz_output_and_a_per_turn_json_output_are_lists_too(
    fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    source = str(fixtures / "dealornodeal_val_20.txt")
    packed = tmp_path / "out.json.gz"
    _label(source, "-o", str(packed))
    assert len(json.loads(gzip.decompress(packed.read_bytes()))) == 19
    rows, listed = tmp_path / "turns.jsonl", tmp_path / "turns.json"
    _label(source, "--per-turn", "-o", str(rows))
    _label(source, "--per-turn", "-o", str(listed))
    assert json.loads(listed.read_text(encoding="utf-8")) == list(read_turn_table(rows))
    assert list(read_turn_table(listed)) == list(read_turn_table(rows))


def test_no_records_is_an_empty_list(tmp_path: Path) -> None:
    empty, out = tmp_path / "empty.jsonl", tmp_path / "out.json"
    empty.write_text("", encoding="utf-8")
    _label(str(empty), "-o", str(out))
    assert out.read_text(encoding="utf-8") == "[]\n"


@pytest.mark.parametrize(
    ("writes", "elements"),
    [
        pytest.param(
            ['{"a": 1}', "\n", '{"b": 2}', "\n"], [{"a": 1}, {"b": 2}], id="a-line-a-write"
        ),
        pytest.param(['{"a": 1}\n{"b"', ": 2}\n"], [{"a": 1}, {"b": 2}], id="lines-across-writes"),
        pytest.param(['{"a": 1}'], [{"a": 1}], id="no-last-newline"),
        pytest.param(["\n\n"], [], id="only-newlines"),
        pytest.param(
            [*'{"a": [1, 2]}\n', *'{"b": 2}'], [{"a": [1, 2]}, {"b": 2}], id="char-by-char"
        ),
    ],
)
def test_the_sink_makes_each_line_one_element(
    tmp_path: Path, writes: list[str], elements: list[object]
) -> None:
    out = tmp_path / "out.json"
    with JsonListSink(open_output(out)) as sink:
        for text in writes:
            sink.write(text)
    assert json.loads(out.read_text(encoding="utf-8")) == elements


def test_a_failed_run_leaves_no_list_that_looks_whole(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    with pytest.raises(RuntimeError), JsonListSink(open_output(out)) as sink:
        sink.write('{"a": 1}\n')
        raise RuntimeError("stopped")
    assert list(tmp_path.iterdir()) == []
