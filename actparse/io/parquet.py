"""Parquet in and out, in batches, keeping the HuggingFace column layout.

Needs pyarrow (``pip install actparse[parquet]``). Rows are read a batch at a time, so a
large file never sits in memory whole; the output keeps the input's schema (for the
Craigslist export, ``dialogue_acts`` stays a struct of two lists) and gains a column for
each field labelling adds (``actparse``, ``acts``), so a labelled file reads back like
the original.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from actparse.errors import InputError
from actparse.io.arrow_values import needs_revival, revive
from actparse.io.bounds import nesting_problem
from actparse.io.destination import Destination
from actparse.io.detection import cannot_tell, check_column_names, detect_at
from actparse.io.suffixes import has_suffix

__all__ = [
    "ParquetRow",
    "ParquetSink",
    "is_parquet",
    "iter_parquet_rows",
    "parquet_schema",
    "require_pyarrow",
]

#: Rows per read or written batch.
BATCH_ROWS = 1024


def is_parquet(path: str | Path) -> bool:
    """Whether a path names a Parquet file (by its suffix)."""
    return has_suffix(path, ".parquet")


def require_pyarrow() -> Any:
    """The ``pyarrow`` module, or an :class:`InputError` saying how to install it.

    The ``pyarrow`` module (with ``pyarrow.parquet``), or an :class:`InputError` saying
    how to install it."""
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:  # pragma: no cover - depends on the environment
        raise InputError("Parquet needs pyarrow: pip install 'actparse[parquet]'") from None
    return pyarrow


def parquet_schema(path: str | Path) -> Any:
    """The Arrow schema of a Parquet file (:class:`InputError` naming it when unreadable)."""
    pa = require_pyarrow()
    try:
        return pa.parquet.ParquetFile(path).schema_arrow
    except (OSError, pa.ArrowException) as err:
        raise InputError(f"{path}: not a readable Parquet file: {err}") from None


class ParquetRow(NamedTuple):
    """One row of a Parquet file: its number (from 1), format and fields.

    ``error``: a value of it Python cannot hold (a timestamp past the year 9999), which is
    ``None`` in ``raw``."""

    number: int
    format: str
    raw: dict[str, Any]
    error: str | None = None


def iter_parquet_rows(path: str | Path) -> Iterator[ParquetRow]:
    """Every row, read in batches (each value as :mod:`actparse.io.arrow_values` says)."""
    pa = require_pyarrow()
    try:
        parquet = pa.parquet.ParquetFile(path)
    except (OSError, pa.ArrowException) as err:
        raise InputError(f"{path}: not a readable Parquet file: {err}") from None
    check_column_names(parquet.schema_arrow.names, str(path))
    number = 0
    fmt: str | None = None
    for batch in parquet.iter_batches(batch_size=BATCH_ROWS):
        for row, error in _batch_rows(batch):
            number += 1
            error = error or nesting_problem(row)
            problem = None if error is None else f"{path}:{number}: {error}"
            if fmt is None:
                fmt = detect_at(row, f"{path}:{number}")
                if fmt is None:
                    raise (
                        cannot_tell(str(path), number, row)
                        if problem is None
                        else InputError(problem)
                    )
            yield ParquetRow(number, fmt, row, problem)


def _batch_rows(batch: Any) -> Iterator[tuple[dict[str, Any], str | None]]:
    """A batch's rows as Python values, each with the problem of a value it cannot hold."""
    try:
        yield from ((row, None) for row in batch.to_pylist())
        return
    except _CONVERSION_ERRORS:  # a value out of Python's range: found row by row below
        pass
    names = batch.schema.names
    for index in range(batch.num_rows):
        row: dict[str, Any] = {}
        error = None
        for name, column in zip(names, batch.columns):
            try:
                row[name] = column[index].as_py()
            except _CONVERSION_ERRORS as err:
                row[name] = None
                kind = column.type
                error = error or f"column {name!r} holds a {kind} Python cannot hold ({err})"
        yield row, error


#: The columns of an error record (``on_error="keep"``): what went wrong, and the input
#: as text where it is not a record or does not fit the schema.
ERROR_COLUMNS = ("actparse_error", "actparse_input")


class ParquetSink:
    """Collects output records (as JSON lines) and writes them in Parquet batches.

    With a ``schema`` (the input's) the output has exactly that layout; without one it
    is inferred from the first labelled records (column by column, over every record of
    the batch), never from error records, which are held back until a labelled record
    has come. With ``keep_errors`` it also has the :data:`ERROR_COLUMNS`: an error record
    keeps its fields in the input's columns when the input was Parquet, else as JSON
    text in ``actparse_input``; so does a record that cannot be written as it is (a
    value of another type than its column's, a lone surrogate, which Arrow strings
    cannot hold), with an ``actparse_error`` saying so. Without ``keep_errors`` such a record is an
    :class:`~actparse.io.records.InputError` naming it. Written to a temporary name and
    renamed into place on success (a FIFO or device directly; see
    :class:`~actparse.io.destination.Destination`).
    """

    def __init__(
        self,
        path: str | Path,
        schema: Any = None,
        keep_errors: bool = False,
        inputs: Iterable[str | Path] = (),
    ) -> None:
        self.pa = require_pyarrow()
        self.path = Path(path)
        # Parquet's writer seeks: a FIFO or socket is refused before any work.
        self.destination = Destination(path, inputs, seekable=True)
        self.tmp = self.destination.write_path
        self.keep_errors = keep_errors
        self.schema = None if schema is None else self._with_error_columns(schema)
        self.from_input = schema is not None
        self.rows: list[dict[str, Any]] = []
        self.labelled = False  # whether a labelled (not an error) record is held
        self.written = 0
        #: Labelled records written as error records: they could not be written as they are.
        self.unwritable = 0
        self.writer: Any = None
        #: The input's columns whose values are written to JSON by a rule, and their types.
        self.revival: list[tuple[str, Any]] | None = None
        #: The check that no field of a row is lost to the schema (built on first use).
        self.lost_check: _Check | None = None

    def write(self, line: str) -> None:
        """Add output records: JSON lines (a turn table's dialogue is several, one per row)."""
        for part in line.split("\n") if "\n" in line else (line,):
            if part.strip():
                self._add(json.loads(part))
        if len(self.rows) >= BATCH_ROWS and (self.schema is not None or self.labelled):
            self._flush()

    def _add(self, row: dict[str, Any]) -> None:
        if ERROR_COLUMNS[0] not in row:
            self.labelled = True
        elif not self.from_input:
            # Its fields are what was wrong: Arrow might bend them to fit a column
            # ("ab" into a list of letters), so they are kept as they were, as text.
            row = _error_row(row, str(row[ERROR_COLUMNS[0]]))
        self.rows.append(row)

    def _with_error_columns(self, schema: Any) -> Any:
        for name in ERROR_COLUMNS if self.keep_errors else ():
            if name not in schema.names:
                schema = schema.append(self.pa.field(name, self.pa.string()))
        return schema

    def _infer(self, rows: list[dict[str, Any]]) -> Any:
        """A schema from the labelled rows.

        Every key any of them has, each column's type inferred from all its values (a column no
        value fits is a string column)."""
        pa = self.pa
        labelled = [row for row in rows if ERROR_COLUMNS[0] not in row]
        names = dict.fromkeys(key for row in labelled for key in row if key not in ERROR_COLUMNS)
        fields = []
        for name in names:
            values = [row.get(name) for row in labelled]
            try:
                kind = pa.array(values).type
            except _CONVERSION_ERRORS:  # the first value Arrow can hold decides
                kind = next(filter(None, map(self._type_of, values)), pa.string())
            fields.append(pa.field(name, self._no_nulls(kind)))
        return self._with_error_columns(pa.schema(fields))

    def _no_nulls(self, kind: Any) -> Any:
        """``kind`` with Arrow's null type, wherever it stands, made a string.

        A column or a nested field no row of the batch filled (every turn's ``strategies`` empty)
        would refuse every value a later batch has."""
        pa = self.pa
        if pa.types.is_null(kind):
            return pa.string()
        if pa.types.is_list(kind) or pa.types.is_large_list(kind):
            item = kind.value_field
            make = pa.list_ if pa.types.is_list(kind) else pa.large_list
            return make(item.with_type(self._no_nulls(item.type)))
        if pa.types.is_struct(kind):
            children = [kind.field(k) for k in range(kind.num_fields)]
            return pa.struct([f.with_type(self._no_nulls(f.type)) for f in children])
        return kind

    def _with_new_columns(self, schema: Any, rows: list[dict[str, Any]]) -> Any:
        """The input's schema plus what labelling adds, typed from the rows.

        New columns (an ``acts`` list, an ``actparse`` object) and new fields of a struct column,
        the input's own fields and types kept as they were, so a labelled Parquet file loses none of
        it."""
        pa = self.pa
        labelled = [row for row in rows if ERROR_COLUMNS[0] not in row]
        if not labelled:
            return schema
        inferred = {f.name: f for f in self._infer(labelled)}
        for name, added in inferred.items():
            if name not in schema.names:
                schema = schema.append(added)
                continue
            old = schema.field(name)
            if not (pa.types.is_struct(old.type) and pa.types.is_struct(added.type)):
                continue
            have = {old.type.field(k).name for k in range(old.type.num_fields)}
            new = [
                added.type.field(k)
                for k in range(added.type.num_fields)
                if added.type.field(k).name not in have
            ]
            if new:
                children = [old.type.field(k) for k in range(old.type.num_fields)] + new
                schema = schema.set(
                    schema.get_field_index(name), old.with_type(pa.struct(children))
                )
        return schema

    def _type_of(self, value: Any) -> Any:
        try:
            return self.pa.array([value]).type
        except _CONVERSION_ERRORS:
            return None

    def _flush(self) -> None:
        if not self.rows:
            return
        if self.schema is None:
            self.schema = self._infer(self.rows)
        elif self.from_input and self.writer is None:
            self.schema = self._with_new_columns(self.schema, self.rows)
        if self.from_input:  # values written as JSON text by a rule, back in their types
            self.rows = [self._revived(row) for row in self.rows]
        if self.writer is not None:
            # The schema was fixed by an earlier batch: Arrow would drop without a word a
            # field it has no place for (an act's optional key first seen now).
            self.rows = [self._whole(row, self.written + k) for k, row in enumerate(self.rows, 1)]
        try:
            table = self.pa.Table.from_pylist(self.rows, schema=self.schema)
        except _CONVERSION_ERRORS:
            fitted = [self._fit(row, self.written + k) for k, row in enumerate(self.rows, 1)]
            table = self.pa.Table.from_pylist(fitted, schema=self.schema)
        try:
            if self.writer is None:
                self.writer = self.pa.parquet.ParquetWriter(self.tmp, self.schema)
            self.writer.write_table(table)
        except OSError as err:
            raise self.destination.failed(err) from None
        self.written += len(self.rows)
        self.rows = []

    def _revived(self, row: dict[str, Any]) -> dict[str, Any]:
        """A row with each value :func:`~actparse.io.arrow_values.to_json` wrote as text back.

        A value that is not what its column's rule writes is left as it is (so the row does not
        fit, and :meth:`_fit` says so)."""
        if self.revival is None:
            schema: Any = self.schema
            fields = [schema.field(k) for k in range(len(schema))]
            self.revival = [(f.name, f.type) for f in fields if needs_revival(f.type)]
        if not self.revival:
            return row
        try:
            changed = {name: revive(row[name], kind) for name, kind in self.revival if name in row}
        except _CONVERSION_ERRORS:
            return row
        return {**row, **changed}

    def _whole(self, row: dict[str, Any], number: int) -> dict[str, Any]:
        """The row if the schema has a place for every field of it; else an error row.

        Without ``keep_errors``, an :class:`~actparse.io.records.InputError` naming the
        record and the field."""
        if ERROR_COLUMNS[0] in row:
            return row
        if self.lost_check is None:
            schema: Any = self.schema
            self.lost_check = lost_field_check(self.pa.struct(list(schema)), self.pa)
        lost = self.lost_check(row) if self.lost_check is not None else None
        if lost is None:
            return row
        problem = (
            f"{self.path}: output record {number} has a field {lost!r} that the Parquet "
            f"schema, fixed by the first {BATCH_ROWS:,} records, has no place for; write "
            "JSON lines (-o out.jsonl) to keep it"
        )
        if not self.keep_errors:
            raise InputError(problem)
        self.unwritable += 1
        return _error_row(row, problem)

    def _fit(self, row: dict[str, Any], number: int) -> dict[str, Any]:
        """The row if it fits the schema; else, keeping errors, an error row.

        The error row holds it as JSON text."""
        try:
            self.pa.Table.from_pylist([row], schema=self.schema)
            return row
        except _CONVERSION_ERRORS as err:
            problem = f"{self.path}: output record {number} cannot be written to Parquet: {err}"
            if not self.keep_errors:
                raise InputError(problem) from None
        self.unwritable += ERROR_COLUMNS[0] not in row
        return _error_row(row, str(row.get(ERROR_COLUMNS[0], problem)))

    def __enter__(self) -> ParquetSink:
        return self

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        try:
            try:
                if exc_type is None:
                    self._flush()
                    if self.writer is None:  # no rows at all: still a valid, empty file
                        schema = self.schema or self._with_error_columns(self.pa.schema([]))
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


# What Arrow raises for a value it cannot hold: ArrowInvalid and ArrowTypeError are a
# ValueError and a TypeError, a lone surrogate a UnicodeEncodeError (a ValueError).
_CONVERSION_ERRORS = (ValueError, TypeError, OverflowError)


#: A check of a value against an Arrow type: the path of the first field the type has
#: no place for, or ``None``.
_Check = Callable[[Any], "str | None"]


def lost_field_check(kind: Any, pa: Any) -> _Check | None:
    """A check of values against the Arrow type ``kind``, built once per schema.

    ``None`` for a type with no struct inside (nothing to lose). The check gives the
    path of the first field a value has and the type has no place for (``acts[].deal``
    for a key ``deal`` of an element of the list ``acts``), else ``None``; a value of
    another type is :meth:`ParquetSink._fit`'s to judge. Key sets are compared as sets
    and only nested structs are walked: it runs on every row of every later batch."""
    if pa.types.is_struct(kind):
        names = frozenset(kind.field(k).name for k in range(kind.num_fields))
        nested = [
            (kind.field(k).name, check)
            for k in range(kind.num_fields)
            if (check := lost_field_check(kind.field(k).type, pa)) is not None
        ]

        def check_struct(value: Any) -> str | None:
            if not isinstance(value, dict):
                return None
            if not value.keys() <= names:
                return str(next(key for key in value if key not in names))
            for name, check in nested:
                item = value.get(name)
                if item is not None and (lost := check(item)) is not None:
                    return f"{name}.{lost}" if not lost.startswith("[]") else f"{name}{lost}"
            return None

        return check_struct
    if pa.types.is_list(kind) or pa.types.is_large_list(kind):
        element = lost_field_check(kind.value_type, pa)
        if element is None:
            return None

        def check_list(value: Any) -> str | None:
            if not isinstance(value, list):
                return None
            for item in value:
                if item is not None and (lost := element(item)) is not None:
                    return f"[].{lost}"
            return None

        return check_list
    return None


def _error_row(row: dict[str, Any], error: str) -> dict[str, Any]:
    """An error row: the error, and the record's fields as JSON text.

    An error record already holds the input text; that is used instead."""
    data = {k: v for k, v in row.items() if k != ERROR_COLUMNS[0]}
    given = data.get(ERROR_COLUMNS[1]) if set(data) == {ERROR_COLUMNS[1]} else None
    text = given if isinstance(given, str) else json.dumps(data, ensure_ascii=True)
    return {ERROR_COLUMNS[0]: _arrow_text(error), ERROR_COLUMNS[1]: _arrow_text(text)}


def _arrow_text(text: str) -> str:
    """Text Arrow can hold: a lone surrogate becomes its escape (``\\ud800``)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")
