"""Where each field of a JSON object is in its text, so a writer can replace one field of
a JSON line and keep every other character of it."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

__all__ = ["json_object_spans"]

# The C scanner json.loads itself uses: (text, index) -> (value, end). JSONDecoder sets it
# in __init__, which the type stubs do not declare.
_scan_json: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]
_JSON_WHITESPACE = " \t\n\r"
_JSON_SPACE = frozenset(_JSON_WHITESPACE)


def json_object_spans(text: str) -> tuple[dict[str, Any], dict[str, tuple[int, int]]] | None:
    """A JSON object's fields, as :func:`json.loads` reads them, and where each value is.

    ``spans[key]`` is the ``(start, end)`` of the value's text, so a writer can replace
    one field and keep every other character of the line. Returns ``None`` for anything
    but one well-formed object with distinct keys (:func:`parse_json_line` then says
    what is wrong).
    """
    fields: dict[str, Any] = {}
    spans: dict[str, tuple[int, int]] = {}
    try:
        i = _skip_space(text, 0)
        if text[i] != "{":
            return None
        i = _skip_space(text, i + 1)
        if _closes(text, i):
            return fields, spans
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
                return fields, spans
            if text[i] != ",":
                return None
            i = _skip_space(text, i + 1)
    except (IndexError, StopIteration, ValueError):
        return None


def _closes(text: str, i: int) -> bool:
    """Whether ``text[i]`` is the object's closing brace, with only whitespace after it."""
    return text[i] == "}" and not text[i + 1 :].strip(_JSON_WHITESPACE)


def _skip_space(text: str, i: int) -> int:
    while text[i] in _JSON_SPACE:
        i += 1
    return i
