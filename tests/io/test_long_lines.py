"""Issue 28: a line longer than a stated limit is an error, and reading goes on.

Before: a 1.5 GB line inside a 1.4 MB ``.gz`` was read whole, and under a 4 GB memory
limit the run ended in a ``MemoryError`` traceback with nothing written. Now a line is
read with a bound (:data:`~actparse.io.lines.MAX_LINE_BYTES`, ``--max-line-bytes``): a
longer one is an error record (keep) or an error (stop) naming the file and the line,
its bytes are skipped without being held, and the next line is read. The tests set the
bound to 1 MiB and write a 20 MB line, for speed.
"""

from __future__ import annotations

import csv
import gzip
import json
import tracemalloc
from pathlib import Path

import pytest
from corpus_fixtures import CorpusFixtures
from typer.testing import CliRunner

from actparse.cli import app
from actparse.io.lines import MAX_LINE_BYTES, count_filled_lines, decoded_lines

runner = CliRunner()
LIMIT = 1 << 20
LONG = 20_000_000
TOO_LONG = f"line longer than {LIMIT:,} bytes"


def _gzip(path: Path, lines: list[bytes]) -> Path:
    with gzip.open(path, "wb", compresslevel=1) as fh:
        for line in lines:
            fh.write(line + b"\n")
    return path


def _long_record() -> bytes:
    return b'{"utterance": ["' + b"a" * LONG + b'"]}'


def _long_line(kind: str) -> bytes:
    if kind == "craigslist":
        return _long_record()
    return b"<input> " + b"1 " * (LONG // 2) + b"</input>"


def _inputs(fixtures: CorpusFixtures, tmp_path: Path, kind: str, at: int = 1) -> Path:
    """A ``.gz`` of three records whose line ``at + 1`` is 20 MB long."""
    name = "craigslist_validation_20.jsonl" if kind == "craigslist" else "dealornodeal_val_20.txt"
    text = (fixtures / name).read_text(encoding="utf-8")
    lines = [line.encode("utf-8") for line in text.splitlines()[:3]]
    lines[at] = _long_line(kind)
    return _gzip(tmp_path / f"{kind}.gz", lines)


def _run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, [*args, "--max-line-bytes", str(LIMIT)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, " ".join(result.output.split())


def _records(out: Path) -> list[dict]:
    return [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]


@pytest.mark.usefixtures("tasks_of_one")
@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("at", [0, 1, 2])
@pytest.mark.parametrize("kind", ["craigslist", "dealornodeal"])
def test_keep_writes_an_error_record_for_a_long_line_and_reads_on(
    kind: str, at: int, jobs: str, fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    path = _inputs(fixtures, tmp_path, kind, at)
    out = tmp_path / "out.jsonl"
    code, output = _run("label", str(path), "-o", str(out), "--on-error", "keep", "--jobs", jobs)
    assert code == 0, output
    records = _records(out)
    assert len(records) == 3
    assert ["actparse_error" in r for r in records] == [k == at for k in range(3)]
    error = records[at]["actparse_error"]
    size = len(_long_line(kind))
    assert error.startswith(f"{path}:{at + 1}: {TOO_LONG} ({size:,} bytes, not read)"), error
    assert "--max-line-bytes" in error
    assert records[at]["actparse_input"] == ""


@pytest.mark.usefixtures("tasks_of_one")
@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("kind", ["craigslist", "dealornodeal"])
def test_stop_names_the_file_and_line_of_a_long_line(
    kind: str, jobs: str, fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    path = _inputs(fixtures, tmp_path, kind)
    out = tmp_path / "out.jsonl"
    code, output = _run("label", str(path), "-o", str(out), "--jobs", jobs)
    assert code == 2, output
    assert f"error: {path}:2: {TOO_LONG}" in output
    assert not out.exists()


def test_the_option_raises_the_limit(fixtures: CorpusFixtures, tmp_path: Path) -> None:
    path = _inputs(fixtures, tmp_path, "dealornodeal")
    result = runner.invoke(app, ["label", str(path), "--max-line-bytes", str(2 * LONG)])
    assert result.exit_code == 2  # read, then refused by the reader: not as too long
    output = " ".join(result.output.split())
    assert TOO_LONG not in output and f"{path}:2: no <dialogue>" in output, output


@pytest.mark.parametrize("command", ["eval", "report", "train-prices"])
def test_every_command_that_reads_names_a_long_line(
    command: str, fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    if command == "report":
        pytest.importorskip("plotly")
    path = _inputs(fixtures, tmp_path, "craigslist")
    args = {
        "eval": ["eval", str(path)],
        "report": ["report", str(path), "-o", str(tmp_path / "r.html")],
        "train-prices": ["train-prices", str(path), "-o", str(tmp_path / "lex.json")],
    }[command]
    code, output = _run(*args)
    assert code == 2, output
    assert f"error: {path}:2: {TOO_LONG}" in output


def test_a_long_line_is_never_held(tmp_path: Path) -> None:
    """Reading a 20 MB line with a 1 MiB bound holds a few MB at most (tracemalloc's peak)."""
    path = _gzip(tmp_path / "long.gz", [b"{}", _long_record(), b"{}"])
    tracemalloc.start()
    try:
        with gzip.open(path, "rb") as fh:
            lines = [(x.number, x.error is None) for x in decoded_lines(fh, "f", LIMIT)]
        with gzip.open(path, "rb") as fh:
            count = count_filled_lines(fh, LIMIT)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert lines == [(1, True), (2, False), (3, True)]
    assert count == 3
    assert peak < 6 * LIMIT < LONG, peak


def test_the_default_limit_is_the_documented_one() -> None:
    docs = (Path(__file__).parents[2] / "docs" / "large-inputs.md").read_text(encoding="utf-8")
    assert MAX_LINE_BYTES == 64 * 1024 * 1024
    assert "64 MiB" in docs and "--max-line-bytes" in docs


@pytest.mark.usefixtures("tasks_of_one")
@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("mode", ["keep", "stop"])
def test_a_long_line_ends_a_json_list_never_skipped(
    mode: str, jobs: str, fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    """A JSON list cannot skip a line: the rest is one error, never a dialogue lost unsaid.

    Before the fix of this case the list read on without the line, and its dialogue was
    gone with exit status 0."""
    dialogues = json.loads((fixtures / "casino_20.json").read_text(encoding="utf-8"))[:3]
    dialogues[1]["chat_logs"][0]["text"] = "a" * LONG
    path = tmp_path / "casino.json"
    path.write_text("[\n" + ",\n".join(json.dumps(d) for d in dialogues) + "\n]\n")
    out = tmp_path / "out.jsonl"
    code, output = _run("label", str(path), "-o", str(out), "--on-error", mode, "--jobs", jobs)
    expected = f"{path}:3: {TOO_LONG}"
    if mode == "stop":
        assert code == 2 and f"error: {expected}" in output, output
        return
    assert code == 0, output
    records = _records(out)
    assert len(records) == 2 and "actparse_error" not in records[0]
    assert records[1]["actparse_error"].startswith(expected)
    assert records[1]["actparse_error"].endswith("dialogue 2 on is not read")


def _csv(path: Path, texts: list[str]) -> Path:
    rows = [
        {"dialogue_id": f"d{k}", "speaker": "A", "text": text, "turn": 1}
        for k, text in enumerate(texts)
    ]
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


def test_a_csv_field_past_csvs_own_limit_is_read(tmp_path: Path) -> None:
    """A 200 KB field (csv's default limit is 128 KiB): the file was refused whole."""
    path = _csv(tmp_path / "t.csv", ["hello", "x" * 200_000, "bye"])
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["label", str(path), "-o", str(out), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert len(_records(out)) == 3


@pytest.mark.parametrize("mode", ["keep", "stop"])
def test_a_csv_line_past_the_bound_stops_naming_it(mode: str, tmp_path: Path) -> None:
    """A row may span lines, so the rows after a line not read cannot be told: the file stops
    there, naming the line, in keep mode too, never holding the line."""
    path = _csv(tmp_path / "t.csv", ["hello", "x" * (2 * LIMIT), "bye"])
    out = tmp_path / "out.jsonl"
    code, output = _run("label", str(path), "-o", str(out), "--on-error", mode, "--jobs", "1")
    assert code == 2, output
    assert f"error: {path}:3: line longer than {LIMIT:,} bytes (not read)" in output
