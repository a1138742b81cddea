"""Near-spellings and compound forms of item names, by the named rules every split corpus shares.

An item name is written in more ways than a corpus lists: with a letter left out, doubled
or swapped ("firwood", "watter", "wtaer"), a doubled letter written once ("bok"), in a
long name a letter replaced ("fire woof"), or a closed compound spaced or cut to its head
("fire wood", "wood"). ``rules/splits/variants.yaml`` names these rules, each with its
examples, counterexamples and length floor:

- ``near_spellings``: the edits one slip away from a word (:func:`near_spellings`), each
  from ``min_length`` letters of the name; each corpus names the edits it reads;
- ``compound_heads``: how a compound name is split into modifier and head
  (:class:`CompoundHeads`; the heads themselves, a list of nouns, are the user's).

:func:`variant_words` turns the words of a corpus' items into a table of their
near-spellings, built once per lexicon: reading a message then costs a lookup per word,
never an edit search.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from actparse.engine.rulefiles import LINE, RuleError, check_keys, load_file, string_list, where

__all__ = [
    "EDITS",
    "VARIANTS_FILE",
    "CompoundHeads",
    "NearSpellings",
    "VariantRules",
    "load_variant_rules",
    "near_spellings",
    "parse_variant_rules",
    "variant_words",
]

#: The shipped rule file of the variant rules, under ``rules/``.
VARIANTS_FILE = ("splits", "variants.yaml")
#: The edits a near-spelling rule may name.
EDITS = (
    "letter-dropped",
    "letter-doubled",
    "letters-swapped",
    "double-letter-once",
    "letter-replaced",
)
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_TOP_KEYS = frozenset({"description", "near_spellings", "compound_heads"})


def near_spellings(word: str, edits: Iterable[str] = EDITS) -> set[str]:
    """Every spelling one named edit away from ``word`` (the word itself left out).

    >>> sorted(near_spellings("water", ["letters-swapped"]))
    ['waetr', 'watre', 'wtaer']
    """
    found: set[str] = set()
    chosen = set(edits)
    # The first letter stays: writers rarely get it wrong, and without it a name is
    # often another word ("water" - "ater").
    for k in range(1, len(word)):
        if "letter-dropped" in chosen:
            found.add(word[:k] + word[k + 1 :])
        if "letter-doubled" in chosen and word[k].isalpha():
            found.add(word[:k] + word[k] + word[k:])
        if "letters-swapped" in chosen and k + 1 < len(word) and word[k] != word[k + 1]:
            found.add(word[:k] + word[k + 1] + word[k] + word[k + 2 :])
        if "double-letter-once" in chosen and word[k] == word[k - 1] and word[k].isalpha():
            found.add(word[:k] + word[k + 1 :])
        if "letter-replaced" in chosen and word[k].isalpha():
            found.update(word[:k] + other + word[k + 1 :] for other in _LETTERS)
    found.discard(word)
    return {w for w in found if w and not w.startswith(" ") and not w.endswith(" ")}


@dataclass(frozen=True)
class NearSpellings:
    """The rule ``near-spelling``: its edits, each with its length floor and examples."""

    #: The length from which a name has near-spellings, by edit (an edit may give its
    #: own: a doubled letter written once is a slip of short names too).
    min_length: Mapping[str, int]
    #: The edits with their examples (name -> {word: near-spelling}), in file order.
    edit_examples: Mapping[str, Mapping[str, str]]
    #: Near-spellings an edit must NOT give (name -> {word: spelling}).
    edit_counterexamples: Mapping[str, Mapping[str, str]]

    @property
    def edits(self) -> tuple[str, ...]:
        """The names of the edits, in file order (the keys of ``edit_examples``)."""
        return tuple(self.edit_examples)

    def edits_for(self, length: int, chosen: Collection[str] | None = None) -> list[str]:
        """The edits a name of ``length`` letters has (its floor reached), of ``chosen``."""
        edits = self.edits if chosen is None else [e for e in self.edits if e in chosen]
        return [e for e in edits if length >= self.min_length[e]]


@dataclass(frozen=True)
class CompoundHeads:
    """The rule ``compound-head``: a name ending in a head noun is also named by that noun.

    A name of one word that ends in a head noun with ``min_rest`` letters or more before
    it is a compound ("firewood" is fire + wood, "rainwater" rain + water): its two parts
    spaced ("fire wood") name the item, and so does its head alone ("wood"), as a name of
    several words whose last is a head noun ("olive oil": "oil"). With a written count
    the one-word compound is also clipped to its modifier ("2 fire": two firewood;
    :meth:`clipped`).
    """

    heads: frozenset[str]
    min_rest: int
    #: Names and the words the rule must give them (``, ``-joined; empty: none).
    examples: Mapping[str, str]
    counterexamples: Mapping[str, str]

    def split(self, name: str) -> tuple[str, str] | None:
        """The modifier and the head of a one-word compound name, else ``None``.

        The longest head wins ("saltwater" is salt + water).
        """
        word = name.lower()
        if not word.isalpha():
            return None
        for k in range(self.min_rest, len(word)):
            if word[k:] in self.heads and len(word) - k >= 2:
                return word[:k], word[k:]
        return None

    def words(self, name: str) -> tuple[str, ...]:
        """The spaced form of a one-word compound and the head noun of a name.

        >>> heads = load_variant_rules().compound_heads(frozenset({"wood", "oil"}))
        >>> heads.words("firewood"), heads.words("olive oil"), heads.words("sandwich")
        (('fire wood', 'wood'), ('oil',), ())
        """
        words = re.findall(r"[^\W_]+", name.lower())
        if len(words) > 1:
            return (words[-1],) if words[-1] in self.heads else ()
        parts = self.split(name)
        return () if parts is None else (f"{parts[0]} {parts[1]}", parts[1])

    def clipped(self, name: str) -> str | None:
        """The modifier of a one-word compound name, which names it with a written count.

        >>> heads = load_variant_rules().compound_heads(frozenset({"wood", "oil"}))
        >>> heads.clipped("firewood"), heads.clipped("olive oil")
        ('fire', None)
        """
        parts = self.split(name)
        return None if parts is None else parts[0]


@dataclass(frozen=True)
class VariantRules:
    """The variant rules of ``rules/splits/variants.yaml``."""

    near: NearSpellings
    #: The ``compound_heads`` section, whose head nouns are the caller's.
    compound_min_rest: int
    #: The head nouns the compound examples are read with.
    compound_example_heads: frozenset[str]
    compound_examples: Mapping[str, str]
    compound_counterexamples: Mapping[str, str]

    def compound_heads(self, heads: frozenset[str]) -> CompoundHeads:
        """The rule ``compound-head`` with ``heads`` as its head nouns."""
        return CompoundHeads(
            heads, self.compound_min_rest, self.compound_examples, self.compound_counterexamples
        )


def _pairs(value: Any, at: str, key: str) -> dict[str, str]:
    if not isinstance(value, Mapping):
        raise RuleError(f"{at}: {key} must map a word to a word")
    return {str(k): str(v or "") for k, v in value.items() if k != LINE}


def _length(value: Any, at: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 3:
        raise RuleError(f"{at}: near_spellings min_length must be a whole number from 3")
    return value


def _near_rules(doc: Any, source: str) -> NearSpellings:
    at = where(source, doc)
    check_keys(doc, {"min_length", "edits"}, at, "near_spellings", required=("min_length", "edits"))
    default = _length(doc["min_length"], at)
    examples: dict[str, dict[str, str]] = {}
    counter: dict[str, dict[str, str]] = {}
    lengths: dict[str, int] = {}
    for raw in doc["edits"]:
        edit_at = where(source, raw)
        keys = {"name", "description", "examples", "counterexamples", "min_length"}
        check_keys(raw, keys, edit_at, "edit", ("name", "examples"))
        if raw["name"] not in EDITS:
            raise RuleError(f"{edit_at}: unknown edit {raw['name']!r}; one of {list(EDITS)}")
        name = str(raw["name"])
        examples[name] = _pairs(raw["examples"], edit_at, "examples")
        counter[name] = _pairs(raw.get("counterexamples", {}), edit_at, "counterexamples")
        lengths[name] = _length(raw.get("min_length", default), edit_at)
    return NearSpellings(lengths, examples, counter)


def parse_variant_rules(doc: Any, source: str) -> VariantRules:
    """Check the variant rule file and build its rules; errors name the file and line."""
    required = ("near_spellings", "compound_heads")
    doc = check_keys(doc, _TOP_KEYS, f"{source}:1", "the variant rules", required=required)
    near = _near_rules(doc["near_spellings"], source)
    heads = doc["compound_heads"]
    at = where(source, heads)
    keys = ("description", "min_rest", "example_heads", "examples", "counterexamples")
    heads = check_keys(heads, keys, at, "compound_heads", required=keys[1:])
    min_rest = heads["min_rest"]
    if not isinstance(min_rest, int) or isinstance(min_rest, bool) or min_rest < 2:
        raise RuleError(f"{at}: compound_heads.min_rest must be a whole number from 2")
    return VariantRules(
        near,
        min_rest,
        frozenset(string_list(heads["example_heads"], at, "compound_heads.example_heads")),
        _pairs(heads["examples"], at, "compound_heads.examples"),
        _pairs(heads["counterexamples"], at, "compound_heads.counterexamples"),
    )


@functools.cache
def load_variant_rules() -> VariantRules:
    """The variant rules of the shipped ``rules/splits/variants.yaml``, read once."""
    return load_file(None, VARIANTS_FILE, parse_variant_rules)


def _one_word_changed(variant: str, word: str) -> bool:
    """The variant edits one word of ``word`` and keeps its word breaks."""
    parts, words = variant.split(" "), word.split(" ")
    return len(parts) == len(words) and sum(p != w for p, w in zip(parts, words)) == 1


def variant_words(
    item_words: Mapping[str, int],
    taken: Collection[str],
    rules: NearSpellings,
    chosen: Collection[str] | None = None,
) -> dict[str, int]:
    """The near-spellings of a lexicon's item words, each with the item it names.

    ``item_words`` maps every word of an item (a spaced compound too: "fire wood") to the
    item's index. A word has the edits whose floor its letters reach; in a spaced
    compound one of its words is edited ("fire wod"), the floor counting the letters of
    all. A near-spelling in ``taken`` (a word of any class of the lexicon: a number
    word, a person word) or already an item's word is none, and one that two items make
    names neither. ``chosen`` limits the edits (by default, every edit of ``rules``).

    >>> rules = load_variant_rules().near
    >>> found = variant_words({"water": 0, "book": 1, "fire wood": 2}, {"boo"}, rules)
    >>> [found.get(w) for w in ("watter", "wtaer", "bok", "boo", "fire wod", "firew ood")]
    [0, 0, 1, None, 2, None]
    """
    owner: dict[str, int] = {}
    shared: set[str] = set()
    for word, index in item_words.items():
        edits = rules.edits_for(sum(ch.isalpha() for ch in word), chosen)
        if not edits:
            continue
        for variant in near_spellings(word, edits):
            if " " in word and not _one_word_changed(variant, word):
                continue  # "firew ood": no word break a writer makes
            if owner.setdefault(variant, index) != index:
                shared.add(variant)
    return {
        w: i for w, i in owner.items() if w not in shared and w not in taken and w not in item_words
    }
