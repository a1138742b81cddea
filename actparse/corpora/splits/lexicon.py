"""The item lexicon of a split corpus: item words, number words and word classes by role.

``rules/splits/lexicon.yaml`` holds the vocabulary every split corpus shares (number
words, contractions, phrases, the word classes the side rules use); each corpus' items
and settings are in its own rule folder (``Corpus.rules``: ``rules/<corpus>/`` for the
built-in ones, the plug-in's folder for a plug-in), ``splits.yaml``; a corpus that names
edits of the shared rule near-spelling (``near_spellings``, :mod:`.variants`) also has its
names' near-spellings as item words.
:func:`load_split_lexicon` reads the two through :mod:`actparse.engine.rulefiles`, so a
typo fails naming the file and the line.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from actparse import registry
from actparse.corpora.splits.variants import load_variant_rules, variant_words
from actparse.engine.folders import corpus_file
from actparse.engine.rulefiles import (
    LINE,
    RuleError,
    check_keys,
    display,
    is_shipped_folder,
    load_file,
    shown,
    string_list,
    where,
)

__all__ = [
    "CORPUS_FILE",
    "LEXICON_FILE",
    "SplitLexicon",
    "load_split_lexicon",
    "parse_split_lexicon",
]

#: The shipped shared lexicon, under ``rules/``.
LEXICON_FILE = ("splits", "lexicon.yaml")
#: The name of a corpus' own part of the lexicon, in its rule folder (``Corpus.rules``).
CORPUS_FILE = "splits.yaml"

_TOP_KEYS = frozenset({"description", "contractions", "phrases", "numbers", "words"})
_WORD_CLASSES = frozenset(
    {
        "self",
        "self_object",
        "we",
        "other",
        "third_person",
        "possess",
        "article",
        "conjunction",
        "interjection",
        "rest_alone",
        "generic",
        "unit",
        "modal",
        "give_after_modal",
        "source",
        "opinion",
        "auxiliary",
        "reason",
        "relative_clause",
        "copula",
        "relative",
        "item_adjective",
        "likewise",
        "my",
        "your",
        "majority",
        "compound_head",
        "comparative",
        "group",
        "original",
        "demonstrative",
        "anaphor",
        "deal_noun",
        "thanks",
        "clause_start",
        "negatable",
        "increment",
        "concession",
        "benefit",
        "mine",
        "yours",
        "give",
        "imperative",
        "negation",
        "wish",
        "need_verb",
        "stative_verb",
        "emphasis",
        "all",
        "determiner",
        "filler",
        "vague",
        "half",
        "halving_verb",
        "even",
        "even_lead",
        "every_item",
        "each",
        "rest",
        "everything",
        "except",
        "boundary",
        "sentence_end",
        "value",
    }
)
_CORPUS_KEYS = frozenset(
    {
        "description",
        "items",
        "bare_noun",
        "the_singular",
        "unnamed",
        "claims_need_verb",
        "contractions",
        "near_spellings",
    }
)
_ITEM_KEYS = frozenset({"name", "words", "weak_words"})
#: The settings a corpus may choose, with their allowed values and default.
_SETTINGS = {
    "bare_noun": (("count", "none"), "count"),
    "the_singular": (("one", "all"), "one"),
    "unnamed": (("opposite", "running"), "opposite"),
}


#: The classes of a word in none.
_NO_CLASSES: frozenset[str] = frozenset()


@dataclass(frozen=True)
class SplitLexicon:
    """The vocabulary of one corpus: its items and the shared word classes."""

    corpus: str
    items: tuple[str, ...]
    item_words: Mapping[str, int]
    numbers: Mapping[str, int]
    #: Item words that name the item only with a written quantity ("2 fire" but not "the
    #: fire").
    weak_words: frozenset[str]
    words: Mapping[str, frozenset[str]]
    contractions: Mapping[str, tuple[str, ...]]
    #: Multi-word phrases by their first token: (the phrase's tokens, the token it
    #: becomes), longest first.
    phrases: Mapping[str, tuple[tuple[tuple[str, ...], str], ...]]
    #: What an item noun without a quantity names: ``count`` (a plural all of them, a
    #: singular one) or ``none`` (a preference, not a claim).
    bare_noun: str = "count"
    #: What "the" + a singular noun names: ``one`` or ``all`` (mass nouns: "the water").
    the_singular: str = "one"
    #: Where items a message leaves unnamed go: ``opposite`` or ``running``.
    unnamed: str = "opposite"
    #: Items come up outside offers too ("i will conserve my water"): a subject claims
    #: an item only through a verb of having or giving, or with a written count.
    claims_need_verb: bool = False
    #: Item words the rule ``near-spelling`` made (:mod:`.variants`), no listed word: the
    #: tokenizer's own typo tolerance does not spell them further.
    variants: frozenset[str] = frozenset()
    #: The files it was read from, as errors name them.
    source: str = field(default="", compare=False)
    #: Every word of a class, with the classes it is in (built from ``words``): the scans
    #: look a token up once per message instead of once per class they ask about.
    classes: Mapping[str, frozenset[str]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_word: dict[str, set[str]] = {}
        for word_class, members in self.words.items():
            for word in members:
                by_word.setdefault(word, set()).add(word_class)
        # Equal sets share one object: fewer objects, and the same answers.
        shared: dict[frozenset[str], frozenset[str]] = {}
        classes = {
            word: shared.setdefault(frozenset(found), frozenset(found))
            for word, found in by_word.items()
        }
        object.__setattr__(self, "classes", classes)

    def has(self, word_class: str, token: str) -> bool:
        """Whether ``token`` belongs to a word class of the lexicon."""
        return token in self.words[word_class]

    def classes_of(self, token: str) -> frozenset[str]:
        """The word classes ``token`` belongs to (``has(c, token)`` for each ``c`` in it)."""
        return self.classes.get(token, _NO_CLASSES)

    def token_classes(self, tokens: Sequence[str]) -> list[frozenset[str]]:
        """The word classes of every token of a message, then those of the empty string.

        In token order. ``classes[i + 1]`` stays in range at the last token, where the
        scans read the word after it as ``""``."""
        get = self.classes.get
        out = [get(token, _NO_CLASSES) for token in tokens]
        out.append(get("", _NO_CLASSES))
        return out

    def number(self, token: str) -> int | None:
        """The value of a number token (digits or a number word), else ``None``."""
        # isdecimal, not isdigit: "²" is a digit to Python but no number int() reads.
        if token.isdecimal():
            return int(token)
        return self.numbers.get(token)


def _contractions(value: Any, at: str) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, dict):
        raise RuleError(f"{at}: 'contractions' must map a token to a list of tokens")
    return {
        str(key): string_list(tokens, at, f"contractions.{key}")
        for key, tokens in value.items()
        if key != LINE
    }


def _word_classes(doc: Any, source: str) -> dict[str, frozenset[str]]:
    at = where(source, doc)
    words_doc = check_keys(doc, _WORD_CLASSES, at, "words")
    absent = _WORD_CLASSES - set(words_doc)
    if absent:
        raise RuleError(f"{at}: words: missing class(es) {sorted(absent)}")
    return {
        key: frozenset(string_list(value, at, f"words.{key}"))
        for key, value in words_doc.items()
        if key != LINE
    }


def _numbers(doc: Any, source: str) -> dict[str, int]:
    if not isinstance(doc, dict):
        raise RuleError(f"{source}:1: 'numbers' must map words to integers")
    numbers: dict[str, int] = {}
    for key, value in doc.items():
        if key == LINE:
            continue
        if not isinstance(value, int) or isinstance(value, bool):
            raise RuleError(f"{where(source, doc)}: number {shown(key)} must be an integer")
        numbers[str(key)] = value
    return numbers


def _phrases(
    doc: Any, source: str, multi_word: list[str]
) -> dict[str, tuple[tuple[tuple[str, ...], str], ...]]:
    """The phrase table by first token, longest phrase first.

    Multi-word item names ("fire wood") are phrases that stand for themselves."""
    if not isinstance(doc, dict):
        raise RuleError(f"{source}:1: 'phrases' must map a phrase to the token it becomes")
    phrase_map = {str(k): str(v) for k, v in doc.items() if k != LINE}
    phrase_map.update({w: w for w in multi_word})
    by_first: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for phrase, token in phrase_map.items():
        phrase_tokens = tuple(phrase.split())
        by_first.setdefault(phrase_tokens[0], []).append((phrase_tokens, token))
    return {
        first: tuple(sorted(entries, key=lambda kv: -len(kv[0])))
        for first, entries in by_first.items()
    }


def _near_spellings(
    spec: Mapping[str, Any],
    at: str,
    corpus: str,
    items: Sequence[str],
    item_words: Mapping[str, int],
    weak_words: set[str],
    words: Mapping[str, frozenset[str]],
    numbers: Mapping[str, int],
) -> dict[str, int]:
    """The near-spellings of the item names by the edits the corpus names, else none.

    Only the words that spell an item's name (the name, its plural, its compound spaced:
    "books", "fire wood"), not its synonyms ("novel", "snack": their slips are too often
    other words, "sack"), nor weak words.
    """
    edits = string_list(spec.get("near_spellings", []), at, f"{corpus}.near_spellings")
    rules = load_variant_rules().near
    unknown = [e for e in edits if e not in rules.edits]
    if unknown:
        raise RuleError(f"{at}: {corpus}.near_spellings: unknown edit(s) {unknown}")
    if not edits:
        return {}
    names = [name.lower().replace(" ", "") for name in items]
    spelt = {
        w: i
        for w, i in item_words.items()
        if w not in weak_words and w.replace(" ", "").startswith(names[i])
    }
    taken = set(numbers).union(item_words, *words.values())
    return variant_words(spelt, taken, rules, edits) if spelt else {}


def _settings(spec: Mapping[str, Any], at: str, corpus: str) -> dict[str, str]:
    """A corpus' choice of each setting, checked against the values it may take."""
    chosen: dict[str, str] = {}
    for key, (allowed, default) in _SETTINGS.items():
        value = spec.get(key, default)
        if value not in allowed:
            raise RuleError(
                f"{at}: {corpus}.{key} must be one of {list(allowed)}, got {shown(value)}"
            )
        chosen[key] = str(value)
    return chosen


def _items(
    spec: Mapping[str, Any], spec_source: str, at: str, corpus: str
) -> tuple[list[str], dict[str, int], set[str], list[str]]:
    """A corpus' items: their names, the word naming each, the weak words, the spaced words.

    A word may name one item only; errors name the item's line in ``spec_source``."""
    items_doc = spec.get("items")
    if not isinstance(items_doc, list) or not items_doc:
        raise RuleError(f"{at}: {corpus}.items must be a non-empty list")
    items: list[str] = []
    item_words: dict[str, int] = {}
    weak_words: set[str] = set()
    multi_word: list[str] = []
    for index, item in enumerate(items_doc):
        item_at = where(spec_source, item)
        check_keys(item, _ITEM_KEYS, item_at, "item", required=("name", "words"))
        items.append(str(item["name"]))
        weak = string_list(item.get("weak_words", []), item_at, "weak_words")
        weak_words.update(weak)
        for word in string_list(item["words"], item_at, "words") + weak:
            if word in item_words and item_words[word] != index:
                raise RuleError(f"{item_at}: word {shown(word)} names two items")
            item_words[word] = index
            if " " in word:
                multi_word.append(word)
    return items, item_words, weak_words, multi_word


def parse_split_lexicon(
    doc: Any, source: str, spec: Any, spec_source: str, corpus: str
) -> SplitLexicon:
    """Check the shared lexicon and a corpus' part of it, and build the corpus' lexicon.

    Check the parsed shared lexicon ``doc`` and a corpus' part of it ``spec``
    (:func:`~actparse.engine.rulefiles.read_document`) and build the lexicon of
    ``corpus``; errors name the file (``source``, ``spec_source``) and the line."""
    required = _TOP_KEYS - {"description"}
    doc = check_keys(doc, _TOP_KEYS, f"{source}:1", "the lexicon", required=required)
    words = _word_classes(doc["words"], source)
    numbers = _numbers(doc["numbers"], source)

    at = where(spec_source, spec)
    spec = check_keys(spec, _CORPUS_KEYS, at, f"the lexicon of {corpus}")
    chosen = _settings(spec, at, corpus)
    claims_need_verb = spec.get("claims_need_verb", False)
    if not isinstance(claims_need_verb, bool):
        raise RuleError(f"{at}: {corpus}.claims_need_verb must be true or false")

    items, item_words, weak_words, multi_word = _items(spec, spec_source, at, corpus)

    contractions = _contractions(doc["contractions"], where(source, doc["contractions"]))
    contractions.update(_contractions(spec.get("contractions", {}), at))
    variants = _near_spellings(spec, at, corpus, items, item_words, weak_words, words, numbers)
    variants = {w: i for w, i in variants.items() if w not in contractions}
    item_words.update(variants)
    multi_word += [w for w in variants if " " in w]
    return SplitLexicon(
        corpus=corpus,
        items=tuple(items),
        item_words=item_words,
        numbers=numbers,
        weak_words=frozenset(weak_words),
        words=words,
        contractions=contractions,
        phrases=_phrases(doc["phrases"], source, multi_word),
        claims_need_verb=claims_need_verb,
        variants=frozenset(variants),
        source=f"{source} and {spec_source}",
        **chosen,
    )


def _document(doc: Any, source: str) -> tuple[Any, str]:
    # The loader's parse step for a file read as it is (the shipped one cached).
    return doc, source


def _corpus_part(corpus: str, spec: str) -> tuple[Any, str]:
    # The corpus' own part from its rule folder: actparse's own folders through the
    # loader's once-per-process cache, a plug-in's folder read as it is.
    if is_shipped_folder(spec):
        return load_file(None, (spec, CORPUS_FILE), _document)
    return load_file(corpus_file(corpus, CORPUS_FILE), (), _document)


def _part_file(corpus: str) -> Traversable:
    """``splits.yaml`` of the corpus' rule folder.

    A :class:`RuleError` naming the folder if it is not there."""
    file = corpus_file(corpus, CORPUS_FILE)
    if not file.is_file():
        raise RuleError(
            f"{display(file)}: no split lexicon for corpus {corpus!r} (its rule folder "
            f"{registry.get(corpus).rules!r} holds no {CORPUS_FILE})"
        )
    return file


@functools.cache
def _folder_lexicon(corpus: str, spec: str) -> SplitLexicon:
    # Built once per process, corpus and rule folder (the shared file is read once, for
    # all): a corpus registered again with another folder gets its own.
    _part_file(corpus)
    doc, source = load_file(None, LEXICON_FILE, _document)
    part, part_source = _corpus_part(corpus, spec)
    return parse_split_lexicon(doc, source, part, part_source, corpus)


def load_split_lexicon(
    corpus: str,
    path: str | Path | Traversable | None = None,
    corpus_path: str | Path | Traversable | None = None,
) -> SplitLexicon:
    """The split lexicon of ``corpus``: the shared part and the corpus' own.

    The shared part comes from ``path`` (by default the shipped ``rules/splits/lexicon.yaml``) and
    the corpus' own from ``corpus_path`` (by default ``splits.yaml`` in the corpus' rule folder,
    ``Corpus.rules``, actparse's own or a plug-in's: a missing one is a :class:`RuleError` naming
    the folder); the lexicon of the two defaults is built once per process and corpus."""
    if path is None and corpus_path is None:
        return _folder_lexicon(corpus, registry.get(corpus).rules)
    doc, source = load_file(path, LEXICON_FILE, _document)
    part = corpus_path if corpus_path is not None else _part_file(corpus)
    spec, spec_source = load_file(part, (), _document)
    return parse_split_lexicon(doc, source, spec, spec_source, corpus)
