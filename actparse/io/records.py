"""Records: every input file becomes a stream of :class:`Record`, whatever its corpus.

A file is JSON lines (read line by line), a JSON list (loaded whole), or a plain-text
layout a corpus declares (one dialogue per line, e.g. Deal or No Deal's original
format); ``.gz`` is read compressed, ``-`` is standard input. :mod:`actparse.io.sources`
reads the bytes and tells the layout and the format (asking :mod:`actparse.registry`,
which also says how a record of each format becomes a
:class:`~actparse.models.Dialogue`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from actparse import registry
from actparse.errors import InputError
from actparse.io.bounds import nesting_problem, read_json
from actparse.io.detection import detect_at
from actparse.io.grouping import Group, Row, group_units, row_spec
from actparse.io.messages import describe, json_kind
from actparse.io.sources import Piece, open_source
from actparse.models import Dialogue

__all__ = [
    "InputError",
    "Record",
    "detect_format",
    "format_of_record",
    "group_records",
    "parse_json_line",
    "parse_text_line",
    "piece_record",
    "read_records",
]


@dataclass(frozen=True)
class Record:
    """One input dialogue: the raw record (kept whole for writing) and where it came from."""

    raw: dict[str, Any]
    format: str
    source: str
    line: int

    @property
    def where(self) -> str:
        """``file:line`` (for a JSON list, the position of the dialogue in it)."""
        return f"{self.source}:{self.line}"

    @property
    def corpus(self) -> str:
        """The corpus the record belongs to."""
        return registry.handlers(self.format).corpus

    def dialogue(self) -> Dialogue:
        """Parse the raw record into a :class:`Dialogue`.

        Or raise :class:`InputError` naming the file and the line."""
        try:
            return registry.handlers(self.format).reader(self.raw)
        # The built-in readers raise only InputError (io.fields.record_reader); a plug-in
        # reader's KeyError or TypeError is taken, as before, for a malformed record.
        except (KeyError, IndexError, TypeError, ValueError, AttributeError, OverflowError) as err:
            raise InputError(f"{self.where}: {describe(err)}") from None


def format_of_record(raw: Any) -> str | None:
    """The format a single raw record is in, judged by its fields.

    ``None`` if unknown; a record two corpora's formats claim is an :class:`InputError`, and
    so is one nested past :data:`~actparse.io.bounds.MAX_NESTING` (handed over from Python:
    every later step, copying it too, would recurse through it)."""
    problem = nesting_problem(raw)
    if problem is not None:
        raise InputError(f"record: {problem}")
    return detect_at(raw, "record")


def detect_format(path: str | Path) -> str:
    """The format of a file, from its first records (a JSON list is loaded whole)."""
    with open_source(path) as source:
        return source.format


def read_records(path: str | Path, fmt: str = "auto") -> Iterator[Record]:
    """Stream the records of a file, stopping at the first that cannot be read.

    ``-`` is standard input; the record that cannot be read raises an :class:`InputError` naming the
    file and the line.

    ``fmt`` is a format name of :mod:`actparse.registry` or ``auto``. JSON lines and
    plain-text layouts are read line by line; a JSON list is loaded whole; a Parquet or
    CSV file (by its name, as ``label`` writes one) or a CSV table on standard input row
    by row, each numbered as its line.
    The rows of a turn table (a format with a ``row_key``) come as one record per
    dialogue, numbered by its first row (:mod:`actparse.io.grouping`).
    """
    yield from group_records(_ungrouped(path, fmt))


def group_records(records: Iterable[Record]) -> Iterator[Record]:
    """Records given one by one, a turn table's rows made one record per dialogue.

    Rows that make no dialogue raise :class:`InputError` naming where they are.
    """
    for unit in group_units(records, _record_row):
        if isinstance(unit, Group):
            if unit.error is not None or unit.raw is None:
                raise InputError(unit.error)
            yield Record(unit.raw, unit.format, unit.source, unit.line)
        else:
            yield unit


def _record_row(record: Record) -> Row | None:
    if row_spec(record.format) is None:
        return None
    return Row(record.source, record.line, record.format, record.raw)


def _ungrouped(path: str | Path, fmt: str) -> Iterator[Record]:
    """The records of a file as read, a turn table's rows one by one."""
    with open_source(path, fmt) as source:
        for piece in source.pieces:
            yield piece_record(piece, source.name, source.format)


def piece_record(piece: Piece, source: str, fmt: str) -> Record:
    """The record of a piece of input, or :class:`InputError` saying why there is none."""
    if piece.error is not None:
        raise InputError(piece.error)
    raw = piece.raw if piece.text is None else parse_json_line(piece.text, source, piece.line)
    return Record(raw, fmt, source, piece.line)


def parse_json_line(text: str, source: str, number: int) -> dict[str, Any]:
    """One JSON lines record, or :class:`InputError` naming the file and line.

    A record nested deeper, or holding a longer integer, than :mod:`actparse.io.bounds`
    allows is such an error too."""
    try:
        raw = read_json(text, f"{source}:{number}")
    except json.JSONDecodeError as err:
        raise InputError(
            f"{source}:{number}: not valid JSON: {err.msg} (column {err.colno})"
        ) from None
    if not isinstance(raw, dict):
        raise InputError(f"{source}:{number}: expected a JSON object, got {json_kind(raw)}")
    return raw


def parse_text_line(text: str, source: str, number: int, fmt: str) -> dict[str, Any]:
    """One line of a plain-text layout as a raw record.

    Or an :class:`InputError` naming the file and line."""
    spec = registry.format_spec(fmt)
    if spec.text_reader is None:
        raise InputError(f"{source}:{number}: format {fmt!r} has no plain-text layout")
    to_record: Callable[[str], dict[str, Any]] = registry.resolve(spec.text_reader)
    try:
        return to_record(text)
    except ValueError as err:
        raise InputError(f"{source}:{number}: {err}") from None
