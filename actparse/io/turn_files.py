"""The per-turn table in files: Parquet, CSV or JSON lines, written as rows come.

No pandas: Parquet is written with pyarrow in batches of
:data:`~actparse.io.parquet.BATCH_ROWS` rows under the table's fixed schema, CSV with
the ``csv`` module (a header row; a nested value as JSON text; a null as an empty
field; a text cell a spreadsheet would run as a formula after a ``'``, unless
``csv_raw``: see :mod:`actparse.io.csv_cells`), JSON lines with ``json``. Each is
written under a temporary name and renamed when complete (see
:class:`~actparse.io.destination.Destination`), so only a batch of rows is ever held.
:func:`read_turn_table` reads any of them back as the rows
:func:`~actparse.io.turns.iter_turn_rows` made.
"""

from __future__ import annotations

import csv
import gzip
import itertools
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from actparse import registry
from actparse.io.arrow_values import to_json
from actparse.io.batch import encode_line
from actparse.io.csv_cells import guard, unguard
from actparse.io.csv_rows import is_csv
from actparse.io.destination import Destination
from actparse.io.kinds import LABEL, TEXT
from actparse.io.lines import decoded_lines, open_binary
from actparse.io.messages import describe
from actparse.io.output import is_json_list, open_text_output, to_stdout
from actparse.io.parquet import BATCH_ROWS, is_parquet, require_pyarrow
from actparse.io.records import InputError, parse_json_line
from actparse.io.sources import open_source
from actparse.io.suffixes import has_suffix
from actparse.io.turns import COLUMNS, Row, column_names, iter_dialogue_rows

__all__ = [
    "TableCounts",
    "arrow_schema",
    "is_csv",
    "label_table",
    "read_turn_table",
    "write_turn_table",
]

#: The columns whose CSV cells are text, guarded against spreadsheet formulas.
_TEXT_KINDS = frozenset({TEXT.name, LABEL.name})


def arrow_schema() -> Any:
    """The table's Arrow schema (needs pyarrow)."""
    pa = require_pyarrow()
    return pa.schema([pa.field(c.name, c.kind.arrow(pa)) for c in COLUMNS])


def write_turn_table(
    rows: Iterable[Row],
    output: str | Path | None,
    *,
    inputs: Iterable[str | Path] = (),
    csv_raw: bool = False,
) -> int:
    """Write rows to ``output``, in a format chosen by its name.

    Write rows to ``output`` by its name: ``.parquet``, ``.csv`` (``.csv.gz``), a JSON
    list (``.json``), else JSON lines (``.gz`` compressed; ``None`` or ``"-"``: standard
    output). Returns the number of rows written. ``inputs`` are refused as the output (see
    :class:`~actparse.io.destination.Destination`). In CSV, a text cell that begins with
    a character a spreadsheet takes for a formula gets a ``'`` before it
    (:func:`~actparse.io.csv_cells.guard`), unless ``csv_raw``."""
    if to_stdout(output):
        import sys

        return _write_lines(rows, sys.stdout)
    assert output is not None
    if is_parquet(output):
        return _write_parquet(rows, output, inputs)
    with open_text_output(output, inputs=inputs) as sink:
        if is_csv(output):
            return _write_csv(rows, sink, guard_text=not csv_raw)
        return _write_lines(rows, sink)


def _write_lines(rows: Iterable[Row], sink: Any) -> int:
    written = 0
    for row in rows:
        # A lone surrogate is written as its JSON escape, which reads back the same.
        sink.write(encode_line(row))
        sink.write("\n")
        written += 1
    return written


def _unwritable(row: Row, what: str, err: Exception) -> InputError:
    """The error for a row a format cannot hold, naming its dialogue and turn."""
    return InputError(
        f"dialogue {row['dialogue_id']}, turn {row['turn']}: cannot be written to {what}: "
        f"{describe(err)}"
    )


def _extras(row: Row) -> list[str]:
    """The input's own columns of a row: those after actparse's."""
    return list(itertools.islice(row, len(COLUMNS), None))


def _check_extras(row: Row, have: Sequence[str] | frozenset[str]) -> None:
    """A row whose input columns the table (made from its first row) lacks is an error."""
    new = [name for name in _extras(row) if name not in have]
    if new:
        raise InputError(
            f"dialogue {row['dialogue_id']}, turn {row['turn']}: input column "
            f"{', '.join(map(repr, new))} is not in the table, whose columns follow the "
            "first row; give every row the same columns"
        )


def _extra_csv(value: Any, text: Callable[[str], str]) -> str:
    """An input column's value in CSV: text as ``text`` gives it, a null empty, others as JSON."""
    if value is None:
        return ""
    if not isinstance(value, str | int | float | bool | list | dict):
        # A Parquet input's own types (timestamps, binary, decimals) by the stated JSON
        # rules: an ISO 8601 time is a cell's text, as a spreadsheet reads it.
        value = to_json(value)
    if isinstance(value, str):
        return text(value)
    return json.dumps(value, ensure_ascii=False, default=to_json)


def _raw(cell: str) -> str:
    return cell


def _write_csv(rows: Iterable[Row], sink: Any, *, guard_text: bool) -> int:
    """The table as CSV: actparse's columns, then the first row's input columns.

    With ``guard_text``, every text cell (the text columns', the input columns' names and
    text values) is guarded against spreadsheet formulas (see :mod:`actparse.io.csv_cells`)."""
    text = guard if guard_text else _raw
    writer = csv.writer(sink)
    written = 0
    extras: list[str] = []
    known: frozenset[str] = frozenset()
    for row in rows:
        if written == 0:
            extras = _extras(row)
            known = frozenset(extras)
            writer.writerow([*column_names(), *map(text, extras)])
        else:
            _check_extras(row, known)
        fields = [
            text(cell) if c.kind.name in _TEXT_KINDS else cell
            for c, cell in ((c, c.kind.to_csv(row[c.name])) for c in COLUMNS)
        ]
        fields += [_extra_csv(row.get(name), text) for name in extras]
        try:
            "".join(fields).encode("utf-8")
        except UnicodeEncodeError as err:
            raise _unwritable(row, "CSV", err) from None
        writer.writerow(fields)
        written += 1
    if written == 0:
        writer.writerow(column_names())
    return written


def _schema_with_extras(pa: Any, batch: list[Row]) -> Any:
    """The table's schema, plus the first row's input columns, typed from the batch.

    A column no value of the batch fits one type is text (its values written as JSON,
    as CSV does); one with nulls only is text too.
    """
    schema = arrow_schema()
    for name in _extras(batch[0]):
        try:
            kind = pa.array([row.get(name) for row in batch]).type
        except (ValueError, TypeError, OverflowError):
            kind = pa.string()
        schema = schema.append(pa.field(name, pa.string() if pa.types.is_null(kind) else kind))
    return schema


def _write_parquet(rows: Iterable[Row], output: str | Path, inputs: Iterable[str | Path]) -> int:
    pa = require_pyarrow()
    destination = Destination(output, inputs, seekable=True)
    written = 0
    writer = None
    try:
        try:
            iter_rows = iter(rows)
            batches = iter(lambda: list(itertools.islice(iter_rows, BATCH_ROWS)), [])
            for batch in batches:
                if writer is None:
                    schema = _schema_with_extras(pa, batch)
                    writer = _parquet_writer(pa, destination, schema)
                for row in batch:
                    _check_extras(row, schema.names)
                try:
                    table = pa.Table.from_pylist(batch, schema=schema)
                except (ValueError, TypeError) as err:  # Arrow cannot hold a value
                    row = _first_unwritable(pa, batch, schema)
                    raise _unwritable(row, "Parquet", err) from None
                try:
                    writer.write_table(table)
                except OSError as err:
                    raise destination.failed(err) from None
                written += len(batch)
            if writer is None:  # no rows: still a table, with its columns
                writer = _parquet_writer(pa, destination, arrow_schema())
        finally:
            if writer is not None:
                writer.close()
        destination.commit()
    except BaseException:
        destination.discard()
        raise
    return written


def _parquet_writer(pa: Any, destination: Destination, schema: Any) -> Any:
    try:
        return pa.parquet.ParquetWriter(destination.write_path, schema)
    except OSError as err:
        raise destination.failed(err) from None


def _first_unwritable(pa: Any, batch: list[Row], schema: Any) -> Row:
    for row in batch:
        try:
            pa.Table.from_pylist([row], schema=schema)
        except (ValueError, TypeError):
            return row
    return batch[0]  # pragma: no cover - the batch failed, so one of its rows does


def read_turn_table(path: str | Path) -> Iterator[Row]:
    """The rows of a table written by :func:`write_turn_table`, typed as they were made.

    Parquet, CSV, a JSON list (``.json``) or JSON lines, by the name. A CSV field is
    decoded by its column's kind, a text cell's guard taken off
    (:func:`~actparse.io.csv_cells.unguard`)."""
    if is_parquet(path):
        pa = require_pyarrow()
        for batch in pa.parquet.ParquetFile(path).iter_batches(batch_size=BATCH_ROWS):
            yield from batch.to_pylist()
        return
    if is_csv(path):
        # newline="": a message's own line breaks ("\r" too) are inside quoted fields.
        opener = gzip.open if has_suffix(path, ".gz") else open
        with opener(path, "rt", encoding="utf-8", newline="") as fh:
            reader = csv.reader(fh)
            header = next(reader, None)
            names = column_names()
            if header is not None and tuple(header[: len(names)]) != names:
                raise InputError(f"{path}: not a per-turn table (header {header})")
            # The input's own columns after actparse's (a turn table's) come back as text.
            extras = [] if header is None else [unguard(n) for n in header[len(names) :]]
            for fields in reader:
                row = {
                    c.name: c.kind.from_csv(unguard(f) if c.kind.name in _TEXT_KINDS else f)
                    for c, f in zip(COLUMNS, fields)
                }
                row.update(zip(extras, map(unguard, fields[len(names) :])))
                yield row
        return
    if is_json_list(path):
        # A JSON list ('.json'), its elements read as any input's list is: bounded.
        with open_source(path) as source:
            for piece in source.pieces:
                if piece.error is not None:
                    raise InputError(piece.error)
                yield piece.raw
        return
    # JSON lines, each bounded and parsed as every input line is (a table is an input).
    with open_binary(path) as stream:
        for line in decoded_lines(stream, str(path)):
            if line.error is not None:
                raise InputError(line.error)
            if line.text and line.text.strip():
                yield parse_json_line(line.text, str(path), line.number)


class TableCounts(NamedTuple):
    """What :func:`label_table` wrote.

    The rows (turns), the dialogues with rows, and the dialogues without a turn, which have no
    rows."""

    turns: int
    dialogues: int
    without_turns: int


def label_table(
    path: str | Path,
    output: str | Path | None,
    *,
    fmt: str = "auto",
    overrides: Mapping[str, registry.Parser] | None = None,
    csv_raw: bool = False,
) -> TableCounts:
    """Write the per-turn table of ``path`` to ``output``, streamed.

    See :func:`write_turn_table` (and ``csv_raw``); returns what was written."""
    dialogues = [0, 0]  # with rows, without

    def rows() -> Iterator[Row]:
        for tabled in iter_dialogue_rows(path, fmt=fmt, parsers=overrides):
            dialogues[0 if tabled.rows else 1] += 1
            yield from tabled.rows

    written = write_turn_table(rows(), output, inputs=[path], csv_raw=csv_raw)
    return TableCounts(written, *dialogues)
