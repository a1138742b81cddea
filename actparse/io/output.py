"""Where labelled records go.

A file written under a temporary name and renamed when complete (JSON lines, a JSON list for a
``.json`` name, ``.gz`` compressed, or Parquet), a FIFO or device written directly, or standard
output."""

from __future__ import annotations

import gzip
import io
import sys
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import IO, Any, TextIO

from actparse.io.csv_rows import is_csv
from actparse.io.destination import Destination, OutputError
from actparse.io.folders import FolderSink, is_folder
from actparse.io.lines import count_filled_lines, open_binary
from actparse.io.parquet import ParquetSink, is_parquet, parquet_schema
from actparse.io.suffixes import has_suffix

__all__ = [
    "JsonListSink",
    "OutputError",
    "count_records",
    "is_json_list",
    "open_output",
    "open_sink",
    "open_text_output",
    "to_stdout",
]


def is_json_list(path: str | Path) -> bool:
    """Whether an output name asks for one JSON list (``.json``, ``.json.gz``), not JSON lines.

    >>> is_json_list("labelled.json"), is_json_list("labelled.JSON.gz"), is_json_list("a.jsonl")
    (True, True, False)
    """
    return has_suffix(path, ".json", ".json.gz")


def to_stdout(output: str | Path | None) -> bool:
    """Whether an output argument means standard output (none, or ``-``)."""
    return output is None or str(output) == "-"


def open_sink(
    output: str | Path | None,
    source: str | Path,
    *,
    keep_errors: bool = False,
    keep_schema: bool = True,
) -> AbstractContextManager[Any]:
    """A writable text sink for output lines.

    Standard output, a JSON lines file, or a Parquet file (which keeps a Parquet ``source``'s schema
    unless ``keep_schema`` is false, and with ``keep_errors`` has an ``actparse_error`` column).
    A ``.csv`` name is an :class:`OutputError` (the CSV actparse writes is the per-turn table)."""
    if is_folder(source):
        if to_stdout(output):
            # A corpus folder is labelled into a new folder, never a file: a folder's
            # files (its utterances, the index) make no one stream of lines.
            raise OutputError(
                f"{source}: a corpus folder is labelled into a new folder: give it with -o DIR"
            )
        assert output is not None
        return FolderSink(output, source)
    if to_stdout(output):
        return _standard_output()
    assert output is not None
    if is_csv(output):
        # JSON lines under a .csv name would read as a broken table: the one CSV
        # actparse writes is the per-turn table, whose columns are fixed.
        raise OutputError(
            f"{output}: labelled records are written as JSON lines or Parquet, not CSV; "
            "for a CSV table with the acts as columns use --per-turn"
        )
    if is_parquet(output):
        schema = parquet_schema(source) if keep_schema and is_parquet(source) else None
        return ParquetSink(output, schema, keep_errors=keep_errors, inputs=[source])
    return open_text_output(output, inputs=[source])


def open_text_output(
    output: str | Path, inputs: Iterable[str | Path] = ()
) -> open_output | JsonListSink:
    """A text output file for lines of JSON: as they are, or one JSON list of them (``.json``).

    A ``.json`` name is read back with ``json.load``, as Cocoa transcripts and CaSiNo's
    files are: JSON lines there would not be (see :func:`is_json_list`)."""
    sink = open_output(output, inputs=inputs)
    return JsonListSink(sink) if is_json_list(output) else sink


@contextmanager
def _standard_output() -> Iterator[TextIO]:
    """Standard output as a sink, whose write errors name it.

    ``<stdout>: no space left on device``, as a file's errors name the file. A closed pipe
    is left as it is: the run ends quietly on it."""
    try:
        yield sys.stdout
        sys.stdout.flush()
    except OSError as err:
        if not isinstance(err, BrokenPipeError) and err.filename is None:
            err.filename = "<stdout>"
        raise


def count_records(path: str | Path) -> int | None:
    """Records of a JSON lines or Parquet file, for a progress bar (``None``: unknown)."""
    try:
        if is_parquet(path):
            import pyarrow.parquet

            return int(pyarrow.parquet.ParquetFile(path).metadata.num_rows)
        with open_binary(path) as fh:  # lines read with their bound, none held whole
            if not fh.read(256).lstrip().startswith(b"{"):
                return None
            fh.seek(0)
            return count_filled_lines(fh)
    except (OSError, EOFError, ValueError):
        # Only a bar's length: the labelling run reports what is wrong with the input
        # (a truncated .gz, a byte that is not UTF-8) in its place, record by record.
        return None


class open_output:
    """Write a text output file without ever destroying anything.

    See :class:`~actparse.io.destination.Destination`. A regular file is written to a temporary name
    and renamed into place when complete, a FIFO or device directly.

    An interrupted or failed run leaves no file that looks whole, and no temporary.
    ``.gz`` compresses. A write that fails (a full disk) raises :class:`OutputError`
    naming the file; a reader that went away (a closed pipe) raises
    :class:`BrokenPipeError` as it is, for the caller to end quietly.
    """

    def __init__(self, path: str | Path, inputs: Iterable[str | Path] = ()) -> None:
        self.path = Path(path)
        self.destination = Destination(path, inputs)
        self._fh: IO[str] | None = None
        self._raw: IO[bytes] | None = None

    def __enter__(self) -> open_output:
        where = self.destination.write_path
        mode = "a" if self.destination.append else "w"
        try:
            if has_suffix(self.path, ".gz"):
                self._raw = open(where, mode + "b")
                # The name gzip keeps in its header is the output's, not the temporary
                # file's, without its .gz (gzip would cut '.gz' only, not '.GZ'): 'gunzip
                # -N' then restores labelled.jsonl.
                name = self.path.name[: -len(".gz")]
                packed = gzip.GzipFile(filename=name, mode=mode + "b", fileobj=self._raw)
                self._fh = io.TextIOWrapper(packed, encoding="utf-8")
            else:
                self._fh = open(where, mode, encoding="utf-8")
        except OSError as err:
            self.destination.discard()
            raise self.destination.failed(err) from None
        return self

    def write(self, text: str) -> None:
        """Write text; a failed write names the output file."""
        assert self._fh is not None
        try:
            self._fh.write(text)
        except BrokenPipeError:
            raise
        except OSError as err:
            raise self.destination.failed(err) from None

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        assert self._fh is not None
        try:
            try:
                self._fh.close()  # flushes: a full disk can fail here
                if self._raw is not None:
                    self._raw.close()
            except BrokenPipeError:
                raise
            except OSError as err:
                if exc_type is None:  # else the error already on its way is the one to tell
                    raise self.destination.failed(err) from None
            if exc_type is None:
                try:
                    self.destination.commit()
                except OSError as err:
                    raise self.destination.failed(err) from None
        except BaseException:
            self.destination.discard()
            raise
        if exc_type is not None:
            self.destination.discard()


class JsonListSink:
    """Lines of JSON written as one JSON list, each line an element, streamed.

    Given the lines a JSON lines output would hold (in writes of any size), it writes
    ``[``, the lines separated by ``,``, and ``]``: ``[]`` for none. Nothing is held:
    each piece of text goes straight through, after ``[`` or ``,`` where a line starts.
    Wraps an :class:`open_output`, which keeps its guarantees (a temporary name, renamed
    when complete)."""

    def __init__(self, sink: open_output) -> None:
        self.sink = sink
        self._elements = 0
        self._line_open = False

    def __enter__(self) -> JsonListSink:
        self.sink.__enter__()
        return self

    def write(self, text: str) -> None:
        """Take text of whole or partial lines; each line is one element (empty ones none)."""
        pieces = text.split("\n")
        for k, piece in enumerate(pieces):
            if k:
                self._line_open = False  # a newline ends the element
            if piece:
                if not self._line_open:
                    self.sink.write(",\n" if self._elements else "[\n")
                    self._elements += 1
                    self._line_open = True
                self.sink.write(piece)

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if exc_type is None:
            try:
                self.sink.write("\n]\n" if self._elements else "[]\n")
            except BaseException as err:
                # The file is discarded as for any failed write, and the error told.
                self.sink.__exit__(type(err), err, err.__traceback__)
                raise
        self.sink.__exit__(exc_type, exc, tb)
