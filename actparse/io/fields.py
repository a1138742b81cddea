"""Checks shared by the readers of every corpus: a field of the right type, or an error
that names the field and what was found."""

from __future__ import annotations

import math
from typing import Any

from actparse.io.messages import json_kind

__all__ = ["agent_index", "count_field", "list_field", "number_or_none", "text_field"]


def agent_index(value: Any, what: str) -> int:
    """An agent field as 0 or 1 (``"0"``/``"1"`` accepted); anything else is an error."""
    if isinstance(value, bool) or value not in (0, 1, "0", "1"):
        raise ValueError(f"{what} must be agent 0 or 1, got {value!r}")
    return int(value)


def text_field(value: Any, what: str) -> str:
    """A field that must be a string; the error names it and the type found."""
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a string, got {json_kind(value)}")
    return value


def list_field(value: Any, what: str) -> list[Any]:
    """A field that must be a list (a string is not a list of one-letter turns)."""
    if not isinstance(value, list):
        raise TypeError(f"{what} must be a list, got {json_kind(value)}")
    return value


def count_field(value: Any, what: str, maximum: int | None = None) -> int:
    """A count: a whole number from 0 (to ``maximum``), given as a number or as digits.

    ``1.5``, ``-5``, ``True`` and a count above ``maximum`` are errors saying so; a whole
    float (``2.0``) is that number.
    """
    if type(value) is int and value >= 0 and (maximum is None or value <= maximum):
        return value  # the common case, checked first: readers call this per item
    number: Any = value
    if isinstance(value, str):
        try:
            number = int(value.strip())
        except ValueError:
            raise ValueError(f"{what} must be a whole number, got {value!r}") from None
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    if isinstance(number, bool) or not isinstance(number, int):
        raise ValueError(f"{what} must be a whole number, got {value!r}")
    if number < 0:
        raise ValueError(f"{what} must not be negative, got {value!r}")
    if maximum is not None and number > maximum:
        raise ValueError(f"{what} must be at most {maximum}, got {value!r}")
    return number


def number_or_none(value: Any) -> float | None:
    """A number field read leniently: ``None`` when absent, not a number, or NaN."""
    if value is None or isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(number) else number
