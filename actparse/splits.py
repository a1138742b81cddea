"""Item-split proposals in free text, shared by Deal or No Deal and CaSiNo.

A proposal divides a few item types between the writer of a message and its reader:
"i'll take the ball and you get the rest", "3 firewood for me, 2 water for you". The
parser is configured by an item lexicon (``rules/splits.yaml``: item words, number words,
and word classes by role) and works in four steps, each a function with a name:

1. :func:`tokenize`: lowercase, normalise apostrophes (backticks, curly quotes), expand
   contractions ("can't" -> can not) and read multi-word phrases as one token.
2. :func:`find_mentions`: item nouns with the quantity written before them ("two of the
   hats", "all 3 waters", "the book", "a lot of water"), "the rest", "everything", "one
   of each", and numbers standing for the item talked about last ("you can have 2").
3. :func:`assign_sides`: whose side each mention is on, from the words around it: the
   subject of its clause ("i get", "you can have"), the recipient of a giving verb
   ("give me", "let you have"), a benefit phrase after or before it ("for me", "to
   you"), negation bound to a verb ("i don't need"), exchanges ("the books for the
   ball"); statements of worth and clauses of purpose claim nothing, and an item list
   with no person in it is about the side the talk is about.
4. :func:`resolve_claims`: the writer-relative counts: each side's share of every item,
   with the remainder of a named share going to the other side, "the rest" filling what
   is left, and halves and "each" giving both sides the same.

:func:`complete_split` turns the claims into an :class:`~actparse.models.ItemSplit` between
agent 0 and agent 1, filling items the message leaves unnamed as the corpus does (the side
opposite the one named in Deal or No Deal; the running deal in CaSiNo).

:class:`SplitDialogueParser` runs this turn by turn with the deal on the table, and
:class:`SplitReport` scores the last text proposal before the formal deal against the
final split; :mod:`actparse.dealornodeal` and :mod:`actparse.casino` build on both.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, NamedTuple, Protocol

import regex
import yaml

from actparse.acts import ActSpace, load_act_space
from actparse.models import Act, Dialogue, ItemSplit, Turn
from actparse.rules import RuleError, RuleSet, line_loader, load_rules, rules_dir

__all__ = [
    "FALLBACK_INTENT",
    "FORMAL_INTENTS",
    "OTHER",
    "SELF",
    "SPLIT_INTENT_RULES",
    "Claims",
    "DealState",
    "DialogueParser",
    "IntentRule",
    "Mention",
    "MessageView",
    "Miss",
    "SplitDialogueParser",
    "SplitLexicon",
    "SplitParse",
    "SplitReport",
    "assign_sides",
    "complete_split",
    "decide_intent",
    "find_mentions",
    "last_proposal",
    "load_split_lexicon",
    "parse_split",
    "render_dialogue",
    "resolve_claims",
    "tokenize",
]

#: Sides of a split, relative to the writer of a message.
SELF = 0
OTHER = 1
#: Either side (a reference to "the original deal" that does not say whose).
EITHER = -1

_TOP_KEYS = frozenset({"description", "contractions", "phrases", "numbers", "words", "corpora"})
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
        "copula",
        "relative",
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
        "benefit",
        "mine",
        "yours",
        "give",
        "imperative",
        "negation",
        "all",
        "determiner",
        "filler",
        "vague",
        "half",
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
    {"items", "bare_noun", "the_singular", "unnamed", "claims_need_verb", "contractions"}
)
_ITEM_KEYS = frozenset({"name", "words", "weak_words"})
_BARE_NOUN = ("count", "none")
_THE_SINGULAR = ("one", "all")
_UNNAMED = ("opposite", "running")

# Words, numbers, and single other characters; an apostrophe inside a word keeps the
# word whole so that contractions can be looked up.
_TOKEN = regex.compile(r"[a-z]+(?:'[a-z]+)*|\d+|[^\sa-z\d]", regex.VERSION0)
# Backticks, acute accents and curly quotes all stand for the apostrophe.
_APOSTROPHES = str.maketrans({"`": "'", "\u2019": "'", "\u2018": "'", "\u00b4": "'"})
# Clitics split off a word after an apostrophe ("i'll" -> i will).
_CLITICS = {"ll": "will", "d": "would", "m": "am", "re": "are", "ve": "have", "s": "is"}

# The token the phrase table makes of "in exchange for" and "in return for".
EXCHANGE_FOR = "exchange-for"


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

    def has(self, word_class: str, token: str) -> bool:
        """Whether ``token`` belongs to a word class of the lexicon."""
        return token in self.words[word_class]

    def number(self, token: str) -> int | None:
        """The value of a number token (digits or a number word), else ``None``."""
        if token.isdigit():
            return int(token)
        return self.numbers.get(token)


def _where(source: str, record: Any) -> str:
    line = record.get("__line__", "?") if isinstance(record, dict) else "?"
    return f"{source}:{line}"


def _str_list(value: Any, where: str, key: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, (str, int)) for v in value):
        raise RuleError(f"{where}: '{key}' must be a list of words")
    return [str(v) for v in value]


def _check_keys(record: Any, allowed: frozenset[str], where: str, what: str) -> dict[str, Any]:
    if not isinstance(record, dict):
        raise RuleError(f"{where}: {what} must be a mapping")
    extra = set(record) - allowed - {"__line__"}
    if extra:
        raise RuleError(
            f"{where}: {what}: unknown key(s) {sorted(extra)}; allowed: {sorted(allowed)}"
        )
    return record


def _contractions(value: Any, where: str) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, dict):
        raise RuleError(f"{where}: 'contractions' must map a token to a list of tokens")
    out: dict[str, tuple[str, ...]] = {}
    for key, tokens in value.items():
        if key == "__line__":
            continue
        out[str(key)] = tuple(_str_list(tokens, where, f"contractions.{key}"))
    return out


def parse_split_lexicon(text: str, source: str, corpus: str) -> SplitLexicon:
    """Parse and check a split lexicon document for ``corpus``; errors name file and line."""
    try:
        doc: Any = yaml.load(text, Loader=line_loader())
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        raise RuleError(f"{source}{line}: not valid YAML: {err}") from None
    doc = _check_keys(doc, _TOP_KEYS, f"{source}:1", "the lexicon")
    missing = _TOP_KEYS - {"description"} - set(doc)
    if missing:
        raise RuleError(f"{source}:1: missing key(s) {sorted(missing)}")

    words_doc = _check_keys(doc["words"], _WORD_CLASSES, _where(source, doc["words"]), "words")
    absent = _WORD_CLASSES - set(words_doc)
    if absent:
        raise RuleError(f"{_where(source, words_doc)}: words: missing class(es) {sorted(absent)}")
    words = {
        key: frozenset(_str_list(value, _where(source, words_doc), f"words.{key}"))
        for key, value in words_doc.items()
        if key != "__line__"
    }

    numbers_doc = doc["numbers"]
    if not isinstance(numbers_doc, dict):
        raise RuleError(f"{source}:1: 'numbers' must map words to integers")
    numbers: dict[str, int] = {}
    for key, value in numbers_doc.items():
        if key == "__line__":
            continue
        if not isinstance(value, int) or isinstance(value, bool):
            raise RuleError(f"{_where(source, numbers_doc)}: number {key!r} must be an integer")
        numbers[str(key)] = value

    corpora = doc["corpora"]
    if not isinstance(corpora, dict) or corpus not in corpora:
        raise RuleError(f"{source}:1: no lexicon for corpus {corpus!r} under 'corpora'")
    spec = _check_keys(corpora[corpus], _CORPUS_KEYS, _where(source, corpora[corpus]), corpus)
    where = _where(source, spec)
    settings = {
        "bare_noun": (_BARE_NOUN, "count"),
        "the_singular": (_THE_SINGULAR, "one"),
        "unnamed": (_UNNAMED, "opposite"),
    }
    chosen: dict[str, str] = {}
    for key, (allowed, default) in settings.items():
        value = spec.get(key, default)
        if value not in allowed:
            raise RuleError(
                f"{where}: {corpus}.{key} must be one of {list(allowed)}, got {value!r}"
            )
        chosen[key] = str(value)

    claims_need_verb = spec.get("claims_need_verb", False)
    if not isinstance(claims_need_verb, bool):
        raise RuleError(f"{where}: {corpus}.claims_need_verb must be true or false")
    items_doc = spec.get("items")
    if not isinstance(items_doc, list) or not items_doc:
        raise RuleError(f"{where}: {corpus}.items must be a non-empty list")
    items: list[str] = []
    item_words: dict[str, int] = {}
    weak_words: set[str] = set()
    multi_word: list[str] = []
    for index, item in enumerate(items_doc):
        item_where = _where(source, item)
        _check_keys(item, _ITEM_KEYS, item_where, "item")
        if "name" not in item or "words" not in item:
            raise RuleError(f"{item_where}: an item needs a 'name' and 'words'")
        items.append(str(item["name"]))
        weak = _str_list(item.get("weak_words", []), item_where, "weak_words")
        weak_words.update(weak)
        for word in _str_list(item["words"], item_where, "words") + weak:
            if word in item_words and item_words[word] != index:
                raise RuleError(f"{item_where}: word {word!r} names two items")
            item_words[word] = index
            if " " in word:
                multi_word.append(word)

    contractions = _contractions(doc["contractions"], _where(source, doc["contractions"]))
    contractions.update(_contractions(spec.get("contractions", {}), where))

    phrases_doc = doc["phrases"]
    if not isinstance(phrases_doc, dict):
        raise RuleError(f"{source}:1: 'phrases' must map a phrase to the token it becomes")
    phrase_map = {str(k): str(v) for k, v in phrases_doc.items() if k != "__line__"}
    phrase_map.update({w: w for w in multi_word})
    by_first: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for phrase, token in phrase_map.items():
        phrase_tokens = tuple(phrase.split())
        by_first.setdefault(phrase_tokens[0], []).append((phrase_tokens, token))
    phrases = {
        first: tuple(sorted(entries, key=lambda kv: -len(kv[0])))
        for first, entries in by_first.items()
    }
    return SplitLexicon(
        corpus=corpus,
        items=tuple(items),
        item_words=item_words,
        numbers=numbers,
        weak_words=frozenset(weak_words),
        words=words,
        contractions=contractions,
        phrases=phrases,
        claims_need_verb=claims_need_verb,
        **chosen,
    )


def load_split_lexicon(corpus: str, path: str | Path | Traversable | None = None) -> SplitLexicon:
    """The split lexicon of ``corpus`` (default: from the shipped ``rules/splits.yaml``)."""
    if path is None:
        return _default_lexicon(corpus)
    file = Path(path) if isinstance(path, str) else path
    return parse_split_lexicon(file.read_text(encoding="utf-8"), str(path), corpus)


@functools.cache
def _default_lexicon(corpus: str) -> SplitLexicon:
    text = rules_dir().joinpath("splits.yaml").read_text(encoding="utf-8")
    return parse_split_lexicon(text, "rules/splits.yaml", corpus)


# ---------------------------------------------------------------------------
# Step 1: tokens
# ---------------------------------------------------------------------------


def _expand(token: str, lexicon: SplitLexicon) -> Iterable[str]:
    replacement = lexicon.contractions.get(token)
    if replacement is not None:
        return replacement
    if "'" not in token:
        for suffix in ("ent", "nt"):
            stem = token[: -len(suffix)]
            if token.endswith(suffix) and stem in lexicon.words["negatable"]:
                # "couldent", "wouldnt": misspelt negated auxiliaries.
                return (stem, "not")
        return (token,)
    if token.endswith("n't"):
        return (token[:-3], "not")
    stem, _, clitic = token.partition("'")
    expanded = _CLITICS.get(clitic)
    if expanded is None:
        return (stem,)
    stem_parts = lexicon.contractions.get(stem, (stem,))
    return (*stem_parts, expanded)


def tokenize(text: str, lexicon: SplitLexicon) -> tuple[str, ...]:
    """The normalised tokens of a message: lowercase, contractions expanded, phrases joined."""
    raw = _TOKEN.findall(text.lower().translate(_APOSTROPHES))
    tokens: list[str] = []
    for token in raw:
        if token.isspace():
            continue  # separators the pattern's ASCII \s does not cover
        tokens.extend(_expand(token, lexicon))
    return _join_phrases(tokens, lexicon.phrases)


def _join_phrases(
    tokens: Sequence[str], phrases: Mapping[str, tuple[tuple[tuple[str, ...], str], ...]]
) -> tuple[str, ...]:
    """Replace every phrase of the table by its token, the longest match first."""
    out: list[str] = []
    i = 0
    n = len(tokens)
    while i < n:
        for words, replacement in phrases.get(tokens[i], ()):
            k = len(words)
            if tuple(tokens[i : i + k]) == words:
                out.append(replacement)
                i += k
                break
        else:
            out.append(tokens[i])
            i += 1
    return tuple(out)


# ---------------------------------------------------------------------------
# Step 2: mentions
# ---------------------------------------------------------------------------

#: Kinds of mention. ``count``: n of the item; ``all``: every one; ``majority``: more than
#: half; ``rest-item``: what the
#: other side leaves of the item; ``half``: half to each side; ``bare``: the item named
#: with no quantity; ``rest``: every item's remainder; ``every``: every item;
#: ``each-item``: n of every item.
MENTION_KINDS = (
    "count",
    "all",
    "majority",
    "rest-item",
    "half",
    "bare",
    "rest",
    "every",
    "each-item",
)


@dataclass
class Mention:
    """An item phrase: tokens ``start..end`` (inclusive), which item (``None`` for phrases
    about every item), the kind of quantity and the count."""

    start: int
    end: int
    item: int | None
    kind: str
    count: int | None = None
    #: The quantity was written (a number, "all", "half"), not implied by "the" or nothing.
    explicit: bool = False
    #: ``SELF``/``OTHER`` once assigned; ``None`` while nobody's.
    side: int | None = None
    #: Both sides get the count ("one ball each").
    both: bool = False
    #: The clause denies the claim ("you can't have all the balls").
    negated: bool = False
    #: The count adds to the deal on the table ("1 more food", "another water").
    relative: bool = False
    #: The item is implied by the talk, not named ("you can have 2").
    implied: bool = False
    #: Why the side was chosen (``subject``, ``recipient``, ``benefit-after``, ...).
    why: str = ""

    def describe(self, items: Sequence[str]) -> str:
        """A short trace such as ``count2:hat->other(subject)``."""
        what = items[self.item] if self.item is not None else "*"
        count = "" if self.count is None else str(self.count)
        side = {SELF: "self", OTHER: "other"}.get(self.side, "?") if self.side is not None else "?"
        return f"{self.kind}{count}:{what}->{side}({self.why})"


class Quantity(NamedTuple):
    """The quantity written before an item noun."""

    #: The first token of the phrase.
    start: int
    #: One of :data:`MENTION_KINDS`.
    kind: str
    number: int | None
    #: Written as a number, "all" or "half", not implied by "the" or nothing.
    explicit: bool
    #: A word of addition stands before the noun ("1 more food").
    relative: bool = False


def _quantity(tokens: Sequence[str], noun: int, lexicon: SplitLexicon) -> Quantity:
    """Look back from an item noun (or a noun like "items") for its quantity."""
    relative = False
    plural = tokens[noun].endswith("s") and not tokens[noun].endswith("ss")
    j = noun - 1
    start = noun
    determiner = False
    vague = False
    single_unit = False
    while j >= 0:
        tok = tokens[j]
        if lexicon.has("determiner", tok):
            determiner = True
        elif lexicon.has("vague", tok):
            vague = True
            relative = relative or lexicon.has("relative", tok)
        elif not lexicon.has("filler", tok):
            break
        if lexicon.has("unit", tok) and not tok.endswith("s"):
            single_unit = True
        start = j
        j -= 1
    if j >= 0:
        tok = tokens[j]
        value = lexicon.number(tok)
        if value is not None and j >= 2 and tokens[j - 1] == "/" and tokens[j - 2].isdigit():
            # "2/3 water": two of the three.
            return Quantity(j - 2, "count", int(tokens[j - 2]), True, relative)
        if (
            value is not None
            and j >= 3
            and lexicon.has("determiner", tokens[j - 1])
            and tokens[j - 2] == "of"
            and lexicon.number(tokens[j - 3]) is not None
        ):
            # "2 of the 3 wood": two.
            return Quantity(j - 3, "count", lexicon.number(tokens[j - 3]), True, relative)
        if value is not None:
            # "a lot of water", "an extra food": the article belongs to the vague word.
            if vague and lexicon.has("article", tok):
                return Quantity(start, "bare", None, False, relative)
            # "all 3 waters", "all 2 firewood": the number counts them.
            if j > 0 and lexicon.has("all", tokens[j - 1]):
                return Quantity(j - 1, "count", value, True, relative)
            return Quantity(j, "count", value, True, relative)
        if lexicon.has("all", tok):
            return Quantity(j, "all", None, True, relative)
        if lexicon.has("rest", tok):
            return Quantity(j, "rest-item", None, True, relative)
        if lexicon.has("half", tok):
            return Quantity(j, "half", None, True, relative)
        if lexicon.has("majority", tok):
            return Quantity(j, "majority", None, True, relative)
    if vague:
        return Quantity(start, "bare", None, False, relative)
    if determiner:
        if single_unit:
            # "the package of food" is one package.
            return Quantity(start, "count", 1, False, relative)
        if not plural and lexicon.has("demonstrative", tokens[start]):
            # "i could use that food": the amount talked about, not all of it.
            return Quantity(start, "bare", None, False, relative)
        if plural or lexicon.the_singular == "all":
            return Quantity(start, "all", None, False, relative)
        return Quantity(start, "count", 1, False, relative)
    if lexicon.bare_noun == "none":
        return Quantity(noun, "bare", None, False, relative)
    return Quantity(noun, ("all" if plural else "count"), (None if plural else 1), False, relative)


def _conjoined(
    tokens: Sequence[str], before: Mention, after: Mention, lexicon: SplitLexicon
) -> bool:
    """Two mentions in one list ("the balls and hats", "a hat, a ball")."""
    gap = tokens[before.end + 1 : after.start]
    return all(lexicon.has("conjunction", t) for t in gap)


def find_mentions(
    tokens: Sequence[str], lexicon: SplitLexicon, context_item: int | None = None
) -> list[Mention]:
    """Every item phrase of a message, left to right.

    ``context_item`` is the item the dialogue talked about last: a number with no noun
    ("i can take 1 and you 2") counts it when the message names no item before.
    """
    mentions: list[Mention] = []
    consumed: set[int] = set()
    for i, tok in enumerate(tokens):
        item = lexicon.item_words.get(tok)
        if item is None:
            if lexicon.has("generic", tok):
                start, kind, _, _, _ = _quantity(tokens, i, lexicon)
                vague = any(lexicon.has("vague", t) for t in tokens[max(start - 2, 0) : i])
                if kind == "rest-item" and not vague:
                    # "all 4 other items"
                    mentions.append(Mention(start, i, None, "rest", explicit=True))
                    consumed.update(range(start, i + 1))
            continue
        start, kind, count, explicit, relative = _quantity(tokens, i, lexicon)
        if tok in lexicon.weak_words and (
            lexicon.number(tokens[start]) is None or lexicon.has("article", tokens[start])
        ):
            continue
        nxt_tok = tokens[i + 1] if i + 1 < len(tokens) else ""
        end = i
        if lexicon.has("unit", nxt_tok) and kind == "count" and start == i - 1:
            # "2 firewood packages", "1 water bottle": the unit belongs to the mention.
            end = i + 1
        elif lexicon.has("compound_head", nxt_tok):
            # "water bottles", "food supply": another noun, not the item.
            continue
        if kind in ("bare", "all") and not explicit:
            after = _count_after(tokens, i, lexicon)
            if after is not None:
                # "water: 2", "food - 1"
                kind, count, explicit = "count", after, True
        if lexicon.has("comparative", nxt_tok) and not explicit:
            # "you need the water more": a preference, not a claim.
            kind, count = "bare", None
        mention = Mention(start, end, item, kind, count, explicit)
        # "1 more food", "another water": added to what the side had.
        mention.relative = kind == "count" and (relative or lexicon.has("relative", tokens[start]))
        mentions.append(mention)
        consumed.update(range(start, end + 1))
    last_item = context_item
    for i, tok in enumerate(tokens):
        if i in consumed:
            item = lexicon.item_words.get(tok)
            if item is not None:
                last_item = item
            continue
        nxt = tokens[i + 1] if i + 1 < len(tokens) else "."
        if lexicon.has("rest", tok) and lexicon.has("rest_alone", tok):
            if not _rest_of_something_else(tokens, i, lexicon):
                mentions.append(Mention(i, i, None, "rest", explicit=True))
        elif lexicon.has("everything", tok):
            start, kind, count, _, _ = _quantity(tokens, i, lexicon)
            if kind == "count" and count is not None and start < i:
                # "1 pack of everything": n of every item.
                mentions.append(Mention(start, i, None, "each-item", count, True))
            else:
                mentions.append(Mention(i, i, None, "every", explicit=True))
        elif lexicon.has("each", tok) and i > 0:
            j = i - 1
            if tokens[j] == "of" and j > 0:
                j -= 1
                while j > 0 and lexicon.has("filler", tokens[j]):
                    j -= 1  # "two thirds of each", "1 pack of each"
                value = lexicon.number(tokens[j])
                if value is not None and j not in consumed:
                    # "one of each": n of every item.
                    mentions.append(Mention(j, i, None, "each-item", value, True))
                    consumed.update(range(j, i + 1))
        elif (
            last_item is not None
            and _standalone_number(tok, lexicon)
            and nxt == "of"
            and i + 2 < len(tokens)
            and lexicon.has("anaphor", tokens[i + 2])
        ):
            # "i am ok with you getting 2 of those": the item talked about last.
            mention = Mention(i, i + 2, last_item, "count", lexicon.number(tok), True)
            mention.implied = True
            mentions.append(mention)
            consumed.update(range(i, i + 3))
        elif (
            last_item is not None
            and _standalone_number(tok, lexicon)
            and lexicon.has("unit", nxt)
            and (i + 2 >= len(tokens) or tokens[i + 2] != "of")
        ):
            # "i can do with 2 packages": units of the item talked about last.
            mention = Mention(i, i + 1, last_item, "count", lexicon.number(tok), True)
            mention.implied = True
            mentions.append(mention)
            consumed.update((i, i + 1))
        elif (
            last_item is not None
            and _standalone_number(tok, lexicon)
            and i > 0
            and (
                (
                    _takes_a_count(tokens, i, lexicon)
                    and (
                        lexicon.has("boundary", nxt)
                        or lexicon.has("each", nxt)
                        or lexicon.has("clause_start", nxt)
                        or _person(nxt, lexicon, subject=True) is not None
                        or nxt in ("for", EXCHANGE_FOR)
                    )
                )
                # "2 water for me, 1 for you"
                or (lexicon.has("benefit", nxt) and _is_pronoun(tokens, i + 2, lexicon))
            )
        ):
            # "can i have 1 book and you can have 2?": a number with no noun counts the
            # item named last in the sentence.
            mention = Mention(i, i, last_item, "count", lexicon.number(tok), True)
            mention.implied = True
            mentions.append(mention)
            consumed.add(i)
    mentions.sort(key=lambda m: m.start)
    # "everything" next to named items is their complement ("you get everything").
    named = any(m.item is not None for m in mentions)
    for m in mentions:
        if m.kind == "every" and named:
            m.kind = "rest"
    _spread_quantities(tokens, mentions, lexicon)
    return mentions


def _count_after(tokens: Sequence[str], noun: int, lexicon: SplitLexicon) -> int | None:
    """A count written after its item ("water: 2", "food - 1", "firewood x2")."""
    if noun + 2 < len(tokens) and tokens[noun + 1] in (":", "-", "=", "x"):
        value = lexicon.number(tokens[noun + 2])
        if tokens[noun + 2].isdigit() and value is not None:
            return value
    return None


def _takes_a_count(tokens: Sequence[str], i: int, lexicon: SplitLexicon) -> bool:
    """A bare number at ``i`` follows a verb of having or giving ("you can have 2",
    "like all three"), its recipient ("give you two"), a pronoun heading a list ("me
    1") or "with" ("fine with one")."""
    j = i - 1
    if lexicon.has("all", tokens[j]) and j > 0:
        j -= 1  # "would you like all three?"
    prev = tokens[j]
    if lexicon.has("possess", prev) or lexicon.has("give", prev) or prev == "with":
        return True
    if _person(prev, lexicon, subject=False) is None:
        return False
    # "give you two"; "you get 2, me 1"
    return j == 0 or lexicon.has("give", tokens[j - 1]) or lexicon.has("boundary", tokens[j - 1])


def _rest_of_something_else(tokens: Sequence[str], i: int, lexicon: SplitLexicon) -> bool:
    """ "the rest of the deal", "the rest of the trip": not the rest of the items."""
    if i + 1 >= len(tokens) or tokens[i + 1] != "of":
        return False
    for tok in tokens[i + 2 : i + 5]:
        if tok in lexicon.item_words or lexicon.has("generic", tok):
            return False
        if not lexicon.has("determiner", tok):
            return True
    return True


def _is_pronoun(tokens: Sequence[str], i: int, lexicon: SplitLexicon) -> bool:
    return i < len(tokens) and _person(tokens[i], lexicon, subject=False) is not None


def _standalone_number(token: str, lexicon: SplitLexicon) -> bool:
    return lexicon.number(token) is not None and not lexicon.has("article", token)


def _spread_quantities(
    tokens: Sequence[str], mentions: Sequence[Mention], lexicon: SplitLexicon
) -> None:
    """Quantities that reach over a list: "split the balls and hats" halves both; "one
    ball each" gives both sides one."""
    for before, after in itertools.pairwise(mentions):
        if not _conjoined(tokens, before, after, lexicon) or after.start != after.end:
            continue
        # "split the balls and hats", "all the food and water": the quantity reaches the
        # bare noun after it.
        if before.kind in ("half", "rest-item"):
            after.kind, after.count, after.explicit = before.kind, None, True
        elif before.kind == "all" and before.explicit and after.kind == "bare":
            after.kind, after.count, after.explicit = "all", None, True
        elif (
            before.kind == "count"
            and "of" in tokens[before.start : before.end]
            and (after.kind == "bare")
        ):
            # "1 of the food and firewood": one of each.
            after.kind, after.count, after.explicit = "count", before.count, True
    for m in mentions:
        if m.item is None or m.kind != "count":
            continue
        nxt = tokens[m.end + 1] if m.end + 1 < len(tokens) else ""
        lead = tokens[max(m.start - 3, 0) : m.start]
        # "one ball each", "we each get 1"
        if lexicon.has("each", nxt) or any(lexicon.has("each", t) for t in lead):
            m.both = True


# ---------------------------------------------------------------------------
# Step 3: sides
# ---------------------------------------------------------------------------

#: How many tokens a negation reaches forward to the verb it negates.
_NEGATION_REACH = 2


@dataclass
class _Clause:
    """The side-marking state while scanning a sentence left to right."""

    side: int | None = None
    why: str = ""
    #: The side of the clause's grammatical subject, kept while a recipient ("give me")
    #: names the side, so that a next verb returns to it ("you give me X and take Y").
    subject: int | None = None
    giving: bool = False
    negated: bool = False
    #: Inside a clause of purpose ("to wash the food"): nothing is claimed until it ends.
    purpose: bool = False
    #: A verb of having or giving came after the subject.
    verb: bool = False

    #: The clause has a subject that is nobody's side ("we both", "they"): its verbs
    #: are not imperatives.
    neutral: bool = False

    def set(self, side: int, why: str) -> None:
        """A new marker names the side of what follows."""
        # A clause of purpose outlives a new subject ("to make sure we have everything").
        self.side, self.why = side, why
        self.giving = self.negated = self.verb = self.neutral = False

    def reset(self) -> None:
        """Forget everything (a sentence ended, or a clause with no side began)."""
        self.side = self.subject = None
        self.why = ""
        self.giving = self.negated = self.purpose = self.verb = self.neutral = False

    def effective(self) -> int | None:
        """The side a mention here goes to: flipped once by giving, once by negation."""
        if self.side is None or self.purpose:
            return None
        return self.side ^ 1 if self.giving != self.negated else self.side

    def trace(self) -> str:
        """Why, for :attr:`Mention.why`."""
        return self.why + ("+give" if self.giving else "") + ("+not" if self.negated else "")


def _person(token: str, lexicon: SplitLexicon, subject: bool, nxt: str = "") -> int | None:
    """The side a pronoun names: "i"/"you" anywhere; "me" only where an object counts
    or before a verb of having ("me getting 2 food"); "we" unless both sides are meant
    ("we each", "we both", "we split")."""
    if lexicon.has("other", token):
        return OTHER
    if lexicon.has("self", token):
        return SELF
    ahead = nxt.split()
    first = ahead[0] if ahead else ""
    if lexicon.has("self_object", token) and (
        not subject or any(lexicon.has("possess", t) for t in ahead) or _lists_after(first, lexicon)
    ):
        return SELF
    if lexicon.has("we", token) and not any(
        lexicon.has("each", t) or lexicon.has("all", t) or lexicon.has("half", t)
        for t in nxt.split()
    ):
        return SELF
    return None


def _offered(tokens: Sequence[str], i: int, lexicon: SplitLexicon) -> bool:
    """The word before position ``i`` is a verb of having or giving, or its recipient."""
    j = i - 1
    while j >= 0 and (lexicon.has("determiner", tokens[j]) or lexicon.has("all", tokens[j])):
        j -= 1
    if j < 0:
        return False
    prev = tokens[j]
    return (
        lexicon.has("possess", prev)
        or lexicon.has("give", prev)
        or lexicon.has("imperative", prev)
        or _person(prev, lexicon, subject=False) is not None
    )


def _lists_after(token: str, lexicon: SplitLexicon) -> bool:
    """ "me: 3 water", "me - 3 water", "me 3 water": a pronoun heading a list."""
    return token in (":", "-", "=") or lexicon.number(token) is not None


def assign_sides(
    tokens: Sequence[str],
    mentions: Sequence[Mention],
    lexicon: SplitLexicon,
    default_side: int = SELF,
) -> None:
    """Set ``side`` (and ``why``) on every mention whose side the words make clear.

    Rules, in the order they apply: the subject, recipient or benefit phrase before a
    mention (a giving verb flips a subject's side, a negation right before a verb of
    having or giving flips it too); a benefit phrase after it (:func:`_claim_backwards`);
    "everything but X" (:func:`_exceptions`); exchanges (:func:`_exchanges`); statements
    of worth leave their mentions unassigned (:func:`_value_statements`); an item list
    with no person before it in its sentence is about ``default_side``
    (:func:`_elliptic_lists`).
    """
    by_start = {m.start: m for m in mentions}
    clause = _Clause()
    benefits: list[tuple[int, int]] = []  # (token index, side) of "for me", "mine"
    subjects: list[int] = []  # where a new subject or recipient starts
    n = len(tokens)
    negation_at = -10
    skip_until = -1
    for i, tok in enumerate(tokens):
        if i <= skip_until:
            continue
        prev = tokens[i - 1] if i > 0 else "."
        mention = by_start.get(i)
        if mention is not None:
            side = clause.effective()
            # "i will conserve my water": a subject claims an item through a verb of
            # having or giving, or with a written quantity.
            if (
                lexicon.claims_need_verb
                and clause.why == "subject"
                and not clause.verb
                and not _counted(tokens, mention, lexicon)
            ):
                side = None
            if side is not None and mention.kind == "every" and not _offered(tokens, i, lexicon):
                # "everything has been cancelled": only "have everything", "take
                # everything", "give you everything" put it on a side.
                side = None
            if side is not None:
                mention.side, mention.why = side, clause.trace()
                mention.negated = clause.negated
                if clause.why == "both" and mention.kind in ("count", "each-item"):
                    mention.both = True
            skip_until = mention.end
            continue
        if lexicon.has("sentence_end", tok):
            clause.reset()
            continue
        if lexicon.has("boundary", tok):
            clause.purpose = False
            if not lexicon.has("conjunction", tok) or tok == ",":
                # "i don't need the water, just the firewood"
                clause.negated = False
        if tok == "to" and _opens_purpose(tokens, i + 1, lexicon):
            clause.purpose = True
            continue
        after_give = lexicon.has("give", prev) or (
            prev == "to" and i > 1 and lexicon.has("give", tokens[i - 2])
        )
        after_source = lexicon.has("source", prev)
        # "with me taking the firewood": a pronoun before a verb of having is its subject.
        after_benefit = (lexicon.has("benefit", prev) or after_source) and not lexicon.has(
            "possess", tokens[i + 1] if i + 1 < n else ""
        )
        nxt = tokens[i + 1] if i + 1 < n else ""
        # "we each", "we will both", "me also need": two words ahead tell "we" apart
        # from "i" and "me" the subject from "me" the object.
        ahead = " ".join(tokens[i + 1 : i + 3])
        side = _person(tok, lexicon, subject=not (after_give or after_benefit), nxt=ahead)
        if side is None and lexicon.has("possess", prev) and nxt == "to":
            # "you want me to take all 3": "me" is who takes.
            side = _person(tok, lexicon, subject=False)
        if side is not None and negation_at == i - 1:
            # "why don't you take 3 food", "can't i have the ball?": a suggestion.
            negation_at = -10
        if side is not None:
            if after_source:
                # "3 water from me": what comes from a side goes to the other.
                side ^= 1
            if after_benefit:
                benefits.append((i, side))
                # "for me 1 food, 2 water": a benefit phrase also marks what follows.
                clause.set(side, "benefit-before")
            elif after_give:
                negated = clause.negated
                clause.set(side, "recipient")
                clause.negated = negated
                subjects.append(i)
            else:
                clause.set(side, "subject")
                clause.subject = side
                subjects.append(i)
            continue
        if lexicon.has("mine", tok) or lexicon.has("yours", tok):
            benefits.append((i, SELF if lexicon.has("mine", tok) else OTHER))
            continue
        if lexicon.has("third_person", tok) or lexicon.has("we", tok):
            # "they need", "we will both get": a subject that is neither side; "we each
            # get one ball" gives both sides the count.
            clause.reset()
            clause.neutral = True
            window = tokens[i + 1 : i + 5]
            if (
                lexicon.has("we", tok)
                and any(lexicon.has("each", t) or lexicon.has("all", t) for t in window)
                and any(lexicon.has("possess", t) or lexicon.has("imperative", t) for t in window)
            ):
                clause.set(SELF, "both")
            continue
        if (lexicon.has("my", tok) or lexicon.has("your", tok)) and (
            lexicon.has("possess", nxt) or lexicon.has("group", nxt)
        ):
            # "would my taking 2 water work?", "your group can have the food"
            owner = SELF if lexicon.has("my", tok) else OTHER
            clause.set(owner, "subject")
            clause.subject = owner
            continue
        if lexicon.has("deal_noun", tok) and nxt in ("for", "of", ":", "with", "is", "was"):
            # "a proposal for 3 firewood, 2 food": the list is the deal's content, not
            # the object of the verb before it.
            clause.reset()
            continue
        if lexicon.has("thanks", tok):
            # "thank you for the 2 water": the writer gets it.
            clause.set(SELF, "thanks")
            continue
        if lexicon.has("negation", tok):
            negation_at = i
            continue
        if lexicon.has("opinion", tok):
            # "i think that will work: 1 food, 1 water": a new clause follows.
            clause.reset()
            continue
        # A negation binds the verb right after it ("can not ever give"); one further
        # back belonged to an earlier verb ("i don't need them, leave me the hat").
        negated = i - negation_at <= _NEGATION_REACH
        if lexicon.has("give", tok) or (
            lexicon.has("give_after_modal", tok)
            and lexicon.has("modal", prev)
            and nxt not in ("with", "without")  # "i can do with 2": i get by with 2
        ):
            nxt = tokens[i + 1] if i + 1 < n else ""
            if _person(nxt, lexicon, subject=False) is None:
                if clause.side is None and tok.endswith("ing"):
                    # "giving 1 food and 1 water": the writer gives.
                    clause.set(SELF, "gerund")
                elif clause.side is None or _opens_clause(tokens, i, lexicon):
                    # "give the books": a bare imperative hands them from the reader.
                    clause.set(OTHER, "imperative")
                elif clause.why == "recipient" and lexicon.has("boundary", prev):
                    clause.set(clause.subject if clause.subject is not None else OTHER, "subject")
                clause.giving = True
            clause.negated = negated
            clause.verb = True
            continue
        if lexicon.has("imperative", tok) or lexicon.has("possess", tok):
            if lexicon.has("imperative", tok) and (
                (clause.side is None and not clause.neutral) or _opens_clause(tokens, i, lexicon)
            ):
                clause.set(OTHER, "imperative")
            elif clause.why == "recipient" and lexicon.has("boundary", prev):
                # "you give me the balls and take the rest": the subject takes; in "let
                # you have" the verb is the recipient's.
                subject = clause.subject if clause.subject is not None else OTHER
                clause.set(subject, "subject")
            # A new verb of having governs what follows ("concede and take the books").
            clause.giving = False
            clause.negated = negated
            clause.verb = True
            continue
    _claim_backwards(tokens, mentions, benefits, subjects, lexicon)
    _exceptions(tokens, mentions, lexicon)
    _exchanges(tokens, mentions, lexicon)
    _value_statements(tokens, mentions, lexicon)
    _elliptic_lists(tokens, mentions, lexicon, default_side)
    # "How about 2 water for 3 food?": the list got its side only now.
    _exchanges(tokens, mentions, lexicon)


def _opens_purpose(tokens: Sequence[str], i: int, lexicon: SplitLexicon) -> bool:
    """ "to" + a verb other than one of having or giving starts a clause of purpose
    ("i need firewood to cook the food"); "to have", "to you", "to 2" do not."""
    if i >= len(tokens):
        return False
    word = tokens[i]
    return not (
        lexicon.has("possess", word)
        or lexicon.has("imperative", word)
        or lexicon.has("give", word)
        or lexicon.has("determiner", word)
        or lexicon.has("boundary", word)
        or lexicon.has("all", word)
        or lexicon.number(word) is not None
        or word in lexicon.item_words
        or _person(word, lexicon, subject=False) is not None
        or not word.isalpha()
    )


def _opens_clause(tokens: Sequence[str], i: int, lexicon: SplitLexicon) -> bool:
    """The verb at ``i`` starts a new clause ("fine, take the hat"), unless its subject
    stands right before the boundary word ("i also send")."""
    if i == 0:
        return True
    prev = tokens[i - 1]
    opens = (
        lexicon.has("sentence_end", prev)
        or lexicon.has("interjection", prev)
        or (lexicon.has("boundary", prev) and not lexicon.has("conjunction", prev))
    )
    return opens and not (i > 1 and _person(tokens[i - 2], lexicon, subject=True) is not None)


def _claim_backwards(
    tokens: Sequence[str],
    mentions: Sequence[Mention],
    benefits: Sequence[tuple[int, int]],
    subjects: Sequence[int],
    lexicon: SplitLexicon,
) -> None:
    """A benefit phrase ("for me", "to you", "mine") claims the mentions before it.

    It reaches back over one list of mentions within its sentence and stops at a new
    subject; a mention that already has a side from a subject before it is taken only
    when no clause boundary lies between them ("you get the hats, the book and balls for
    me": the hats stay the reader's); "the rest" is never part of a list.
    """
    subject_set = set(subjects)
    for pos, side in benefits:
        later: Mention | None = None
        for m in reversed(mentions):
            if m.end >= pos:
                continue
            between = range(m.end + 1, pos)
            # "2 water for you", "the rest is yours": the phrase follows its list; "if i
            # take 2 food, would that work for you?" asks, it does not give.
            if later is None and not all(
                lexicon.has("copula", tokens[k]) for k in range(m.end + 1, pos - 1)
            ):
                break
            if any(lexicon.has("sentence_end", tokens[k]) for k in between):
                break
            if any(k in subject_set for k in between):
                break
            if m.why == "benefit-after":
                break
            if later is not None and (
                later.kind == "rest" or not _conjoined(tokens, m, later, lexicon)
            ):
                break
            if m.side is not None and any(
                lexicon.has("boundary", tokens[k]) and tokens[k] != "and" for k in between
            ):
                break
            m.side, m.why, m.negated = side, "benefit-after", False
            later = m


def _possessor(tokens: Sequence[str], m: Mention, lexicon: SplitLexicon) -> int | None:
    """Whose the items are now ("my 2 food", "3 of your firewood"): ``SELF``/``OTHER``."""
    for tok in tokens[m.start : m.end]:
        if lexicon.has("my", tok):
            return SELF
        if lexicon.has("your", tok):
            return OTHER
    return None


def _exchanges(tokens: Sequence[str], mentions: Sequence[Mention], lexicon: SplitLexicon) -> None:
    """Items traded "for" others go to the side opposite them ("the books for the ball
    and a hat", "2 hats in exchange for a book"); the list after "for" goes together.
    With no other marker, "my" and "your" tell who gives ("1 water for 3 of your
    firewood": the firewood comes to the writer)."""
    for k in range(1, len(mentions)):
        before, after = mentions[k - 1], mentions[k]
        gap = tokens[before.end + 1 : after.start]
        if not gap or gap[0] not in ("for", EXCHANGE_FOR):
            continue
        owner = _possessor(tokens, after, lexicon)
        if owner is None or after.side is not None or before.side is not None:
            continue
        after.side, after.why = owner ^ 1, "exchange-owner"
        # The whole list before "for" goes the other way ("1 water and 2 food for ...").
        j = k - 1
        while j >= 0 and mentions[j].side is None:
            mentions[j].side, mentions[j].why = owner, "exchange-owner"
            if j == 0 or not _conjoined(tokens, mentions[j - 1], mentions[j], lexicon):
                break
            j -= 1
    trading: int | None = None
    for before, after in itertools.pairwise(mentions):
        gap = tokens[before.end + 1 : after.start]
        if (
            len(gap) > 2
            and (lexicon.has("benefit", gap[0]) or lexicon.has("source", gap[0]))
            and _person(gap[1], lexicon, subject=False) is not None
        ):
            # "3 waters from me for your 3 food": the benefit phrase belongs to the first.
            gap = gap[2:]
        if (
            gap
            and gap[0] in ("for", EXCHANGE_FOR)
            and before.side is not None
            and not any(_person(t, lexicon, subject=False) is not None for t in gap)
        ):
            trading = before.side ^ 1
            after.side, after.why = trading, "exchange"
            continue
        if trading is not None and _conjoined(tokens, before, after, lexicon):
            after.side, after.why = trading, "exchange"
            continue
        trading = None


def _clause_span(tokens: Sequence[str], m: Mention, lexicon: SplitLexicon) -> range:
    """The tokens of the clause around a mention (up to the nearest strong boundaries)."""

    def strong(k: int) -> bool:
        # A comma ends a clause here; "and" may join two items of one statement.
        tok = tokens[k]
        return lexicon.has("boundary", tok) and tok != "and"

    start = m.start
    while start > 0 and not strong(start - 1):
        start -= 1
    end = m.end
    while end + 1 < len(tokens) and not strong(end + 1):
        end += 1
    return range(start, end + 1)


def _value_statements(
    tokens: Sequence[str], mentions: Sequence[Mention], lexicon: SplitLexicon
) -> None:
    """ "The books are worth nothing to me": a mention in a clause about worth is a
    preference, not a claim."""
    for m in mentions:
        if m.side is None:
            continue
        if any(lexicon.has("value", tokens[k]) for k in _clause_span(tokens, m, lexicon)):
            m.side, m.why = None, "value"


def _exceptions(tokens: Sequence[str], mentions: Sequence[Mention], lexicon: SplitLexicon) -> None:
    """ "Everything but the balls": the items after the exception go to the other side."""
    for rest, after in itertools.pairwise(mentions):
        if rest.kind not in ("rest", "every") or rest.side is None:
            continue
        gap = tokens[rest.end + 1 : after.start]
        if gap and lexicon.has("except", gap[0]) and len(gap) <= 2:
            after.side, after.why = rest.side ^ 1, "except"
            rest.kind = "rest"


def _counted(
    tokens: Sequence[str], m: Mention, lexicon: SplitLexicon, numbers_only: bool = False
) -> bool:
    """The mention's quantity is written as a number (or, unless ``numbers_only``, as
    "all" or "n of each"): not an article, "the", or "everything"."""
    if m.kind in ("every", "rest", "rest-item", "half", "bare"):
        return False
    if m.kind == "each-item":
        return True
    first = tokens[m.start]
    if lexicon.number(first) is not None:
        return not lexicon.has("article", first)
    return not numbers_only and m.kind == "all" and m.explicit


def _elliptic_lists(
    tokens: Sequence[str], mentions: Sequence[Mention], lexicon: SplitLexicon, default_side: int
) -> None:
    """Mentions with nobody's side that come before any person in their sentence, in a
    sentence with no word of worth and no third person ("ball and one hat?", "how about
    just the ball and i take the rest?", "one of each") are about ``default_side``: the
    side the talk is about (the writer, unless the caller knows better)."""
    blocked: set[int] = set()
    sentence = 0
    seen_person = False
    sentence_of: list[int] = []
    person_at: list[bool] = []
    for tok in tokens:
        if lexicon.has("sentence_end", tok):
            sentence += 1
            seen_person = False
        if lexicon.has("third_person", tok) or lexicon.has("value", tok) or lexicon.has("we", tok):
            blocked.add(sentence)
        if _person(tok, lexicon, subject=False) is not None:
            seen_person = True
        if lexicon.has("opinion", tok) or lexicon.has("deal_noun", tok):
            seen_person = False
        sentence_of.append(sentence)
        person_at.append(seen_person)
    previous: int | None = None
    for m in mentions:
        if m.side is not None:
            if m.kind != "bare":
                previous = m.side
            continue
        if m.why == "value" or m.kind == "bare":
            continue
        if sentence_of[m.start] in blocked or person_at[m.start]:
            continue
        if lexicon.bare_noun == "none" and not _counted(tokens, m, lexicon):
            # Where a bare noun is a preference, "what about the food?" asks; only a
            # written count ("2 water and 1 food?") proposes.
            continue
        # "I can give you 1 food. 2 water and 2 firewood": a list that follows a claim
        # in the same message continues it.
        m.side = previous if previous is not None else default_side
        m.why = "elliptic"


# ---------------------------------------------------------------------------
# Step 4: claims
# ---------------------------------------------------------------------------


@dataclass
class Claims:
    """What a message says each side gets, relative to its writer.

    ``counts[side][item]`` is ``None`` when the message does not say; ``rest`` is the
    side that gets whatever is left.
    """

    counts: list[list[int | None]]
    rest: int | None = None
    named_sides: set[int] = field(default_factory=set)
    #: (side, item) whose count adds to the deal on the table.
    relative: set[tuple[int, int]] = field(default_factory=set)

    def empty(self) -> bool:
        """The message gives nothing to anybody."""
        return self.rest is None and all(c is None for side in self.counts for c in side)


def resolve_claims(mentions: Sequence[Mention], totals: Sequence[int]) -> Claims:
    """The counts the mentions give each side; a later claim on an item wins."""
    n = len(totals)
    claims = Claims(counts=[[None] * n, [None] * n])
    rest_items: list[tuple[int, int]] = []
    for m in mentions:
        if m.kind == "half" and m.item is not None:
            # Halves need no side; an odd count cannot be halved and says nothing.
            total = totals[m.item]
            if total % 2 == 0:
                claims.counts[SELF][m.item] = claims.counts[OTHER][m.item] = total // 2
            continue
        if m.side is None:
            continue
        side = m.side
        if m.negated and (m.explicit or m.kind in ("every", "rest")):
            # "you can't have all the balls", "i don't need 3 food" do not say how many
            # ("i don't need the books" does: the reader gets them).
            continue
        if m.kind == "rest":
            claims.rest = side
            claims.named_sides.add(side)
            continue
        if m.kind == "every":
            for item in range(n):
                claims.counts[side][item] = totals[item]
                claims.counts[side ^ 1][item] = None
            claims.named_sides.add(side)
            continue
        if m.kind == "each-item":
            # "one of each" fills what the message has not given this side already.
            each = m.count or 0
            for item in range(n):
                if m.both and 2 * each != totals[item]:
                    continue  # "we both get one of everything": at least one, no more said
                if claims.counts[side][item] is None:
                    claims.counts[side][item] = min(each, totals[item])
                if m.both and claims.counts[side ^ 1][item] is None:
                    claims.counts[side ^ 1][item] = each
            claims.named_sides.add(side)
            continue
        if m.item is None:
            continue
        total = totals[m.item]
        if m.kind == "rest-item":
            rest_items.append((side, m.item))
            claims.named_sides.add(side)
            continue
        count: int
        if m.kind == "all":
            count = total
        elif m.kind == "majority":
            # "the majority of the water": more than half.
            count = total // 2 + 1
        elif m.kind == "count" and m.count is not None:
            if m.implied and m.count > total:
                # "someone gets 5 and someone gets 4": not a count of the item.
                continue
            count = min(m.count, total)
        else:
            continue
        claims.counts[side][m.item] = count
        claims.named_sides.add(side)
        if m.relative:
            claims.relative.add((side, m.item))
        else:
            claims.relative.discard((side, m.item))
        other = claims.counts[side ^ 1][m.item]
        if m.both:
            if 2 * count == total:
                claims.counts[side ^ 1][m.item] = count
            else:
                # "we each get a water" of three says no more than "at least one".
                claims.counts[side][m.item] = None
                continue
        elif other is not None and other + count != total:
            # The later claim wins over an earlier one it contradicts.
            claims.counts[side ^ 1][m.item] = None
    for side, item in rest_items:
        if claims.counts[side][item] is None:
            taken = claims.counts[side ^ 1][item]
            claims.counts[side][item] = totals[item] - taken if taken is not None else totals[item]
    return claims


@dataclass(frozen=True)
class SplitParse:
    """Everything the parser found in one message, for the act and its explanation."""

    tokens: tuple[str, ...]
    mentions: tuple[Mention, ...]
    claims: Claims
    #: The message adds to the deal on the table ("throw in a ball", "the hat too").
    increment: bool = False
    #: The message points back at a first offer ("your original offer"): whose,
    #: ``SELF``/``OTHER`` relative to the writer or :data:`EITHER`.
    refers_back: int | None = None

    @property
    def has_claim(self) -> bool:
        """The message gives some item to some side."""
        return not self.claims.empty()

    @property
    def elliptic(self) -> bool:
        """The sides came from the default, not from the words."""
        return any(m.why == "elliptic" for m in self.mentions)

    def last_item(self) -> int | None:
        """The item named last (the context for the next message's bare numbers)."""
        return next((m.item for m in reversed(self.mentions) if m.item is not None), None)

    def names_one_side(self) -> bool:
        """The message gives named items to one side only ("i'd like the hats", "if i
        get the ball you can have the rest"), not to both ("i get 3 food, you get 3
        water")."""
        sides = {
            m.side
            for m in self.mentions
            if m.side is not None and m.item is not None and m.kind not in ("bare", "rest-item")
        }
        return len(sides) == 1

    def completion(self, unnamed: str, n_items: int) -> str:
        """How to fill the items this message leaves unnamed, given the corpus default:
        "throw in a ball", "the ball too" keep the rest of the deal on the table
        (``running``), except that a share counted item by item for one side ("how
        about I get 3 food and 2 firewood?") leaves what it omits to the other side
        (``opposite``)."""
        if self.increment:
            unnamed = "running"
        if unnamed == "running" and self.spells_out_one_side(n_items):
            return "opposite"
        return unnamed

    def spells_out_one_side(self, n_items: int) -> bool:
        """The message counts all but one item for one side ("how about I get 3 food
        and 2 firewood?"): the item it leaves out is the other side's."""
        if len(self.claims.named_sides) != 1 or self.claims.rest is not None:
            return False
        (side,) = self.claims.named_sides
        counted = {
            m.item
            for m in self.mentions
            if m.side == side and m.kind == "count" and m.item is not None
        }
        return len(counted) >= n_items - 1 >= 2

    def first_side(self) -> int | None:
        """The side of the first mention with one (what the message is about)."""
        return next((m.side for m in self.mentions if m.side is not None), None)

    @property
    def names_items(self) -> bool:
        """The message names an item at all (a claim or a preference)."""
        return any(m.item is not None for m in self.mentions)


def parse_split(
    text: str,
    lexicon: SplitLexicon,
    totals: Sequence[int],
    tokens: Sequence[str] | None = None,
    default_side: int = SELF,
    context_item: int | None = None,
) -> SplitParse:
    """Steps 1-4 on one message: its tokens, mentions with sides, and claims.

    ``default_side`` is the side an item list with no person in it is about;
    ``context_item`` the item talked about last (for numbers with no noun).
    """
    toks = tuple(tokens) if tokens is not None else tokenize(text, lexicon)
    mentions = find_mentions(toks, lexicon, context_item)
    assign_sides(toks, mentions, lexicon, default_side)
    claims = resolve_claims(mentions, totals)
    increment = any(lexicon.has("increment", t) for t in toks)
    return SplitParse(toks, tuple(mentions), claims, increment, _refers_back(toks, lexicon))


def _refers_back(tokens: Sequence[str], lexicon: SplitLexicon) -> int | None:
    """Whose first offer "your original offer", "my initial deal", "the first
    arrangement" points at: ``SELF``/``OTHER``, :data:`EITHER` when it does not say,
    ``None`` when the message points at none."""
    for i in range(1, len(tokens)):
        if not lexicon.has("deal_noun", tokens[i]) or not lexicon.has("original", tokens[i - 1]):
            continue
        owner = tokens[i - 2] if i > 1 else ""
        if lexicon.has("my", owner):
            return SELF
        if lexicon.has("your", owner):
            return OTHER
        return EITHER
    return None


def complete_split(
    claims: Claims,
    writer: int,
    totals: Sequence[int],
    items: Sequence[str],
    unnamed: str,
    running: ItemSplit | None = None,
) -> ItemSplit:
    """The claims as a split between agents 0 and 1 (the writer is ``writer``).

    Per item: a named share gives the other side the remainder. "The rest" is what the
    side opposite it does not get: named in the message, or else its share of the running
    deal ("ok, if i get everything else"). Items still open go to the side opposite the
    one the message named (``unnamed="opposite"``, when it named one side only) or keep
    their counts in the running deal (``unnamed="running"``); anything left is ``None``.
    """
    n = len(totals)
    mine: list[int | None] = list(claims.counts[SELF])
    theirs: list[int | None] = list(claims.counts[OTHER])
    prior: tuple[tuple[int | None, ...], tuple[int | None, ...]] | None = None
    if running is not None:
        prior = (running.counts[writer], running.counts[writer ^ 1])
    if prior is not None:
        for side, item in claims.relative:
            shares = (mine, theirs)
            had = prior[side][item]
            added = shares[side][item]
            if had is not None and added is not None:
                shares[side][item] = min(had + added, totals[item])
                (theirs if side == SELF else mine)[item] = None
    if claims.rest is not None:
        keeper = claims.rest ^ 1
        shares = (mine, theirs)
        if prior is not None and all(c is None for c in shares[keeper]):
            for item in range(n):
                if shares[claims.rest][item] is None and prior[keeper][item] is not None:
                    shares[keeper][item] = prior[keeper][item]
    for item in range(n):
        total = totals[item]
        a, b = mine[item], theirs[item]
        if a is not None and b is None:
            theirs[item] = max(total - a, 0)
        elif b is not None and a is None:
            mine[item] = max(total - b, 0)
        elif a is None and b is None and claims.rest is not None:
            if claims.rest == SELF:
                mine[item], theirs[item] = total, 0
            else:
                mine[item], theirs[item] = 0, total
    open_items = [i for i in range(n) if mine[i] is None]
    if open_items and unnamed == "opposite" and len(claims.named_sides) == 1:
        (named,) = claims.named_sides
        for item in open_items:
            if named == SELF:
                mine[item], theirs[item] = 0, totals[item]
            else:
                mine[item], theirs[item] = totals[item], 0
    elif open_items and prior is not None:
        for item in open_items:
            mine[item], theirs[item] = prior[0][item], prior[1][item]
    if len(claims.named_sides) == 1:
        # Items neither the message nor the deal on the table has placed yet go to the
        # side opposite the one the message named ("I'd like 3 food and 2 water").
        (named,) = claims.named_sides
        for item in range(n):
            if mine[item] is None and theirs[item] is None:
                if named == SELF:
                    mine[item], theirs[item] = 0, totals[item]
                else:
                    mine[item], theirs[item] = totals[item], 0
    counts = (tuple(mine), tuple(theirs)) if writer == 0 else (tuple(theirs), tuple(mine))
    return ItemSplit(items=tuple(items), counts=counts)


# ---------------------------------------------------------------------------
# Dialogues: turn by turn, with the deal on the table
# ---------------------------------------------------------------------------


class DialogueParser(Protocol):
    """Anything that gives one act per turn (the evaluators accept any such parser)."""

    def parse(self, dialogue: Dialogue) -> list[Act]:
        """One act per turn of the dialogue."""
        ...


@dataclass(frozen=True, slots=True)
class MessageView:
    """What the intent rules see of a message: its tags, the split it proposes, and
    the writer's and the reader's last proposals."""

    tags: frozenset[str]
    split: ItemSplit | None
    own_last: ItemSplit | None
    partner_last: ItemSplit | None
    names_items: bool

    def has(self, tag: str) -> bool:
        """Whether the message carries ``tag``."""
        return tag in self.tags


#: (rule name, intent, condition) of a decision list: the first rule that holds wins.
IntentRule = tuple[str, str, Callable[[MessageView], bool]]

#: The rules about splits every corpus starts its decision list with.
SPLIT_INTENT_RULES: tuple[IntentRule, ...] = (
    ("repeats-own-split", "insist", lambda m: m.split is not None and m.split == m.own_last),
    (
        "restates-partner-split",
        "agree",
        lambda m: m.split is not None and m.split == m.partner_last,
    ),
    ("new-split", "propose", lambda m: m.split is not None),
)
FALLBACK_INTENT = "unknown"


def decide_intent(view: MessageView, rules: Sequence[IntentRule]) -> str:
    """The intent of the first rule that holds, else ``unknown``."""
    for _name, intent, holds in rules:
        if holds(view):
            return intent
    return FALLBACK_INTENT


@dataclass
class DealState:
    """What a parser remembers between the turns of one dialogue."""

    #: Each agent's last proposal.
    last: list[ItemSplit | None] = field(default_factory=lambda: [None, None])
    #: The deal on the table: the last proposal or submission by either agent.
    running: ItemSplit | None = None
    #: The agent whose share the last explicit proposal named first.
    topic: int | None = None
    #: The item the dialogue named last.
    item: int | None = None
    #: Every proposal of each agent, in order.
    history: list[list[ItemSplit]] = field(default_factory=lambda: [[], []])

    def first_offer(self, owner: int | None) -> ItemSplit | None:
        """The first proposal of agent ``owner``; with no owner, the first proposal of
        the dialogue when only one agent has made any."""
        if owner is not None:
            history = self.history[owner]
            return history[0] if history else None
        made = [h for h in self.history if h]
        return made[0][0] if len(made) == 1 else None


class SplitDialogueParser:
    """The turn loop shared by the item-split corpora.

    A subclass names its corpus, items, rule file, rule tags and decision list, and
    turns its formal actions (a selection, a submitted deal) into acts in
    :meth:`formal_act`. Rules and lexicon load once; the parser keeps no state between
    dialogues and is safe to reuse.
    """

    corpus: str = ""
    items: tuple[str, ...] = ()
    rule_file: str = ""
    rule_tags: tuple[str, ...] = ()
    intent_rules: tuple[IntentRule, ...] = SPLIT_INTENT_RULES

    def __init__(
        self,
        *,
        lexicon: SplitLexicon | None = None,
        rules: RuleSet | None = None,
        act_space: ActSpace | None = None,
    ) -> None:
        self.lexicon = lexicon if lexicon is not None else load_split_lexicon(self.corpus)
        self.rules = (
            rules if rules is not None else load_rules(rules_dir().joinpath(self.rule_file))
        )
        self.act_space = act_space if act_space is not None else load_act_space()

    def tags(self, tokens: Sequence[str]) -> frozenset[str]:
        """The rule tags of a message, from its normalised tokens (the rules' text is
        the tokens joined by spaces, so a word never matches inside another)."""
        text = " ".join(tokens)
        return frozenset(tag for tag in self.rule_tags if self.rules.has(tag, tokens, text))

    def parse(self, dialogue: Dialogue) -> list[Act]:
        """One act per turn of the dialogue."""
        totals = [item.count for item in dialogue.parties[0].items]
        state = DealState()
        acts: list[Act] = []
        for turn in dialogue.turns:
            act = self.formal_act(turn, totals, state)
            if act is None:
                act = self.message_act(turn, totals, state)
            coarse = self.act_space.coarse(self.corpus, act.intent)
            acts.append(act._replace(coarse=coarse))
        return acts

    def formal_act(self, turn: Turn, totals: Sequence[int], state: DealState) -> Act | None:
        """The act of a non-message turn (``None`` for a message)."""
        if turn.is_message:
            return None
        return Act(turn.index, turn.agent, None, note=f"non-message turn {turn.action!r}")

    def parse_message(
        self, text: str, writer: int, totals: Sequence[int], state: DealState
    ) -> SplitParse:
        """The split parse of a message in its context: an item list with no person is
        about the side the talk was about, unless the other reading restates one side of
        the deal on the table ("3 fire, 0 water, 2 food" confirms the reader's offer)."""
        default_side = SELF if state.topic in (None, writer) else OTHER
        parsed = parse_split(
            text, self.lexicon, totals, default_side=default_side, context_item=state.item
        )
        if parsed.elliptic and state.running is not None:
            flipped = parse_split(
                text,
                self.lexicon,
                totals,
                tokens=parsed.tokens,
                default_side=default_side ^ 1,
                context_item=state.item,
            )
            if (
                self.split_of(flipped, writer, totals, state)
                == state.running
                != (self.split_of(parsed, writer, totals, state))
            ):
                parsed = flipped
        return parsed

    def split_of(
        self, parsed: SplitParse, writer: int, totals: Sequence[int], state: DealState
    ) -> ItemSplit | None:
        """The split a parsed message proposes, completed from the deal on the table."""
        if not parsed.has_claim:
            return None
        unnamed = parsed.completion(self.lexicon.unnamed, len(totals))
        return complete_split(parsed.claims, writer, totals, self.items, unnamed, state.running)

    def message_act(self, turn: Turn, totals: Sequence[int], state: DealState) -> Act:
        """The act of a message; updates the state with the split it proposes."""
        writer = turn.agent
        parsed = self.parse_message(turn.text, writer, totals, state)
        split = self.split_of(parsed, writer, totals, state)
        if split is None and parsed.refers_back is not None:
            # "i agree to your initial offer", "let's go with my original deal"
            whose = parsed.refers_back
            split = state.first_offer(None if whose == EITHER else writer ^ whose)
        tags = self.tags(parsed.tokens)
        view = MessageView(
            tags, split, state.last[writer], state.last[1 - writer], parsed.names_items
        )
        intent = decide_intent(view, self.intent_rules)
        if parsed.last_item() is not None:
            state.item = parsed.last_item()
        if split is not None:
            state.last[writer] = split
            state.running = split
            state.history[writer].append(split)
            side = parsed.first_side()
            if not parsed.elliptic:
                # A list with no person is about the side the last one-sided offer named
                # ("i want the hats" - "a hat and the ball?"); after an offer that named
                # both shares it is the writer's own.
                if side is not None and parsed.names_one_side():
                    state.topic = writer if side == SELF else 1 - writer
                else:
                    state.topic = None
        why = tuple(m.describe(self.items) for m in parsed.mentions)
        return Act(turn.index, writer, intent, tags=tuple(sorted(tags)) + why, split=split)


# ---------------------------------------------------------------------------
# Evaluation: the last text proposal against the final split
# ---------------------------------------------------------------------------

#: Intents whose split counts as a text proposal for the final-split score.
#: Intents of formal actions: their splits are the outcome, not text proposals.
FORMAL_INTENTS = frozenset({"select", "submit-deal", "accept-deal", "reject-deal", "walk-away"})


def is_text_proposal(act: Act) -> bool:
    """A message act that carries a split, whatever its intent (a question can propose:
    "how about you take the food?")."""
    return act.split is not None and act.intent is not None and act.intent not in FORMAL_INTENTS


def last_proposal(acts: Sequence[Act], before: int) -> Act | None:
    """The last text proposal before turn ``before`` (the formal selection)."""
    for act in reversed(acts[:before]):
        if is_text_proposal(act):
            return act
    return None


@dataclass(frozen=True)
class Miss:
    """A dialogue whose last proposal is not the final split, readable for a human."""

    where: str
    text: str
    expected: dict[str, dict[str, int | None]]
    predicted: dict[str, dict[str, int | None]] | None
    proposal_turn: int | None
    proposal_text: str
    appears_anywhere: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON view."""
        return {
            "where": self.where,
            "dialogue": self.text,
            "expected": self.expected,
            "predicted": self.predicted,
            "proposal_turn": self.proposal_turn,
            "proposal": self.proposal_text,
            "appears_anywhere": self.appears_anywhere,
        }


def render_dialogue(dialogue: Dialogue, acts: Sequence[Act] | None = None) -> str:
    """The dialogue as lines ``turn agent: text [intent split]``."""
    lines = []
    for k, turn in enumerate(dialogue.turns):
        text = turn.text if turn.is_message else f"<{turn.action}>"
        line = f"{turn.index:2d} {turn.agent}: {text}"
        if acts is not None:
            act = acts[k]
            line += f"  [{act.intent}"
            if act.split is not None:
                line += f" {list(act.split.counts[0])}|{list(act.split.counts[1])}"
            line += "]"
        lines.append(line)
    return "\n".join(lines)


@dataclass
class SplitReport:
    """Final-split accuracy and act counts over a corpus of split negotiations."""

    corpus: str = ""
    dialogues: int = 0
    agreed: int = 0
    correct: int = 0
    anywhere: int = 0
    coarse_counts: Counter[str] = field(default_factory=Counter)
    intent_counts: Counter[str] = field(default_factory=Counter)
    _misses: list[Miss] = field(default_factory=list)

    def add(
        self,
        dialogue: Dialogue,
        acts: Sequence[Act],
        where: str,
        expected: ItemSplit | None,
        formal_turn: int | None,
    ) -> None:
        """Score one dialogue: ``expected`` is the final split (``None``: no agreement)
        and ``formal_turn`` the turn index of the selection or submission."""
        self.dialogues += 1
        for act in acts:
            if act.coarse is not None:
                self.coarse_counts[act.coarse] += 1
            if act.intent is not None:
                self.intent_counts[act.intent] += 1
        if expected is None or formal_turn is None:
            return
        self.agreed += 1
        proposal = last_proposal(acts, formal_turn)
        anywhere = any(
            is_text_proposal(a) and a.split is not None and a.split.counts == expected.counts
            for a in acts[:formal_turn]
        )
        self.anywhere += anywhere
        if (
            proposal is not None
            and proposal.split is not None
            and (proposal.split.counts == expected.counts)
        ):
            self.correct += 1
            return
        turn = dialogue.turns[proposal.turn] if proposal is not None else None
        self._misses.append(
            Miss(
                where=where,
                text=render_dialogue(dialogue, acts),
                expected=expected.to_dict(),
                predicted=proposal.split.to_dict() if proposal and proposal.split else None,
                proposal_turn=proposal.turn if proposal is not None else None,
                proposal_text=turn.text if turn is not None else "",
                appears_anywhere=anywhere,
            )
        )

    @staticmethod
    def _share(part: int, whole: int) -> float:
        return part / whole if whole else 0.0

    def summary(self) -> dict[str, Any]:
        """The figures as JSON-ready numbers (fractions in 0..1)."""
        return {
            "corpus": self.corpus,
            "dialogues": self.dialogues,
            "agreed_dialogues": self.agreed,
            "final_split_accuracy": self._share(self.correct, self.agreed),
            "split_anywhere": self._share(self.anywhere, self.agreed),
            "coarse_act_counts": dict(sorted(self.coarse_counts.items())),
            "intent_counts": dict(sorted(self.intent_counts.items())),
        }

    def misses(self, n: int | None = None) -> list[Miss]:
        """The dialogues we got wrong; those whose split we never found come first."""
        ordered = sorted(self._misses, key=lambda m: (m.appears_anywhere, m.where))
        return ordered if n is None else ordered[:n]
