"""Records: every input file becomes a stream of :class:`Record`, whatever its corpus.

A file is JSON lines (read line by line), a JSON list (loaded whole), or a plain-text
layout a corpus declares (one dialogue per line, e.g. Deal or No Deal's original
format); ``.gz`` is read compressed. The format of a file is told from its first record
by asking :mod:`actparse.registry`, which also says how a record of each format becomes
a :class:`~actparse.models.Dialogue`.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from actparse import registry
from actparse.io.messages import describe
from actparse.models import Dialogue

__all__ = [
    "InputError",
    "Record",
    "detect_format",
    "format_of_record",
    "open_text",
    "parse_json_line",
    "parse_text_line",
    "read_records",
]


class InputError(ValueError):
    """Input that cannot be read; the message names the source, the line and the problem."""


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
        """Parse the raw record into a :class:`Dialogue`, or raise :class:`InputError`."""
        try:
            return registry.handlers(self.format).reader(self.raw)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as err:
            raise InputError(f"{self.where}: {_describe(err)}") from None


def _describe(err: Exception) -> str:
    return describe(err)  # in words: "a field holds a list where an object was expected"


def format_of_record(raw: Any) -> str | None:
    """The format a single raw record is in, judged by its fields (``None`` if unknown)."""
    return registry.detect(raw)


def open_text(path: str | Path) -> IO[str]:
    """Open a text file for reading, decompressing ``.gz`` on the fly."""
    if str(path).endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8")
    return open(path, encoding="utf-8")


def _first_char(fh: IO[str]) -> str:
    """The first non-space character of a text file (``""`` when there is none); the
    file is left at its start."""
    head = fh.read(1)
    while head and head.isspace():
        head = fh.read(1)
    fh.seek(0)
    return head


def detect_format(path: str | Path) -> str:
    """The format of a file, from its first record (a JSON list is loaded whole)."""
    with open_text(path) as fh:
        head = fh.read(4096).lstrip()
        fh.seek(0)
        text_format = registry.text_format(head[:1]) if head else None
        if text_format is not None:
            return text_format
        if not head:
            return registry.default_format()
        if head.startswith("["):
            try:
                data = json.load(fh)
            except json.JSONDecodeError as err:
                raise InputError(f"{path}:{err.lineno}: not valid JSON: {err.msg}") from None
            empty = not (isinstance(data, list) and data)
            fmt = registry.default_format() if empty else format_of_record(data[0])
        elif head.startswith("{"):
            first = fh.readline()
            try:
                fmt = format_of_record(json.loads(first))
            except json.JSONDecodeError:
                fmt = registry.default_format()  # the reader names the broken line
        else:
            fmt = None
    if fmt is None:
        titles = ", ".join(c.title for c in registry.corpora())
        raise InputError(
            f"{path}:1: cannot tell the format (expected records of {titles}); pass --format"
        )
    return fmt


def read_records(path: str | Path, fmt: str = "auto") -> Iterator[Record]:
    """Stream the records of a file.

    ``fmt`` is a format name of :mod:`actparse.registry` or ``auto``. JSON lines and
    plain-text layouts are read line by line; a JSON list is loaded whole.
    """
    source = str(path)
    if fmt == "auto":
        fmt = detect_format(path)
    try:
        spec = registry.format_spec(fmt)
    except ValueError as err:
        raise InputError(f"{source}: {err}") from None
    with open_text(path) as fh:
        head = _first_char(fh)
        if spec.text_marker is not None and head == spec.text_marker:
            yield from _read_text_lines(fh, source, fmt)
        elif head == "[":
            yield from _read_json_list(fh, source, fmt)
        else:
            yield from _read_json_lines(fh, source, fmt)


def parse_json_line(text: str, source: str, number: int) -> dict[str, Any]:
    """One JSON lines record, or :class:`InputError` naming the file and line."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as err:
        raise InputError(
            f"{source}:{number}: not valid JSON: {err.msg} (column {err.colno})"
        ) from None
    if not isinstance(raw, dict):
        raise InputError(f"{source}:{number}: expected a JSON object, got {type(raw).__name__}")
    return raw


def parse_text_line(text: str, source: str, number: int, fmt: str) -> dict[str, Any]:
    """One line of a plain-text layout as a raw record, or :class:`InputError` naming the
    file and line."""
    spec = registry.format_spec(fmt)
    if spec.text_reader is None:
        raise InputError(f"{source}:{number}: format {fmt!r} has no plain-text layout")
    to_record: Callable[[str], dict[str, Any]] = registry.resolve(spec.text_reader)
    try:
        return to_record(text)
    except ValueError as err:
        raise InputError(f"{source}:{number}: {err}") from None


def _read_text_lines(fh: IO[str], source: str, fmt: str) -> Iterator[Record]:
    for number, line in enumerate(fh, start=1):
        if line.strip():
            yield Record(parse_text_line(line, source, number, fmt), fmt, source, number)


def _read_json_lines(fh: IO[str], source: str, fmt: str) -> Iterator[Record]:
    for number, line in enumerate(fh, start=1):
        if line.strip():
            yield Record(parse_json_line(line, source, number), fmt, source, number)


def _read_json_list(fh: IO[str], source: str, fmt: str) -> Iterator[Record]:
    try:
        data = json.load(fh)
    except json.JSONDecodeError as err:
        raise InputError(f"{source}:{err.lineno}: not valid JSON: {err.msg}") from None
    if not isinstance(data, list):
        raise InputError(f"{source}:1: expected a JSON list of dialogues")
    for index, raw in enumerate(data):
        if not isinstance(raw, dict):
            raise InputError(f"{source}: dialogue {index + 1}: expected a JSON object")
        # Position in the list, counted from 1 like a line number.
        yield Record(raw, fmt, source, index + 1)
