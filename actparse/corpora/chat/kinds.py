"""Which split settings a dialogue's items take: mass nouns or count nouns, by a named rule.

The split parser reads an item named without a count by settings (``bare_noun``,
``the_singular``, ``unnamed``, ``claims_need_verb``: :mod:`actparse.corpora.splits.lexicon`)
that depend on the kind of noun the items are. Count nouns (book, hat, ball): "the
books" are all of them, "a book" one, and items a message leaves unnamed go to the
reader. Mass nouns (water, rice, oil): "some water" is no count, "the water" is all of
it, "i need water" states a preference rather than a claim, and talk about them comes
up outside offers, so items a message leaves unnamed keep their place in the deal.

``rules/chat/splits.yaml`` holds both sets of settings and ``mass_nouns``: English nouns
dictionaries mark uncountable in their usual sense, a general resource with its
provenance, examples and counterexamples. :func:`noun_kind` applies the named rule
``majority-mass``: an item set is ``mass`` when more than half of its names have a mass
noun as their head (the last word: "olive oil" is oil, "sky-rope" rope); otherwise,
including a tie and any made-up name, ``count``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from actparse.engine.rulefiles import LINE, RuleError, check_keys, string_list, where

__all__ = [
    "KINDS",
    "RULE_NAME",
    "NounKinds",
    "head_noun",
    "parse_noun_kinds",
]

#: The kinds of item set, each with its own settings; ``count`` is the default.
KINDS = ("count", "mass")
#: The name of the rule that picks a kind from an item set.
RULE_NAME = "majority-mass"
_SECTION_KEYS = frozenset(
    {"description", "provenance", "rule", "settings", "words", "examples", "counterexamples"}
)


def head_noun(name: str) -> str:
    """The head of an item name: its last word, lowercase.

    >>> head_noun("Olive Oil"), head_noun("sky-rope"), head_noun("water")
    ('oil', 'rope', 'water')
    """
    words = re.findall(r"[^\W_]+", name.lower())
    return words[-1] if words else ""


@dataclass(frozen=True)
class NounKinds:
    """The mass nouns and the settings of each kind of item set."""

    mass_nouns: frozenset[str]
    #: The settings of a ``mass`` item set, over the count-noun ones (the file's own).
    mass_settings: Mapping[str, Any]
    #: Item sets (names joined by ``, ``) and the kind the rule must give them.
    examples: Mapping[str, str]
    counterexamples: Mapping[str, str]

    def is_mass(self, name: str) -> bool:
        """Whether an item name's head is a mass noun."""
        return head_noun(name) in self.mass_nouns

    def kind(self, names: Sequence[str]) -> str:
        """The kind of an item set by ``majority-mass``: ``mass`` or ``count``.

        >>> from actparse.corpora.chat.items import load_item_word_rules
        >>> kinds = load_item_word_rules().kinds
        >>> kinds.kind(["rice", "olive oil", "salt"]), kinds.kind(["book", "hat", "ball"])
        ('mass', 'count')
        >>> kinds.kind(["water", "book"]), kinds.kind(["glimmerstone", "moonfruit"])
        ('count', 'count')
        """
        mass = sum(self.is_mass(n) for n in names)
        return "mass" if 2 * mass > len(names) else "count"


def _kind_pairs(value: Any, at: str, key: str) -> dict[str, str]:
    if not isinstance(value, Mapping):
        raise RuleError(f"{at}: mass_nouns.{key} must map an item set to a kind")
    pairs = {str(k): str(v) for k, v in value.items() if k != LINE}
    for items, kind in pairs.items():
        if kind not in KINDS:
            raise RuleError(f"{at}: mass_nouns.{key}: {items!r}: kind must be one of {KINDS}")
    return pairs


def parse_noun_kinds(doc: Any, source: str, setting_keys: Iterable[str]) -> NounKinds:
    """Check the ``mass_nouns`` section of the chat split rules and build its rule."""
    at = where(source, doc)
    required = ("provenance", "rule", "settings", "words", "examples", "counterexamples")
    doc = check_keys(doc, _SECTION_KEYS, at, "mass_nouns", required=required)
    if doc["rule"] != RULE_NAME:
        raise RuleError(f"{at}: mass_nouns.rule must be {RULE_NAME!r}, got {doc['rule']!r}")
    settings = check_keys(doc["settings"], frozenset(setting_keys), at, "mass_nouns.settings")
    words = string_list(doc["words"], at, "mass_nouns.words")
    return NounKinds(
        frozenset(w.lower() for w in words),
        {k: v for k, v in settings.items() if k != LINE},
        _kind_pairs(doc["examples"], at, "examples"),
        _kind_pairs(doc["counterexamples"], at, "counterexamples"),
    )
