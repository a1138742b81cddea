"""A search pattern taken apart into parts that cost less searched one by one.

Two shapes are taken apart, each with the same answer as the whole pattern:

- Alternatives at the top (``A|B``): a pattern matches where one of them does, and
  apart each has its own required words for the need index (a whole ``A|B`` needs a
  word of ``A`` or of ``B``, which rules out fewer texts): :func:`top_alternatives`.
- Words in order (``^(?>.*?A)(?>.*?B)...``), searched as a chain:
  :class:`OrderedSearch`.

The strategy rules say "A, later B, later C" with atomic groups after a start anchor:
``^(?>.*?\\b(i|we)\\b)(?>.*?\\bneed\\b)(?>.*?\\bbecause\\b)``. ``regex`` runs such a
pattern by trying ``A`` at every position inside the lazy ``.*?``, which costs about
twice what searching ``A``, then ``B`` from where ``A`` ended, then ``C``, does: a search
for a part finds its first position with the engine's own scan. On a text without a line
break the two are the same match or none: ``.*?`` then runs over any character, the
atomic group keeps the first place ``A`` matches and the first way it does, as a search
does, and nothing after it can make the pattern take another. A text with a line break
(which ``.`` does not cross) is searched with the whole pattern.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

import regex

from actparse.engine.prefilter import pattern_tree

__all__ = ["OrderedSearch", "ordered_search", "top_alternatives"]

_LAZY_ANY = ".*?"
_OPEN = "(?>" + _LAZY_ANY


class OrderedSearch:
    """A ``^(?>.*?A)(?>.*?B)...`` pattern searched as a chain of searches for its parts.

    A ``^(?>.*?A)(?>.*?B)...`` pattern whose ``search`` chains searches for its parts
    and then matches what follows them; the answer is the whole pattern's, as a truth
    value (no match object)."""

    __slots__ = ("parts", "pattern", "tail")

    def __init__(self, pattern: regex.Pattern[str], parts: list[str], tail: str) -> None:
        self.pattern = pattern
        self.parts = tuple(regex.compile(p, pattern.flags) for p in parts)
        self.tail = regex.compile(tail, pattern.flags) if tail else None

    def search(self, text: str, timeout: float | None = None) -> bool:
        """Whether the pattern matches ``text``."""
        if "\n" in text:
            return self.pattern.search(text, timeout=timeout) is not None
        pos = 0
        for part in self.parts:
            found = part.search(text, pos, timeout=timeout)
            if found is None:
                return False
            pos = found.end()
        return self.tail is None or self.tail.match(text, pos, timeout=timeout) is not None

    def __repr__(self) -> str:
        return f"OrderedSearch({self.pattern.pattern!r})"


def ordered_search(pattern: str, flags: int) -> OrderedSearch | None:
    """``pattern`` as an :class:`OrderedSearch`, or ``None`` when it is not one.

    To be one, it must start with ``^`` and one or more atomic groups that each start with ``.*?``,
    refer to no group of its own (a part searched alone would not see it), and have no bar at the
    top of a part or of the whole (``(?>.*?a|b)``: the ``.*?`` is the first alternative's only, so
    ``b`` must match where the part starts, not anywhere after)."""
    if not pattern.startswith("^" + _OPEN) or not _plain_syntax(pattern):
        return None
    parts: list[str] = []
    at = 1
    while pattern.startswith(_OPEN, at):
        end = _group_end(pattern, at)
        if end is None:
            return None
        parts.append(pattern[at + len(_OPEN) : end])
        at = end + 1
    tail = pattern[at:]
    if not parts or any(_refers(p) or _has_top_bar(p) for p in (*parts, tail)):
        return None
    try:
        return OrderedSearch(regex.compile(pattern, flags), parts, tail)
    except regex.error:
        return None


def top_alternatives(pattern: str) -> list[str]:
    """The alternatives of ``pattern`` at its top level.

    ``a|(b|c)`` gives ``a`` and ``(b|c)``. It is ``[pattern]`` when the pattern has one, or when its
    parts cannot be searched apart: a reference to a group, a global inline flag, a pattern ``re``
    cannot read."""
    cuts = [k for k, char, depth in _structure(pattern, 0) if char == "|" and depth == 0]
    if not cuts or _refers(pattern) or not _plain_syntax(pattern) or pattern_tree(pattern) is None:
        return [pattern]
    bounds = [-1, *cuts, len(pattern)]
    pieces = [pattern[a + 1 : b] for a, b in pairwise(bounds)]
    try:  # a cut the scan got wrong leaves a piece that does not compile
        for piece in pieces:
            regex.compile(piece, regex.VERSION0)
    except regex.error:
        return [pattern]
    return pieces


#: Syntax the scan of parentheses and bars does not follow: verbose mode, whose ``#``
#: comments may hold them (``(?x: a # b|c )``), and comment groups.
_UNPLAIN = regex.compile(r"\(\?[a-zA-Z-]*x[a-zA-Z-]*[:)]|\(\?#")


def _plain_syntax(pattern: str) -> bool:
    """Whether ``pattern``'s parentheses and bars are all syntax the scan follows."""
    return _UNPLAIN.search(pattern) is None


def _has_top_bar(pattern: str) -> bool:
    """Whether ``pattern`` has an alternative at its top level."""
    return any(char == "|" and depth == 0 for _, char, depth in _structure(pattern, 0))


def _group_end(pattern: str, start: int) -> int | None:
    """The index of the ``)`` that closes the group opening at ``start``."""
    for k, char, depth in _structure(pattern, start):
        if char == ")" and depth == 0:
            return k
    return None


def _structure(pattern: str, start: int) -> Iterator[tuple[int, str, int]]:
    """The parentheses and bars of ``pattern`` from ``start`` that are its syntax.

    Syntax means not escaped and not in a character class. Each comes with its index and the depth
    of groups around it (after a ``)`` closes)."""
    depth = 0
    k = start
    in_class = False
    while k < len(pattern):
        char = pattern[k]
        if char == "\\":
            k += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
            if pattern.startswith(("[]", "[^]"), k):  # a leading "]" is a member
                k += 2 if pattern[k + 1] == "]" else 3
                continue
        elif char == "(":
            depth += 1
            yield k, char, depth
        elif char == ")":
            depth -= 1
            yield k, char, depth
        elif char == "|":
            yield k, char, depth
        k += 1


def _refers(part: str) -> bool:
    """Whether ``part`` may refer to a group by number or name.

    For example ``\\1``, ``(?P=x)``, ``(?(1)...)``, ``(?1)``: such a part cannot be searched apart
    from the others."""
    return bool(regex.search(r"\\[1-9g]|\(\?P=|\(\?\(|\(\?[0-9R&+-]", part))
