"""CSV in: a table read row by row, each row one record numbered by its line.

A ``.csv`` (or ``.csv.gz``) input is read with :class:`csv.DictReader`, the header
naming the fields (line 1), so every value is text (an empty cell is ``""``). Rows are
read as they come (a quoted field may span lines: a row is numbered by the line it
starts on), and the format is told from the first row, as for Parquet.
"""

from __future__ import annotations

import csv
import gzip
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from actparse.errors import InputError
from actparse.io.sources import cannot_tell, detect_at

__all__ = ["is_csv", "iter_csv_rows", "open_csv"]


def is_csv(path: str | Path) -> bool:
    """Whether a path names a CSV file (``.csv``, or ``.csv.gz`` compressed)."""
    return str(path).endswith((".csv", ".csv.gz"))


def open_csv(path: str | Path) -> IO[str]:
    """A CSV file opened for :mod:`csv` (``newline=""``: line breaks inside quoted fields)."""
    if str(path).endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8-sig", newline="")
    return open(path, encoding="utf-8-sig", newline="")


#: The longest cell read (the csv module's own default, 131,072 characters, refused a
#: whole file for one long utterance): what a C long holds on every platform.
FIELD_LIMIT = 2**31 - 1


def iter_csv_rows(path: str | Path, fmt: str = "auto") -> Iterator[tuple[int, str, dict[str, Any]]]:
    """``(line, format, record)`` for every row of a CSV file, the header being line 1."""
    if csv.field_size_limit() < FIELD_LIMIT:
        csv.field_size_limit(FIELD_LIMIT)
    try:
        with open_csv(path) as fh:
            reader = csv.DictReader(fh)
            found: str | None = None if fmt == "auto" else fmt
            end = 1  # the line the previous row (the header first) ended on
            for row in reader:
                line, end = end + 1, reader.line_num
                if None in row:
                    raise InputError(
                        f"{path}:{line}: {len(reader.fieldnames or ()) + len(row[None])} "
                        f"fields, and the header names {len(reader.fieldnames or ())}"
                    )
                if found is None:
                    found = detect_at(row, f"{path}:{line}")
                    if found is None:
                        raise cannot_tell(str(path), line, row)
                yield line, found, row
    except (csv.Error, UnicodeDecodeError, OSError, EOFError) as err:
        raise InputError(f"{path}: not a readable CSV file: {err}") from None
