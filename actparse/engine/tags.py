"""Tag rules: validation and matching, shared by every corpus.

A tag-rule file (``rules/<corpus>/tags.yaml``, read by :mod:`actparse.engine.rulefiles`)
lists named rules. Each rule is a record with a name, the tag it sets, how it matches, the values
it matches, and examples and counterexamples that the test-suite runs. Records are
checked against the allowed keys so that a typo fails loudly, naming the file and line.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import regex

from actparse.engine.guard import timeout_for
from actparse.engine.prefilter import (
    ASCII_LOWER,
    NeedIndex,
    pattern_tree,
    required_literals,
    strip_boundaries,
)
from actparse.engine.rulefiles import LINE, RuleError, check_keys, load_file, string_list, where

__all__ = ["MATCH_KINDS", "Rule", "RuleSet", "literal_alternatives", "load_rules", "parse_rules"]

#: How a rule can match. ``*-token`` kinds look at the Cocoa tokens of a message;
#: ``text-*`` kinds look at its raw text.
MATCH_KINDS = {
    "first-token": "the first token is one of the values",
    "last-token": "the last token is one of the values",
    "any-token": "some token is one of the values",
    "text-search": "a value (a regular expression) is found somewhere in the raw text",
    "text-whole": "a value (a regular expression) matches the whole raw text",
}
REQUIRED_KEYS = frozenset({"name", "tag", "match", "values"})
ALLOWED_KEYS = REQUIRED_KEYS | {"description", "ignore_case", "examples", "counterexamples"}
FILE_KEYS = frozenset({"description", "rules", "classes"})

# Cocoa ran on Python 2, where patterns compiled without re.UNICODE have ASCII-only
# \w, \d, \s and case folding; VERSION0 keeps the `re`-compatible semantics.
_BASE_FLAGS = regex.VERSION0 | regex.ASCII


@dataclass(frozen=True)
class Rule:
    """One named matching rule."""

    name: str
    tag: str
    match: str
    values: tuple[str, ...]
    description: str = ""
    ignore_case: bool = False
    examples: tuple[str, ...] = ()
    counterexamples: tuple[str, ...] = ()
    source: str = ""

    def __post_init__(self) -> None:
        patterns: tuple[regex.Pattern[str], ...] = ()
        if self.match.startswith("text-"):
            flags = _BASE_FLAGS | (regex.IGNORECASE if self.ignore_case else 0)
            patterns = tuple(regex.compile(v, flags) for v in self.values)
        object.__setattr__(self, "_patterns", patterns)
        object.__setattr__(self, "_words", frozenset(self.values))

    def matches(self, tokens: Sequence[str], text: str) -> bool:
        """Whether the rule holds for a message with these tokens and raw text."""
        words: frozenset[str] = self._words  # type: ignore[attr-defined]
        patterns: tuple[regex.Pattern[str], ...] = self._patterns  # type: ignore[attr-defined]
        kind = self.match
        if kind == "any-token":
            return not words.isdisjoint(tokens)
        if kind == "first-token":
            return bool(tokens) and tokens[0] in words
        if kind == "last-token":
            return bool(tokens) and tokens[-1] in words
        if kind == "text-search":
            return any(p.search(text, timeout=timeout_for(text)) for p in patterns)
        # text-whole: Cocoa used re.match with ^...$ anchors written in the pattern.
        return any(p.match(text, timeout=timeout_for(text)) for p in patterns)


#: A finite alternation expands to at most this many literals before regex is kept.
_MAX_LITERALS = 64


def literal_alternatives(pattern: str) -> tuple[str, ...] | None:
    """The strings a pattern matches, when it is a finite alternation of literals.

    ``"go (lower|higher)"`` gives ``("go lower", "go higher")``; any pattern with a
    class, a repeat, an anchor or a flag gives ``None``. Searching for such a pattern is
    exactly searching for any of its strings, which plain ``in`` does far faster than a
    regex call.
    """
    parsed = pattern_tree(pattern)
    if parsed is None:  # anything re cannot read stays a regex
        return None
    _parser, tree = parsed
    BRANCH, IN, LITERAL, SUBPATTERN = (
        _parser.BRANCH,
        _parser.IN,
        _parser.LITERAL,
        _parser.SUBPATTERN,
    )

    def expand(items: Any) -> list[str] | None:
        out = [""]
        for op, arg in items:
            parts: list[str] | None
            if op is LITERAL:
                parts = [chr(arg)]
            elif op is IN and all(item_op is LITERAL for item_op, _ in arg):
                parts = [chr(code) for _, code in arg]  # "(a|b)" parses as the class [ab]
            elif op is SUBPATTERN and arg[1] == 0 and arg[2] == 0:  # no inline flags
                parts = expand(arg[3])
            elif op is BRANCH:
                alternatives: list[str] = []
                for branch in arg[1]:
                    expanded = expand(branch)
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

    literals = expand(tree)
    if not literals or "" in literals or not all(lit.isascii() for lit in literals):
        return None
    return tuple(literals)


def _refers_to_groups(pattern: str) -> bool:
    """Whether ``pattern`` refers to its groups (``\\1``, ``(?P=name)``, ``(?(1)...)``), or
    may (``re`` cannot read it): in an alternation with other patterns its numbers would
    name their groups, so it is searched on its own."""
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
#: it ignores case, and the pattern.
_Guarded = tuple[tuple[tuple[str, ...], ...], bool, "regex.Pattern[str]"]
#: An entry of a rule set's index: the tag, the needs, whether they are compared
#: case-folded, and the pattern to search once they hold (``None`` for a literal, whose
#: needs are the match).
_Entry = tuple[str, tuple[tuple[str, ...], ...], bool, "regex.Pattern[str] | None"]


def _lacks(text: str, needs: tuple[tuple[str, ...], ...]) -> bool:
    """Whether ``text`` misses every word of some group of ``needs``."""
    for words in needs:
        for word in words:
            if word in text:
                break
        else:
            return True
    return False


class _TagMatcher:
    """All rules of one tag sorted into set lookups and as few text checks as possible,
    for :class:`RuleSet` to index.

    Matching a message against every rule one by one costs a regex call per value.
    Search patterns that are finite alternations of ASCII literals ("come down",
    "go (lower|higher)") become substring tests (on ASCII-lowercased text when the rule
    ignores case, as Python 2's ASCII case folding did); search patterns with words they
    cannot match without (:func:`~actparse.engine.prefilter.required_literals`) are
    searched alone, and only in texts that hold such words; the rest fold into a single
    regex per (kind, case). The result is the same as rule by rule.
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
                flags = _BASE_FLAGS | (regex.IGNORECASE if ignore_case else 0)
                for r in rules:
                    if r.match != kind or r.ignore_case != ignore_case:
                        continue
                    for v in r.values:
                        found = literal_alternatives(v) if kind == "text-search" else None
                        needs = required_literals(v, ascii_only=ignore_case, bounds=True)
                        if found is None and kind == "text-search" and needs:
                            if ignore_case:
                                needs = tuple(
                                    tuple(lit.translate(ASCII_LOWER) for lit in need)
                                    for need in needs
                                )
                            guarded.append((needs, ignore_case, regex.compile(v, flags)))
                        elif found is None and _refers_to_groups(v):
                            into.append(regex.compile(v, flags))  # its \\1 stays its own
                        elif found is None:
                            values.append(v)
                        elif ignore_case:
                            folded.extend(lit.translate(ASCII_LOWER) for lit in found)
                        else:
                            literals.extend(found)
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


class RuleSet:
    """Rules grouped by the tag they set; a tag holds when any of its rules matches."""

    def __init__(self, rules: Iterable[Rule]) -> None:
        self.rules: tuple[Rule, ...] = tuple(rules)
        by_tag: dict[str, list[Rule]] = {}
        for rule in self.rules:
            by_tag.setdefault(rule.tag, []).append(rule)
        self.by_tag: dict[str, tuple[Rule, ...]] = {k: tuple(v) for k, v in by_tag.items()}
        self._matchers = {tag: _TagMatcher(rules) for tag, rules in self.by_tag.items()}
        # Word -> tags indexes, so one message's token rules cost a few set operations.
        self._by_first: dict[str, set[str]] = {}
        self._by_last: dict[str, set[str]] = {}
        self._by_any: dict[str, set[str]] = {}
        for tag, m in self._matchers.items():
            for index, words in (
                (self._by_first, m.first_token),
                (self._by_last, m.last_token),
                (self._by_any, m.any_token),
            ):
                for word in words:
                    index.setdefault(word, set()).add(tag)
        self._any_words = frozenset(self._by_any)
        # Every tag's literals and guarded patterns in one index, tag by tag and in each
        # tag in the order its matcher tries them: a message finds the few that may
        # match from its chunks. A literal is an entry whose needs are the literal itself
        # (no pattern to search once they hold).
        # The index files a guarded pattern's needs with their word boundaries; the
        # entries keep them plain, for the substring test of a candidate.
        entries: list[_Entry] = []
        filed: list[tuple[tuple[tuple[str, ...], ...], bool]] = []
        for tag, m in self._matchers.items():
            for lit in m.literals:
                entries.append((tag, ((lit,),), False, None))
                filed.append((((lit,),), False))
            for lit in m.folded_literals:
                entries.append((tag, ((lit,),), True, None))
                filed.append((((lit,),), True))
            for needs, ignore_case, p in m.guarded:
                entries.append((tag, strip_boundaries(needs), ignore_case, p))
                filed.append((needs, ignore_case))
        self._entries = tuple(entries)
        self._index = NeedIndex(filed) if entries else None
        #: Per tag, the bits of its entries: once a tag holds, its other entries are
        #: dropped from the candidates at once.
        self._tag_bits: dict[str, int] = {}
        for k, entry in enumerate(entries):
            self._tag_bits[entry[0]] = self._tag_bits.get(entry[0], 0) | (1 << k)
        #: The entries of each tuple of wanted tags asked for (a caller asks for a few).
        self._wanted_bits: dict[tuple[str, ...], int] = {}
        #: Tags with a search or whole-text pattern that has no required word.
        self._unguarded = tuple(tag for tag, m in self._matchers.items() if m.searches or m.wholes)

    def has(self, tag: str, tokens: Sequence[str], text: str) -> bool:
        """Whether ``tag`` holds for the message (:meth:`tags` of that one tag: asking for
        several tags at once, :meth:`tags` looks the message up once)."""
        return tag in self._matchers and bool(self.tags((tag,), tokens, text))

    def tags(self, wanted: Sequence[str], tokens: Sequence[str], text: str) -> list[str]:
        """The tags of ``wanted`` that hold for the message, in that order.

        The same as asking :meth:`has` for each tag, in one pass: this is per-turn work.
        """
        found: set[str] = set()
        if tokens:
            found.update(self._by_first.get(tokens[0], ()))
            found.update(self._by_last.get(tokens[-1], ()))
            for word in self._any_words.intersection(tokens):
                found.update(self._by_any[word])
            found.intersection_update(wanted)
        timeout = timeout_for(text)
        if self._index is not None:
            candidates = self._index.candidate_mask(text) & self._wanted_mask(wanted)
            for tag in found:
                candidates &= ~self._tag_bits.get(tag, 0)
            if candidates:
                self._search(candidates, text, timeout, found)
        for tag in self._unguarded:
            if (
                tag not in found
                and tag in wanted
                and self._matchers[tag].unguarded_matches(text, timeout)
            ):
                found.add(tag)
        return [tag for tag in wanted if tag in found] if found else []

    def _wanted_mask(self, wanted: Sequence[str]) -> int:
        """The bits of the entries of the ``wanted`` tags."""
        key = tuple(wanted)
        mask = self._wanted_bits.get(key)
        if mask is None:
            mask = 0
            for tag in key:
                mask |= self._tag_bits.get(tag, 0)
            if len(self._wanted_bits) < 64:  # callers ask for a handful of tuples
                self._wanted_bits[key] = mask
        return mask

    def _search(self, candidates: int, text: str, timeout: float | None, found: set[str]) -> None:
        """Add to ``found`` the tags of the candidate entries that match ``text``, lowest
        entry first; once a tag holds, its other entries are not tried."""
        entries = self._entries
        proven = candidates & self._index.proven_mask  # type: ignore[union-attr]
        lowered = None
        while candidates:
            low = candidates & -candidates
            tag, needs, ignore_case, pattern = entries[low.bit_length() - 1]
            candidates ^= low
            if not proven & low:  # else the index has tested the needs already
                subject = text
                if ignore_case:
                    if lowered is None:
                        # Python 2 folded ASCII letters only; on ASCII text lower() is that.
                        lowered = text.lower() if text.isascii() else text.translate(ASCII_LOWER)
                    subject = lowered
                if _lacks(subject, needs):
                    continue  # it cannot match this text
            if pattern is None or (
                pattern.search(text, timeout=timeout) if timeout else pattern.search(text)
            ):
                found.add(tag)
                candidates &= ~self._tag_bits[tag]

    def __getitem__(self, name: str) -> Rule:
        for rule in self.rules:
            if rule.name == name:
                return rule
        raise KeyError(name)

    def __len__(self) -> int:
        return len(self.rules)


def _word_classes(doc: dict[str, Any], source: str) -> dict[str, str]:
    """The file's ``classes`` (name -> words) as regex alternations to put in for
    ``{name}`` in a value: one place for a vocabulary many patterns share (item names)."""
    raw = doc.get("classes", {})
    if not isinstance(raw, dict):
        raise RuleError(f"{source}:1: 'classes' must map names to lists of words")
    return {
        str(name): "(?:" + "|".join(regex.escape(w) for w in string_list(words, source, name)) + ")"
        for name, words in raw.items()
        if name != LINE
    }


def _put_classes(value: str, classes: dict[str, str]) -> str:
    """``value`` with every ``{name}`` of a class replaced by its alternation."""
    for name, alternation in classes.items():
        value = value.replace("{" + name + "}", alternation)
    return value


def parse_rules(doc: Any, source: str) -> list[Rule]:
    """Validate the rules of one parsed YAML document; ``source`` names it in errors.

    Values may name a word class of the file's ``classes`` as ``{name}``."""
    if not isinstance(doc, dict) or not isinstance(doc.get("rules"), list):
        raise RuleError(f"{source}:1: expected a mapping with a 'rules' list")
    check_keys(doc, FILE_KEYS, f"{source}:1", "the rule file")
    classes = _word_classes(doc, source)
    rules: list[Rule] = []
    seen: set[str] = set()
    for record in doc["rules"]:
        if not isinstance(record, dict):
            raise RuleError(f"{source}: every rule must be a mapping, got {record!r}")
        name = record.get("name", "?")
        at = where(source, record)
        what = f"rule '{name}'"
        check_keys(record, ALLOWED_KEYS, at, what, required=REQUIRED_KEYS)
        if record["match"] not in MATCH_KINDS:
            raise RuleError(
                f"{at}: {what}: unknown match kind {record['match']!r}; "
                f"one of {sorted(MATCH_KINDS)}"
            )
        if name in seen:
            raise RuleError(f"{at}: {what}: duplicate rule name")
        seen.add(name)
        context = f"{at}: {what}"
        try:
            rule = Rule(
                name=str(name),
                tag=str(record["tag"]),
                match=record["match"],
                values=tuple(
                    _put_classes(v, classes)
                    for v in string_list(record["values"], context, "values", single=True)
                ),
                description=str(record.get("description", "")),
                ignore_case=bool(record.get("ignore_case", False)),
                examples=string_list(record.get("examples", []), context, "examples", single=True),
                counterexamples=string_list(
                    record.get("counterexamples", []), context, "counterexamples", single=True
                ),
                source=at,
            )
        except regex.error as err:
            raise RuleError(f"{context}: bad regular expression: {err}") from None
        rules.append(rule)
    return rules


def _rule_set(doc: Any, source: str) -> RuleSet:
    return RuleSet(parse_rules(doc, source))


def load_rules(
    path: str | Path | Traversable | None = None, *, default: tuple[str, ...] = ()
) -> RuleSet:
    """Load a tag-rule file; with no ``path``, the shipped file ``default`` (its parts
    under ``rules/``, e.g. ``("craigslist", "tags.yaml")``), loaded once per process."""
    if path is None and not default:
        raise TypeError("load_rules needs a path or a default shipped file")
    return load_file(path, default, _rule_set)
