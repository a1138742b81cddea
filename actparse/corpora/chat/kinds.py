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
    "CompoundHeads",
    "NounKinds",
    "head_noun",
    "parse_compound_heads",
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


@dataclass(frozen=True)
class CompoundHeads:
    """The rule ``compound-head``: a name ending in a mass noun is also named by that noun.

    A name of one word that ends in a listed mass noun with ``min_rest`` letters or more
    before it is a compound ("firewood" is fire + wood, "rainwater" rain + water): its
    two parts spaced ("fire wood") name the item, and so does its head alone ("wood"),
    as a name of several words whose last is a listed mass noun ("olive oil": "oil").
    With a written count the one-word compound is also clipped to its modifier ("2 fire":
    two firewood; :meth:`clipped`).
    """

    mass_nouns: frozenset[str]
    min_rest: int
    #: Names and the words the rule must give them (``, ``-joined; empty: none).
    examples: Mapping[str, str]
    counterexamples: Mapping[str, str]

    def split(self, name: str) -> tuple[str, str] | None:
        """The modifier and the mass-noun head of a one-word compound name, else ``None``.

        The longest head wins ("saltwater" is salt + water).
        """
        word = name.lower()
        if not word.isalpha():
            return None
        for k in range(self.min_rest, len(word)):
            if word[k:] in self.mass_nouns and len(word) - k >= 2:
                return word[:k], word[k:]
        return None

    def words(self, name: str) -> tuple[str, ...]:
        """The spaced form of a one-word compound and the mass-noun head of a name.

        >>> from actparse.corpora.chat.items import load_item_word_rules
        >>> heads = load_item_word_rules().compounds
        >>> heads.words("firewood"), heads.words("olive oil"), heads.words("sandwich")
        (('fire wood', 'wood'), ('oil',), ())
        """
        words = re.findall(r"[^\W_]+", name.lower())
        if len(words) > 1:
            return (words[-1],) if words[-1] in self.mass_nouns else ()
        parts = self.split(name)
        return () if parts is None else (f"{parts[0]} {parts[1]}", parts[1])

    def clipped(self, name: str) -> str | None:
        """The modifier of a one-word compound name, which names it with a written count.

        >>> from actparse.corpora.chat.items import load_item_word_rules
        >>> heads = load_item_word_rules().compounds
        >>> heads.clipped("firewood"), heads.clipped("olive oil")
        ('fire', None)
        """
        parts = self.split(name)
        return None if parts is None else parts[0]


def parse_compound_heads(doc: Any, source: str, mass_nouns: frozenset[str]) -> CompoundHeads:
    """Check the ``compound_heads`` section of the chat split rules and build its rule."""
    at = where(source, doc)
    keys = ("description", "min_rest", "examples", "counterexamples")
    doc = check_keys(doc, keys, at, "compound_heads", required=keys[1:])
    min_rest = doc["min_rest"]
    if not isinstance(min_rest, int) or isinstance(min_rest, bool) or min_rest < 2:
        raise RuleError(f"{at}: compound_heads.min_rest must be a whole number from 2")
    pairs = {}
    for key in ("examples", "counterexamples"):
        if not isinstance(doc[key], Mapping):
            raise RuleError(f"{at}: compound_heads.{key} must map a name to its words")
        pairs[key] = {str(k): str(v or "") for k, v in doc[key].items() if k != LINE}
    return CompoundHeads(mass_nouns, min_rest, pairs["examples"], pairs["counterexamples"])


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
