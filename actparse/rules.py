"""Declarative rules: loading, validation and matching.

Rule files are YAML documents under ``rules/`` (installed as ``actparse/rules`` inside the
wheel). Each rule is a record with a name, the tag it sets, how it matches, the values
it matches, and examples and counterexamples that the test-suite runs. Records are
checked against the allowed keys so that a typo fails loudly, naming the file and line.
"""

from __future__ import annotations

import functools
import importlib.resources
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import regex
import yaml

from actparse.guard import timeout_for

__all__ = ["Rule", "RuleError", "RuleSet", "load_rules", "rules_dir"]

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
FILE_KEYS = frozenset({"description", "rules"})

# Cocoa ran on Python 2, where patterns compiled without re.UNICODE have ASCII-only
# \w, \d, \s and case folding; VERSION0 keeps the `re`-compatible semantics.
_BASE_FLAGS = regex.VERSION0 | regex.ASCII


class RuleError(ValueError):
    """A rule file is malformed; the message names the file and the line."""


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


class _TagMatcher:
    """All rules of one tag folded into set lookups and one regex per text kind.

    Matching a message against every rule one by one costs a regex call per value;
    folding the alternatives into a single pattern per (kind, case) keeps it at a few
    calls per message with the same result.
    """

    __slots__ = ("any_token", "first_token", "last_token", "searches", "wholes")

    def __init__(self, rules: Sequence[Rule]) -> None:
        self.any_token = frozenset(v for r in rules if r.match == "any-token" for v in r.values)
        self.first_token = frozenset(v for r in rules if r.match == "first-token" for v in r.values)
        self.last_token = frozenset(v for r in rules if r.match == "last-token" for v in r.values)
        searches: list[regex.Pattern[str]] = []
        wholes: list[regex.Pattern[str]] = []
        for kind, into in (("text-search", searches), ("text-whole", wholes)):
            for ignore_case in (False, True):
                values = [
                    v
                    for r in rules
                    if r.match == kind and r.ignore_case == ignore_case
                    for v in r.values
                ]
                if values:
                    flags = _BASE_FLAGS | (regex.IGNORECASE if ignore_case else 0)
                    into.append(regex.compile("|".join(f"(?:{v})" for v in values), flags))
        self.searches = tuple(searches)
        self.wholes = tuple(wholes)

    def __call__(self, tokens: Sequence[str], text: str) -> bool:
        if tokens and (tokens[0] in self.first_token or tokens[-1] in self.last_token):
            return True
        if self.any_token and not self.any_token.isdisjoint(tokens):
            return True
        if self.searches or self.wholes:
            timeout = timeout_for(text)
            for pattern in self.searches:
                if pattern.search(text, timeout=timeout):
                    return True
            for pattern in self.wholes:
                if pattern.match(text, timeout=timeout):
                    return True
        return False


class RuleSet:
    """Rules grouped by the tag they set; a tag holds when any of its rules matches."""

    def __init__(self, rules: Iterable[Rule]) -> None:
        self.rules: tuple[Rule, ...] = tuple(rules)
        by_tag: dict[str, list[Rule]] = {}
        for rule in self.rules:
            by_tag.setdefault(rule.tag, []).append(rule)
        self.by_tag: dict[str, tuple[Rule, ...]] = {k: tuple(v) for k, v in by_tag.items()}
        self._matchers = {tag: _TagMatcher(rules) for tag, rules in self.by_tag.items()}

    def has(self, tag: str, tokens: Sequence[str], text: str) -> bool:
        """Whether ``tag`` holds for the message."""
        matcher = self._matchers.get(tag)
        return matcher is not None and matcher(tokens, text)

    def tags(self, wanted: Sequence[str], tokens: Sequence[str], text: str) -> list[str]:
        """The tags of ``wanted`` that hold for the message, in that order.

        The same as asking :meth:`has` for each tag, in one pass: this is per-turn work.
        """
        first = tokens[0] if tokens else None
        last = tokens[-1] if tokens else None
        timeout = timeout_for(text)
        token_set = frozenset(tokens)
        found = []
        matchers = self._matchers
        for tag in wanted:
            m = matchers.get(tag)
            if m is None:
                continue
            # Explicit loops, not any(<generator>): a generator per rule kind would cost
            # more than the matching itself on a short message.
            if first is not None and (first in m.first_token or last in m.last_token):
                found.append(tag)
                continue
            if m.any_token and not m.any_token.isdisjoint(token_set):
                found.append(tag)
                continue
            hit = False
            for pattern in m.searches:
                if pattern.search(text, timeout=timeout):
                    hit = True
                    break
            if not hit:
                for pattern in m.wholes:
                    if pattern.match(text, timeout=timeout):
                        hit = True
                        break
            if hit:
                found.append(tag)
        return found

    def __getitem__(self, name: str) -> Rule:
        for rule in self.rules:
            if rule.name == name:
                return rule
        raise KeyError(name)

    def __len__(self) -> int:
        return len(self.rules)


def rules_dir() -> Traversable:
    """The directory holding the shipped rule files.

    Installed, it is ``actparse/rules`` inside the package; in a source checkout the
    top-level ``rules/`` is used.
    """
    packaged = importlib.resources.files("actparse").joinpath("rules")
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent / "rules"


class _LineLoader(yaml.SafeLoader):
    """A safe YAML loader that remembers the line of every mapping."""


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> dict[str, Any]:
    mapping = loader.construct_mapping(node, deep=True)
    mapping["__line__"] = node.start_mark.line + 1
    return mapping  # type: ignore[return-value]


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def line_loader() -> type[yaml.SafeLoader]:
    """The safe YAML loader that adds ``__line__`` to every mapping."""
    return _LineLoader


def _string_list(value: Any, where: str, key: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RuleError(f"{where}: '{key}' must be a string or a list of strings")
    return tuple(value)


def parse_rules(text: str, source: str) -> list[Rule]:
    """Parse and validate the rules of one YAML document; ``source`` names it in errors."""
    try:
        doc = yaml.load(text, Loader=_LineLoader)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        raise RuleError(f"{source}{line}: not valid YAML: {err}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("rules"), list):
        raise RuleError(f"{source}:1: expected a mapping with a 'rules' list")
    unknown = set(doc) - FILE_KEYS - {"__line__"}
    if unknown:
        raise RuleError(f"{source}:1: unknown top-level key(s) {sorted(unknown)}")
    rules: list[Rule] = []
    seen: set[str] = set()
    for record in doc["rules"]:
        if not isinstance(record, dict):
            raise RuleError(f"{source}: every rule must be a mapping, got {record!r}")
        line = record.pop("__line__", "?")
        name = record.get("name", "?")
        where = f"{source}:{line}: rule '{name}'"
        extra = set(record) - ALLOWED_KEYS
        if extra:
            raise RuleError(
                f"{where}: unknown key(s) {sorted(extra)}; allowed: {sorted(ALLOWED_KEYS)}"
            )
        missing = REQUIRED_KEYS - set(record)
        if missing:
            raise RuleError(f"{where}: missing key(s) {sorted(missing)}")
        if record["match"] not in MATCH_KINDS:
            raise RuleError(
                f"{where}: unknown match kind {record['match']!r}; one of {sorted(MATCH_KINDS)}"
            )
        if name in seen:
            raise RuleError(f"{where}: duplicate rule name")
        seen.add(name)
        try:
            rule = Rule(
                name=str(name),
                tag=str(record["tag"]),
                match=record["match"],
                values=_string_list(record["values"], where, "values"),
                description=str(record.get("description", "")),
                ignore_case=bool(record.get("ignore_case", False)),
                examples=_string_list(record.get("examples", []), where, "examples"),
                counterexamples=_string_list(
                    record.get("counterexamples", []), where, "counterexamples"
                ),
                source=f"{source}:{line}",
            )
        except regex.error as err:
            raise RuleError(f"{where}: bad regular expression: {err}") from None
        rules.append(rule)
    return rules


def load_rules(path: str | Path | Traversable | None = None) -> RuleSet:
    """Load a rule file (default: the shipped ``craigslist.yaml``)."""
    if path is None:
        return _default_rules()
    file = Path(path) if isinstance(path, str) else path
    return RuleSet(parse_rules(file.read_text(encoding="utf-8"), str(path)))


@functools.cache
def _default_rules() -> RuleSet:
    file = rules_dir().joinpath("craigslist.yaml")
    return RuleSet(parse_rules(file.read_text(encoding="utf-8"), "rules/craigslist.yaml"))
