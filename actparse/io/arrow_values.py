"""Values of a Parquet file that JSON has no type for: the rule each is written by, and back.

A Parquet column may hold timestamps, dates, times, durations, bytes, decimals, maps and
dictionary-encoded values; pyarrow reads them as Python's ``datetime``, ``bytes``,
``Decimal``... which :mod:`json` cannot write. :func:`to_json` (the output encoder's
``default``) writes each as a string by a stated rule:

========================  =====================================================
Arrow type                JSON
========================  =====================================================
timestamp                 ISO 8601 (``2020-01-01T12:00:00``, ``+01:00`` with a time zone)
date32, date64            ISO 8601 (``2020-01-01``)
time32, time64            ISO 8601 (``12:00:00.000001``)
duration                  ISO 8601 (``P1DT2H3M4.5S``, ``-P...`` when negative)
binary (any width)        base64 (standard alphabet, padded)
decimal128, decimal256    the number in plain decimal notation, as a string (``"1.50"``)
map                       a list of ``[key, value]`` pairs
dictionary                its value
float NaN, inf            ``NaN``, ``Infinity``, ``-Infinity`` (as Python's json writes them)
========================  =====================================================

A labelled Parquet file written with the input's schema gets each value back in its own
type (:func:`revive`), so the output holds what the input held.
"""

from __future__ import annotations

import base64
import datetime
import decimal
import re
from typing import Any

__all__ = ["needs_revival", "revive", "to_json"]


def to_json(value: Any) -> Any:
    """A value JSON has no type for, as JSON (the ``default`` of the output encoder)."""
    if isinstance(value, datetime.date | datetime.time):  # datetime is a date
        return value.isoformat()
    if isinstance(value, datetime.timedelta):
        own = getattr(value, "isoformat", None)  # pandas' Timedelta keeps nanoseconds
        return own() if own is not None else _iso_duration(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return base64.b64encode(value).decode("ascii")
    if isinstance(value, decimal.Decimal):
        return format(value, "f")
    raise TypeError(f"a value of type {type(value).__name__} has no JSON form")


def _iso_duration(value: datetime.timedelta) -> str:
    sign, value = ("-", -value) if value < datetime.timedelta(0) else ("", value)
    hours, rest = divmod(value.seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    fraction = f".{value.microseconds:06d}".rstrip("0") if value.microseconds else ""
    return f"{sign}P{value.days}DT{hours}H{minutes}M{seconds}{fraction}S"


_DURATION = re.compile(r"(-?)P(\d+)DT(\d+)H(\d+)M(\d+)(?:\.(\d{1,9}))?S")
_TIME = re.compile(r"(\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?")
_NANOS = {"s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}


def needs_revival(kind: Any) -> bool:
    """Whether an Arrow type holds, at any depth, a value :func:`to_json` turned into text."""
    import pyarrow as pa

    t = pa.types
    if t.is_dictionary(kind) or t.is_map(kind):
        return True
    if t.is_struct(kind):
        return any(needs_revival(kind.field(k).type) for k in range(kind.num_fields))
    if _is_list(kind):
        return needs_revival(kind.value_type)
    return _leaf(kind) is not None


def _is_list(kind: Any) -> bool:
    import pyarrow as pa

    t = pa.types
    views = getattr(t, "is_list_view", None), getattr(t, "is_large_list_view", None)
    return (
        t.is_list(kind)
        or t.is_large_list(kind)
        or t.is_fixed_size_list(kind)
        or any(view is not None and view(kind) for view in views)
    )


def _leaf(kind: Any) -> str | None:
    """Which rule of :func:`to_json` wrote a leaf type's values (``None``: none did)."""
    import pyarrow as pa

    t = pa.types
    binary_view = getattr(t, "is_binary_view", lambda _kind: False)
    if t.is_timestamp(kind) or t.is_date(kind) or t.is_decimal(kind):
        return "cast"
    if t.is_time(kind):
        return "time"
    if t.is_duration(kind):
        return "duration"
    if t.is_binary(kind) or t.is_large_binary(kind) or t.is_fixed_size_binary(kind):
        return "binary"
    if binary_view(kind):
        return "binary"
    return None


def revive(value: Any, kind: Any) -> Any:
    """A JSON value written by :func:`to_json` as a value of Arrow type ``kind``.

    Raises ``ValueError`` or ``TypeError`` when it is not one (a string that is not a date)."""
    import pyarrow as pa

    if value is None:
        return None
    t = pa.types
    if t.is_dictionary(kind):
        return revive(value, kind.value_type)
    if t.is_map(kind):
        return [(revive(k, kind.key_type), revive(v, kind.item_type)) for k, v in value]
    if t.is_struct(kind):
        fields = {kind.field(k).name: kind.field(k).type for k in range(kind.num_fields)}
        return {k: revive(v, fields[k]) if k in fields else v for k, v in value.items()}
    if _is_list(kind):
        return [revive(v, kind.value_type) for v in value]
    rule = _leaf(kind)
    if rule is None or not isinstance(value, str):
        return value
    if rule == "cast":
        return pa.array([value], pa.string()).cast(kind)[0]
    if rule == "binary":
        return base64.b64decode(value, validate=True)
    return pa.scalar(_nanos(value, rule) // _NANOS[kind.unit], kind)


def _nanos(text: str, rule: str) -> int:
    """An ISO 8601 time of day or duration, in nanoseconds."""
    found = (_TIME if rule == "time" else _DURATION).fullmatch(text)
    if found is None:
        raise ValueError(f"not an ISO 8601 {rule}: {text!r}")
    *whole, fraction = found.groups()
    sign = -1 if rule == "duration" and whole.pop(0) == "-" else 1
    scales = (86400, 3600, 60, 1) if rule == "duration" else (3600, 60, 1)
    seconds = sum(int(part) * scale for part, scale in zip(whole, scales))
    return sign * (seconds * 10**9 + int((fraction or "").ljust(9, "0")))
