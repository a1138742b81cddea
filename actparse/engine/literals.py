"""Words a regular expression cannot match without: a cheap test before the regex call.

A pattern such as ``\\b(i|we)\\b[^.!?]*\\b(need|want)\\b`` matches no text that contains
neither "need" nor "want". :func:`required_literals` finds such a set of strings from the
pattern's syntax tree, so that a text containing none of them is known not to match with
a few substring tests instead of a regex search: the answer is the same, by
construction. Patterns the standard library parses in a way the ``regex`` module might
read differently (anything it warns about, braces it takes as text, inline flags) get no
prefilter and are always searched.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Sequence
from typing import Any

__all__ = [
    "ASCII_LOWER",
    "BOUNDARY",
    "pattern_tree",
    "required_literals",
    "strip_boundaries",
]

#: Lowercases ASCII letters only, as ``regex``'s IGNORECASE folds the literals the rules
#: use: the tag matcher and the index fold texts the same way.
ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")

#: A set of strings a part of a pattern matches exactly grows by concatenation; past this
#: size the part is cut into shorter runs.
_MAX_STRINGS = 64
#: At most this many requirements are kept per pattern (the most selective).
_MAX_REQUIREMENTS = 3

#: Marks a word boundary (``\\b``) at either end of a required string, with
#: ``required_literals(..., bounds=True)``: a noncharacter, which no text holds, and a
#: pattern that holds it gets no requirement at all.
BOUNDARY = "\ufdd0"

#: A set of strings one of which every match contains.
_Requirement = frozenset[str]
#: (exact, required): the strings a part matches, when finite (``None`` when not), and
#: requirements that all hold for every match of the part.
_Analysis = tuple[frozenset[str] | None, list[_Requirement]]


def pattern_tree(pattern: str, *, strict: bool = False) -> tuple[Any, Any] | None:
    """The standard library's parser module and its syntax tree of ``pattern``.

    The parser module is private, hence imported by name; the tree is for the analyses
    that read a pattern's structure.

    ``None`` when ``re`` cannot read it, when it sets a global inline flag (``(?i)``,
    ``(?x)``: the tree would not say how its parts match) or, with ``strict``, when ``re``
    warns about it ("possible nested set" and the like: ``regex`` may read it otherwise).
    """
    try:
        parser: Any = importlib.import_module("re._parser")
        with warnings.catch_warnings():
            warnings.simplefilter("error" if strict else "ignore")
            tree = parser.parse(pattern)
    except Exception:
        return None
    if tree.state.flags & ~parser.SRE_FLAG_UNICODE:
        return None
    return parser, tree


def required_literals(
    pattern: str, ascii_only: bool = False, *, bounds: bool = False
) -> tuple[tuple[str, ...], ...]:
    """Sets of strings every text ``pattern`` matches holds one string of each of.

    Every text ``pattern`` matches (searched for anywhere) contains a string of each
    set; empty when none is known.

    With ``ascii_only`` (for patterns compiled with ASCII case folding: the caller
    compares lowercased literals with lowercased text) sets with a non-ASCII string are
    left out. With ``bounds``, a string the pattern puts a word boundary (``\\b``) in
    front of or after starts or ends with :data:`BOUNDARY` (``\\bnot\\b`` needs
    "not" as a word, not inside "nothing"); :func:`strip_boundaries` gives the plain
    strings, which are the strings without ``bounds``.

    >>> required_literals(r"\\bnot (going to )?work\\b")
    (('work',), ('not ',))
    >>> required_literals(r"\\b(need|want)\\b[^.]*\\?")
    (('need', 'want'), ('?',))
    >>> required_literals(r"\\w+")
    ()
    """
    parsed = pattern_tree(pattern, strict=True)
    if parsed is None:  # anything re cannot read, or reads with a doubt, stays unfiltered
        return ()
    parser, tree = parsed
    if bounds and BOUNDARY in pattern:
        return ()  # the mark would be read as a boundary
    analysis = _Analyzer(parser, bounds=bounds)
    _exact, required = analysis.sequence(list(tree))
    if analysis.doubtful:
        return ()
    if bounds:
        required = [frozenset(map(_edge_marks, r)) for r in required]
    kept = [
        _minimal(r)
        for r in required
        if (not ascii_only or all(s.isascii() for s in r)) and not _too_common(r)
    ]
    unique = {tuple(sorted(r)): r for r in kept}
    ranked = sorted(unique, key=lambda key: (_selectivity(unique[key]), key), reverse=True)
    return tuple(ranked[:_MAX_REQUIREMENTS])


def strip_boundaries(needs: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
    """``needs`` of ``required_literals(..., bounds=True)`` as plain strings."""
    return tuple(tuple(dict.fromkeys(w.replace(BOUNDARY, "") for w in ws)) for ws in needs)


def _edge_marks(string: str) -> str:
    """``string`` with a boundary mark kept only at its ends, once.

    A mark inside it says nothing a substring test could use.
    """
    core = string.strip(BOUNDARY).replace(BOUNDARY, "")
    return (
        (BOUNDARY if string.startswith(BOUNDARY) else "")
        + core
        + (BOUNDARY if string.endswith(BOUNDARY) else "")
    )


def _too_common(requirement: _Requirement) -> bool:
    """Whether a single letter, digit or space is among the strings.

    Nearly every text has one, so the test is not worth making.
    """
    return any(
        len(s) == 1 and (s.isalnum() or s.isspace())
        for s in (t.strip(BOUNDARY) for t in requirement)
    )


def _minimal(requirement: _Requirement) -> _Requirement:
    """Leave out strings that contain another of the set ("needs" holds "need")."""
    return frozenset(s for s in requirement if not any(t != s and t in s for t in requirement))


def _selectivity(requirement: _Requirement) -> tuple[int, int, int]:
    """A guess at what rules out most texts for least work.

    Strings of four characters or more are rare enough, so then fewer strings (fewer
    substring tests) first.
    """
    shortest = min(len(s.strip(BOUNDARY)) for s in requirement)
    return min(shortest, 4), -len(requirement), shortest


def _best(requirements: list[_Requirement]) -> _Requirement | None:
    return max(requirements, key=_selectivity) if requirements else None


def _as_required(exact: frozenset[str] | None) -> list[_Requirement]:
    """A finite set of exact matches as a requirement: itself, unless it holds "".

    A set holding "" (or nothing but word boundaries) is no requirement.
    """
    if exact is None or any(not s.strip(BOUNDARY) for s in exact):
        return []
    return [exact]


class _Analyzer:
    """Walks a syntax tree of :mod:`re._parser`; the opcodes are looked up once."""

    def __init__(self, parser: Any, *, bounds: bool = False) -> None:
        self.p = parser
        #: A ``\\b`` reads as :data:`BOUNDARY` (else as "", like every anchor).
        self.boundary = BOUNDARY if bounds else ""
        #: Set when the tree holds something regex may read differently (literal braces:
        #: regex's fuzzy-matching syntax).
        self.doubtful = False

    def sequence(self, items: Sequence[tuple[Any, Any]]) -> _Analysis:
        """The exact strings and the requirements of a sequence of parts.

        Consecutive parts with finite exact sets concatenate into runs; every run and
        every requirement of the other parts holds for a match of the sequence.
        """
        run: frozenset[str] = frozenset({""})
        whole: frozenset[str] | None = frozenset({""})
        required: list[_Requirement] = []
        text = ""  # the current stretch of plain text (" not " in "(can|will) not (do|go)")
        for op, arg in items:
            exact, inner = self.element(op, arg)
            if exact is not None and len(exact) == 1:
                text += next(iter(exact))
            else:
                required += _as_required(frozenset({text}))
                text = ""
            if exact is not None and whole is not None:
                whole = frozenset(a + b for a in whole for b in exact)
                if len(whole) > _MAX_STRINGS:
                    whole = None
            else:
                whole = None
            if exact is not None:
                required += _as_required(exact)  # each part on its own is needed too
                joined = frozenset(a + b for a in run for b in exact)
                if len(joined) <= _MAX_STRINGS:
                    run = joined
                    continue
                required += _as_required(run)
                run = exact
                continue
            required += _as_required(run)
            required += inner
            run = frozenset({""})
        required += _as_required(run)
        required += _as_required(frozenset({text}))
        return whole, required

    def element(self, op: Any, arg: Any) -> _Analysis:
        """The exact strings and the requirements of one node of the tree."""
        p = self.p
        if op is p.LITERAL:
            if chr(arg) in "{}":
                self.doubtful = True
            return frozenset({chr(arg)}), []
        if op is p.AT:  # \b, ^, $: zero width, so the parts around it are adjacent
            return frozenset({self.boundary if arg is p.AT_BOUNDARY else ""}), []
        if op is p.IN:
            if all(item_op is p.LITERAL for item_op, _ in arg):
                chars = frozenset(chr(code) for _, code in arg)
                if chars & set("{}"):
                    self.doubtful = True
                return chars, []
            return None, []
        if op is p.SUBPATTERN:
            _group, add_flags, del_flags, body = arg
            if add_flags or del_flags:
                self.doubtful = True
                return None, []
            return self.sequence(list(body))
        if op is p.BRANCH:
            analyses = [self.sequence(list(branch)) for branch in arg[1]]
            exacts = [exact for exact, _ in analyses]
            union: frozenset[str] | None = None
            if all(e is not None for e in exacts):
                union = frozenset(s for e in exacts if e is not None for s in e)
                if len(union) > _MAX_STRINGS:
                    union = None
            # Each alternative's best requirement: a match holds one of their strings.
            bests = [_best(required + _as_required(exact)) for exact, required in analyses]
            if any(b is None for b in bests):
                return union, []
            return union, [frozenset(s for b in bests if b is not None for s in b)]
        if op in (p.MAX_REPEAT, p.MIN_REPEAT, p.POSSESSIVE_REPEAT):
            low, _high, body = arg
            exact, required = self.sequence(list(body))
            if low < 1:
                return None, []
            return None, required + _as_required(exact)
        if op is p.ATOMIC_GROUP:
            exact, required = self.sequence(list(arg))
            return None, required + _as_required(exact)
        # Any character, classes, back references, lookarounds, conditionals: no
        # requirement, and the parts around them are not adjacent.
        return None, []
