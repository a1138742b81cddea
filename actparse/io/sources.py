"""Sources: a file, or standard input, read once from front to back as a stream of pieces.

A :class:`Piece` is one record's place in the input: a JSON line still to parse, a
record already read (an element of a JSON list, a line of a plain-text layout), or the
reason it could not be read. Every failure below the record (a line that is not UTF-8,
the end of a truncated ``.gz``, an element of a JSON list that is not an object, a
plain-text line that does not follow its layout, a list that stops being JSON) becomes
exactly one piece with an ``error`` naming the file and the line, holding the text it
could not read; reading goes on after it wherever the input allows. The caller decides
what an error means: :func:`~actparse.io.records.read_records` stops on it,
:mod:`actparse.io.batch` stops or keeps it as an error record.

The layout (JSON lines, a JSON list, a plain-text layout) and the format are told from
the first lines, which are held back while they are looked at and then read like the
rest: nothing is read twice, so ``-`` (standard input) and other pipes read like files.
A UTF-8 byte order mark at the start is skipped.

A table (a Parquet or CSV file, by its name, or standard input whose first line looks
like a CSV header: :func:`~actparse.io.csv_rows.tell_csv`) is read row by row, each row
one piece, numbered by its line (for Parquet, its row).
"""

from __future__ import annotations

import gzip
import io
import itertools
import json
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from actparse import registry
from actparse.errors import InputError
from actparse.io.bounds import json_value_end, nesting_problem, value_problem
from actparse.io.csv_rows import csv_text, is_csv, iter_csv_rows, looks_like_csv, tell_csv
from actparse.io.detection import cannot_tell, detect_at
from actparse.io.folders import FOLDER, is_folder, open_folder
from actparse.io.lines import (
    GZIP_MAGIC,
    decoded_lines,
    ending_at_unread,
    open_binary,
    split_json_lines,
    split_text_lines,
)
from actparse.io.lines import Line as _Line
from actparse.io.messages import json_kind
from actparse.io.parquet import is_parquet, iter_parquet_rows

__all__ = [
    "JSON_LINES",
    "JSON_LIST",
    "STDIN",
    "TABLE",
    "TEXT",
    "Piece",
    "Source",
    "open_source",
    "source_name",
]

#: The path that means standard input.
STDIN = "-"
#: How standard input is named in messages.
STDIN_NAME = "<stdin>"
#: Layouts: one JSON object per line, one JSON list of objects, one record per line of a
#: corpus' plain-text layout, one record per row of a table (CSV, Parquet).
JSON_LINES, JSON_LIST, TEXT, TABLE = "json-lines", "json-list", "text", "table"
#: Non-blank lines looked at, at most, to tell the format of JSON lines (the first that is
#: a JSON object decides).
DETECT_LINES = 64

_PARQUET_MAGIC = b"PAR1"
_JSON_SPACE = re.compile(r"[ \t\n\r]*")
_decoder = json.JSONDecoder()
#: A row of a table as its reader gives it: ``(line, format, record, error)``.
_TableRow = tuple[int, str, Any, str | None]


class Piece(NamedTuple):
    """One record's place in the input.

    ``error`` set: it could not be read (``text`` is what was there, when there was
    any). Else ``raw`` set: the record. Else ``text``: a JSON line, parsed later.
    ``line`` is the line number, for a JSON list the position of the element (from 1).
    """

    line: int
    text: str | None = None
    raw: Any = None
    error: str | None = None


@dataclass
class Source:
    """An open input: its name for messages, its format and layout, and its pieces."""

    name: str
    format: str
    layout: str
    pieces: Iterator[Piece]


def source_name(path: str | Path) -> str:
    """How a path is named in messages (``<stdin>`` for ``-``)."""
    return STDIN_NAME if str(path) == STDIN else str(path)


@contextmanager
def open_source(path: str | Path, fmt: str = "auto") -> Iterator[Source]:
    """Open a file or standard input and tell its layout and format.

    Open a file (``.gz`` decompressed), a corpus folder, a Parquet or CSV table, or
    standard input (``-``; gzip told by its magic bytes, a CSV table by its first line)
    and tell its layout and, for ``fmt="auto"``, its format.

    Raises :class:`InputError` only when no record could be read at all: the format
    cannot be told, or a format name is unknown. (A CSV table stops with one where it
    cannot be read on: its rows cannot be told apart past it.)
    """
    name = source_name(path)
    if fmt != "auto":
        try:
            registry.format_spec(fmt)
        except ValueError as err:
            raise InputError(f"{name}: {err}") from None
    if is_folder(path):  # a corpus folder (ConvoKit's): its format reads the whole folder
        fmt, name, pieces = open_folder(path, fmt)
        yield Source(name, fmt, FOLDER, pieces)
        return
    if is_parquet(path) or is_csv(path):  # a table, by its name
        rows = iter_parquet_rows(path) if is_parquet(path) else iter_csv_rows(path, fmt)
        yield _table_source(name, fmt, rows)
        return
    with _open_binary(path, name) as stream:
        if str(path) == STDIN:  # no name to go by: a table if its first line is a CSV header
            stream, table = tell_csv(stream, fmt)
            if table:
                with csv_text(stream) as text:
                    yield _table_source(name, fmt, iter_csv_rows(text, fmt, name))
                return
        yield _layout_source(stream, name, fmt)


def _layout_source(stream: Any, name: str, fmt: str) -> Source:
    """The source of a stream of bytes: its layout told, and its format unless given."""
    lines = decoded_lines(stream, name)
    head, layout, text_format = _tell_layout(lines, fmt)
    if layout == JSON_LIST:
        elements = list(_list_pieces(ending_at_unread(_chain(head, lines)), name))
        fmt = fmt if fmt != "auto" else _list_format(elements, name)
        return Source(name, fmt, layout, iter(elements))
    if layout == TEXT:
        fmt = text_format or fmt
        text_lines = split_text_lines(_chain(head, lines), name)
        return Source(name, fmt, layout, _text_pieces(text_lines, name, fmt))
    # Split before the format is told: an old-Mac file is one line until then.
    head, lines = [], split_json_lines(_chain(head, lines), name)
    if fmt == "auto":
        more, fmt = _lines_format(head, lines, name)
        head += more
    return Source(name, fmt, layout, _line_pieces(_chain(head, lines)))


def _table_source(name: str, fmt: str, rows: Iterator[_TableRow]) -> Source:
    """The rows of a table as a source: each row a record read, or with its ``error``.

    The format is ``fmt``, else that of the first row (the rows tell it), which is read
    here: a table whose first row no format claims stops as it opens, as JSON lines do."""
    first = next(rows, None)
    if fmt == "auto":
        fmt = registry.default_format() if first is None else first[1]
    if first is not None:
        rows = itertools.chain([first], rows)
    pieces = (Piece(line, raw=raw, error=error) for line, _, raw, error in rows)
    return Source(name, fmt, TABLE, pieces)


# ---------------------------------------------------------------------------
# Bytes to lines
# ---------------------------------------------------------------------------


def _open_binary(path: str | Path, name: str) -> Any:
    if str(path) != STDIN:
        return open_binary(path)
    stream: Any = sys.stdin.buffer
    if not hasattr(stream, "peek"):
        stream = io.BufferedReader(stream)
    head = stream.peek(4)[:4]
    if head.startswith(_PARQUET_MAGIC):
        raise InputError(f"{name}: Parquet cannot be read from a pipe; pass the file's path")
    if head.startswith(GZIP_MAGIC):
        return gzip.GzipFile(fileobj=stream, mode="rb")
    return nullcontext(stream)  # standard input stays open


def _chain(head: list[_Line], rest: Iterator[_Line]) -> Iterator[_Line]:
    yield from head
    yield from rest


# ---------------------------------------------------------------------------
# Telling the layout and the format
# ---------------------------------------------------------------------------


def _tell_layout(lines: Iterator[_Line], fmt: str) -> tuple[list[_Line], str, str | None]:
    """``(lines read so far, layout, plain-text format)``, from the first non-blank line.

    The format is ``None`` for a JSON layout. The line tells a plain-text format's marker, or ``[``
    opening a JSON list (a first line that is a whole JSON value with more lines after it is JSON
    lines)."""
    head: list[_Line] = []
    first = _next_filled(lines, head)
    if first is None or first.text is None:
        return head, JSON_LINES, None
    marker = first.text.lstrip()[:1]
    if fmt == "auto":
        text_format = registry.text_format(marker)
    else:
        text_format = fmt if registry.format_spec(fmt).text_marker == marker else None
    if text_format is not None:
        return head, TEXT, text_format
    if marker != "[" or _next_filled(lines, head) is None:
        return head, JSON_LINES if marker != "[" else JSON_LIST, None
    # More lines follow: JSON lines if the first is a whole JSON value (a list, which
    # becomes an error), else the opening of a JSON list.
    try:
        json.loads(first.text)
    except json.JSONDecodeError:
        return head, JSON_LIST, None
    except (ValueError, RecursionError):  # too deep or too long to read: is it whole?
        start = len(first.text) - len(first.text.lstrip())
        end = json_value_end(first.text, start)
        whole = end is not None and not first.text[end:].strip()
        return head, JSON_LINES if whole else JSON_LIST, None
    return head, JSON_LINES, None


def _next_filled(lines: Iterator[_Line], head: list[_Line]) -> _Line | None:
    """The next line with text on it (or a failed read).

    It is added to ``head`` with the blank lines before it."""
    for line in lines:
        head.append(line)
        if line.text is None or line.text.strip():
            return line
    return None


def _lines_format(head: list[_Line], lines: Iterator[_Line], name: str) -> tuple[list[_Line], str]:
    """The format of JSON lines, and the lines read for it.

    The format is that of the first line that is a JSON object; lines before it that are not become
    errors when read."""
    more: list[_Line] = []

    def candidates() -> Iterator[_Line]:
        yield from (line for line in head if line.text is None or line.text.strip())
        for _ in range(DETECT_LINES):
            line = _next_filled(lines, more)
            if line is None:
                return
            yield line

    seen_brace = False
    first: int | None = None
    first_text = ""
    for line in candidates():
        if line.text is None:
            if seen_brace:
                break
            raise InputError(line.error)
        if first is None:
            first, first_text = line.number, line.text
        seen_brace = seen_brace or line.text.lstrip().startswith("{")
        try:
            raw = json.loads(line.text)
        except (ValueError, RecursionError):  # not JSON, or too deep or long: an error when read
            continue
        if isinstance(raw, dict):
            fmt = detect_at(raw, f"{name}:{line.number}")
            if fmt is None:
                raise cannot_tell(name, line.number, raw)
            return more, fmt
    if seen_brace or first is None:
        # Only broken objects, or nothing: the default format's reader names each line.
        return more, registry.default_format()
    if looks_like_csv(first_text):
        # A file's name says it is a CSV table (standard input's first line does).
        raise InputError(
            f"{name}:{first}: cannot tell the format: this looks like a CSV table, which "
            "actparse reads from a file named .csv (or .csv.gz) or from standard input"
        )
    raise cannot_tell(name, first)


def _list_format(pieces: list[Piece], name: str) -> str:
    for piece in pieces:
        if piece.error is None:
            fmt = detect_at(piece.raw, f"{name}:{piece.line}")
            if fmt is None:
                raise cannot_tell(name, piece.line, piece.raw)
            return fmt
    if not pieces:
        return registry.default_format()
    raise cannot_tell(name, 1)


# ---------------------------------------------------------------------------
# Lines and elements to pieces
# ---------------------------------------------------------------------------


def _line_pieces(lines: Iterator[_Line]) -> Iterator[Piece]:
    for line in lines:
        if line.error is not None:
            yield Piece(line.number, text=line.text, error=line.error)
        elif line.text is not None and line.text.strip():
            yield Piece(line.number, text=line.text)


def _text_pieces(lines: Iterator[_Line], name: str, fmt: str) -> Iterator[Piece]:
    """Lines of a plain-text layout, each read by the format's line reader."""
    spec = registry.format_spec(fmt)
    to_record = registry.resolve(spec.text_reader) if spec.text_reader is not None else None
    for piece in _line_pieces(lines):
        if piece.error is not None or piece.text is None:
            yield piece
        elif to_record is None:
            yield piece._replace(
                error=f"{name}:{piece.line}: format {fmt!r} has no plain-text layout"
            )
        else:
            try:
                yield piece._replace(text=None, raw=to_record(piece.text))
            except Exception as err:  # a line reader's failure is that line's error, whatever it is
                yield piece._replace(error=f"{name}:{piece.line}: {err}")


def _list_pieces(lines: Iterator[_Line], name: str) -> Iterator[Piece]:
    """The elements of a JSON list, one by one.

    Each object is a record, anything else one error; where the list stops being JSON (or the input
    ends early), the rest is one error holding the text that was not read."""
    text, bad, failure = _list_text(lines)
    pos = text.find("[") + 1  # past the "[" that told the layout (only space before it)
    index = 0
    line_no, counted = 1, 0
    while True:
        pos = _skip_space(text, pos)
        if index == 0 and text.startswith("]", pos):
            pos += 1
            break
        index += 1
        try:
            value, end, problem = _element(text, pos)
        except json.JSONDecodeError as err:
            problem = (
                failure or f"{name}:{err.lineno}: not valid JSON: {err.msg} (column {err.colno})"
            )
            yield Piece(index, text=text[pos:], error=f"{problem}; dialogue {index} on is not read")
            return
        # Counted from the last element on, not from the start: a long list stays linear.
        line_no += text.count("\n", counted, pos)
        counted = pos
        undecoded = _undecoded_error(bad, pos, end)
        if undecoded is None and problem is None and isinstance(value, dict):
            yield Piece(index, raw=value)
        else:
            error = _element_error(name, index, line_no, value, problem, undecoded)
            yield Piece(index, text=text[pos:end], error=error)
        pos = _skip_space(text, end)
        if text.startswith(",", pos):
            pos += 1
            continue
        if not text.startswith("]", pos):
            problem = (
                failure
                or f"{name}:{_line_of(text, pos)}: expected ',' or ']' after dialogue {index}"
            )
            yield Piece(index + 1, text=text[pos:], error=problem)
            return
        pos += 1
        break
    yield from _after_list(text, pos, index + 1, failure, name)


#: Where lines of a JSON list did not decode: ``(start, end, error)``, offsets in its text.
_Undecoded = tuple[int, int, str]


def _list_text(lines: Iterator[_Line]) -> tuple[str, list[_Undecoded], str | None]:
    """A JSON list's lines as one text, the spans that did not decode, and why reading stopped.

    The reason is ``None`` when the input was read to its end."""
    parts: list[str] = []
    bad: list[_Undecoded] = []
    failure: str | None = None
    size = 0
    for line in lines:
        if line.text is None:
            failure = line.error
            break
        if line.error is not None:
            bad.append((size, size + len(line.text), line.error))
        parts.append(line.text)
        size += len(line.text)
    return "".join(parts), bad, failure  # the parts go with this call: the list is held once


def _undecoded_error(bad: list[_Undecoded], start: int, end: int) -> str | None:
    """The error of a span that did not decode within ``start:end``, if one does.

    Elements come in order: spans that end before ``start`` are dropped from ``bad``, so
    each is passed over once however long the list."""
    while bad and bad[0][1] <= start:
        del bad[0]
    return bad[0][2] if bad and bad[0][0] < end else None


def _element_error(
    name: str, index: int, line_no: int, value: Any, problem: str | None, undecoded: str | None
) -> str:
    """Why element ``index`` of a JSON list (on line ``line_no``) is not a record.

    A span in it that did not decode comes first, then a problem past the bounds, then a value
    that is not an object."""
    if undecoded is not None:
        return f"{undecoded} (dialogue {index})"
    problem = problem or f"expected a JSON object, got {json_kind(value)}"
    return f"{name}:{line_no}: dialogue {index}: {problem}"


def _after_list(text: str, pos: int, index: int, failure: str | None, name: str) -> Iterator[Piece]:
    """What follows a JSON list's closing ``]`` at ``pos``: one error piece ``index``, if any.

    Text after it is an error; so is a read that failed there (the input ended early)."""
    tail = text[pos:]
    if tail.strip():
        problem = failure or f"{name}:{_line_of(text, pos)}: text after the end of the list"
        yield Piece(index, text=tail, error=problem)
    elif failure is not None:
        yield Piece(index, error=failure)


def _element(text: str, pos: int) -> tuple[Any, int, str | None]:
    """The element of a JSON list at ``pos``: its value, its end, and what is past the bounds.

    An element too deep or holding too long an integer (:mod:`actparse.io.bounds`) has no
    value, and its end is found without reading it, so the elements after it are read. A
    syntax error is a :class:`json.JSONDecodeError`."""
    try:
        value, end = _decoder.raw_decode(text, pos)
    except json.JSONDecodeError:
        raise
    except (RecursionError, ValueError) as err:
        problem, skipped = value_problem(err), json_value_end(text, pos)
        if problem is None or skipped is None:
            raise json.JSONDecodeError(problem or str(err), text, pos) from None
        return None, skipped, problem
    return value, end, nesting_problem(value, text, pos, end)


def _skip_space(text: str, pos: int) -> int:
    found = _JSON_SPACE.match(text, pos)
    return found.end() if found is not None else pos


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1
