"""Tag-rule files: their format, checked record by record, and loading, shared by every corpus.

A tag-rule file (``rules/<corpus>/tags.yaml``, read by :mod:`actparse.engine.rulefiles`)
lists named rules. Each rule is a record with a name, the tag it sets, how it matches, the values
it matches, and examples and counterexamples that the test-suite runs. Records are
checked against the allowed keys so that a typo fails loudly, naming the file and line.

A file may ``include`` shared rule files by name: ``include: [acceptance]`` puts the rules of
the shipped ``rules/tags/acceptance.yaml`` before its own, so that a rule of general English
several corpora use is written once. A name both files give is an error, not an override.
"""

from __future__ import annotations

from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import regex

from actparse.engine.rulefiles import (
    LINE,
    RuleError,
    check_keys,
    load_file,
    shipped,
    shown,
    string_list,
    where,
)
from actparse.engine.ruleset import Rule, RuleSet
from actparse.engine.tagmatch import literal_alternatives

__all__ = [
    "MATCH_KINDS",
    "Rule",
    "RuleSet",
    "included_rules",
    "literal_alternatives",
    "load_rules",
    "parse_rules",
    "shared_tag_files",
]

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
ALLOWED_KEYS = REQUIRED_KEYS | {
    "description",
    "ignore_case",
    "unless",
    "examples",
    "counterexamples",
}
#: ``labels``: tag -> one-line definition, what the documentation shows (docs/hooks/).
FILE_KEYS = frozenset({"description", "rules", "classes", "labels", "include"})
#: The shipped folder of shared tag-rule files a rule file may ``include``.
SHARED_FOLDER = "tags"
_SHARED_NAME = regex.compile(r"[a-z0-9][a-z0-9-]*")


def _word_classes(doc: dict[str, Any], source: str) -> dict[str, str]:
    """The file's ``classes`` (name -> words) as regex alternations.

    Each is put in for ``{name}`` in a value: one place for a vocabulary many patterns share (item
    names)."""
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

    Values may name a word class of the file's ``classes`` as ``{name}``. The rules of the
    shared files the document includes come first (:func:`included_rules`)."""
    if not isinstance(doc, dict) or not isinstance(doc.get("rules"), list):
        raise RuleError(f"{source}:1: expected a mapping with a 'rules' list")
    check_keys(doc, FILE_KEYS, f"{source}:1", "the rule file")
    classes = _word_classes(doc, source)
    rules = included_rules(doc, source)
    seen = {rule.name: rule.source for rule in rules}
    for record in doc["rules"]:
        if not isinstance(record, dict):
            raise RuleError(f"{source}: every rule must be a mapping, got {shown(record)}")
        name = record.get("name", "?")
        at = where(source, record)
        what = f"rule '{name}'"
        check_keys(record, ALLOWED_KEYS, at, what, required=REQUIRED_KEYS)
        if record["match"] not in MATCH_KINDS:
            raise RuleError(
                f"{at}: {what}: unknown match kind {shown(record['match'])}; "
                f"one of {sorted(MATCH_KINDS)}"
            )
        if name in seen:
            also = f" (also in {seen[name]}, included)" if seen[name] else ""
            raise RuleError(f"{at}: {what}: duplicate rule name{also}")
        seen[name] = ""  # the file's own rule: a later one of the name is the duplicate
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
                unless=tuple(
                    _put_classes(v, classes)
                    for v in string_list(record.get("unless", []), context, "unless", single=True)
                ),
                examples=string_list(record.get("examples", []), context, "examples", single=True),
                counterexamples=string_list(
                    record.get("counterexamples", []), context, "counterexamples", single=True
                ),
                source=at,
            )
        except regex.error as err:
            raise RuleError(f"{context}: bad regular expression: {err}") from None
        except ValueError as err:
            raise RuleError(f"{at}: {err}") from None
        rules.append(rule)
    return rules


def included_rules(doc: dict[str, Any], source: str) -> list[Rule]:
    """The rules of the shared files a rule file's ``include`` names, in its order.

    Each name is a file of the shipped ``rules/tags/`` folder (:data:`SHARED_FOLDER`),
    parsed once per process; a shared file includes nothing itself, and a name given
    twice, or no such file, is a :class:`RuleError` naming the including file's line."""
    at = where(source, doc)
    names = string_list(doc.get("include", []), at, "include")
    rules: list[Rule] = []
    for k, name in enumerate(names):
        if name in names[:k]:
            raise RuleError(f"{at}: 'include' names {name!r} twice")
        if not _SHARED_NAME.fullmatch(name) or not shipped(SHARED_FOLDER, f"{name}.yaml").is_file():
            raise RuleError(
                f"{at}: 'include': no shared tag-rule file {name!r}; one of {shared_tag_files()}"
            )
        shared = load_file(None, (SHARED_FOLDER, f"{name}.yaml"), _shared_rules)
        clash = {r.name for r in shared} & {r.name for r in rules}
        if clash:
            raise RuleError(f"{at}: 'include': {name!r} and a file before it both name {clash}")
        rules += shared
    return rules


def shared_tag_files() -> list[str]:
    """The names a rule file may ``include``: the shipped shared tag-rule files."""
    folder = shipped(SHARED_FOLDER)
    return sorted(f.name[: -len(".yaml")] for f in folder.iterdir() if f.name.endswith(".yaml"))


def _shared_rules(doc: Any, source: str) -> list[Rule]:
    if isinstance(doc, dict) and "include" in doc:
        # One level: a chain of includes would make a rule's home hard to find.
        raise RuleError(f"{where(source, doc)}: a shared tag-rule file includes no other")
    return parse_rules(doc, source)


def _rule_set(doc: Any, source: str) -> RuleSet:
    return RuleSet(parse_rules(doc, source), source)


def load_rules(
    path: str | Path | Traversable | None = None, *, default: tuple[str, ...] = ()
) -> RuleSet:
    """Load a tag-rule file, by default the shipped one, loaded once per process.

    With no ``path``: the shipped file ``default``, given by its parts under ``rules/`` (e.g.
    ``("craigslist", "tags.yaml")``)."""
    if path is None and not default:
        raise TypeError("load_rules needs a path or a default shipped file")
    return load_file(path, default, _rule_set)
