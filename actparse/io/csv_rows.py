"""CSV in: a table read row by row, each row one record numbered by its line.

A ``.csv`` (or ``.csv.gz``) input is read with :func:`csv.reader`, the header naming
the fields (its first non-blank line), so every value is text (an empty cell is ``""``).
Rows are read as they come (a quoted field may span lines: a row is numbered by the line
it starts on; a blank line is no row, before the header too), and the format is told
from the first row, as for Parquet. A row with more or fewer cells than the header
names, and a quoted field never closed (the rest of the input would be its text), are
errors naming their line. A line is read with the bound of :mod:`actparse.io.lines` (a
field may be as long): a longer one stops the file with an error naming it. A cell (or a
column name) that begins with a ``'`` and then a character a spreadsheet takes for a
formula has that ``'`` taken off (:func:`~actparse.io.csv_cells.unguard`): the per-turn
CSV actparse writes reads back as it was made, as does a spreadsheet's own.

Standard input has no name to go by: it is a CSV table when its first non-blank line
looks like a header (:func:`looks_like_csv`), told by :func:`tell_csv` without losing a
byte of it, and is then read as a file is.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
import zlib
from collections.abc import Iterator
from contextlib import nullcontext
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, cast

from actparse import registry
from actparse.errors import InputError
from actparse.io.csv_cells import unguard
from actparse.io.detection import cannot_tell, check_column_names, detect_at
from actparse.io.lines import max_line_bytes, open_binary
from actparse.io.suffixes import has_suffix

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

__all__ = [
    "CsvRow",
    "bounded_lines",
    "csv_text",
    "is_csv",
    "iter_csv_rows",
    "looks_like_csv",
    "open_csv",
    "tell_csv",
]

#: A row as read: ``(line, format, record, error)``.
CsvRow = tuple[int, str, dict[str, Any], str | None]

#: A line end as the text read for csv ends a line (``newline=""``: ``\r\n``, ``\r``, ``\n``).
_LINE_END = re.compile(r"\r\n|\r|\n")


def is_csv(path: str | Path) -> bool:
    """Whether a path names a CSV file (``.csv``, or ``.csv.gz`` compressed)."""
    return has_suffix(path, ".csv", ".csv.gz")


def looks_like_csv(line: str) -> bool:
    """Whether the first non-blank line of an input looks like a CSV table's header.

    It has a comma, and opens no other layout: not ``{`` (a JSON object: any JSON lines
    record), ``[`` (a JSON list) nor a plain-text format's marker (Deal or No Deal's ``<``).

    >>> looks_like_csv("dialogue_id,speaker,text"), looks_like_csv('{"a": 1, "b": 2}')
    (True, False)
    """
    start = line.lstrip()[:1]
    return "," in line and start not in ("{", "[") and registry.text_format(start) is None


def csv_text(stream: IO[bytes] | io.BufferedIOBase) -> io.TextIOWrapper:
    """A binary stream read as text for :mod:`csv`.

    UTF-8, a byte order mark skipped; ``newline=""``, so that the line breaks inside a
    quoted field are the field's own."""
    # typeshed wants a stream with a name; TextIOWrapper asks for it only when asked its own.
    return io.TextIOWrapper(cast(IO[bytes], stream), encoding="utf-8-sig", newline="")


def open_csv(path: str | Path) -> io.TextIOWrapper:
    """A CSV file (``.gz`` decompressed) opened for :mod:`csv`, as :func:`csv_text` reads."""
    return csv_text(open_binary(path))


def tell_csv(stream: io.BufferedIOBase, fmt: str) -> tuple[io.BufferedIOBase, bool]:
    """Whether a stream with no name to go by (standard input) is a CSV table, and the stream.

    Told from its first non-blank line (:func:`looks_like_csv`) when ``fmt`` is ``auto`` or
    a format of turn tables (a ``row_key``): another format's records are no rows. The
    bytes read to tell (at most a line's bound) are put back in front of the rest, so
    whichever reader takes the stream reads it from its start; a failure met while telling
    (a truncated ``.gz``) is raised where it was met, when the reader gets there.
    """
    if fmt != "auto" and registry.format_spec(fmt).row_key is None:
        return stream, False
    held = bytearray()
    failure: Exception | None = None
    bound = max_line_bytes()
    try:
        while len(held) <= bound and (data := stream.readline(bound + 1)):
            held += data
            if data.strip():  # the first non-blank line (or as much of it as a line holds)
                break
    except (OSError, EOFError, zlib.error) as err:
        failure = err
    kept = bytes(held)
    # Its first line as csv splits lines: a lone carriage return ends one too (old Macs).
    first = kept.removeprefix(codecs.BOM_UTF8).lstrip().split(b"\r", 1)[0]
    replayed = io.BufferedReader(_Replayed(kept, stream, failure))
    return replayed, looks_like_csv(first.decode("utf-8", "replace"))


class _Replayed(io.RawIOBase):
    """A stream read again from its start: the bytes held while telling, then the rest.

    A failure reading the rest (a truncated ``.gz``), met while telling or later, is raised
    by the read after the bytes before it were given, as a file raises it.
    """

    def __init__(self, held: bytes, rest: io.BufferedIOBase, failure: Exception | None) -> None:
        super().__init__()
        self._held = memoryview(held)
        self._rest = rest
        self._failure = failure

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int:
        view = memoryview(buffer).cast("B")
        size = min(len(view), len(self._held))
        view[:size] = self._held[:size]
        self._held = self._held[size:]
        # The read that gives the last held bytes is filled up from the rest, as a file's
        # read is: the reads after it (one read of the rest each) then fall where a file's
        # do, so a text reader's decoding error names the same position.
        filling = size > 0
        while not self._held and size < len(view):
            if self._failure is not None:
                if size:
                    break
                raise self._failure
            try:
                data = self._rest.read1(len(view) - size)
            except (OSError, EOFError, zlib.error) as err:
                self._failure = err
                continue
            view[size : size + len(data)] = data
            size += len(data)
            if not data or not filling:
                break
        return size


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
        #: Whether a line was asked for past the last (:func:`_unclosed` says why it counts).
        self.ended = False

    def __iter__(self) -> _CountedLines:
        return self

    def __next__(self) -> str:
        try:
            line = next(self._lines)
        except StopIteration:
            self.ended = True
            raise
        self.number += 1
        if self.start is None and line.rstrip("\r\n"):
            self.start = self.number
        return line


def _unclosed(name: str, fields: list[str], lines: _CountedLines) -> str | None:
    """The error of a row only the end of the input ended (``None``: a line end ended it).

    csv ends a row at a line end outside quotes, and at the end of the input only when a
    quoted field is still open there, which it then ends as if closed (``strict`` mode
    raises instead, but also refuses text after a closing quote, ``"Deal" I said``, a row
    read today as ``Deal I said``). So a row given after csv asked for a line past the last
    holds a quoted field never closed: its last, the rest of the input its text. That text
    holds the line end of every line from the one it opened on, the last line's only when
    the input ends with one: counted back from the last line, they give the line it opened on.
    """
    if not lines.ended:
        return None
    text = fields[-1]
    opened = lines.number - len(_LINE_END.findall(text)) + int(text.endswith(("\n", "\r")))
    return (
        f"{name}:{opened}: a quoted field opened here is never closed; "
        "the rest of the file would be read as its text"
    )


def _blank(fields: list[str]) -> bool:
    """Whether a row read before the header is a blank line (empty, or spaces alone)."""
    return len(fields) <= 1 and not "".join(fields).strip()


def _record(
    fields: list[str], names: list[str], where: str
) -> tuple[dict[str, Any], list[str] | None, str | None]:
    """A row's record by the header's names, its cells past them, and a wrong count of cells.

    A cell is read with its spreadsheet guard taken off (:func:`unguard`); cells past the
    header's names are given as they are (they go back under ``actparse_input``). A row
    with fewer cells has the names it lacks ``None`` (as :class:`csv.DictReader` had them):
    it is an error too, since a cell a row lacks would read as no text, no id, no speaker.
    """
    record: dict[str, Any] = {column: unguard(cell) for column, cell in zip(names, fields)}
    for column in names[len(fields) :]:
        # Not over a cell the row has: a header may name a column twice.
        record.setdefault(column, None)
    extra = fields[len(names) :] or None
    if len(fields) == len(names):
        return record, extra, None
    counted = f"{len(fields)} field{'s' if len(fields) != 1 else ''}"
    return record, extra, f"{where}: {counted}, and the header names {len(names)}"


def iter_csv_rows(
    source: str | Path | IO[str], fmt: str = "auto", name: str | None = None
) -> Iterator[CsvRow]:
    """``(line, format, record, error)`` for every row of a CSV table, by the file's lines.

    ``source`` is a file's path, opened here, or a text stream open for :mod:`csv`
    (:func:`csv_text`: standard input), named ``name`` in messages (a path: itself).
    ``error`` says what is wrong with a row (``None`` for a good row): more or fewer cells
    than the header names, or a quoted field never closed. The row is still there (extra
    cells under ``actparse_input``), so that keep mode writes it back with the error, the
    rows after it read on. A header whose quoted field is never closed stops the file."""
    name = str(source) if name is None else name
    try:
        bound = max_line_bytes()
        # A field may be as long as a line (csv's own default is 128 KiB).
        csv.field_size_limit(max(csv.field_size_limit(), bound))
        opened = open_csv(source) if isinstance(source, (str, Path)) else nullcontext(source)
        with opened as fh:
            lines = _CountedLines(bounded_lines(fh, name, bound))
            rows = csv.reader(lines)
            # Blank lines before the header are skipped, as those between rows are: they are
            # still counted, so every line named after them is the file's own.
            header = next((fields for fields in rows if not _blank(fields)), None)
            if header is not None and (unclosed := _unclosed(name, header, lines)):
                raise InputError(unclosed)
            names = [unguard(column) for column in header or ()]
            check_column_names(names, f"{name}:{lines.start}")
            found: str | None = None if fmt == "auto" else fmt
            lines.start = None
            for fields in rows:
                if not fields:  # a blank line (csv.DictReader skipped them too)
                    continue
                line, lines.start = lines.start or lines.number, None
                row, extra, error = _record(fields, names, f"{name}:{line}")
                error = _unclosed(name, fields, lines) or error
                if found is None:
                    found = detect_at(row, f"{name}:{line}")
                    if found is None:
                        raise cannot_tell(name, line, row)
                if extra is not None:
                    row["actparse_input"] = extra
                yield line, found, row, error
    except (csv.Error, UnicodeDecodeError, OSError, EOFError) as err:
        raise InputError(f"{name}: not a readable CSV file: {err}") from None
