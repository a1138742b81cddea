"""Checks shared by the readers of every corpus: a field of the right type, or an error
that names the field and what was found."""

from __future__ import annotations

import math
from typing import Any

__all__ = ["agent_index", "number_or_none", "text_field"]


def agent_index(value: Any, what: str) -> int:
    """An agent field as 0 or 1 (``"0"``/``"1"`` accepted); anything else is an error."""
    if isinstance(value, bool) or value not in (0, 1, "0", "1"):
        raise ValueError(f"{what} must be agent 0 or 1, got {value!r}")
    return int(value)


def text_field(value: Any, what: str) -> str:
    """A field that must be a string; the error names it and the type found."""
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a string, got {type(value).__name__}")
    return value


def number_or_none(value: Any) -> float | None:
    """A number field read leniently: ``None`` when absent, not a number, or NaN."""
    if value is None or isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(number) else number
