"""Where labelled records go: a file written under a temporary name and renamed when
complete (JSON lines, ``.gz`` compressed, or Parquet), or standard output."""

from __future__ import annotations

import gzip
import os
import sys
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import IO, Any

from actparse.io.parquet import ParquetSink, is_parquet, parquet_schema
from actparse.io.records import open_text

__all__ = ["count_records", "open_output", "open_sink", "to_stdout"]


def to_stdout(output: str | Path | None) -> bool:
    """Whether an output argument means standard output (none, or ``-``)."""
    return output is None or str(output) == "-"


def open_sink(
    output: str | Path | None, source: str | Path, *, keep_errors: bool = False
) -> AbstractContextManager[Any]:
    """A writable text sink for output lines: standard output, a JSON lines file, or a
    Parquet file (which keeps a Parquet ``source``'s schema, and with ``keep_errors`` an
    ``actparse_error`` column)."""
    if to_stdout(output):
        return nullcontext(sys.stdout)
    assert output is not None
    if is_parquet(output):
        schema = parquet_schema(source) if is_parquet(source) else None
        return ParquetSink(output, schema, keep_errors=keep_errors)
    return open_output(output)


def count_records(path: str | Path) -> int | None:
    """Records of a JSON lines or Parquet file, for a progress bar (``None``: unknown)."""
    if is_parquet(path):
        import pyarrow.parquet

        return int(pyarrow.parquet.ParquetFile(path).metadata.num_rows)
    with open_text(path) as fh:
        if not fh.read(256).lstrip().startswith("{"):
            return None
        fh.seek(0)
        return sum(1 for line in fh if line.strip())


class open_output:
    """Write to a temporary name beside ``path`` and rename it into place when complete.

    An interrupted or failed run leaves no file that looks whole. ``.gz`` compresses.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.part")
        self._fh: IO[str] | None = None

    def __enter__(self) -> IO[str]:
        if self.path.suffix == ".gz":
            self._fh = gzip.open(self.tmp, "wt", encoding="utf-8")
        else:
            self._fh = open(self.tmp, "w", encoding="utf-8")
        return self._fh

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        assert self._fh is not None
        self._fh.close()
        if exc_type is None:
            os.replace(self.tmp, self.path)
        else:
            self.tmp.unlink(missing_ok=True)
