"""Tag rules and the rule set: how a named rule matches a message, and many at once.

A :class:`Rule` is one record of a tag-rule file (:mod:`actparse.engine.tags` reads and
checks the files); a :class:`RuleSet` groups a file's rules by the tag they set and
indexes their words and literals, so a message is matched against every rule in a few
set operations and searches.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import regex

from actparse.engine.guard import timeout_for
from actparse.engine.patternparts import OrderedSearch
from actparse.engine.prefilter import ASCII_LOWER, NeedIndex, strip_boundaries
from actparse.engine.rulefiles import RuleError
from actparse.engine.tagmatch import BASE_FLAGS, TagMatcher, lacks

__all__ = ["Rule", "RuleSet"]


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
    #: Patterns searched in the text: the rule does not hold where one is found ("the
    #: trip is fun", unless needs or items are spoken of). Text rules only.
    unless: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.unless and not self.match.startswith("text-"):
            raise ValueError(f"rule '{self.name}': 'unless' needs a text rule, not {self.match}")
        flags = BASE_FLAGS | (regex.IGNORECASE if self.ignore_case else 0)
        patterns: tuple[regex.Pattern[str], ...] = ()
        if self.match.startswith("text-"):
            patterns = tuple(regex.compile(v, flags) for v in self.values)
        object.__setattr__(self, "_patterns", patterns)
        object.__setattr__(self, "_unless", tuple(regex.compile(v, flags) for v in self.unless))
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
        timeout = timeout_for(text)
        if kind == "text-search":
            hit = any(p.search(text, timeout=timeout) for p in patterns)
        else:  # text-whole: Cocoa used re.match with ^...$ anchors written in the pattern.
            hit = any(p.match(text, timeout=timeout) for p in patterns)
        unless: tuple[regex.Pattern[str], ...] = self._unless  # type: ignore[attr-defined]
        return hit and not any(p.search(text, timeout=timeout) for p in unless)


#: An entry of a rule set's index: the tag (``""`` for a pattern of an ``unless``), the
#: needs, whether they are compared case-folded, the pattern to search once they hold
#: (``None`` for a literal, whose needs are the match), and the ``unless`` of its rules
#: (an index into the rule set's, or -1).
_Entry = tuple[
    str, tuple[tuple[str, ...], ...], bool, "regex.Pattern[str] | OrderedSearch | None", int
]
_Needs = tuple[tuple[str, ...], ...]


def _groups(rules: Sequence[Rule]) -> dict[tuple[str, tuple[str, ...], bool], list[Rule]]:
    """The rules of a tag that share an ``unless`` (most share none) match as one."""
    groups: dict[tuple[str, tuple[str, ...], bool], list[Rule]] = {}
    for rule in rules:
        key = (rule.tag, rule.unless, rule.ignore_case if rule.unless else False)
        groups.setdefault(key, []).append(rule)
    return groups


def _add_entries(
    entries: list[_Entry],
    filed: list[tuple[_Needs, bool]],
    exact: set[int],
    tag: str,
    m: TagMatcher,
    unless: int,
) -> None:
    """Append a matcher's literals and guarded patterns to the index being built.

    ``filed`` gets each entry's needs as the index files them; ``exact`` the positions of
    the entries whose needs are the pattern."""
    for lit in m.literals:
        entries.append((tag, ((lit,),), False, None, unless))
        filed.append((((lit,),), False))
    for lit in m.folded_literals:
        entries.append((tag, ((lit,),), True, None, unless))
        filed.append((((lit,),), True))
    for needs, ignore_case, p, is_exact in m.guarded:
        if is_exact:
            exact.add(len(entries))
        entries.append((tag, strip_boundaries(needs), ignore_case, p, unless))
        filed.append((needs, ignore_case))


class RuleSet:
    """Rules grouped by the tag they set; a tag holds when any of its rules matches."""

    def __init__(self, rules: Iterable[Rule], source: str = "") -> None:
        self.rules: tuple[Rule, ...] = tuple(rules)
        # The file read, as errors name it: its first rule may be an included file's.
        self._source = source
        by_tag: dict[str, list[Rule]] = {}
        for rule in self.rules:
            by_tag.setdefault(rule.tag, []).append(rule)
        self.by_tag: dict[str, tuple[Rule, ...]] = {k: tuple(v) for k, v in by_tag.items()}
        groups = _groups(self.rules)
        unlesses = list(dict.fromkeys((u, case) for _, u, case in groups if u))
        # Every tag's literals and guarded patterns in one index, tag by tag and in each
        # tag in the order its matcher tries them, then the patterns of every ``unless``:
        # a message finds the few that may match from its chunks. A literal is an entry
        # whose needs are the literal itself (no pattern to search once they hold). The
        # index files a guarded pattern's needs with their word boundaries; the entries
        # keep them plain, for the substring test of a candidate.
        entries: list[_Entry] = []
        filed: list[tuple[_Needs, bool]] = []
        exact: set[int] = set()
        unguarded = self._index_tags(groups, unlesses, entries, filed, exact)
        self._index_unlesses(unlesses, entries, filed, exact)
        self._index_entries(entries, filed, exact)
        #: The entries of each tuple of wanted tags asked for (a caller asks for a few).
        self._wanted_bits: dict[tuple[str, ...], int] = {}
        self._unguarded = tuple(unguarded)

    def _index_tags(
        self,
        groups: dict[tuple[str, tuple[str, ...], bool], list[Rule]],
        unlesses: list[tuple[tuple[str, ...], bool]],
        entries: list[_Entry],
        filed: list[tuple[_Needs, bool]],
        exact: set[int],
    ) -> list[tuple[str, TagMatcher, int]]:
        """Compile each tag's rules, index their words and add their entries.

        Returns, per tag (and its ``unless``), the matchers with patterns the index does
        not file."""
        # Word -> tags indexes, so one message's token rules cost a few set operations.
        self._by_first: dict[str, set[str]] = {}
        self._by_last: dict[str, set[str]] = {}
        self._by_any: dict[str, set[str]] = {}
        #: Per tag (and its ``unless``), the patterns the index does not file.
        unguarded: list[tuple[str, TagMatcher, int]] = []
        self._matchers: list[tuple[str, TagMatcher]] = []
        for (tag, unless, case), members in groups.items():
            m = TagMatcher(members)
            self._matchers.append((tag, m))
            u = unlesses.index((unless, case)) if unless else -1
            for index, words in (
                (self._by_first, m.first_token),
                (self._by_last, m.last_token),
                (self._by_any, m.any_token),
            ):
                for word in words:
                    index.setdefault(word, set()).add(tag)
            _add_entries(entries, filed, exact, tag, m, u)
            if m.searches or m.wholes:
                unguarded.append((tag, m, u))
        self._any_words = frozenset(self._by_any)
        #: Whether any rule matches tokens (else a message's tokens are not looked at).
        self._token_words = bool(self._by_first or self._by_last or self._by_any)
        return unguarded

    def _index_unlesses(
        self,
        unlesses: list[tuple[tuple[str, ...], bool]],
        entries: list[_Entry],
        filed: list[tuple[_Needs, bool]],
        exact: set[int],
    ) -> None:
        """Add the patterns of every ``unless`` after the tags' entries."""
        #: Per ``unless``: the bits of its index entries and its matcher (whose unfiled
        #: patterns are searched when a rule of it matches).
        self._unless: list[tuple[int, TagMatcher]] = []
        for unless, ignore_case in unlesses:
            first = len(entries)
            m = TagMatcher([Rule("unless", "", "text-search", unless, ignore_case=ignore_case)])
            _add_entries(entries, filed, exact, "", m, -1)
            self._unless.append((((1 << len(entries)) - 1) ^ ((1 << first) - 1), m))

    def _index_entries(
        self, entries: list[_Entry], filed: list[tuple[_Needs, bool]], exact: set[int]
    ) -> None:
        """File the entries in one need index.

        An exact entry the index proves needs no search; each tag knows the bits of its entries."""
        self._entries = tuple(entries)
        self._index = NeedIndex(filed) if entries else None
        #: Entries that match wherever the index proves their needs (words between
        #: word boundaries): no search.
        self._exact = sum(1 << k for k in exact) & (
            self._index.proven_mask if self._index is not None else 0
        )
        #: Per tag, the bits of its entries: once a tag holds, its other entries are
        #: dropped from the candidates at once.
        self._tag_bits: dict[str, int] = {}
        for k, entry in enumerate(entries):
            if entry[0]:
                self._tag_bits[entry[0]] = self._tag_bits.get(entry[0], 0) | (1 << k)

    def has(self, tag: str, tokens: Sequence[str], text: str) -> bool:
        """Whether ``tag`` holds for the message.

        It is :meth:`tags` of that one tag: asking for several tags at once, :meth:`tags` looks the
        message up once."""
        return tag in self.by_tag and bool(self.tags((tag,), tokens, text))

    def tags(self, wanted: Sequence[str], tokens: Sequence[str], text: str) -> list[str]:
        """The tags of ``wanted`` that hold for the message, in that order.

        The same as asking :meth:`has` for each tag, in one pass: this is per-turn work.
        """
        found: set[str] = set()
        if tokens and self._token_words:
            first = self._by_first.get(tokens[0])
            if first:
                found |= first
            last = self._by_last.get(tokens[-1])
            if last:
                found |= last
            for word in self._any_words.intersection(tokens):
                found |= self._by_any[word]
            if found:
                found.intersection_update(wanted)
        timeout = timeout_for(text)
        every = 0
        if self._index is not None:
            every = self._index.candidate_mask(text)
            candidates = every & self._wanted_mask(wanted)
            for tag in found:
                candidates &= ~self._tag_bits.get(tag, 0)
            if candidates:
                self._search(candidates, every, text, timeout, found)
        for tag, matcher, unless in self._unguarded:
            if (
                tag not in found
                and tag in wanted
                and matcher.unguarded_matches(text, timeout)
                and (unless < 0 or not self._excluded(unless, every, text, timeout))
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

    def _search(
        self, candidates: int, every: int, text: str, timeout: float | None, found: set[str]
    ) -> None:
        """Add to ``found`` the tags of the candidate entries that match ``text``.

        Lowest entry first; once a tag holds, its other entries are not tried. ``every`` holds all
        candidates of the text, the patterns of an ``unless`` too."""
        entries = self._entries
        proven = candidates & self._index.proven_mask  # type: ignore[union-attr]
        exact = candidates & self._exact
        lowered = None
        while candidates:
            low = candidates & -candidates
            tag, needs, ignore_case, pattern, unless = entries[low.bit_length() - 1]
            candidates ^= low
            if not proven & low:  # else the index has tested the needs already
                subject = text
                if ignore_case:
                    if lowered is None:
                        # Python 2 folded ASCII letters only; on ASCII text lower() is that.
                        lowered = text.lower() if text.isascii() else text.translate(ASCII_LOWER)
                    subject = lowered
                if lacks(subject, needs):
                    continue  # it cannot match this text
            if (
                pattern is None
                or exact & low
                or (pattern.search(text, timeout=timeout) if timeout else pattern.search(text))
            ):
                if unless >= 0 and self._excluded(unless, every, text, timeout):
                    continue
                found.add(tag)
                candidates &= ~self._tag_bits.get(tag, -1)  # an unless: one match does

    def _excluded(self, unless: int, every: int, text: str, timeout: float | None) -> bool:
        """Whether a pattern of the ``unless`` numbered so matches ``text``."""
        entry_bits, matcher = self._unless[unless]
        hits: set[str] = set()
        candidates = every & entry_bits
        if candidates:
            self._search(candidates, 0, text, timeout, hits)
        return bool(hits) or matcher.unguarded_matches(text, timeout)

    @property
    def source(self) -> str:
        """The file the rules were read from (as errors name it)."""
        if self._source:
            return self._source
        return self.rules[0].source.rpartition(":")[0] if self.rules else "the rule file"

    def require(self, tags: Iterable[str], what: str, computed: Iterable[str] = ()) -> None:
        """A :class:`RuleError` unless every tag of ``tags`` is set by a rule or computed.

        A :class:`RuleError` naming the rule file unless every tag of ``tags`` is set by
        a rule of it or is one of ``computed`` (tags the code sets itself): ``what`` is
        who asks for them. Parsers call it when they are built, so a misspelt tag fails
        there instead of never holding."""
        missing = sorted(set(tags) - self.by_tag.keys() - set(computed))
        if missing:
            raise RuleError(
                f"{self.source}: {what} ask(s) for tag(s) {missing} that no rule of the "
                f"file sets (its tags: {', '.join(sorted(self.by_tag))})"
            )

    def __getitem__(self, name: str) -> Rule:
        for rule in self.rules:
            if rule.name == name:
                return rule
        raise KeyError(name)

    def __len__(self) -> int:
        return len(self.rules)
