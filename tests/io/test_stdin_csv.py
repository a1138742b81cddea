"""A CSV table on standard input reads as the same table in a ``.csv`` file does.

``cat t.csv | actparse label -`` was refused ("this looks like a CSV table"), and with
``-f turns`` read as broken JSON. Standard input is now told to be a CSV table by its
first non-blank line, and what is written, and every error, is then the file's byte for
byte, the source named ``<stdin>`` instead of the file: the same line numbers, the same
bound on a line, the same keep mode. Every other input piped in reads as before.
"""

from __future__ import annotations

import codecs
import gzip
import io
import os
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest
from corpus_fixtures import FIXTURES
from typer.testing import CliRunner

from actparse.cli import app
from actparse.io.records import read_records

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()

HEADER = "dialogue_id,speaker,text\n"
TABLE = HEADER + "d1,A,Hi I want 2 books\nd1,B,ok deal\nd2,A,how about $5?\nd2,B,no\n"
#: A quoted field opened on line 4 and never closed: the rest of the input is its text.
UNCLOSED = TABLE + 'd3,A,"I offer $50, final\nd4,A,hello\nd4,B,$70?\n'
#: The input file's name, replaced by ``<stdin>`` to compare (no output name holds it).
NAME = "in.csv"


class Run(NamedTuple):
    """What one command did: its exit status, its two streams and the file it wrote."""

    code: int
    stdout: str
    stderr: str
    written: bytes


def _run(
    where: Path,
    args: list[str],
    stdin: bytes | None,
    out: str | None,
    monkeypatch: pytest.MonkeyPatch,
) -> Run:
    """``actparse`` run in ``where`` (outputs named alike in both runs), stdin given or not."""
    where.mkdir(exist_ok=True)
    monkeypatch.chdir(where)
    extra = [] if out is None else ["-o", out]
    if args[0] == "label" and "--jobs" not in args:
        # One process: a worker pool costs seconds a run; its path has cases of its own.
        extra += ["--jobs", "1"]
    result = runner.invoke(app, [*args, *extra], input=stdin)
    written = (where / out).read_bytes() if out is not None and (where / out).exists() else b""
    return Run(result.exit_code, result.stdout, result.stderr, written)


def _named_and_piped(
    tmp_path: Path,
    table: bytes,
    command: list[str],
    monkeypatch: pytest.MonkeyPatch,
    out: str | None = None,
    piped: bytes | None = None,
    name: str = NAME,
) -> tuple[Run, Run]:
    """The command on a file ``name``, its name then read as ``<stdin>``, and on ``-`` fed
    the same bytes (or ``piped``, the bytes as sent)."""
    named_dir = tmp_path / "named"
    named_dir.mkdir(parents=True)
    (named_dir / name).write_bytes(table)
    head, *rest = command
    named = _run(named_dir, [head, name, *rest], None, out, monkeypatch)
    stdin = table if piped is None else piped
    from_stdin = _run(tmp_path / "piped", [head, "-", *rest], stdin, out, monkeypatch)
    renamed = Run(
        named.code,
        named.stdout.replace(name, "<stdin>"),
        named.stderr.replace(name, "<stdin>"),
        named.written.replace(name.encode(), b"<stdin>"),
    )
    return renamed, from_stdin


CASES = [
    pytest.param(TABLE, [], id="plain"),
    pytest.param(TABLE, ["-f", "turns"], id="format-turns"),
    pytest.param(TABLE, ["--jobs", "2"], id="two-jobs"),
    pytest.param(HEADER + 'd1,A,"Hi,\nI want\r\n2 books"\nd1,B,ok deal\n', [], id="quoted-lines"),
    pytest.param(
        codecs.BOM_UTF8.decode() + TABLE.replace("\n", "\r\n"), [], id="byte-order-mark-crlf"
    ),
    pytest.param(TABLE.replace("\n", "\r"), [], id="old-mac-line-ends"),
    pytest.param("\n  \n" + TABLE, [], id="blank-lines-first"),
    pytest.param(TABLE + "d3,A,x,extra,cells\n", [], id="too-many-cells"),
    pytest.param(TABLE + "d3,A,x,extra\n", ["--on-error", "keep"], id="too-many-cells-keep"),
    pytest.param(
        TABLE + "d3,A,x,extra\n", ["--on-error", "keep", "--jobs", "2"], id="keep-two-jobs"
    ),
    pytest.param(TABLE + "d3,A," + "x" * 300 + "\n", ["--max-line-bytes", "200"], id="long-line"),
    pytest.param(TABLE + "d3,A\n", [], id="too-few-cells"),
    pytest.param(TABLE + "d3,A\n", ["--on-error", "keep"], id="too-few-cells-keep"),
    pytest.param(UNCLOSED, [], id="quote-never-closed"),
    pytest.param(UNCLOSED, ["--on-error", "keep"], id="quote-never-closed-keep"),
    pytest.param(UNCLOSED.replace("\n", "\r\n"), [], id="quote-never-closed-crlf"),
    pytest.param(HEADER + "nothing,to,tell\n", [], id="no-format-fits"),
]


@pytest.mark.usefixtures("tasks_of_one")
@pytest.mark.parametrize("out", [None, "out.jsonl"], ids=["stdout", "to-file"])
@pytest.mark.parametrize(("table", "args"), CASES)
def test_label_of_a_piped_table_is_the_files_byte_for_byte(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    table: str,
    args: list[str],
    out: str | None,
) -> None:
    named, piped = _named_and_piped(
        tmp_path, table.encode(), ["label", *args], monkeypatch, out=out
    )
    assert piped == named


def test_a_not_utf8_byte_deep_in_a_piped_table_is_the_files_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """csv reads text in chunks; the bytes read to tell the table do not move them."""
    rows = "".join(f"d{k},A,hello number {k}\n" for k in range(2000)).encode()
    table = HEADER.encode() + rows + b"d9,A,\xff\n" + rows
    named, piped = _named_and_piped(tmp_path, table, ["label"], monkeypatch)
    assert piped == named and piped.code == 2
    assert "<stdin>: not a readable CSV file: 'utf-8' codec can't decode byte 0xff" in piped.stderr


@pytest.mark.parametrize(
    ("table", "where", "codes"),
    [
        pytest.param(
            HEADER + 'd1,A,"one\ntwo"\n\nd1,B,x,extra\nd2,A,hi\n',
            "<stdin>:5: 4 fields, and the header names 3",
            (2, 0),
            id="long-row",
        ),
        # Not the last line, where csv met the end: the line to look at is where it opened.
        pytest.param(
            HEADER + 'd1,A,"one\ntwo"\n\nd1,B,"x\nd2,A,hi\nd2,B,$5\n',
            "<stdin>:5: a quoted field opened here is never closed",
            (2, 1),
            id="quote-never-closed",
        ),
    ],
)
@pytest.mark.parametrize("mode", ["stop", "keep"])
def test_a_bad_row_after_a_field_over_lines_is_named_by_its_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    table: str,
    where: str,
    codes: tuple[int, int],
    mode: str,
) -> None:
    _, piped = _named_and_piped(
        tmp_path, table.encode(), ["label", "--on-error", mode], monkeypatch
    )
    code = codes[0] if mode == "stop" else codes[1]
    assert piped.code == code and where in (piped.stderr if mode == "stop" else piped.stdout)


#: Three blank lines before the header (one of spaces): the header is line 4.
BLANK_FIRST = "\n  \n\r\n"


@pytest.mark.parametrize(
    ("table", "code", "said"),
    [
        pytest.param(BLANK_FIRST + TABLE, 0, "labelled 2 dialogues (4 rows)", id="good"),
        pytest.param(
            BLANK_FIRST + TABLE + "d3,A\n",
            2,
            "<stdin>:9: 2 fields, and the header names 3",
            id="too-few-cells",
        ),
        pytest.param(
            BLANK_FIRST + UNCLOSED,
            2,
            "<stdin>:9: a quoted field opened here is never closed",
            id="quote-never-closed",
        ),
        pytest.param(
            BLANK_FIRST + 'dialogue_id,speaker,"text\nd1,A,hi\n',
            2,
            "<stdin>:4: a quoted field opened here is never closed",
            id="header-quote-never-closed",
        ),
    ],
)
def test_blank_lines_before_the_header_are_skipped_and_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, table: str, code: int, said: str
) -> None:
    """The blank lines made an empty header, and every row then "cannot tell the format";
    they are skipped, and the lines named after them are still the file's own."""
    named, piped = _named_and_piped(tmp_path, table.encode(), ["label"], monkeypatch)
    assert piped == named
    assert piped.code == code and said in piped.stderr


@pytest.mark.parametrize(
    ("table", "code"),
    [
        pytest.param(TABLE, 0, id="good"),
        pytest.param(TABLE + "d3,A\n", 2, id="too-few-cells"),
        pytest.param(UNCLOSED, 2, id="quote-never-closed"),
    ],
)
def test_gzip_on_standard_input_reads_as_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, table: str, code: int
) -> None:
    data = table.encode()
    named, piped = _named_and_piped(
        tmp_path, data, ["label"], monkeypatch, piped=gzip.compress(data)
    )
    assert piped == named and piped.code == code


def test_the_per_turn_csv_written_from_a_pipe_reads_back_from_a_pipe(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    named, piped = _named_and_piped(
        tmp_path, TABLE.encode(), ["label", "--per-turn"], monkeypatch, out="turns.csv"
    )
    assert piped == named and piped.code == 0
    # The per-turn table actparse wrote is an input too (its guarded cells read back).
    for command, out in ((["label"], "out.jsonl"), (["label", "--per-turn"], "out.csv")):
        again_named, again_piped = _named_and_piped(
            tmp_path / out, piped.written, command, monkeypatch, out=out
        )
        assert again_piped == again_named and again_piped.code == 0, again_piped.stderr


@pytest.mark.parametrize("args", [[], ["--json"]], ids=["table", "json"])
def test_eval_of_a_piped_table_is_the_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    table = (
        "dialogue_id,speaker,text,reference_coarse\n"
        'd1,A,Hi I want 2 books,greet\nd1,B,ok deal,agree\nd2,A,"how about\n$5",propose\n'
    )
    named, piped = _named_and_piped(tmp_path, table.encode(), ["eval", *args], monkeypatch)
    assert piped == named and piped.code == 0


# ---------------------------------------------------------------------------------------
# Everything else piped in reads as it did
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fixture",
    [
        pytest.param("craigslist_validation_20.jsonl", id="json-lines-with-commas"),
        pytest.param("dealornodeal_val_20.txt", id="deal-or-no-deal-text"),
        pytest.param("casino_20.json", id="json-list"),
        pytest.param("mutualfriends_handmade_cocoa.json", id="cocoa-json-list"),
    ],
)
def test_other_inputs_piped_in_read_as_their_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fixture: str
) -> None:
    data = (FIXTURES / fixture).read_bytes()
    command = ["label", "--jobs", "1"]
    named, piped = _named_and_piped(tmp_path, data, command, monkeypatch, name=fixture)
    assert piped == named and piped.code == 0


def test_a_json_lines_turn_table_with_commas_stays_json_lines() -> None:
    rows = '{"dialogue_id": "d1", "speaker": "A", "text": "hi, there"}\n'
    result = runner.invoke(app, ["label", "-", "-f", "turns", "--jobs", "1"], input=rows)
    assert result.exit_code == 0, result.output
    assert '"text": "hi, there"' in result.stdout


def test_a_format_of_whole_records_reads_no_csv() -> None:
    """Only a turn-table format (or none given) has rows to read from a CSV table."""
    result = runner.invoke(app, ["label", "-", "-f", "hf", "--jobs", "1"], input=TABLE)
    assert result.exit_code == 2
    assert "<stdin>:1: not valid JSON" in result.output


def test_a_piped_table_streams_row_by_row(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first dialogue comes before standard input is read whole (nor held)."""

    class Rows(io.RawIOBase):
        """Rows of one-turn dialogues made as they are read; too much read fails the test."""

        def __init__(self) -> None:
            self.given = 0
            self._pending = HEADER.encode()
            self._next = 0

        def readable(self) -> bool:
            return True

        def readinto(self, buffer: memoryview) -> int:
            assert self.given < 4 << 20, "standard input read far past the first dialogue"
            while len(self._pending) < len(buffer):
                self._pending += f"d{self._next},A,hello\n".encode()
                self._next += 1
            size = len(buffer)
            buffer[:size] = self._pending[:size]
            self._pending = self._pending[size:]
            self.given += size
            return size

    rows = Rows()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(rows)))
    first = next(read_records("-"))
    assert (first.source, first.line, first.raw["turns"][0]["text"]) == ("<stdin>", 2, "hello")
    assert rows.given < 1 << 20


@pytest.mark.parametrize("sender", ["cat", "gzip -c"])
def test_a_real_pipe_gives_the_files_output(tmp_path: Path, sender: str) -> None:
    table = tmp_path / NAME
    table.write_text(TABLE, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "actparse", "label", "--jobs", "1"]

    def run(shell: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            ["bash", "-o", "pipefail", "-c", shell],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            timeout=120,
            check=False,
        )

    named = run(" ".join([*command, NAME]))
    piped = run(f"{sender} {NAME} | {' '.join(command)} -")
    assert piped.returncode == named.returncode == 0, piped.stderr
    assert piped.stdout == named.stdout and piped.stderr == named.stderr
