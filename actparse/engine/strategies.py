"""Negotiation strategies: CaSiNo's ten labels for any turn of any corpus.

Acts say what a turn does to the deal; strategies say how the writer negotiates (small
talk, stating needs, asking for the other's preferences, appeals to fairness...). The
labels are CaSiNo's (Chawla et al., 2021); a turn may have several. The rules are tag
rules (:mod:`actparse.engine.tags`) in ``rules/strategies.yaml``, one file for every
corpus: each rule's tag is a label, and items are named through the file's ``item``
word class, to which every registered corpus adds its own item words from its rule
folder (``strategies.yaml`` in ``Corpus.rules``, a built-in's or a plug-in's alike:
:func:`corpus_classes`). ``non-strategic`` is
given, as the annotators gave it, only to a message no other label fits; a turn that is
no message (an offer, a selection) has none.

The rules see the message lowercased with typographic apostrophes made plain, and the
tag-rule prefilter (:class:`~actparse.engine.prefilter.NeedIndex`) spares every pattern
whose required words the message lacks, so tagging costs little per message.

A tagger may also hold a learned lexicon (:mod:`actparse.engine.strategy_lexicon`): a
label then holds where a rule or the lexicon gives it. CaSiNo's parser uses the lexicon
learned from CaSiNo's annotated dialogues; other corpora, whose words it was not learned
on, the rules alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import regex

from actparse import registry
from actparse.engine.rulefiles import (
    LINE,
    RuleError,
    check_keys,
    display,
    read_document,
    rule_folder,
    shipped,
    string_list,
    where,
)
from actparse.engine.strategy_lexicon import StrategyLexicon, load_strategy_lexicon
from actparse.engine.tags import RuleSet, parse_rules
from actparse.models import Act, Dialogue

__all__ = [
    "LABELS",
    "NON_STRATEGIC",
    "PAPER_LABELS",
    "StrategyTagger",
    "add_strategies",
    "add_strategies_many",
    "corpus_classes",
    "default_tagger",
    "load_strategy_rules",
    "shipped_lexicon",
    "view",
]

#: The labels, in the order a turn's strategies are listed.
LABELS = (
    "small-talk",
    "self-need",
    "other-need",
    "no-need",
    "elicit-pref",
    "uv-part",
    "vouch-fair",
    "showing-empathy",
    "promote-coordination",
    "non-strategic",
)
#: The label of a message no other label fits.
NON_STRATEGIC = "non-strategic"
#: The seven labels the CaSiNo paper's model predicts.
PAPER_LABELS = LABELS[:7]
_STRATEGIC = LABELS[:-1]

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "`": "'", "\u00b4": "'"})
_WORD = regex.compile(r"[a-z0-9']+")
#: Texts tagged recently, so a short reply seen again ("ok", "deal", "hello") costs one
#: lookup; cleared past this size, so it holds what recurs within a few hundred messages
#: and memory stays bounded (it is no store of a whole corpus).
_CACHE_SIZE = 1 << 10
#: Only texts up to this length are kept: the cache is keyed by the text, so long
#: messages (which rarely recur) would make its bound one of count, not of memory.
_CACHED_LENGTH = 200


def view(text: str) -> str:
    """A message as the rules see it.

    Lowercased, typographic apostrophes made plain, and a space in front, so that a phrase value
    written with a leading space (" good luck") matches at a word start anywhere, the first word
    too."""
    norm = text.lower()
    if not norm.isascii():
        norm = norm.translate(_APOSTROPHES)
    return " " + norm


#: The shipped strategy rules, and the name of a corpus' additions to their classes.
RULES_FILE = "strategies.yaml"
_CORPUS_KEYS = frozenset({"description", "classes"})


#: The registered corpora's rule folders, by the corpora's names: ``(name, rules)``.
_Folders = tuple[tuple[str, str], ...]


def _rule_folders() -> _Folders:
    """The rule folders of the registered corpora that name one, by corpus name.

    The item words, and so the shipped rules and taggers, are built from these (and cached by
    them)."""
    return tuple(sorted((c.name, c.rules) for c in registry.corpora() if c.rules))


def corpus_classes() -> dict[str, tuple[str, ...]]:
    """The words the registered corpora add to the strategy rules' word classes.

    The words are their items, each from ``strategies.yaml`` in its rule folder (``Corpus.rules``),
    corpora in the order of their names (for the built-in ones: casino, craigslist, dealornodeal,
    mutualfriends; craigslist and mutualfriends have no such file).

    Every corpus' words go to every corpus' tagger, a plug-in's as a built-in's: the
    rules have always seen them all, so a corpus' labels do not change with the folder
    its item words live in, and a plug-in is added exactly as the built-in corpora are.
    The price is that a plug-in's item words reach the other corpora's taggers too (an
    item word of its own makes a message that names it no small talk, in any corpus).

    The words are read when the rules are built: a tagger (and a parser holding one)
    built before a corpus is registered keeps the words it was built with; the shipped
    rules and :func:`default_tagger` are cached by the registered rule folders, so those
    asked for afterwards have the new words."""
    return _corpus_classes(_rule_folders())


@cache
def _corpus_classes(folders: _Folders) -> dict[str, tuple[str, ...]]:
    added: dict[str, list[str]] = {}
    # A folder two corpora share adds its words once.
    for spec in dict.fromkeys(spec for _, spec in folders):
        folder = rule_folder(spec)
        file = folder.joinpath(RULES_FILE) if folder is not None else None
        if file is None or not file.is_file():
            continue
        source = display(file)
        doc = check_keys(
            read_document(file), _CORPUS_KEYS, f"{source}:1", "the file", required=("classes",)
        )
        classes = doc["classes"]
        if not isinstance(classes, dict):
            raise RuleError(f"{where(source, doc)}: 'classes' must map names to lists of words")
        for name, words in classes.items():
            if name != LINE:
                added.setdefault(name, []).extend(string_list(words, where(source, classes), name))
    return {name: tuple(words) for name, words in added.items()}


def _strategy_rule_set(doc: Any, source: str, folders: _Folders) -> RuleSet:
    """The rules of a strategy file, with each corpus' words put first in its classes.

    The file's ``labels`` (label -> definition, what the documentation shows) may name
    strategy labels only."""
    if isinstance(doc, dict) and "labels" in doc:
        labels = doc["labels"]
        if not isinstance(labels, dict):
            raise RuleError(f"{where(source, doc)}: 'labels' must map labels to definitions")
        unknown = [k for k in labels if k != LINE and k not in LABELS]
        if unknown:
            raise RuleError(
                f"{where(source, labels)}: no strategy labels: {', '.join(map(str, unknown))}"
                f" (one of {', '.join(LABELS)})"
            )
    if isinstance(doc, dict) and isinstance(doc.get("classes", {}), dict):
        classes = dict(doc.get("classes", {}))
        for name, words in _corpus_classes(folders).items():
            own = classes.get(name, [])
            own = own if isinstance(own, list) else [own]
            # A copy of an older file lists the corpora's words itself: each word once.
            classes[name] = list(dict.fromkeys([*words, *own]))
        doc = {**doc, "classes": classes}
    return RuleSet(parse_rules(doc, source), source)


@cache
def _shipped_rules(folders: _Folders) -> RuleSet:
    # Built once per process and set of registered rule folders.
    return _strategy_rule_set(read_document(shipped(RULES_FILE)), f"rules/{RULES_FILE}", folders)


def load_strategy_rules(path: str | Path | Traversable | None = None) -> RuleSet:
    """The strategy rules, with every registered corpus' item words in its classes.

    The strategy rules: ``path``, or the shipped ``rules/strategies.yaml``; either
    way with every registered corpus' item words in its classes (:func:`corpus_classes`,
    read now: the shipped rules are built once per set of registered rule folders)."""
    if path is None:
        return _shipped_rules(_rule_folders())
    return _strategy_rule_set(read_document(path), display(path), _rule_folders())


class StrategyTagger:
    """Tags a message with its strategy labels.

    The labels come as a tuple in :data:`LABELS` order: those of the rules and, with a ``lexicon``,
    those it gives too."""

    def __init__(
        self, rules: RuleSet | None = None, *, lexicon: StrategyLexicon | None = None
    ) -> None:
        self.rules = rules if rules is not None else load_strategy_rules()
        self.lexicon = lexicon
        if lexicon is not None:
            unknown = [label for label in lexicon.labels if label not in _STRATEGIC]
            if unknown:
                raise RuleError(f"{lexicon.source}: no strategy labels: {unknown}")
        for rule in self.rules.rules:
            if rule.tag not in _STRATEGIC:
                raise RuleError(
                    f"{rule.source}: rule '{rule.name}' sets '{rule.tag}', which is no "
                    f"strategy label (one of {', '.join(_STRATEGIC)}; {NON_STRATEGIC} is "
                    "given where no rule holds)"
                )
        self._token_rules = any(not r.match.startswith("text-") for r in self.rules.rules)
        self._cache: dict[str, tuple[str, ...]] = {}

    def tag(self, text: str) -> tuple[str, ...]:
        """The labels of a message.

        ``("non-strategic",)`` when no rule fires, ``()`` for an empty one."""
        found = self._cache.get(text)
        if found is not None:
            return found
        if not text or text.isspace():
            labels: tuple[str, ...] = ()
        else:
            labels = self._tag(text)
        if len(text) <= _CACHED_LENGTH:
            if len(self._cache) >= _CACHE_SIZE:
                self._cache.clear()
            self._cache[text] = labels
        return labels

    def _tag(self, text: str) -> tuple[str, ...]:
        norm = view(text)
        # Words only for rules that match tokens (the shipped file has none): finding
        # them costs as much as a third of the text rules.
        tokens = _WORD.findall(norm) if self._token_rules else ()
        found = self.rules.tags(_STRATEGIC, tokens, norm)
        if self.lexicon is not None:
            learned = self.lexicon.labels_of(text)
            if learned:
                found = [label for label in _STRATEGIC if label in found or label in learned]
        return tuple(found) or (NON_STRATEGIC,)


_default: dict[tuple[tuple[str, ...], _Folders], StrategyTagger] = {}


@cache
def shipped_lexicon(path: tuple[str, ...]) -> StrategyLexicon | None:
    """A shipped lexicon by the parts of its path under ``rules/``, read once per process.

    For example ``("casino", "strategy_lexicon.json")``; ``None`` for ``()``."""
    return load_strategy_lexicon(shipped(*path)) if path else None


def default_tagger(lexicon: tuple[str, ...] = ()) -> StrategyTagger:
    """The tagger of the shipped rules, built once per process and set of rule folders.

    The rule folders are the registered ones: registering a corpus gives a new tagger, with its item
    words (:func:`corpus_classes`). With ``lexicon``, the path of a shipped lexicon
    (:func:`shipped_lexicon`), the rules and that lexicon."""
    key = (lexicon, _rule_folders())
    tagger = _default.get(key)
    if tagger is None:
        tagger = _default[key] = StrategyTagger(lexicon=shipped_lexicon(lexicon))
    return tagger


#: The position of ``strategies`` among the fields of an act.
_STRATEGIES = Act._fields.index("strategies")


def add_strategies(
    dialogue: Dialogue, acts: Sequence[Act], tagger: StrategyTagger | None = None
) -> list[Act]:
    """``acts`` with each message turn's strategies filled in (other turns keep ``()``).

    The labels depend on the turn's text alone, so both views of a dialogue get the same.
    """
    tag = (tagger or default_tagger()).tag
    out = list(acts)
    for k, (turn, act) in enumerate(zip(dialogue.turns, acts)):
        if turn.is_message and turn.text:
            # _make of slices is about twice as fast as _replace.
            out[k] = Act._make((*act[:_STRATEGIES], tag(turn.text), *act[_STRATEGIES + 1 :]))
    return out


def add_strategies_many(
    dialogues: Sequence[Dialogue],
    acts: Sequence[Sequence[Act]],
    tagger: StrategyTagger | None = None,
) -> list[list[Act]]:
    """:func:`add_strategies` for each dialogue of a batch whose acts are all decided.

    A parser's ``parse_many`` decides the acts of the whole batch first and tags after:
    run over the batch at once, the rules' code and data stay warm in the CPU caches
    (about a tenth faster on Craigslist than tagging between dialogues)."""
    return [add_strategies(d, a, tagger) for d, a in zip(dialogues, acts)]
