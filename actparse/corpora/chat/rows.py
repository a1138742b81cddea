"""A turn table's rows as dialogue records, and back.

Adjacent rows with the same ``dialogue_id`` are one dialogue (the registry's
``Format.row_key``). :func:`group_rows` makes them one record in the nested form
(:mod:`actparse.corpora.chat.reader`), each row kept whole as one of its ``turns``, in
the order of their ``turn`` column where there is one (file order otherwise, and on
ties). A dialogue's context (``items``, ``listing_price``) may be given on every row or
once; given twice, it must be the same. A row's ``role`` is its speaker's.
:func:`rows_of` gives the rows back.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from actparse.errors import InputError

__all__ = ["CONTEXT", "group_rows", "rows_of"]

#: The per-dialogue columns, given on every row of a dialogue or on some of them.
CONTEXT = ("items", "listing_price")


def _given(value: Any) -> bool:
    """Whether a cell holds a value (CSV has ``""`` and Parquet null where none is)."""
    if value is None or value == "":
        return False
    return not (isinstance(value, float) and math.isnan(value))


def _turn_number(row: Mapping[str, Any], k: int) -> float:
    value: Any = row.get("turn")
    if not _given(value):
        return float(k)
    try:
        return float(value)
    except (TypeError, ValueError):
        raise InputError(
            f"row {k + 1} of the dialogue: turn must be a number, got {value!r}"
        ) from None


def group_rows(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """One dialogue record (the nested form) of a dialogue's rows.

    >>> record = group_rows([
    ...     {"dialogue_id": "d", "speaker": "b", "text": "hi", "turn": 2, "items": "hat=1"},
    ...     {"dialogue_id": "d", "speaker": "a", "text": "hello", "turn": 1, "role": "buyer"},
    ... ])
    >>> [t["text"] for t in record["turns"]], record["items"], record["roles"]
    (['hello', 'hi'], 'hat=1', {'a': 'buyer'})
    """
    if not rows:
        raise InputError("a dialogue without rows")
    keyed = sorted(enumerate(rows), key=lambda kr: (_turn_number(kr[1], kr[0]), kr[0]))
    record: dict[str, Any] = {
        "id": rows[0].get("dialogue_id"),
        "turns": [dict(r) for _, r in keyed],
    }
    for column in CONTEXT:
        values = [(k, r[column]) for k, r in enumerate(rows) if _given(r.get(column))]
        if values:
            first = values[0][1]
            for k, value in values[1:]:
                if value != first:
                    raise InputError(
                        f"row {k + 1} of the dialogue: {column} {value!r} differs from "
                        f"{first!r} on its row {values[0][0] + 1} (give a dialogue one {column})"
                    )
            record[column] = first
    roles: dict[str, Any] = {}
    for k, row in enumerate(rows):
        role = row.get("role")
        if _given(role):
            speaker = str(row.get("speaker", row.get("agent")))
            if roles.setdefault(speaker, role) != role:
                raise InputError(
                    f"row {k + 1} of the dialogue: speaker {speaker!r} has role {role!r} "
                    f"and {roles[speaker]!r}"
                )
    if roles:
        record["roles"] = roles
    return record


def rows_of(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The rows of a record :func:`group_rows` made, in its turn order."""
    return [dict(turn) for turn in record.get("turns", [])]
