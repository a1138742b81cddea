"""Turn tables: the rows of one dialogue made one record, on every path that reads records.

A format with a :attr:`~actparse.registry.Format.row_key` has one record per turn (a
turn table). Its adjacent rows with the same key are one dialogue: :func:`group_units`
makes them one record with the format's ``group_rows``, numbered by the line of its
first row. Only the rows of the dialogue being read are held (and, to tell a dialogue
whose rows come back after other dialogues' rows, each key seen with its first line).

The grouping is generic: it knows the format only through the registry, and works on
any stream of units (:class:`~actparse.io.records.Record` or a batch's items) through a
function that says which unit is a row and what it holds. A unit that is no row (a line
that could not be read) passes through unchanged; met inside a dialogue, it comes right
after that dialogue's rows, so the dialogue is not cut in two.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple, TypeVar

from actparse import registry
from actparse.errors import InputError, RegistryError
from actparse.io.messages import describe

__all__ = ["Group", "Row", "RowSpec", "group_units", "row_spec"]

U = TypeVar("U")


class RowSpec(NamedTuple):
    """A row format's functions, imported: the key, the grouping, the rows back."""

    key: Callable[[Any], Any]
    group: Callable[..., dict[str, Any]]
    rows_of: Callable[[dict[str, Any]], list[dict[str, Any]]]


def row_spec(fmt: str) -> RowSpec | None:
    """The row functions of a format (``None``: its records are whole dialogues).

    Asked of the registry each time (its lookups are cached there), so that a corpus
    registered again is seen."""
    spec = registry.format_spec(fmt)
    if spec.row_key is None:
        return None
    if spec.group_rows is None or spec.rows_of is None:
        raise RegistryError(
            f"format {fmt!r} has a row_key but no group_rows or rows_of to go with it"
        )
    return RowSpec(spec.row_key, registry.resolve(spec.group_rows), registry.resolve(spec.rows_of))


class Row(NamedTuple):
    """One row of a turn table: where it is, its format and its fields."""

    source: str
    line: int
    format: str
    raw: dict[str, Any]
    #: What the reader found wrong with the row (a CSV row with cells the header does not
    #: name): its dialogue is then written back as its rows, this the error.
    error: str | None = None


class Group(NamedTuple):
    """One dialogue of a turn table: its record, or why its rows make none.

    ``raw`` is the grouped record (``None`` when ``error`` says why there is none);
    ``rows`` are the rows as read, so a dialogue that cannot be read is still written
    back whole (``--on-error keep``).
    """

    source: str
    line: int
    format: str
    raw: dict[str, Any] | None
    rows: list[dict[str, Any]]
    error: str | None = None


def group_units(units: Iterable[U], row_of: Callable[[U], Row | None]) -> Iterator[U | Group]:
    """The units with each dialogue's adjacent rows made one :class:`Group`, in input order.

    ``row_of`` says what a unit holds when it is a row of a row format (``None``: pass
    it through). Rows whose key was seen before, with other rows between, are a
    :class:`Group` with an ``error`` naming both lines (``group_rows``' own errors too).
    """
    seen: dict[Any, int] = {}
    rows: list[Row] = []
    held: list[U] = []
    key: Any = None
    for unit in units:
        row = row_of(unit)
        if row is None:
            if rows:
                held.append(unit)
            else:
                yield unit
            continue
        spec = row_spec(row.format)
        assert spec is not None
        here = (row.format, spec.key(row.raw))
        if rows and here == key:
            rows.append(row)
            continue
        if rows:
            yield _grouped(rows, key, seen)
            yield from held
            held = []
        key, rows = here, [row]
    if rows:
        yield _grouped(rows, key, seen)
        yield from held


def _grouped(rows: Sequence[Row], key: Any, seen: dict[Any, int]) -> Group:
    """The group of one dialogue's adjacent rows (its key then counts as seen)."""
    first = rows[0]
    raws = [row.raw for row in rows]
    before = seen.setdefault(key, first.line)
    if before != first.line:
        return Group(
            first.source,
            first.line,
            first.format,
            None,
            raws,
            f"{first.source}:{first.line}: rows of dialogue {key[1]!r} are not adjacent: its "
            f"rows began at line {before}, and start again here after other dialogues' rows; "
            "give each dialogue's rows one after the other (sort the table by dialogue_id, "
            "keeping the order of the turns)",
        )
    unread = next((row.error for row in rows if row.error is not None), None)
    if unread is not None:
        # A row of the dialogue could not be read: labelled without it, the dialogue would
        # lose a turn without a word.
        return Group(first.source, first.line, first.format, None, raws, unread)
    spec = row_spec(first.format)
    assert spec is not None
    where = [f"{row.source}:{row.line}" for row in rows]
    try:
        raw = spec.group(raws, where)
    except InputError as err:
        message = str(err)
        if not message.startswith(first.source):
            message = f"{where[0]}: {message}"
        return Group(first.source, first.line, first.format, None, raws, message)
    # A grouper's failure is its rows' error, whatever shape of value it tripped over (a
    # number too large for a float, a cell nested too deep).
    except (
        KeyError,
        IndexError,
        TypeError,
        ValueError,
        AttributeError,
        ArithmeticError,
        RecursionError,
    ) as err:
        return Group(
            first.source, first.line, first.format, None, raws, f"{where[0]}: {describe(err)}"
        )
    return Group(first.source, first.line, first.format, raw, raws)
