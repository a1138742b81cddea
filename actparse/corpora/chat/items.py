"""Item words of declared item names, and the split lexicon of a dialogue's item set.

A dialogue of no known corpus declares its items by name (``{"glimmerstone": 3,
"sky-rope": 1}``); nothing says how its writers spell them. The words of each item come
from its name by the named rules of ``rules/chat/splits.yaml``:

- the name as the split parser tokenizes it (``sky-rope`` is the phrase ``sky - rope``;
  a hyphenated or spaced name is also read written together or with a space);
- its plural, by the first plural rule whose ending matches (``berry`` -> ``berries``,
  ``loaf`` -> ``loaves``), and the plain ``s`` plural beside it;
- near-spellings of a name of ``min_length`` letters or more: one letter after the
  first dropped, doubled, or two neighbouring letters swapped (``firwood``, ``watter``,
  ``wtaer``), and from four letters a doubled letter written once (``bok``); they name
  the item only with a written count (weak words).

A generated word that is a word of the shared lexicon (a number word, a word class:
"none", "the", "some"...) or that two items make is no item word (``no-collision``).
:func:`item_lexicon` builds the :class:`~actparse.corpora.splits.lexicon.SplitLexicon`
of an item set once per process and set of names.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from actparse.corpora.chat.kinds import KINDS, NounKinds, parse_noun_kinds
from actparse.corpora.splits.lexicon import (
    CORPUS_FILE,
    LEXICON_FILE,
    SplitLexicon,
    parse_split_lexicon,
)
from actparse.corpora.splits.lexicon import _document as _lexicon_document
from actparse.corpora.splits.tokens import tokenize as split_tokenize
from actparse.corpora.splits.variants import (
    CompoundHeads,
    NearSpellings,
    load_variant_rules,
    near_spellings,
)
from actparse.engine.folders import corpus_file
from actparse.engine.rulefiles import LINE, RuleError, check_keys, load_file, string_list, where

__all__ = [
    "ItemWordRules",
    "PluralRule",
    "base_lexicon",
    "item_lexicon",
    "item_words",
    "load_item_word_rules",
    "message_tokens",
]

CORPUS = "chat"
#: The keys of ``splits.yaml`` the split parser reads itself; the rest are this module's.
_SETTING_KEYS = ("description", "bare_noun", "the_singular", "unnamed", "claims_need_verb")
_OWN_KEYS = frozenset({*_SETTING_KEYS, "contractions", "plurals", "near_spellings", "mass_nouns"})


@dataclass(frozen=True)
class PluralRule:
    """One named plural rule: a name ending (a regular expression) and its replacement."""

    name: str
    ending: re.Pattern[str]
    plural: str
    examples: Mapping[str, str]
    counterexamples: Mapping[str, str]

    def apply(self, word: str) -> str | None:
        """The plural of ``word`` by this rule, or ``None`` when its ending does not match."""
        if not self.ending.search(word):
            return None
        return self.ending.sub(self.plural, word, count=1)


@dataclass(frozen=True)
class ItemWordRules:
    """The rules that make item words: plurals, then near-spellings and their edits."""

    plurals: tuple[PluralRule, ...]
    #: The shared near-spelling rule (:mod:`actparse.corpora.splits.variants`).
    near: NearSpellings
    #: The edits of it that make near-spellings of a name, in the rule's order.
    edits: tuple[str, ...]
    #: The split parser's settings and contractions (``splits.yaml`` without these rules):
    #: those of count nouns.
    settings: Mapping[str, Any]
    #: The mass nouns and their settings (:mod:`.kinds`).
    kinds: NounKinds
    #: The shared rule that names a compound by its head, with the mass nouns as heads.
    compounds: CompoundHeads

    def settings_of(self, kind: str) -> dict[str, Any]:
        """The split parser's settings for an item set of ``kind`` (``count`` or ``mass``)."""
        if kind not in KINDS:
            raise ValueError(f"unknown kind of item set {kind!r}; one of {KINDS}")
        own = self.kinds.mass_settings if kind == "mass" else {}
        return {**self.settings, **own}

    def plural(self, word: str) -> str:
        """The plural of one word by the first rule that matches.

        >>> rules = load_item_word_rules()
        >>> rules.plural("berry"), rules.plural("loaf"), rules.plural("torch")
        ('berries', 'loaves', 'torches')
        """
        for rule in self.plurals:
            found = rule.apply(word)
            if found is not None:
                return found
        return word + "s"


def _pairs(value: Any, at: str, key: str) -> dict[str, str]:
    if not isinstance(value, Mapping):
        raise RuleError(f"{at}: {key} must map a word to a word")
    return {str(k): str(v) for k, v in value.items() if k != LINE}


def _plural_rules(doc: Any, source: str) -> tuple[PluralRule, ...]:
    if not isinstance(doc, list) or not doc:
        raise RuleError(f"{source}:1: plurals must be a non-empty list of rules")
    rules = []
    for raw in doc:
        at = where(source, raw)
        keys = {"name", "ending", "plural", "examples", "counterexamples"}
        check_keys(raw, keys, at, "plural rule", required=tuple(keys))
        try:
            ending = re.compile(str(raw["ending"]))
        except re.error as err:
            raise RuleError(f"{at}: plural rule {raw['name']!r}: bad ending: {err}") from None
        rules.append(
            PluralRule(
                str(raw["name"]),
                ending,
                str(raw["plural"]),
                _pairs(raw["examples"], at, "examples"),
                _pairs(raw["counterexamples"], at, "counterexamples"),
            )
        )
    return tuple(rules)


def _parse_rules(doc: Any, source: str) -> ItemWordRules:
    doc = check_keys(doc, _OWN_KEYS, f"{source}:1", "the chat split rules")
    if "items" in doc:
        raise RuleError(f"{source}: the chat corpus declares no items: each dialogue does")
    settings = {k: doc[k] for k in (*_SETTING_KEYS, "contractions") if k in doc}
    kinds = parse_noun_kinds(doc.get("mass_nouns"), source, _SETTING_KEYS[1:])
    variants = load_variant_rules()
    compounds = variants.compound_heads(kinds.mass_nouns)
    plurals = _plural_rules(doc.get("plurals"), source)
    chosen = string_list(doc.get("near_spellings", []), f"{source}:1", "near_spellings")
    unknown = sorted(set(chosen) - set(variants.near.edits))
    if unknown:
        raise RuleError(f"{where(source, doc)}: near_spellings: unknown edit(s) {unknown}")
    edits = tuple(e for e in variants.near.edits if e in chosen)
    return ItemWordRules(plurals, variants.near, edits, settings, kinds, compounds)


@functools.cache
def load_item_word_rules() -> ItemWordRules:
    """The item-word rules and settings of ``rules/chat/splits.yaml``, read once.

    The near-spellings and the compound-head rule are the shared ones of
    ``rules/splits/variants.yaml``; the mass nouns are the compound heads.
    """
    return load_file(corpus_file(CORPUS, CORPUS_FILE), (), _parse_rules)


def _spoken_forms(name: str, lexicon: SplitLexicon) -> list[str]:
    """A name as the split tokenizer reads it, and its written-together and spaced forms."""
    tokens = split_tokenize(name, lexicon)
    forms = [" ".join(tokens)]
    words = [t for t in tokens if t.isalnum()]
    if len(words) > 1:
        forms += [" ".join(words), "".join(words)]
    return list(dict.fromkeys(forms))


def _with_plurals(form: str, rules: ItemWordRules) -> list[str]:
    head, _, last = form.rpartition(" ")
    return [form, f"{head} {rules.plural(last)}".strip(), f"{head} {last}s".strip()]


def item_words(
    names: Sequence[str], rules: ItemWordRules, lexicon: SplitLexicon
) -> list[tuple[list[str], list[str]]]:
    """The words of each item, by the rules: (names and plurals, near-spellings).

    ``lexicon`` is the shared one, whose words no item takes (``no-collision``); a word two
    items make is left out of both. The head alone of a compound name (``compound-head``:
    "wood" of "firewood") gives way to every other word of another item: with items
    "firewood" and "wood", "wood" is the wood.
    """
    taken = set(lexicon.classes) | set(lexicon.numbers)
    exact: list[list[str]] = []
    heads: list[list[str]] = []
    for name in names:
        words: list[str] = []
        for form in _spoken_forms(name.lower(), lexicon):
            words += _with_plurals(form, rules)
        compound = rules.compounds.words(name)
        for form in compound[:-1]:  # the spaced form of a one-word compound
            words += _with_plurals(form, rules)
        exact.append(list(dict.fromkeys(w for w in words if w not in taken)))
        head = _with_plurals(compound[-1], rules) if compound else []
        heads.append([w for w in dict.fromkeys(head) if w not in taken])
    near: list[list[str]] = []
    for name, words in zip(names, exact):
        length = len(name.replace(" ", "").replace("-", ""))
        edits = rules.near.edits_for(length, rules.edits)
        found: set[str] = set()
        for word in words if edits else ():
            found |= near_spellings(word, edits)
        near.append(sorted(found - taken))
    # Each item's words as one set, built once: a word's count is how many items make it.
    item_sets = [set(e) | set(n) for e, n in zip(exact, near)]
    counts: dict[str, int] = {}
    for word in set().union(*item_sets):
        counts[word] = sum(word in words for words in item_sets)
    shared = {w for w, c in counts.items() if c > 1}
    head_counts = Counter(w for ws in heads for w in ws)
    clipped = [
        _clipped_forms(name, rules, taken | set(counts) | set(head_counts)) for name in names
    ]
    clip_counts = Counter(w for ws in clipped for w in ws)
    out = []
    for e, n, h, c in zip(exact, near, heads, clipped):
        own = [w for w in e if w not in shared]
        own += [w for w in h if w not in counts and head_counts[w] == 1 and w not in own]
        weak = [w for w in n if w not in shared and w not in own]
        out.append((own, weak + [w for w in c if clip_counts[w] == 1]))
    return out


def _clipped_forms(name: str, rules: ItemWordRules, taken: set[str]) -> list[str]:
    """The clipped compound and its plurals, no word of the lexicon or of an item's.

    Weak words: only with a written count ("2 fire"); bare, it is the other word ("the
    fire").
    """
    clipped = rules.compounds.clipped(name)
    if clipped is None:
        return []
    return [w for w in dict.fromkeys(_with_plurals(clipped, rules)) if w not in taken]


def _shared_document() -> tuple[Any, str]:
    # The splits corpus' own parse step: one function, so ``load_file``'s cache (keyed on
    # the file and the parse step) reads the shared lexicon once per process.
    return load_file(None, LEXICON_FILE, _lexicon_document)


@functools.cache
def base_lexicon() -> SplitLexicon:
    """The shared lexicon with the chat settings and no item: how messages are tokenized.

    The split parser wants one item at least; a placeholder of no word stands in and is
    dropped.
    """
    doc, source = _shared_document()
    part = {**load_item_word_rules().settings, "items": [{"name": "-", "words": []}]}
    lexicon = parse_split_lexicon(doc, source, part, "rules/chat/splits.yaml", CORPUS)
    return _without_items(lexicon)


def _without_items(lexicon: SplitLexicon) -> SplitLexicon:
    fields = {k: getattr(lexicon, k) for k in lexicon.__dataclass_fields__ if k != "classes"}
    return SplitLexicon(**{**fields, "items": (), "item_words": {}})


def message_tokens(text: str) -> tuple[str, ...]:
    """The tokens the tag rules see: the split tokenizer with the shared lexicon.

    >>> message_tokens("I can't do that, OK?")
    ('i', 'can', 'not', 'do', 'that', ',', 'ok', '?')
    """
    return split_tokenize(text, base_lexicon())


def item_lexicon(names: tuple[str, ...], kind: str | None = None) -> SplitLexicon:
    """The split lexicon of one set of declared item names and kind.

    Built anew on each call: :func:`.splitting.split_parser`, its caller, keeps one parser
    (and so one lexicon) per set of names, kind and rules.

    ``kind`` (``count`` or ``mass``) picks the settings; by default the rule
    ``majority-mass`` of :mod:`.kinds` picks it from the names.

    >>> lexicon = item_lexicon(("moonfruit", "sky-rope"))
    >>> [lexicon.item_words[w] for w in ("moonfruits", "monfruit", "sky - ropes", "skyrope")]
    [0, 0, 1, 1]
    """
    rules = load_item_word_rules()
    doc, source = _shared_document()
    words = item_words(names, rules, base_lexicon())
    items = []
    for name, (exact, near) in zip(names, words):
        # A near-spelling names the item only with a written count: "2 hast" is hats,
        # but a bare near-spelling may be another word of the writer's ("hast").
        items.append({"name": name, "words": exact or [name.lower()], "weak_words": near})
    chosen = kind if kind is not None else rules.kinds.kind(names)
    part = {**rules.settings_of(chosen), "items": items}
    return parse_split_lexicon(doc, source, part, "rules/chat/splits.yaml (generated)", CORPUS)
