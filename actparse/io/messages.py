"""Errors in words.

What reaches a user says what is wrong with the input, not what Python tripped over.

A reader that meets a record of the wrong shape (a list where an object should be, a
list one entry short) fails inside Python with ``'list' object has no attribute 'get'``
or ``list index out of range``. :func:`describe` turns Python's own messages for those
into words about the record, in JSON's terms (object, list, string, number, null); a
message actparse wrote itself is kept as it is.
"""

from __future__ import annotations

import os
import re

__all__ = ["describe", "json_kind", "os_reason"]

# Python's type names as a JSON document calls them.
_KINDS = {
    "dict": "an object",
    "list": "a list",
    "tuple": "a list",
    "str": "a string",
    "int": "a number",
    "float": "a number",
    "bool": "true or false",
    "NoneType": "null",
}

# Python's messages for a value of the wrong shape, and what each means for a record.
# ``{kind}`` is the JSON kind of the value found.
_SHAPES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), words)
    for pattern, words in (
        (
            r"'(\w+)' object has no attribute '\w+'",
            "a field holds {kind} where an object was expected",
        ),
        (
            r"list indices must be integers or slices, not \w+",
            "a field holds a list where an object was expected",
        ),
        (
            r"string indices must be integers.*",
            "a field holds a string where an object or a list was expected",
        ),
        (
            r"'(\w+)' object is not subscriptable",
            "a field holds {kind} where an object or a list was expected",
        ),
        (
            r"object of type '(\w+)' has no len\(\)",
            "a field holds {kind} where a list was expected",
        ),
        (r"'(\w+)' object is not iterable", "a field holds {kind} where a list was expected"),
        (
            r"unhashable type: '(\w+)'",
            "a field holds {kind} where a single value was expected",
        ),
        (
            r"(?:list|tuple|string) index out of range",
            "a list has fewer entries than the record needs (one per agent or one per turn)",
        ),
        (r"cannot convert float (infinity|NaN) to integer", "a number is {kind}"),
        (
            r"int too large to convert to float",
            "a number is too large (past 1.8e308, the most a float holds)",
        ),
        (
            r"Exceeds the limit \(4300 digits\) for integer string conversion.*",
            "holds an integer of more than 4,300 digits (the most one may have)",
        ),
        (r"could not convert string to float: (.*)", "not a number: {kind}"),
        (r"invalid literal for int\(\) with base \d+: (.*)", "not a whole number: {kind}"),
    )
)


def json_kind(value: object) -> str:
    """What a value is called in JSON terms: ``an object``, ``a list``, ``null``..."""
    return _KINDS.get(type(value).__name__, type(value).__name__)


def describe(err: BaseException) -> str:
    """A user's account of an error: what is wrong, in words."""
    if isinstance(err, KeyError):
        return f"missing field {err}"
    if isinstance(err, RecursionError):
        return "nested too deeply to read"
    if isinstance(err, UnicodeDecodeError):
        byte = err.object[err.start : err.start + 1]
        return f"not valid UTF-8 (byte {byte!r} at offset {err.start})"
    if isinstance(err, UnicodeEncodeError):
        return (
            f"contains {err.object[err.start : err.end]!r}, a lone surrogate, which no "
            "UTF-8 text can hold"
        )
    if isinstance(err, OSError):
        return _describe_os_error(err)
    text = str(err)
    for pattern, words in _SHAPES:
        found = pattern.fullmatch(text)
        if found:
            group = found.group(1) if found.groups() else ""
            kind = {"infinity": "infinite", "NaN": "NaN, not a number"}.get(group)
            return words.format(kind=kind or _KINDS.get(group, group))
    return text or type(err).__name__


def os_reason(err: OSError) -> str:
    """What the system said, without Python's decoration.

    ``[Errno 28] No space left on device: 'x'`` is ``no space left on device``."""
    # The system's own words for the error number: pyarrow's strerror wraps them in
    # "Error writing bytes to file. Detail: [errno 28] ...".
    reason = os.strerror(err.errno) if err.errno else err.strerror or str(err)
    reason = reason.rstrip(".")
    return reason[:1].lower() + reason[1:]


def _describe_os_error(err: OSError) -> str:
    if err.filename is not None:
        return f"{err.filename}: {os_reason(err)}"
    return os_reason(err)
