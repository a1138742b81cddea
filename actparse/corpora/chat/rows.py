"""A turn table's rows as dialogue records, and back.

Adjacent rows with the same ``dialogue_id`` are one dialogue (the registry's
``Format.row_key``). :func:`group_rows` makes them one record in the nested form
(:mod:`actparse.corpora.chat.reader`), each row kept whole as one of its ``turns``, in
the order of their ``turn`` column where there is one (file order otherwise, and on
ties): the input's ``turn`` only orders the rows. A dialogue's context (``items``,
``listing_price``) may be given on every row or once; given twice, it must be the same;
each value is checked on its own row, so an error names that row. A row's ``role`` is
its speaker's. :func:`rows_of` gives the rows back (for a nested record too: its turns).
"""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from actparse import registry
from actparse.corpora.chat.reader import (
    CORPUS,
    cell_given,
    parse_items,
    parse_price,
    speaker_of,
    turn_speaker,
)
from actparse.errors import InputError
from actparse.io.fields import text_field
from actparse.models import Item

__all__ = ["CONTEXT", "group_rows", "rows_of", "turn_fields"]

#: The per-dialogue columns, given on every row of a dialogue or on some of them.
CONTEXT = ("items", "listing_price")


def _turn_number(row: Mapping[str, Any], k: int, where: str) -> int | float:
    """A row's ``turn`` (its place ``k`` without one); a whole number is kept exact.

    A float holds integers only up to 2**53: two nanosecond timestamps a step apart
    would be one turn ("given twice") or swap places. A number past every float (10**400)
    is an error, as NaN is."""
    value: Any = row.get("turn")
    if not cell_given(value):
        return k
    number: Any = value
    if isinstance(value, str):
        # Not digits (or past int's own limit of digits): read as a float below.
        with contextlib.suppress(ValueError):
            number = int(value)
    if not isinstance(number, int) or isinstance(number, bool):
        try:
            number = float(number)
        except (TypeError, ValueError, OverflowError):
            number = math.nan
    finite = abs(number) < 2**1024 if isinstance(number, int) else math.isfinite(number)
    if isinstance(value, bool) or not finite:
        raise InputError(f"{where}: turn must be a number, got {value!r}")
    exact: int | float = number
    return exact


def _check_row(row: Mapping[str, Any], where: str) -> None:
    """A row has what a turn needs: its dialogue, its speaker, its text."""
    if not isinstance(row, Mapping):
        raise InputError(f"{where}: a row must be an object of fields")
    for column in ("dialogue_id", "text"):
        if column not in row:
            raise InputError(f"{where}: a turn table row needs a {column!r} column")
    if not cell_given(row["dialogue_id"]):
        # A made-up id (the row's position) would join rows the user did not join.
        raise InputError(f"{where}: the row's dialogue_id is empty")
    speaker = row.get("speaker", row.get("agent"))
    if not cell_given(speaker):
        raise InputError(f"{where}: no speaker (a 'speaker' name or an 'agent' number)")
    # Checked here, not only once grouped: the reader would name the dialogue's first
    # row and the turn's place in the sorted turns, not the row at fault.
    turn_speaker(row, where)
    for column in ("text", "action"):
        if cell_given(row.get(column)):
            text_field(row[column], f"{where}: {column}")


def _check_corpus(rows: Sequence[Mapping[str, Any]], places: Sequence[str]) -> None:
    """Refuse a dialogue of another corpus' turn table: read as chat, it changes corpus unsaid.

    A turn table keeps the turns, not a corpus' own inputs (Deal or No Deal's counts and
    values, Craigslist's listing), so its rows relabel as chat dialogues with other acts.
    Its first row with a ``corpus`` cell tells (a table's rows share their columns).
    """
    k = next((k for k, row in enumerate(rows) if cell_given(row.get("corpus"))), None)
    if k is None:
        return
    corpus = str(rows[k]["corpus"])
    if corpus == CORPUS or corpus not in registry.names():
        return
    title = registry.get(corpus).title
    raise InputError(
        f"{places[k]}: this row is from a {title} turn table (corpus {corpus!r}), which keeps "
        "none of that corpus' own inputs: its rows would be labelled as your own dialogues "
        f"({CORPUS!r}), with other acts. Label the corpus' own file, or set the corpus column "
        f"to {CORPUS!r} (or rename it) to label the rows as your own dialogues"
    )


def _context(rows: Sequence[Mapping[str, Any]], where: Sequence[str], column: str) -> Any:
    """A dialogue's ``items`` or ``listing_price``: given once, or the same on each row.

    Each value given is checked where it stands, so an error names its row; two rows
    that give different values (after reading: ``hat=1`` and ``{"hat": 1}`` agree) are
    an error naming both."""
    read = parse_items if column == "items" else parse_price
    first: tuple[int, Any, Any] | None = None
    for k, row in enumerate(rows):
        value = row.get(column)
        if not cell_given(value):
            continue
        meaning = read(value, f"{where[k]}: {column}")
        if first is None:
            first = (k, value, meaning)
        elif meaning != first[2]:
            raise InputError(
                f"{where[k]}: {column} {value!r} differs from {first[1]!r} at "
                f"{where[first[0]]} (a dialogue has one {column} value: give it on one row, or "
                "the same on each)"
            )
    return None if first is None else first[1]


def _turn_order(rows: Sequence[Mapping[str, Any]], places: Sequence[str]) -> list[int]:
    """The rows' positions in the order of their ``turn`` column (file order on ties).

    A turn number given twice in the dialogue is an error naming both rows."""
    numbers = [_turn_number(r, k, places[k]) for k, r in enumerate(rows)]
    given = [k for k, r in enumerate(rows) if cell_given(r.get("turn"))]
    seen: dict[int | float, int] = {}
    for k in given:
        first = seen.setdefault(numbers[k], k)
        if first != k:
            raise InputError(
                f"{places[k]}: turn {rows[k]['turn']!r} is given twice in the dialogue, "
                f"first at {places[first]} (the turn column orders a dialogue's rows)"
            )
    return sorted(range(len(rows)), key=lambda k: (numbers[k], k))


def _roles(rows: Sequence[Mapping[str, Any]], places: Sequence[str]) -> dict[str, Any]:
    """Each speaker's role, from the rows that give one; two roles for one speaker are an error."""
    roles: dict[str, Any] = {}
    for k, row in enumerate(rows):
        role = row.get("role")
        if cell_given(role):
            speaker = str(speaker_of(row))
            if roles.setdefault(speaker, role) != role:
                raise InputError(
                    f"{places[k]}: speaker {speaker!r} has role {role!r} here and "
                    f"{roles[speaker]!r} on an earlier row"
                )
    return roles


def group_rows(
    rows: Sequence[Mapping[str, Any]], where: Sequence[str] | None = None
) -> dict[str, Any]:
    """One dialogue record (the nested form) of a dialogue's rows.

    ``where`` names each row's place (``file:line``) for the errors, which start with
    the place of the row at fault (default: ``row k of the dialogue``).

    >>> record = group_rows([
    ...     {"dialogue_id": "d", "speaker": "b", "text": "hi", "turn": 2, "items": "hat=1"},
    ...     {"dialogue_id": "d", "speaker": "a", "text": "hello", "turn": 1, "role": "buyer"},
    ... ])
    >>> [t["text"] for t in record["turns"]], record["items"], record["roles"]
    (['hello', 'hi'], 'hat=1', {'a': 'buyer'})
    >>> group_rows([{"dialogue_id": "d", "speaker": "a", "text": "x", "turn": "two"}],
    ...            ["t.csv:2"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    actparse.errors.InputError: t.csv:2: turn must be a number, got 'two'
    """
    if not rows:
        raise InputError("a dialogue without rows")
    places = (
        list(where)
        if where is not None
        else [f"row {k + 1} of the dialogue" for k in range(len(rows))]
    )
    for row, place in zip(rows, places):
        _check_row(row, place)
    _check_corpus(rows, places)
    order = _turn_order(rows, places)
    record: dict[str, Any] = {
        "id": rows[0].get("dialogue_id"),
        "turns": [dict(rows[k]) for k in order],
    }
    for column in CONTEXT:
        value = _context(rows, places, column)
        if value is not None:
            record[column] = value
    roles = _roles(rows, places)
    if roles:
        record["roles"] = roles
    return record


def _items_cell(items: tuple[Item, ...]) -> str | None:
    """A dialogue's items as a table's cell (``None`` without items).

    ``name=count`` text, or JSON where a name would not read back from that text
    (``salt, pepper``, ``x=y``).

    >>> _items_cell(parse_items({"book": 2, "hat": 1}))
    'book=2;hat=1'
    >>> _items_cell(parse_items({"salt, pepper": 2}))
    '{"salt, pepper": 2}'
    """
    if not items:
        return None
    text = ";".join(f"{i.name}={i.count}" for i in items)
    with contextlib.suppress(InputError):
        if parse_items(text) == items:
            return text
    return json.dumps({i.name: i.count for i in items}, ensure_ascii=False)


def turn_fields(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A nested record's turns as rows, each with the dialogue's context.

    The per-turn table of a nested record (or a ConvoKit conversation) carries, on every
    row, its ``items`` (as ``name=count`` text, or null), its ``listing_price`` (a number,
    or null) and the speaker's ``role``: every row has the same columns whatever its
    dialogue declares, and the table labels again as the same dialogues.

    >>> turn_fields({"turns": [{"speaker": "a", "text": "hi"}], "listing_price": "$9",
    ...              "items": {"hat": 2}, "roles": {"a": "buyer"}})
    [{'speaker': 'a', 'text': 'hi', 'items': 'hat=2', 'listing_price': 9.0, 'role': 'buyer'}]
    """
    roles = record.get("roles")
    roles = roles if isinstance(roles, Mapping) else {}
    context = {
        "items": _items_cell(parse_items(record.get("items"))),
        "listing_price": parse_price(record.get("listing_price")),
    }
    rows = rows_of(record)
    for row in rows:
        for column, value in context.items():
            row.setdefault(column, value)
        speaker = str(speaker_of(row))
        if speaker in roles:
            row.setdefault("role", roles[speaker])
    return rows


def rows_of(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The rows of a record :func:`group_rows` made (or a nested record's turns), in turn order.

    A turn that is not an object gives an empty row (the reader names it).
    """
    turns = record.get("turns")
    if not isinstance(turns, list):
        return []
    return [dict(turn) if isinstance(turn, Mapping) else {} for turn in turns]
