"""CSV in: a table read row by row, each row one record numbered by its line.

A ``.csv`` (or ``.csv.gz``) input is read with :class:`csv.DictReader`, the header
naming the fields (line 1), so every value is text (an empty cell is ``""``). Rows are
read as they come (a quoted field may span lines: a row is numbered by the line it
starts on), and the format is told from the first row, as for Parquet. A line is read
with the bound of :mod:`actparse.io.lines` (a field may be as long): a longer one stops
the file with an error naming it. A cell (or a column name) that begins with a ``'`` and
then a character a spreadsheet takes for a formula has that ``'`` taken off
(:func:`~actparse.io.csv_cells.unguard`): the per-turn CSV actparse writes reads back as
it was made, as does a spreadsheet's own.
"""

from __future__ import annotations

import csv
import gzip
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from actparse.errors import InputError
from actparse.io.csv_cells import unguard
from actparse.io.lines import max_line_bytes
from actparse.io.sources import cannot_tell, detect_at

__all__ = ["bounded_lines", "is_csv", "iter_csv_rows", "open_csv"]


def is_csv(path: str | Path) -> bool:
    """Whether a path names a CSV file (``.csv``, or ``.csv.gz`` compressed)."""
    return str(path).endswith((".csv", ".csv.gz"))


def open_csv(path: str | Path) -> IO[str]:
    """A CSV file opened for :mod:`csv` (``newline=""``: line breaks inside quoted fields)."""
    if str(path).endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8-sig", newline="")
    return open(path, encoding="utf-8-sig", newline="")


def bounded_lines(fh: IO[str], name: str, bound: int) -> Iterator[str]:
    """The lines of a text file for :mod:`csv`, none longer than ``bound`` characters held.

    A longer line is an :class:`InputError` naming it: a row may span lines, so the rows after
    it cannot be told apart, and the file stops there, as an unreadable CSV does."""
    number = 0
    while line := fh.readline(bound + 1):
        number += 1
        if len(line) > bound and not line.endswith(("\n", "\r")):
            raise InputError(
                f"{name}:{number}: line longer than {bound:,} bytes (not read); "
                "--max-line-bytes raises the limit"
            )
        yield line


class _CountedLines:
    """The lines of a file, counted, with where the row being read began.

    csv counts the lines a row ended on; an error must name the line it begins on, past
    blank lines (which csv skips) and before a quoted field's own line breaks.
    """

    def __init__(self, lines: Iterator[str]) -> None:
        self._lines = lines
        self.number = 0
        #: The line the row being read began on (``None`` until a line of it is read).
        self.start: int | None = None

    def __iter__(self) -> _CountedLines:
        return self

    def __next__(self) -> str:
        line = next(self._lines)
        self.number += 1
        if self.start is None and line.rstrip("\r\n"):
            self.start = self.number
        return line


def iter_csv_rows(
    path: str | Path, fmt: str = "auto"
) -> Iterator[tuple[int, str, dict[str, Any], str | None]]:
    """``(line, format, record, error)`` for every row of a CSV file, the header being line 1.

    ``error`` says what is wrong with a row that has more cells than the header names
    (``None`` for a good row): the row is still there, its extra cells under
    ``actparse_input``, so that keep mode writes it back with the error, the rows after it
    read on."""
    try:
        bound = max_line_bytes()
        # A field may be as long as a line (csv's own default is 128 KiB).
        csv.field_size_limit(max(csv.field_size_limit(), bound))
        with open_csv(path) as fh:
            lines = _CountedLines(bounded_lines(fh, str(path), bound))
            reader = csv.DictReader(lines)
            if reader.fieldnames is not None:
                reader.fieldnames = [unguard(name) for name in reader.fieldnames]
            found: str | None = None if fmt == "auto" else fmt
            lines.start = None
            for row in reader:
                line, lines.start = lines.start or lines.number, None
                error = None
                extra = row.pop(None, None)
                if extra is not None:
                    named = len(reader.fieldnames or ())
                    error = (
                        f"{path}:{line}: {named + len(extra)} fields, and the header names {named}"
                    )
                # A short row's missing cells are None (DictReader's restval): left as they are.
                row = {k: v if v is None else unguard(v) for k, v in row.items()}
                if found is None:
                    found = detect_at(row, f"{path}:{line}")
                    if found is None:
                        raise cannot_tell(str(path), line, row)
                if extra is not None:
                    row["actparse_input"] = extra
                yield line, found, row, error
    except (csv.Error, UnicodeDecodeError, OSError, EOFError) as err:
        raise InputError(f"{path}: not a readable CSV file: {err}") from None
