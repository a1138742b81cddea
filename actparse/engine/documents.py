"""Bounds on a rule file's document: alias expansion, nesting depth, number size.

A rule file is supplied by the user (``--rules``, ``--strategies``, ``--acts``,
``--lexicon``) and read into Python objects before any rule is checked, so the reading
itself must be bounded: a 400-byte YAML alias bomb would otherwise expand to 10^10 items,
a document nested 5,000 deep would exhaust the interpreter's stack, and a 5,000-digit
integer would pass Python's limit on turning integers into text. :class:`BoundedLoader`
(YAML) and :func:`check_json` (JSON) refuse each with a :class:`DocumentError` that gives
the line; :mod:`actparse.engine.rulefiles` adds the file's name.

>>> import yaml
>>> yaml.load("a: [1, 2]", Loader=BoundedLoader)
{'a': [1, 2]}
>>> yaml.load("a: " + "[" * 200 + "]" * 200, Loader=BoundedLoader)
Traceback (most recent call last):
...
actparse.engine.documents.DocumentError: line 1: nested more than 100 deep
"""

from __future__ import annotations

import json
import math
import re
import sys
from typing import Any

import yaml

from actparse.errors import ActparseError

__all__ = [
    "ALIAS_NODES",
    "MAX_DEPTH",
    "MAX_DIGITS",
    "BoundedLoader",
    "DocumentError",
    "check_json",
    "load_json",
]

#: How many nodes all the aliases of one YAML document may add once expanded (an alias
#: adds the whole node it names). Past it, the document is refused at the alias' line.
ALIAS_NODES = 10_000

#: How deep lists and mappings may nest in a rule file (the shipped ones nest 4 deep).
MAX_DEPTH = 100

#: The most characters an integer literal in a rule file may have (sign, underscores and
#: leading zeros aside): 309 digits reach past the largest float, about 1.8e308, which
#: every number a rule file holds must fit in. Longer literals are refused unread, so
#: Python's own limit on reading integers (4,300 digits) is never reached.
MAX_DIGITS = 309


class DocumentError(ActparseError, ValueError):
    """A rule file's document is past one of the bounds; the message starts with its line.

    :mod:`actparse.engine.rulefiles` turns it into a ``RuleError`` naming the file too."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(f"line {line}: {problem}")
        self.line = line
        self.problem = problem


def _bounded_int(literal: str, read: Any, line: int) -> int:
    """``read()``, the integer ``literal`` holds, refused when it does not fit in a float.

    The literal's length is checked first, so that no long one is converted at all.
    """
    if len(literal.lstrip("+-").replace("_", "").lstrip("0")) > MAX_DIGITS:
        raise DocumentError(line, _big(literal))
    value = read()
    if isinstance(value, int) and abs(value) > sys.float_info.max:
        raise DocumentError(line, _big(literal))
    return value  # type: ignore[no-any-return]


class BoundedLoader(yaml.SafeLoader):
    """A safe YAML loader that bounds alias expansion, nesting and numbers.

    The composer counts the nodes each alias adds (the size of the node it names, aliases
    within counted too) and the depth of every node; the constructors refuse an integer of
    more than :data:`MAX_DIGITS` digits before converting it and a float literal that
    overflows to infinity (``.inf`` spelled so is kept: the rule loaders check values).
    """

    def __init__(self, stream: Any) -> None:
        super().__init__(stream)
        self._sizes: dict[int, int] = {}
        self._expanded = 0
        self._depth = 0

    def compose_document(self) -> Any:
        """The document's root node, the bounds' counts reset for it."""
        self._sizes = {}
        self._expanded = 0
        self._depth = 0
        return super().compose_document()

    def compose_node(self, parent: Any, index: Any) -> Any:
        """A node, refused past the nesting depth or the aliases' expansion."""
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]
            node = super().compose_node(parent, index)
            size = self._sizes.get(id(node))
            line = event.start_mark.line + 1
            if size is None:
                raise DocumentError(line, f"the alias *{event.anchor} refers to itself")
            self._expanded += size
            if self._expanded > ALIAS_NODES:
                raise DocumentError(
                    line,
                    f"aliases expand past {ALIAS_NODES:,} nodes (at *{event.anchor}); "
                    "write the values out instead",
                )
            return node
        self._depth += 1
        if self._depth > MAX_DEPTH:
            event = self.peek_event()  # type: ignore[no-untyped-call]
            raise DocumentError(event.start_mark.line + 1, _deep())
        node = super().compose_node(parent, index)
        self._depth -= 1
        self._sizes[id(node)] = 1 + sum(self._sizes.get(id(child), 1) for child in _children(node))
        return node

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        """An integer that fits in a float, its literal's length checked before it is read."""
        line = node.start_mark.line + 1
        return _bounded_int(
            str(node.value), lambda: super(BoundedLoader, self).construct_yaml_int(node), line
        )

    def construct_yaml_float(self, node: yaml.ScalarNode) -> float:
        """A float, refused when a finite literal overflows to infinity."""
        value = super().construct_yaml_float(node)
        if math.isinf(value) and "inf" not in str(node.value).lower():
            raise DocumentError(
                node.start_mark.line + 1, f"the number {_short(str(node.value))} is too large"
            )
        return value


BoundedLoader.add_constructor("tag:yaml.org,2002:int", BoundedLoader.construct_yaml_int)
BoundedLoader.add_constructor("tag:yaml.org,2002:float", BoundedLoader.construct_yaml_float)


def _children(node: Any) -> list[Any]:
    """A node's children (keys and values of a mapping)."""
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def _deep() -> str:
    return f"nested more than {MAX_DEPTH} deep"


def _big(literal: str) -> str:
    return (
        f"the integer {_short(literal)} ({len(literal):,} characters) is too large: "
        f"a number in a rule file must be within ±{sys.float_info.max:.1e}"
    )


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


#: A JSON string, a bracket or a number: enough to follow nesting and find numbers' lines.
_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]|-?\d[\d.eE+-]*')


class _Refused(DocumentError):
    """A number the JSON hooks refuse, its line not known yet (the literal, to find it)."""

    def __init__(self, literal: str, problem: str) -> None:
        super().__init__(0, problem)
        self.literal = literal


def _json_int(text: str) -> int:
    try:
        return _bounded_int(text, lambda: int(text), 0)
    except DocumentError as err:
        raise _Refused(text, err.problem) from None


def _json_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise _Refused(text, f"the number {_short(text)} is too large")
    return value


def load_json(text: str) -> Any:
    """A JSON document within the bounds, else a :class:`DocumentError` with the line.

    :class:`json.JSONDecodeError` (not JSON at all) passes through.
    """
    try:
        value = json.loads(text, parse_int=_json_int, parse_float=_json_float)
    except _Refused as refused:
        raise DocumentError(_line_of(text, refused.literal), refused.problem) from None
    except RecursionError:
        value = _TOO_DEEP  # deeper than json reads: past the bound, which check_json places
    # The text is scanned for its line only when the value is too deep: a scan of every
    # document (the strategy lexicon is loaded by every worker) costs three parses.
    if value is _TOO_DEEP or _too_deep(value):
        raise DocumentError(check_json(text) or 1, _deep())
    return value


#: What :func:`load_json` holds for a text json could not read for its depth.
_TOO_DEEP = object()


def _too_deep(value: Any) -> bool:
    """Whether a parsed JSON value nests past :data:`MAX_DEPTH` (a walk, no recursion)."""
    stack = [(value, 1)] if isinstance(value, dict | list) else []
    while stack:
        node, depth = stack.pop()
        children = node.values() if isinstance(node, dict) else node
        if depth > MAX_DEPTH:
            return True
        stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list))
    return False


def check_json(text: str) -> int:
    """The line where a JSON text first nests past :data:`MAX_DEPTH` (0 if it never does).

    Strings are skipped whole, so brackets inside them do not count.
    """
    depth = 0
    for match in _JSON_TOKENS.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
            if depth > MAX_DEPTH:
                return text.count("\n", 0, match.start()) + 1
        elif token in ("]", "}"):
            depth -= 1
    return 0


def _line_of(text: str, literal: str) -> int:
    """The line of the first number token that is ``literal``."""
    for match in _JSON_TOKENS.finditer(text):
        if match.group() == literal:
            return text.count("\n", 0, match.start()) + 1
    return 1
