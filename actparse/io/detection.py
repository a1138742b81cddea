"""Telling a record's format, and the error when none fits.

Every reader asks here (:mod:`actparse.io.sources`, the CSV and Parquet tables), so a
table and a line of JSON name the same problem in the same words.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from actparse import registry
from actparse.errors import InputError

__all__ = ["cannot_tell", "check_column_names", "detect_at"]


def detect_at(raw: Any, where: str) -> str | None:
    """The format of one raw record (``None``: none fits).

    A record formats of two corpora claim is an :class:`InputError` at ``where`` (``file:line``)."""
    try:
        return registry.detect(raw)
    except registry.AmbiguousFormat as err:
        raise InputError(f"{where}: {err}") from None


def check_column_names(names: Sequence[str], where: str) -> None:
    """Refuse a table whose header (or schema) names a column twice, at ``where``.

    A row is a record of fields by name: the second column of a name would hide the
    first's cells without a word. Unnamed columns are let be: a spreadsheet's export ends
    lines with empty ones (``text,,``).

    >>> check_column_names(["dialogue_id", "text", "text"], "t.csv:1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    actparse.errors.InputError: t.csv:1: the column 'text' is named twice (rename one: ...)
    """
    seen: set[str] = set()
    for name in names:
        if name in seen and name:
            raise InputError(
                f"{where}: the column {name!r} is named twice (rename one: "
                "a row would keep only the last one's cells)"
            )
        seen.add(name)


def cannot_tell(name: str, number: int, raw: Any = None) -> InputError:
    """The error for a record no format claims, with what a format says it lacks."""
    hint = registry.explain(raw)
    if hint is not None:
        return InputError(f"{name}:{number}: cannot tell the format: {hint}")
    titles = ", ".join(c.title for c in registry.corpora())
    return InputError(
        f"{name}:{number}: cannot tell the format (expected records of {titles}); pass --format"
    )
