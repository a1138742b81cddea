"""Where each field of a JSON object is in its text.

So a writer can replace or add fields of a JSON line and keep every other character of it."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

__all__ = ["Edit", "ObjectText", "apply_edits", "json_object", "json_object_spans", "set_fields"]

# The C scanner json.loads itself uses: (text, index) -> (value, end). JSONDecoder sets it
# in __init__, which the type stubs do not declare.
_scan_json: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]
_JSON_WHITESPACE = " \t\n\r"
_JSON_SPACE = frozenset(_JSON_WHITESPACE)


class ObjectText(NamedTuple):
    """A JSON object read from its text.

    Its fields, where each value is, and where its closing brace is."""

    fields: dict[str, Any]
    #: ``spans[key]``: the ``(start, end)`` of the value's text.
    spans: dict[str, tuple[int, int]]
    #: The index of the object's closing brace.
    close: int


#: A change to a text: ``text[start:end]`` becomes the string.
Edit = tuple[int, int, str]


def json_object_spans(text: str) -> tuple[dict[str, Any], dict[str, tuple[int, int]]] | None:
    """A JSON object's fields, as :func:`json.loads` reads them, and where each value is.

    ``spans[key]`` is the ``(start, end)`` of the value's text, so a writer can replace
    one field and keep every other character of the line. Returns ``None`` for anything
    but one well-formed object with distinct keys (:func:`parse_json_line` then says
    what is wrong).
    """
    found = json_object(text)
    return None if found is None else (found.fields, found.spans)


def json_object(text: str) -> ObjectText | None:
    """:func:`json_object_spans` with where the closing brace is (to add fields before it)."""
    fields: dict[str, Any] = {}
    spans: dict[str, tuple[int, int]] = {}
    try:
        i = _skip_space(text, 0)
        if text[i] != "{":
            return None
        i = _skip_space(text, i + 1)
        if _closes(text, i):
            return ObjectText(fields, spans, i)
        while True:
            if text[i] != '"':
                return None
            key, i = _scan_json(text, i)
            i = _skip_space(text, i)
            if text[i] != ":" or key in fields:
                return None
            start = _skip_space(text, i + 1)
            fields[key], i = _scan_json(text, start)
            spans[key] = (start, i)
            i = _skip_space(text, i)
            if _closes(text, i):
                return ObjectText(fields, spans, i)
            if text[i] != ",":
                return None
            i = _skip_space(text, i + 1)
    except (IndexError, StopIteration, ValueError, RecursionError):
        return None


def set_fields(found: ObjectText, values: Mapping[str, str]) -> tuple[Edit, ...]:
    """The edits that give each field of ``values`` its new JSON text.

    In place where the object has the field, else added, in order, before the closing brace (as a
    ``dict`` assignment adds a key last), so every other character stays.

    >>> text = '{"a":1,  "b":2}'
    >>> apply_edits(text, set_fields(json_object(text), {"b": "[]", "c": "{}"}))
    '{"a":1,  "b":[], "c": {}}'
    """
    edits: list[Edit] = []
    added: list[str] = []
    for name, value in values.items():
        span = found.spans.get(name)
        if span is None:
            added.append(f"{json.dumps(name, ensure_ascii=False)}: {value}")
        else:
            edits.append((span[0], span[1], value))
    if added:
        comma = ", " if found.fields else ""
        edits.append((found.close, found.close, comma + ", ".join(added)))
    return tuple(sorted(edits, key=lambda edit: edit[0]))


def apply_edits(text: str, edits: Sequence[Edit]) -> str:
    """``text`` with the edits made; trailing whitespace dropped.

    ``text`` with the edits (in order, none overlapping) made; trailing whitespace
    (a line's newline) dropped."""
    pieces: list[str] = []
    done = 0
    for start, end, value in edits:
        pieces.append(text[done:start])
        pieces.append(value)
        done = end
    pieces.append(text[done:].rstrip())
    return "".join(pieces)


def _closes(text: str, i: int) -> bool:
    """Whether ``text[i]`` is the object's closing brace, with only whitespace after it."""
    return text[i] == "}" and not text[i + 1 :].strip(_JSON_WHITESPACE)


def _skip_space(text: str, i: int) -> int:
    while text[i] in _JSON_SPACE:
        i += 1
    return i
