"""Telling a record's format, and the error when none fits.

Every reader asks here (:mod:`actparse.io.sources`, the CSV and Parquet tables), so a
table and a line of JSON name the same problem in the same words.
"""

from __future__ import annotations

from typing import Any

from actparse import registry
from actparse.errors import InputError

__all__ = ["cannot_tell", "detect_at"]


def detect_at(raw: Any, where: str) -> str | None:
    """The format of one raw record (``None``: none fits).

    A record formats of two corpora claim is an :class:`InputError` at ``where`` (``file:line``)."""
    try:
        return registry.detect(raw)
    except registry.AmbiguousFormat as err:
        raise InputError(f"{where}: {err}") from None


def cannot_tell(name: str, number: int, raw: Any = None) -> InputError:
    """The error for a record no format claims, with what a format says it lacks."""
    hint = registry.explain(raw)
    if hint is not None:
        return InputError(f"{name}:{number}: cannot tell the format: {hint}")
    titles = ", ".join(c.title for c in registry.corpora())
    return InputError(
        f"{name}:{number}: cannot tell the format (expected records of {titles}); pass --format"
    )
