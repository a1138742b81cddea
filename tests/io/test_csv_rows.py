"""A CSV table's rows are read whole or named as wrong, never silently cut or run together.

Two inputs were read without a word: a quoted field never closed took the rest of the
file as its text (the dialogues after it gone, their prices read as the row's), and a
row with fewer cells than the header had the cells it lacks read as null (a turn with no
text, labelled ``unknown``). Each is now an error naming its line, as a row with more
cells was: an error row in keep mode, the run's error otherwise. Every quoted field that
is closed reads as :class:`csv.DictReader` read it.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from actparse.cli import app
from actparse.errors import InputError
from actparse.io.csv_rows import iter_csv_rows

runner = CliRunner()

HEADER = "dialogue_id,speaker,text\n"
#: The newcomer's file: row 2's quote is never closed, so d2 became its text.
UNCLOSED = HEADER + 'd1,ann,hi\nd1,bob,"I offer $50, final\nd2,ann,hello\nd2,bob,$70?\n'
NEVER_CLOSED = (
    "a quoted field opened here is never closed; the rest of the file would be read as its text"
)


def _rows(table: str) -> list[tuple[int, dict[str, object], str | None]]:
    """``(line, record, error)`` of each row of a table read as a stream named ``t.csv``."""
    rows = iter_csv_rows(io.StringIO(table, newline=""), "turns", "t.csv")
    return [(line, record, error) for line, _, record, error in rows]


def _label(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["label", *args, "--jobs", "1"])
    return result.exit_code, result.stdout, result.stderr


# ---------------------------------------------------------------------------------------
# A quoted field never closed
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "opened"),
    [
        pytest.param(UNCLOSED, 3, id="the-newcomers-file"),
        pytest.param(HEADER + 'd1,ann,hi\nd1,bob,"I offer\nd2,ann,hello', 3, id="no-last-line-end"),
        pytest.param(UNCLOSED.replace("\n", "\r\n") + "\r\n", 3, id="crlf-and-a-blank-line"),
        pytest.param(UNCLOSED.replace("\n", "\r"), 3, id="old-mac-line-ends"),
        pytest.param(HEADER + 'd1,ann,hi\nd1,bob,"oops\n', 3, id="opened-on-the-last-line"),
        pytest.param(HEADER + 'd1,ann,hi\nd1,bob,"', 3, id="a-lone-quote-ends-the-file"),
        pytest.param(HEADER + '\n\nd1,bob,"a ""b""\nc\n', 4, id="past-blank-lines-doubled-quotes"),
        pytest.param(
            HEADER + 'd1,"b\nob","I said\nmore\n', 3, id="after-a-closed-field-over-lines"
        ),
        pytest.param(HEADER + 'd1,bob,x,"y\nz\n', 2, id="in-a-cell-past-the-header"),
    ],
)
def test_a_quoted_field_never_closed_names_the_line_it_opened_on(table: str, opened: int) -> None:
    *before, (_, record, error) = _rows(table)
    assert error == f"t.csv:{opened}: {NEVER_CLOSED}"
    assert all(error is None for _, _, error in before)
    assert record["dialogue_id"] == "d1"  # the row is still there, for keep mode


def test_a_header_never_closed_stops_the_file() -> None:
    with pytest.raises(InputError, match=f"^t.csv:1: {NEVER_CLOSED}$"):
        _rows('dialogue_id,speaker,"text\nd1,ann,hi\n')


@pytest.mark.parametrize(
    ("table", "where"),
    [
        pytest.param("dialogue_id,speaker,text,text\nd1,ann,hi,x\n", "t.csv:1", id="text-twice"),
        pytest.param("\n\nx,y,x\n1,2,3\n", "t.csv:3", id="past-blank-lines"),
        pytest.param("a,=b,'=b\n1,2,3\n", "t.csv:1", id="one-name-guarded-once"),
    ],
)
def test_a_header_naming_a_column_twice_stops_the_file(table: str, where: str) -> None:
    # A row keeps one field per name: the first column's cells were lost without a word.
    with pytest.raises(InputError, match=f"^{where}: the column .* is named twice"):
        _rows(table)


def test_unnamed_columns_at_the_end_of_a_spreadsheets_lines_are_let_be() -> None:
    """A spreadsheet's export ends its lines with empty columns (``text,,``): not one
    column "named twice", which would refuse such files."""
    rows = _rows("dialogue_id,speaker,text,,\nd1,a,I offer $5,,\nd1,b,ok,,\n")
    assert [record["text"] for _, record, _ in rows] == ["I offer $5", "ok"]


@pytest.mark.parametrize(
    "table",
    [
        pytest.param(HEADER + 'd1,A,"Hi,\nI want\r\n2 books"\nd1,B,ok\n', id="lines-in-quotes"),
        pytest.param(HEADER + 'd1,A,"I said ""$50"", final"\nd1,B,"""ok"""\n', id="doubled"),
        pytest.param(HEADER + 'd1,A,hi\nd1,B,"ok $5\nthen"', id="closed-as-the-file-ends"),
        pytest.param(HEADER + 'd1,A,hi\n\n\nd1,B,"a\n\nb"\n\n', id="blank-lines-in-and-out"),
        pytest.param(HEADER + 'd1,A,he said "hi" to me\nd1,B,5" tv\n', id="quotes-in-a-cell"),
        # csv's strict mode refuses this row ("',' expected after '\"'"): it is why the
        # unclosed field is told by the end of the input, strict mode left off.
        pytest.param(HEADER + 'd1,A,"Deal" is what I said\n', id="text-after-a-closing-quote"),
        pytest.param(HEADER.replace("\n", "\r") + 'd1,A,"a\rb"\r', id="old-mac-in-quotes"),
    ],
)
def test_a_closed_quoted_field_reads_as_csv_dictreader_reads_it(table: str) -> None:
    rows = _rows(table)
    expected = list(csv.DictReader(io.StringIO(table, newline="")))
    assert [record for _, record, _ in rows] == expected
    assert all(error is None for _, _, error in rows)


# ---------------------------------------------------------------------------------------
# A row with fewer cells than the header names
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("row", "error", "record"),
    [
        pytest.param(
            "d1,bob",
            "2 fields, and the header names 3",
            {"dialogue_id": "d1", "speaker": "bob", "text": None},
            id="one-cell-short",
        ),
        pytest.param(
            "d1",
            "1 field, and the header names 3",
            {"dialogue_id": "d1", "speaker": None, "text": None},
            id="one-cell",
        ),
        pytest.param(
            "   ",
            "1 field, and the header names 3",
            {"dialogue_id": "   ", "speaker": None, "text": None},
            id="spaces-are-a-cell",
        ),
        pytest.param(
            "d1,bob,hi,there",
            "4 fields, and the header names 3",
            {"dialogue_id": "d1", "speaker": "bob", "text": "hi", "actparse_input": ["there"]},
            id="one-cell-long-as-before",
        ),
    ],
)
def test_a_row_with_a_cell_count_not_the_headers_is_an_error(
    row: str, error: str, record: dict[str, object]
) -> None:
    rows = _rows(HEADER + "d1,ann,hi\n" + row + "\nd1,ann,ok\n")
    assert rows == [
        (2, {"dialogue_id": "d1", "speaker": "ann", "text": "hi"}, None),
        (3, record, f"t.csv:3: {error}"),
        (4, {"dialogue_id": "d1", "speaker": "ann", "text": "ok"}, None),
    ]


def test_blank_lines_are_no_rows() -> None:
    rows = _rows("\n".join([HEADER.strip(), "", "d1,ann,hi", "", "", "d1,bob,ok", "", ""]))
    assert [(line, error) for line, _, error in rows] == [(3, None), (6, None)]


# ---------------------------------------------------------------------------------------
# Through the command line: a file, a .csv.gz, each mode
# ---------------------------------------------------------------------------------------


BAD_TABLES = [
    pytest.param(UNCLOSED, f"3: {NEVER_CLOSED}", 2, id="quote-never-closed"),
    pytest.param(
        HEADER + "d1,ann,hi\nd1,bob\nd2,ann,hello\n",
        "3: 2 fields, and the header names 3",
        3,
        id="row-one-cell-short",
    ),
]


@pytest.mark.parametrize("suffix", [".csv", ".csv.gz"])
@pytest.mark.parametrize(("table", "error", "rows"), BAD_TABLES)
def test_label_stops_naming_the_line(
    tmp_path: Path, table: str, error: str, rows: int, suffix: str
) -> None:
    path = tmp_path / f"t{suffix}"
    data = table.encode()
    path.write_bytes(gzip.compress(data) if suffix == ".csv.gz" else data)
    code, stdout, stderr = _label(str(path))
    assert (code, stdout) == (2, "")
    assert stderr == f"error: {path}:{error}\n"


@pytest.mark.parametrize(("table", "error", "rows"), BAD_TABLES)
def test_keep_mode_writes_the_rows_back_with_the_error(
    tmp_path: Path, table: str, error: str, rows: int
) -> None:
    path = tmp_path / "t.csv"
    path.write_text(table, encoding="utf-8")
    code, stdout, _ = _label(str(path), "--on-error", "keep")
    written = [json.loads(line) for line in stdout.splitlines()]
    assert len(written) == rows  # one output row per row read
    # d1 (its rows 2 and 3) could not be read whole: written back, its error on each row.
    assert [r["actparse_error"] for r in written[:2]] == [f"{path}:{error}"] * 2
    assert all("actparse" in r for r in written[2:])
    assert code == (1 if rows == 2 else 0)  # 1: no dialogue could be labelled
