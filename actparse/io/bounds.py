"""Bounds on one input record: how deep it nests, how large its integers are.

Every path a record takes after it is read (labelling, workers, which receive it pickled,
writing it back as JSON, ``eval``, ``report``, ``train-prices``) walks it recursively,
and Python's recursion gives out long before :mod:`json`'s reader does (pickle at a few
hundred levels). So a record may nest at most :data:`MAX_NESTING` deep, checked where it
is read: one nested deeper, or one :mod:`json` cannot read at all (a 100,000-deep list),
is an error naming its file and line, and reading goes on after it. An integer of more
than :data:`MAX_INT_DIGITS` digits (Python's own limit on turning text into an integer)
is such an error too.
"""

from __future__ import annotations

import json
import re
from typing import Any

from actparse.errors import InputError

__all__ = [
    "MAX_INT_DIGITS",
    "MAX_NESTING",
    "json_value_end",
    "nesting_problem",
    "read_json",
    "value_problem",
]

#: The deepest a record may nest: lists and objects within the record (itself 1).
MAX_NESTING = 100
#: The most digits an integer in the input may have (Python's int/str limit).
MAX_INT_DIGITS = 4300

TOO_DEEP = f"nested more than {MAX_NESTING} deep (the most a record may nest)"
TOO_LONG = f"holds an integer of more than {MAX_INT_DIGITS:,} digits (the most one may have)"

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


def value_problem(err: BaseException) -> str | None:
    """What a failure of :mod:`json` on a value it could not read means, in words.

    ``None``: not such a failure (a syntax error says itself)."""
    if isinstance(err, RecursionError):
        return TOO_DEEP
    if isinstance(err, ValueError) and "integer string conversion" in str(err):
        return TOO_LONG
    return None


def nesting_problem(
    value: Any, text: str | None = None, start: int = 0, end: int = -1
) -> str | None:
    """:data:`TOO_DEEP` if ``value`` nests more than :data:`MAX_NESTING` deep, else ``None``.

    ``text[start:end]`` (the JSON it was read from), when given, rules most records out at
    once: fewer brackets than the limit cannot nest past it."""
    if text is not None:
        stop = len(text) if end < 0 else end
        if text.count("[", start, stop) + text.count("{", start, stop) <= MAX_NESTING:
            return None
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        current, depth = stack.pop()
        if depth > MAX_NESTING:
            return TOO_DEEP
        if isinstance(current, dict):
            current = current.values()
        elif not isinstance(current, list | tuple):
            continue
        stack.extend((item, depth + 1) for item in current if isinstance(item, dict | list | tuple))
    return None


def read_json(text: str, where: str) -> Any:
    """One JSON value within the bounds, or :class:`InputError` at ``where`` (``file:line``).

    A syntax error propagates as :class:`json.JSONDecodeError` (its caller words it)."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        raise
    except (RecursionError, ValueError) as err:
        problem = value_problem(err)
        if problem is None:
            raise
        raise InputError(f"{where}: {problem}") from None
    problem = nesting_problem(value, text)
    if problem is not None:
        raise InputError(f"{where}: {problem}")
    return value


def json_value_end(text: str, pos: int) -> int | None:
    """Where the JSON value at ``text[pos]`` (an object, a list, a number) ends, not recursing.

    Used to step over a value too deep for :mod:`json` to read. ``None``: it does not
    end (the brackets do not balance before the text does)."""
    number = _NUMBER.match(text, pos)
    if number is not None:
        return number.end()
    if text[pos : pos + 1] not in ("[", "{"):
        return None
    depth = 0
    for token in _TOKENS.finditer(text, pos):
        kind = token.group()
        if kind in ("[", "{"):
            depth += 1
        elif kind in ("]", "}"):
            depth -= 1
            if depth == 0:
                return token.end()
    return None
