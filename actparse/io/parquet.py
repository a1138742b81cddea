"""Parquet in and out, in batches, keeping the HuggingFace column layout.

Needs pyarrow (``pip install actparse[parquet]``). Rows are read a batch at a time, so a
large file never sits in memory whole; the output keeps the input's schema (for the
Craigslist export, ``dialogue_acts`` stays a struct of two lists), so a labelled file
reads back exactly like the original.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from actparse.io.destination import Destination, OutputError
from actparse.io.messages import os_reason
from actparse.io.records import InputError, format_of_record

__all__ = ["ParquetSink", "is_parquet", "iter_parquet_rows", "parquet_schema"]

#: Rows per read or written batch.
BATCH_ROWS = 1024


def is_parquet(path: str | Path) -> bool:
    """Whether a path names a Parquet file (by its suffix)."""
    return str(path).endswith(".parquet")


def _pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:  # pragma: no cover - depends on the environment
        raise InputError("Parquet needs pyarrow: pip install 'actparse[parquet]'") from None
    return pyarrow


def parquet_schema(path: str | Path) -> Any:
    """The Arrow schema of a Parquet file."""
    pa = _pyarrow()
    return pa.parquet.ParquetFile(path).schema_arrow


def iter_parquet_rows(path: str | Path) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """``(row number from 1, format, record)`` for every row, read in batches."""
    pa = _pyarrow()
    try:
        parquet = pa.parquet.ParquetFile(path)
    except (OSError, pa.ArrowException) as err:
        raise InputError(f"{path}: not a readable Parquet file: {err}") from None
    number = 0
    fmt: str | None = None
    for batch in parquet.iter_batches(batch_size=BATCH_ROWS):
        for row in batch.to_pylist():
            number += 1
            if fmt is None:
                fmt = format_of_record(row)
                if fmt is None:
                    raise InputError(f"{path}:1: cannot tell the format of the rows")
            yield number, fmt, row


class ParquetSink:
    """Collects output records (as JSON lines) and writes them in Parquet batches.

    With a ``schema`` (the input's) the output has exactly that layout, plus an
    ``actparse_error`` column when ``keep_errors``; without one, the first batch decides.
    Written to a temporary name and renamed into place on success (a FIFO or device
    directly; see :class:`~actparse.io.destination.Destination`).
    """

    def __init__(
        self,
        path: str | Path,
        schema: Any = None,
        keep_errors: bool = False,
        inputs: Iterable[str | Path] = (),
    ) -> None:
        self.pa = _pyarrow()
        self.path = Path(path)
        # Parquet's writer seeks: a FIFO or socket is refused before any work.
        self.destination = Destination(path, inputs, seekable=True)
        self.tmp = self.destination.write_path
        self.schema = schema
        if schema is not None and keep_errors and "actparse_error" not in schema.names:
            self.schema = schema.append(self.pa.field("actparse_error", self.pa.string()))
        self.rows: list[dict[str, Any]] = []
        self.writer: Any = None

    def write(self, line: str) -> None:
        """Add one output record (a JSON line); the trailing newline is ignored."""
        if line.strip():
            self.rows.append(json.loads(line))
        if len(self.rows) >= BATCH_ROWS:
            self._flush()

    def _flush(self) -> None:
        if not self.rows:
            return
        table = self.pa.Table.from_pylist(self.rows, schema=self.schema)
        try:
            if self.writer is None:
                self.schema = table.schema
                self.writer = self.pa.parquet.ParquetWriter(self.tmp, self.schema)
            self.writer.write_table(table)
        except OSError as err:
            raise OutputError(f"{self.path}: cannot write ({os_reason(err)})") from None
        self.rows = []

    def __enter__(self) -> ParquetSink:
        return self

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        try:
            try:
                if exc_type is None:
                    self._flush()
                    if self.writer is None:  # no rows at all: still a valid, empty file
                        schema = self.schema or self.pa.schema([])
                        self.writer = self.pa.parquet.ParquetWriter(self.tmp, schema)
            finally:
                if self.writer is not None:
                    self.writer.close()
            if exc_type is None:
                self.destination.commit()
        except BaseException:
            self.destination.discard()
            raise
        if exc_type is not None:
            self.destination.discard()
