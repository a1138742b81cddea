"""The per-turn CSV for spreadsheets (issue 28): every text cell from the input that a
spreadsheet would run as a formula gets a ``'`` before it (OWASP), ``--csv-raw`` writes it
as it is, and actparse reads its own table back as it was made."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest
from corpus_fixtures import CorpusFixtures
from hypothesis import given
from hypothesis import strategies as st

from actparse.io.csv_cells import TRIGGERS, guard, unguard
from actparse.io.turn_files import read_turn_table, write_turn_table
from actparse.io.turns import iter_turn_rows

#: A chat turn table whose every text cell begins with a trigger (or looks guarded).
TURNS = (
    "dialogue_id,speaker,text,=note\n"
    '=d1,+ann,"=HYPERLINK(""https://evil.example/phish"",""extlink"")",@x\n'
    "=d1,bob,-5 is my lowest,\tz\n"
    '=d1,+ann,\'=already quoted,"\rcr"\n'
    "=d1,bob,it's $20 and 'fine',plain\n"
)


def actparse(*args: str) -> subprocess.CompletedProcess[str]:
    """The command as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "actparse", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def cells(path: Path) -> list[dict[str, str]]:
    """The table as a spreadsheet gets it: the header, then a dict per row."""
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


@pytest.fixture
def turns(tmp_path: Path) -> Path:
    path = tmp_path / "t.csv"
    path.write_text(TURNS, encoding="utf-8", newline="")
    return path


# -- the rule -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ("=1+1", "'=1+1"),
        ("+44 20", "'+44 20"),
        ("-5", "'-5"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("'=1+1", "''=1+1"),  # the text's own ' before a trigger: one more, taken off on reading
        ("''-", "'''-"),
        ("'quoted'", "'quoted'"),  # any other ' is the text's own
        ("it's", "it's"),
        ("", ""),
        ("a=b", "a=b"),
        (" =1", " =1"),
    ],
)
def test_a_cell_is_guarded_by_its_first_character(cell: str, written: str) -> None:
    assert guard(cell) == written
    assert unguard(written) == cell


@given(st.text(alphabet=st.sampled_from(list(TRIGGERS + "'ab é")), max_size=8) | st.text())
def test_every_cell_reads_back_as_it_was_and_never_begins_with_a_trigger(cell: str) -> None:
    written = guard(cell)
    assert unguard(written) == cell
    assert not written.startswith(tuple(TRIGGERS))


# -- writing ------------------------------------------------------------------------------


def test_per_turn_csv_guards_every_text_cell_from_the_input(turns: Path, tmp_path: Path) -> None:
    out = tmp_path / "o.csv"
    result = actparse("label", str(turns), "--per-turn", "-o", str(out))
    assert result.returncode == 0, result.stderr
    rows = cells(out)
    assert list(rows[0])[-1] == "'=note"  # an input column's name
    assert [r["text"] for r in rows] == [
        '\'=HYPERLINK("https://evil.example/phish","extlink")',
        "'-5 is my lowest",
        "'=already quoted",  # the input's ' was a spreadsheet's guard: read off, then put back
        "it's $20 and 'fine'",
    ]
    assert {r["dialogue_id"] for r in rows} == {"'=d1"}
    assert [r["speaker"] for r in rows] == ["'+ann", "bob", "'+ann", "bob"]
    assert [r["'=note"] for r in rows] == ["'@x", "'\tz", "'\rcr", "plain"]
    # A number is no formula: the proposed price stays a number.
    assert rows[1]["price"] == "-5.0"
    for row in rows:
        assert not any(cell.startswith(tuple(TRIGGERS)) for cell in row.values() if cell != "-5.0")


def test_csv_raw_writes_text_as_it_is(turns: Path, tmp_path: Path) -> None:
    out = tmp_path / "o.csv"
    result = actparse("label", str(turns), "--per-turn", "--csv-raw", "-o", str(out))
    assert result.returncode == 0, result.stderr
    rows = cells(out)
    assert rows[0]["text"].startswith("=HYPERLINK(") and rows[0]["dialogue_id"] == "=d1"
    assert list(rows[0])[-1] == "=note"


@pytest.mark.parametrize(
    "asked",
    [["-o", "OUT.jsonl"], ["--per-turn", "-o", "OUT.parquet"], ["--per-turn"], ["-o", "OUT.csv"]],
    ids=["no-per-turn", "parquet", "stdout", "records-as-csv"],
)
def test_csv_raw_without_a_per_turn_csv_is_refused(
    asked: list[str], turns: Path, tmp_path: Path
) -> None:
    args = [a.replace("OUT", str(tmp_path / "out")) for a in asked]
    result = actparse("label", str(turns), "--csv-raw", *args)
    assert result.returncode == 2
    assert "--csv-raw applies to the per-turn CSV table only" in result.stderr
    assert list(tmp_path.glob("out*")) == []


def test_the_json_lines_and_parquet_tables_keep_text_as_it_is(turns: Path, tmp_path: Path) -> None:
    out = tmp_path / "o.jsonl"
    result = actparse("label", str(turns), "--per-turn", "-o", str(out))
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows[0]["text"].startswith("=HYPERLINK(") and rows[0]["=note"] == "@x"


# -- reading back -------------------------------------------------------------------------


def test_relabelling_the_csv_actparse_wrote_gives_the_same_table(
    turns: Path, tmp_path: Path
) -> None:
    first, second = tmp_path / "o.csv", tmp_path / "o2.csv"
    assert actparse("label", str(turns), "--per-turn", "-o", str(first)).returncode == 0
    result = actparse("label", str(first), "--per-turn", "-o", str(second))
    assert result.returncode == 0, result.stderr
    assert second.read_bytes() == first.read_bytes()  # same acts, same text, same guards
    again = list(read_turn_table(second))
    assert again[0]["text"] == '=HYPERLINK("https://evil.example/phish","extlink")'
    assert again[2]["text"] == "=already quoted"


def test_read_turn_table_gives_back_the_rows_written(
    fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    rows = list(iter_turn_rows(fixtures / "craigslist_validation_20.jsonl"))[:8]
    texts = ["=1+1", "+1", "-2", "@x", "\tt", "\rr", "'=q", "''+"]
    for row, text in zip(rows, texts):
        row["text"] = text
    rows[0]["dialogue_id"] = "=id"
    out = tmp_path / "o.csv"
    write_turn_table(rows, out)
    assert list(read_turn_table(out)) == rows
    assert all(not c.startswith(tuple(TRIGGERS)) for r in cells(out) for c in (r["text"],))


def test_a_table_written_raw_reads_back_too_unless_a_cell_looks_guarded(tmp_path: Path) -> None:
    rows = list(iter_turn_rows([{"turns": [{"speaker": "a", "text": "=x"}]}], corpus="chat"))
    out = tmp_path / "o.csv"
    write_turn_table(rows, out, csv_raw=True)
    assert [r["text"] for r in read_turn_table(out)] == ["=x"]


def test_a_short_row_is_read_without_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text("dialogue_id,speaker,text,note\nd,ann,'=hi\n", encoding="utf-8")
    result = actparse("label", str(path), "--per-turn", "-o", str(tmp_path / "o.jsonl"))
    assert "Traceback" not in result.stderr
    if result.returncode == 0:
        row = json.loads((tmp_path / "o.jsonl").read_text().splitlines()[0])
        assert row["text"] == "=hi"
