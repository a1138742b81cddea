"""One tag's rules compiled into as few checks as possible.

For the rule set (:class:`~actparse.engine.ruleset.RuleSet`).

Literal alternations become substring tests, patterns with words they cannot match
without are filed in the rule set's index (:class:`~actparse.engine.prefilter.NeedIndex`)
and searched alone, and the rest fold into one regex per kind and case. Every answer is
the rules' own, one by one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import regex

from actparse.engine.patternparts import OrderedSearch, ordered_search, top_alternatives
from actparse.engine.prefilter import ASCII_LOWER, BOUNDARY, pattern_tree, required_literals

__all__ = ["BASE_FLAGS", "TagMatcher", "lacks", "literal_alternatives"]

#: Cocoa ran on Python 2, where patterns compiled without re.UNICODE have ASCII-only
#: \w, \d, \s and case folding; VERSION0 keeps the `re`-compatible semantics.
BASE_FLAGS = regex.VERSION0 | regex.ASCII


class Rule(Protocol):
    """What a matcher reads of a rule.

    :class:`~actparse.engine.ruleset.Rule` has it. It is said here so that this module needs
    nothing of :mod:`~actparse.engine.ruleset`, its user."""

    @property
    def match(self) -> str: ...
    @property
    def values(self) -> tuple[str, ...]: ...
    @property
    def ignore_case(self) -> bool: ...


#: A finite alternation expands to at most this many literals before regex is kept.
_MAX_LITERALS = 64


def _expand_literals(items: Any, parser: Any) -> list[str] | None:
    """The strings a parsed pattern matches, or ``None`` unless a finite alternation.

    ``items`` is a ``re`` parse tree (or a slice of one) and ``parser`` the ``re`` parser
    module that made it, for its opcodes; more than :data:`_MAX_LITERALS` strings give
    ``None``."""
    BRANCH, IN, LITERAL, SUBPATTERN = (
        parser.BRANCH,
        parser.IN,
        parser.LITERAL,
        parser.SUBPATTERN,
    )
    REPEATS = (parser.MAX_REPEAT, parser.MIN_REPEAT)
    out = [""]
    for op, arg in items:
        parts: list[str] | None
        if op is LITERAL:
            parts = [chr(arg)]
        elif op is IN and all(item_op is LITERAL for item_op, _ in arg):
            parts = [chr(code) for _, code in arg]  # "(a|b)" parses as the class [ab]
        elif op is SUBPATTERN and arg[1] == 0 and arg[2] == 0:  # no inline flags
            parts = _expand_literals(arg[3], parser)
        elif op in REPEATS and arg[0] == 0 and arg[1] == 1:  # "packages?"
            once = _expand_literals(arg[2], parser)
            parts = None if once is None else ["", *once]
        elif op is BRANCH:
            alternatives: list[str] = []
            for branch in arg[1]:
                expanded = _expand_literals(branch, parser)
                if expanded is None:
                    return None
                alternatives.extend(expanded)
            parts = alternatives
        else:
            return None
        if parts is None:
            return None
        out = [a + b for a in out for b in parts]
        if len(out) > _MAX_LITERALS:
            return None
    return out


def literal_alternatives(pattern: str, *, words: bool = False) -> tuple[str, ...] | None:
    """The strings a pattern matches, when it is a finite alternation of literals.

    ``"go (lower|higher)"`` gives ``("go lower", "go higher")``; any pattern with a
    class, a repeat, an anchor or a flag gives ``None``. Searching for such a pattern is
    exactly searching for any of its strings, which plain ``in`` does far faster than a
    regex call. With ``words``, the pattern must instead be such an alternation between
    two ``\\b`` (``\\b(fair|even)\\b``): it matches exactly where one of the strings
    stands between word boundaries, which the need index tells of a string without
    whitespace.
    """
    parsed = pattern_tree(pattern)
    if parsed is None:  # anything re cannot read stays a regex
        return None
    _parser, tree = parsed
    if words:
        bound = (_parser.AT, _parser.AT_BOUNDARY)
        items = list(tree)
        if len(items) < 3 or items[0] != bound or items[-1] != bound:
            return None
        tree = items[1:-1]
    literals = _expand_literals(tree, _parser)
    if not literals or "" in literals or not all(lit.isascii() for lit in literals):
        return None
    return tuple(literals)


def _refers_to_groups(pattern: str) -> bool:
    """Whether ``pattern`` refers to its groups, or may.

    It refers to them with ``\\1``, ``(?P=name)`` or ``(?(1)...)``, and may when ``re`` cannot read
    it. In an alternation with other patterns its numbers would name their groups, so it is searched
    on its own."""
    parsed = pattern_tree(pattern)
    if parsed is None:  # regex-only syntax such as (?1) recursion: assume it does
        return True
    parser, tree = parsed
    refs = (parser.GROUPREF, parser.GROUPREF_EXISTS)

    def walk(node: Any) -> bool:
        # A tree is a SubPattern of (op, arg); an arg holds SubPatterns at any depth.
        if isinstance(node, parser.SubPattern):
            return any(op in refs or walk(arg) for op, arg in node)
        if isinstance(node, (list, tuple)):
            return any(walk(part) for part in node)
        return False

    return walk(tree)


#: A search pattern with the words it cannot match without (one of each group), whether
#: it ignores case, the pattern, and whether the needs are the pattern (its words
#: between word boundaries: where the index finds one standing so, it matches). Only the
#: truth of the pattern's ``search`` is used: an :class:`OrderedSearch` gives no match.
_Guarded = tuple[tuple[tuple[str, ...], ...], bool, "regex.Pattern[str] | OrderedSearch", bool]


def lacks(text: str, needs: tuple[tuple[str, ...], ...]) -> bool:
    """Whether ``text`` misses every word of some group of ``needs``."""
    for words in needs:
        for word in words:
            if word in text:
                break
        else:
            return True
    return False


#: A pattern of words between boundaries is taken apart (:func:`_word_entries`) when at
#: most this many of its strings span chunks ("fire wood"): spelt out one by one, a
#: phrase alternation such as "(sorry|sad) (to hear|about)" loses the words the need
#: index files it under, and is better searched whole.
_MAX_SPANNING = 4


def _word_entries(words: Sequence[str], ignore_case: bool, flags: int) -> list[_Guarded]:
    """A pattern that is strings between word boundaries, as guarded patterns.

    For example ``\\b(fair|even)\\b``. The strings without whitespace become one guarded pattern,
    exact (the index finds one standing between boundaries exactly where the pattern matches), and
    the strings that span chunks (``\\b(you too)\\b``) another, searched where their needs hold. A
    search for an alternation matches where one of its parts does, so the two are the pattern."""
    out: list[_Guarded] = []
    for exact in (True, False):
        part = [w for w in words if (w.split() == [w]) == exact]
        if not part:
            continue
        pattern = r"\b(?:" + "|".join(map(regex.escape, part)) + r")\b"
        if exact:
            needs: tuple[tuple[str, ...], ...] = (tuple(BOUNDARY + w + BOUNDARY for w in part),)
        else:
            needs = required_literals(pattern, ascii_only=ignore_case, bounds=True)
        if ignore_case:
            needs = tuple(tuple(w.translate(ASCII_LOWER) for w in need) for need in needs)
        out.append((needs, ignore_case, regex.compile(pattern, flags), exact))
    return out


class TagMatcher:
    """All rules of one tag sorted into set lookups and as few text checks as possible.

    For :class:`RuleSet` to index.

    Matching a message against every rule one by one costs a regex call per value.
    Search patterns that are finite alternations of ASCII literals ("come down",
    "go (lower|higher)") become substring tests (on ASCII-lowercased text when the rule
    ignores case, as Python 2's ASCII case folding did); search and whole-text patterns
    with words they cannot match without
    (:func:`~actparse.engine.prefilter.required_literals`) are searched alone (a whole-text
    one anchored at the start), and only in texts that hold such words; words between
    boundaries need no search at all; the rest fold into a single regex per (kind, case).
    A value's alternatives at its top level are taken apart first, each with its own
    words, and words-in-order patterns are searched as a chain
    (:mod:`~actparse.engine.patternparts`). The result is the same as rule by rule.
    """

    __slots__ = (
        "any_token",
        "first_token",
        "folded_literals",
        "guarded",
        "last_token",
        "literals",
        "searches",
        "wholes",
    )

    def __init__(self, rules: Sequence[Rule]) -> None:
        self.any_token = frozenset(v for r in rules if r.match == "any-token" for v in r.values)
        self.first_token = frozenset(v for r in rules if r.match == "first-token" for v in r.values)
        self.last_token = frozenset(v for r in rules if r.match == "last-token" for v in r.values)
        literals: list[str] = []
        folded: list[str] = []
        searches: list[regex.Pattern[str]] = []
        wholes: list[regex.Pattern[str]] = []
        guarded: list[_Guarded] = []
        for kind, into in (("text-search", searches), ("text-whole", wholes)):
            for ignore_case in (False, True):
                values = []
                flags = BASE_FLAGS | (regex.IGNORECASE if ignore_case else 0)
                for r in rules:
                    if r.match != kind or r.ignore_case != ignore_case:
                        continue
                    # Apart, the alternatives of a value each need their own words.
                    for v in (a for value in r.values for a in top_alternatives(value)):
                        if kind == "text-search":
                            found = literal_alternatives(v)
                            if found is not None and ignore_case:
                                folded.extend(lit.translate(ASCII_LOWER) for lit in found)
                                continue
                            if found is not None:
                                literals.extend(found)
                                continue
                            words = literal_alternatives(v, words=True)
                            spanning = [w for w in words or () if w.split() != [w]]
                            if words is not None and len(spanning) <= _MAX_SPANNING:
                                guarded.extend(_word_entries(words, ignore_case, flags))
                                continue
                        # A whole-text match is a search anchored at the start: so it can
                        # be guarded by the words it needs like any search.
                        search = v if kind == "text-search" else rf"\A(?:{v})"
                        needs = required_literals(search, ascii_only=ignore_case, bounds=True)
                        if needs:
                            if ignore_case:
                                needs = tuple(
                                    tuple(lit.translate(ASCII_LOWER) for lit in need)
                                    for need in needs
                                )
                            compiled = ordered_search(search, flags) or regex.compile(search, flags)
                            guarded.append((needs, ignore_case, compiled, False))
                        elif _refers_to_groups(v):
                            into.append(regex.compile(v, flags))  # its \\1 stays its own
                        else:
                            values.append(v)
                if values:
                    into.append(regex.compile("|".join(f"(?:{v})" for v in values), flags))
        self.literals = tuple(literals)
        self.folded_literals = tuple(folded)
        self.guarded = tuple(guarded)
        self.searches = tuple(searches)
        self.wholes = tuple(wholes)

    def unguarded_matches(self, text: str, timeout: float | None) -> bool:
        """Whether a search or whole-text pattern with no required word matches."""
        if timeout is None:
            # `regex` parses a timeout keyword even when it is None, at a cost of more
            # than half a short match: on short texts leave it out.
            for pattern in self.searches:
                if pattern.search(text):
                    return True
            for pattern in self.wholes:  # noqa: SIM110 (a generator costs as much as a match)
                if pattern.match(text):
                    return True
            return False
        for pattern in self.searches:
            if pattern.search(text, timeout=timeout):
                return True
        return any(pattern.match(text, timeout=timeout) for pattern in self.wholes)
