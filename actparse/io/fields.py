"""Checks shared by the readers of every corpus.

A field of the right type, or an :class:`~actparse.errors.InputError` that names the field and what
was found; and :func:`record_reader`, which makes sure a reader raises nothing else."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from actparse.errors import InputError
from actparse.io.messages import describe, json_kind

__all__ = [
    "MAX_COUNT",
    "acts_written_before",
    "agent_index",
    "count_field",
    "field_to_write",
    "list_field",
    "number_or_none",
    "record_reader",
    "required",
    "text_field",
]

In = TypeVar("In")
Out = TypeVar("Out")

#: What Python raises inside a reader that meets a record of the wrong shape (a field
#: missing, a list where an object should be, a list one entry short).
_SHAPE_ERRORS = (
    KeyError,
    IndexError,
    TypeError,
    ValueError,
    AttributeError,
    RecursionError,
    OverflowError,
)


def record_reader(read: Callable[[In], Out]) -> Callable[[In], Out]:
    """A reader that raises only :class:`~actparse.errors.InputError` for a bad record.

    A reader (raw record -> dialogue, or a text line -> raw record) that raises only
    :class:`~actparse.errors.InputError` for a malformed record.

    Readers check the fields they can name (:func:`required`, :func:`text_field`...);
    what Python trips over where no check was written (``'list' object has no attribute
    'get'``) becomes an ``InputError`` in the record's terms (:func:`describe`), so no
    bare ``KeyError`` or ``TypeError`` reaches a caller of the reader.
    """

    @functools.wraps(read)
    def checked(raw: In) -> Out:
        try:
            return read(raw)
        except InputError:
            raise
        except _SHAPE_ERRORS as err:
            raise InputError(describe(err)) from None

    return checked


def required(record: Any, key: str, what: str | None = None) -> Any:
    """The value of a field a record must have.

    ``what`` names it in the error (its path, ``chat_logs[3].id``; the key by default)."""
    if not isinstance(record, Mapping):
        where = what.rpartition(".")[0] if what and "." in what else "the record"
        raise InputError(f"{where} must be a JSON object, got {json_kind(record)}")
    try:
        return record[key]
    except KeyError:
        raise InputError(f"missing field {what or key!r}") from None


def agent_index(value: Any, what: str) -> int:
    """An agent field as 0 or 1 (``"0"``/``"1"`` accepted); anything else is an error."""
    if isinstance(value, bool) or value not in (0, 1, "0", "1"):
        raise InputError(f"{what} must be agent 0 or 1, got {value!r}")
    return int(value)


def text_field(value: Any, what: str) -> str:
    """A field that must be a string; the error names it and the type found."""
    if not isinstance(value, str):
        raise InputError(f"{what} must be a string, got {json_kind(value)}")
    return value


def list_field(value: Any, what: str) -> list[Any]:
    """A field that must be a list (a string is not a list of one-letter turns)."""
    if not isinstance(value, list):
        raise InputError(f"{what} must be a list, got {json_kind(value)}")
    return value


#: The largest count: what a table's 64-bit integer column (Parquet, pandas) holds.
MAX_COUNT = 2**63 - 1


def count_field(value: Any, what: str, maximum: int = MAX_COUNT) -> int:
    """A count: a whole number from 0 to ``maximum``, given as a number or as digits.

    ``1.5``, ``-5``, ``True`` and a count above ``maximum`` (by default :data:`MAX_COUNT`,
    past which no per-turn table could hold it) are errors saying so; a whole float
    (``2.0``) is that number.
    """
    if type(value) is int and 0 <= value <= maximum:
        return value  # the common case, checked first: readers call this per item
    number: Any = value
    if isinstance(value, str):
        try:
            number = int(value.strip())
        except ValueError:
            raise InputError(f"{what} must be a whole number, got {value!r}") from None
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    if isinstance(number, bool) or not isinstance(number, int):
        raise InputError(f"{what} must be a whole number, got {value!r}")
    if number < 0:
        raise InputError(f"{what} must not be negative, got {value!r}")
    if number > maximum:
        raise InputError(f"{what} must be at most {maximum}, got {value!r}")
    return number


def number_or_none(value: Any) -> float | None:
    """A number field read leniently: ``None`` when absent, not a number, or NaN.

    An integer too large for a float (``10**400``) is an :class:`InputError`: it is a
    number, and no float stands for it."""
    if value is None or isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    except OverflowError:
        size = f" ({_digits(value)} digits)" if isinstance(value, int) else ""
        raise InputError(
            f"a number is too large{size}: past 1.8e308, the most a float holds"
        ) from None
    return None if math.isnan(number) else number


def _digits(value: int) -> str:
    """How many digits an integer has, in words (Python writes at most 4,300 of them)."""
    try:
        return str(len(str(abs(value))))
    except ValueError:
        return "more than 4,300"


def acts_written_before(value: Any) -> bool:
    """Whether a field's value is a list of acts as actparse writes them (each with an intent)."""
    return isinstance(value, list) and all(isinstance(a, dict) and "intent" in a for a in value)


def field_to_write(raw: Mapping[str, Any], key: str, ours: Callable[[Any], bool]) -> None:
    """Refuse a record whose ``key``, a field actparse writes, holds data of the input's own.

    A record labelled before has the field in actparse's shape (``ours``), and is labelled
    again; any other value would be overwritten without a word. A turn table refuses such
    a column the same way."""
    value = raw.get(key)
    if value is not None and not ours(value):
        raise InputError(
            f"field {key!r} is the input's own ({describe(value)}), and actparse writes its "
            "acts there: rename it to keep it"
        )
