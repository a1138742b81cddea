"""MutualFriends: the collaborative corpus through the same pipeline.

Two agents each hold a private list of friends (attributes such as school, company,
location preference) and chat to find the one friend on both lists; a ``select`` event
names a friend. This module reads the corpus, links knowledge-base values in messages,
gives every turn an act, writes labelled records and evaluates a file:

- readers for the HuggingFace export (``scenario_kbs``, ``events`` as parallel lists)
  and for Cocoa transcripts (``scenario.kbs`` as lists of dicts, ``events`` with
  ``message``/``select`` actions): :func:`iter_records`, :func:`dialogue_from_mutualfriends`;
- :class:`MutualFriendsParser`: entity linking (exact and partial names, case,
  punctuation and inflection folded, typos of long words tolerated) and Cocoa's intents
  ``inquire`` (a question), ``inform`` (mentions a value), ``negative``, ``greet``,
  ``unknown``, and ``select`` checked against the reader's list;
- :func:`label_mutualfriends` and :func:`evaluate_mutualfriends`.

The word lists and tag rules are data, in ``rules/mutualfriends.yaml``.
"""

from __future__ import annotations

import functools
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import regex

from actparse.acts import ActSpace, load_act_space
from actparse.models import Act, Dialogue, EntityMention, Party, Turn
from actparse.readers import agent_index, read_records, text_field
from actparse.rules import RuleError, RuleSet, load_rules, rules_dir
from actparse.tokenizer import split_sentences, tokenize

__all__ = [
    "CORPUS",
    "INTENTS",
    "INTENT_RULES",
    "EntityMention",
    "Friend",
    "MutualFriendsParser",
    "MutualFriendsReport",
    "TurnParse",
    "default_parser",
    "dialogue_from_mutualfriends",
    "evaluate_mutualfriends",
    "iter_records",
    "label_mutualfriends",
    "load_mutualfriends_rules",
]

CORPUS = "mutualfriends"
#: Native intents, as Cocoa's MutualFriends parser names them.
INTENTS = ("greet", "inquire", "inform", "negative", "select", "unknown")
RULES_FILE = "mutualfriends.yaml"
#: Tags the rule file must define: message tags, then the linker's word classes.
MESSAGE_TAGS = ("question", "greeting", "negative")
WORD_CLASSES = ("connector", "generic", "stop", "contrast", "reply", "pronoun")


# ---------------------------------------------------------------------------
# The data: friends, mentions, parsed turns
# ---------------------------------------------------------------------------


def _snake(name: str) -> str:
    return "_".join(name.lower().split())


class Friend(Mapping[str, str]):
    """One friend of a knowledge base: a read-only mapping attribute name -> value.

    It also keeps each attribute's value type (``school``, ``company``, ``loc_pref``...)
    from the scenario, because :class:`~actparse.models.Party` has no field for them.
    It compares equal to any mapping with the same items, so a plain ``dict`` works
    wherever a friend is expected (its types then default to the snake-cased attribute
    name).
    """

    __slots__ = ("_types", "_values")

    def __init__(self, values: Mapping[str, str], types: Mapping[str, str] | None = None):
        self._values = dict(values)
        given = types or {}
        self._types = {name: given.get(name) or _snake(name) for name in self._values}

    def __getitem__(self, key: str) -> str:
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"Friend({self._values!r})"

    def type_of(self, attribute: str) -> str:
        """The value type of an attribute (``KeyError`` if the friend has no such one)."""
        return self._types[attribute]


def _type_of(friend: Mapping[str, str], attribute: str) -> str:
    return friend.type_of(attribute) if isinstance(friend, Friend) else _snake(attribute)


@dataclass(frozen=True, slots=True)
class TurnParse:
    """Everything the parser found for one turn.

    ``entities`` are the act's arguments: the values mentioned in a message. ``negated``
    is the subset written under a negation ("none of mine went to Babson"). For a
    ``select``: the ``friend`` chosen, ``in_own_list`` (is it in the reader's own list,
    the reader being the other agent, as Cocoa's parser reads its partner's selection)
    and ``in_writer_list``.
    """

    act: Act
    entities: tuple[EntityMention, ...] = ()
    negated: tuple[EntityMention, ...] = ()
    friend: Mapping[str, str] | None = None
    in_own_list: bool | None = None
    in_writer_list: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        """The per-turn record :func:`label_mutualfriends` writes."""
        out: dict[str, Any] = {
            "intent": self.act.intent,
            "coarse": self.act.coarse,
            "entities": [m.to_dict() for m in self.entities],
        }
        if self.friend is not None:
            out["friend"] = dict(self.friend)
            out["in_own_list"] = self.in_own_list
        return out


# ---------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Words:
    """The word classes of the rule file, as sets of folded words."""

    connector: frozenset[str]
    generic: frozenset[str]
    stop: frozenset[str]
    contrast: frozenset[str]
    reply: frozenset[str]
    pronoun: frozenset[str]
    negation: frozenset[str]
    greeting: frozenset[str]
    #: Phrases whose words are never knowledge-base values ("good morning").
    set_phrases: tuple[regex.Pattern[str], ...]


def _any_token_words(rules: RuleSet, tag: str) -> frozenset[str]:
    words: set[str] = set()
    for rule in rules.by_tag.get(tag, ()):
        if rule.match == "any-token":
            words.update(_fold(v) if v not in ("n't", "&") else v for v in rule.values)
    return frozenset(words)


def _words(rules: RuleSet, source: str) -> _Words:
    missing = [t for t in (*MESSAGE_TAGS, *WORD_CLASSES) if t not in rules.by_tag]
    if missing:
        raise RuleError(f"{source}: no rule sets the tag(s) {missing}")
    phrases = tuple(
        regex.compile(value, regex.IGNORECASE if rule.ignore_case else 0)
        for rule in rules.by_tag["greeting"]
        if rule.match.startswith("text-")
        for value in rule.values
    )
    connector = _any_token_words(rules, "connector") | {"and"}
    return _Words(
        connector=connector,
        generic=_any_token_words(rules, "generic"),
        stop=_any_token_words(rules, "stop"),
        contrast=_any_token_words(rules, "contrast"),
        reply=_any_token_words(rules, "reply"),
        pronoun=_any_token_words(rules, "pronoun"),
        negation=_any_token_words(rules, "negative"),
        greeting=_any_token_words(rules, "greeting"),
        set_phrases=phrases,
    )


def load_mutualfriends_rules(path: str | Path | None = None) -> RuleSet:
    """The MutualFriends rule file (default: the shipped ``rules/mutualfriends.yaml``)."""
    if path is None:
        return _shipped_rules()
    return load_rules(path)


@functools.cache
def _shipped_rules() -> RuleSet:
    return load_rules(rules_dir().joinpath(RULES_FILE))


# ---------------------------------------------------------------------------
# Tokens for linking: words with character offsets, folded
# ---------------------------------------------------------------------------

# A word (apostrophes inside kept, "Tully's"), the clitic "n't" split off as NLTK does
# ("don't" -> "do" "n't", so negation words match either way), "&", or punctuation
# that can end a clause. Hyphens and other symbols separate words.
_TOKEN = regex.compile(
    r"n['\u2019]t\b|[^\W_]+?(?=n['\u2019]t\b)|[^\W_]+(?:['\u2019][^\W_]+)*|&|[.,;:!?()]"
)
_APOSTROPHES = str.maketrans("", "", "'\u2019")
_BREAKS = frozenset(".,;:!?()")


def _fold(text: str) -> str:
    """Case, accents and apostrophes (straight or curly) folded: ``Tully's`` -> ``tullys``."""
    if text.isascii():
        # The common case, and the hot path: no accents to strip, lower() is casefold().
        return text.lower().replace("'", "")
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return bare.casefold().translate(_APOSTROPHES)


def _link_tokens(text: str) -> list[tuple[str, int, int]]:
    """``(folded word, start, end)`` per token; clause punctuation is kept as a token.

    A period ends a clause only after a word of three letters or more: "Johnson C.
    Smith" and "St. John's" stay one name.
    """
    out: list[tuple[str, int, int]] = []
    for match in _TOKEN.finditer(text):
        raw = match.group()
        start, end = match.span()
        if raw == ".":
            if out and out[-1][0] not in _BREAKS and len(out[-1][0]) <= 2:
                continue
            out.append((".", start, end))
        elif raw in _BREAKS:
            out.append((raw, start, end))
        elif raw == "&":
            out.append(("and", start, end))
        elif raw.lower() in ("n't", "n\u2019t"):
            out.append(("n't", start, end))
        else:
            word = _fold(raw)
            if word:
                out.append((word, start, end))
    return out


def _value_tokens(value: str) -> list[str]:
    return [w for w, _, _ in _link_tokens(value) if w not in _BREAKS]


def _osa_distance(a: str, b: str, limit: int) -> int:
    """Edit distance with transpositions (optimal string alignment), capped at limit+1."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                best = min(best, previous2[j - 2] + 1)
            current[j] = best
        if min(current) > limit:
            return limit + 1
        previous2, previous = previous, current
    return previous[-1]


# ---------------------------------------------------------------------------
# Entity linking, per dialogue
# ---------------------------------------------------------------------------

#: Seconds a set-phrase pattern may take on one message.
PHRASE_TIMEOUT = 1.0
#: A typo is corrected only in a word at least this long (one edit)...
FUZZY_MIN_LENGTH = 7
#: ...or this long (two edits). Shorter words collide with real ones ("scared"/"sacred").
FUZZY_TWO_EDITS_LENGTH = 10


#: Partial names are stretches of at most this many words (as Cocoa's linker)...
MAX_PARTIAL_WORDS = 6
#: ...taken from values of at most this many words (longer ones match whole only).
MAX_NAME_WORDS = 20


@dataclass(frozen=True, slots=True)
class _Shape:
    """One way to write a value: its folded tokens, and whether it names it whole."""

    tokens: tuple[str, ...]
    exact: bool
    #: A one-word value that is also a function word ("Next") must be written as is.
    case_sensitive: bool


@dataclass(frozen=True, slots=True)
class _Link:
    """A mention with the number of its value and whether a negation governs it."""

    value: int
    mention: EntityMention
    negated: bool


class _Names:
    """The ways to write each value (whole, partial, acronym); cached across dialogues,
    since the same schools and companies come back in scenario after scenario."""

    CACHE_LIMIT = 200_000

    def __init__(self, words: _Words):
        self.words = words
        self._cache: dict[str, tuple[_Shape, ...]] = {}

    def distinctive(self, token: str) -> bool:
        """Whether a word can name a value on its own (not a function or generic word)."""
        w = self.words
        return (
            len(token) >= 3
            and not token.isdigit()
            and token not in w.stop
            and token not in w.generic
            and token not in w.connector
        )

    def shapes(self, value: str) -> tuple[_Shape, ...]:
        """Every way to write ``value``, whole forms first."""
        try:
            return self._cache[value]
        except KeyError:
            pass
        if len(self._cache) >= self.CACHE_LIMIT:
            self._cache.clear()
        found: dict[tuple[str, ...], _Shape] = {}
        for shape in self._shapes(value):
            # A token sequence keeps its first (strongest) reading.
            found.setdefault(shape.tokens, shape)
        shapes = self._cache[value] = tuple(found.values())
        return shapes

    def _shapes(self, value: str) -> Iterator[_Shape]:
        tokens = _value_tokens(value)
        if not tokens:
            return
        connector = self.words.connector
        content = [t for t in tokens if t not in connector]
        single_function_word = len(tokens) == 1 and (
            tokens[0] in self.words.stop or tokens[0] in self.words.negation
        )
        # The whole name, with or without its connectors ("University of South Carolina
        # Aiken", "University South Carolina Aiken", "Hartford Financial Services Group").
        wholes = {tuple(tokens)}
        if content and len(content) < len(tokens):
            wholes.add(tuple(content))
            first = next(i for i, t in enumerate(tokens) if t not in connector)
            wholes.add(tuple(tokens[first:]))
        for whole in sorted(wholes):
            yield _Shape(whole, True, single_function_word)
        if len(tokens) > MAX_NAME_WORDS:
            return
        # An acronym of three or more words ("NTU", "JCSU"), unless it is a common word.
        if len(content) >= 3:
            acronym = "".join(t[0] for t in content)
            if acronym not in self.words.stop and acronym not in connector:
                yield _Shape((acronym,), False, False)
        # Partial names: stretches of the name that hold a distinctive word ("Salisbury",
        # "Sacred Heart"), or that open it with two words or more ("National
        # Technological"). They never start or end with a connector.
        for base in (tokens, content):
            if not base:
                continue
            opening = next((i for i, t in enumerate(base) if t not in connector), 0)
            for i in range(len(base)):
                for j in range(i + 1, min(len(base), i + MAX_PARTIAL_WORDS) + 1):
                    span = tuple(base[i:j])
                    if span in wholes or span[0] in connector or span[-1] in connector:
                        continue
                    if any(self.distinctive(t) for t in span) or (len(span) >= 2 and i == opening):
                        yield _Shape(span, False, False)


class _Linker:
    """Finds the values of one scenario's knowledge bases in messages."""

    def __init__(self, names: _Names, parties: Sequence[Party]):
        self.words = names.words
        values: list[tuple[str, str]] = []
        seen: dict[tuple[str, str], int] = {}
        self.party_values: list[frozenset[int]] = []
        for party in parties:
            mine: set[int] = set()
            for friend in party.kb:
                for attribute, value in friend.items():
                    key = (_fold(value).strip(), _type_of(friend, attribute))
                    if not key[0]:
                        continue
                    if key not in seen:
                        seen[key] = len(values)
                        values.append((value, key[1]))
                    mine.add(seen[key])
            self.party_values.append(frozenset(mine))
        self.values = values
        self.by_text: dict[str, list[int]] = {}
        for number, (value, _type) in enumerate(values):
            self.by_text.setdefault(_fold(value).strip(), []).append(number)
        self.index: dict[str, list[tuple[_Shape, int]]] = {}
        for number, (value, _type) in enumerate(values):
            for shape in names.shapes(value):
                self.index.setdefault(shape.tokens[0], []).append((shape, number))
        for entries in self.index.values():
            entries.sort(key=lambda e: -len(e[0].tokens))
        self.vocabulary = frozenset(
            t for entries in self.index.values() for shape, _ in entries for t in shape.tokens
        )
        # Typo targets: distinctive words long enough that one edit rarely makes another
        # English word, grouped by first letter (typos seldom hit the first letter).
        self.fuzzy_targets: dict[str, list[str]] = {}
        for token in sorted(self.vocabulary):
            if len(token) >= FUZZY_MIN_LENGTH and names.distinctive(token):
                self.fuzzy_targets.setdefault(token[0], []).append(token)
        self._canonical: dict[str, str | None] = {}

    def canonical(self, word: str) -> str | None:
        """The knowledge-base word a message word stands for, if any (cached)."""
        try:
            return self._canonical[word]
        except KeyError:
            found = self._canonical[word] = self._find_canonical(word)
            return found

    def _find_canonical(self, word: str) -> str | None:
        if word in self.vocabulary:
            return word
        w = self.words
        if len(word) < 3 or word in w.stop or word in w.connector or word in _BREAKS:
            return None
        # Inflection: "indoors" for "indoor", "Tully" for "Tully's", "Highland".
        variants = [word + "s", word + "es"]
        if word.endswith("es"):
            variants.insert(0, word[:-2])
        if word.endswith("s"):
            variants.insert(0, word[:-1])
        for variant in variants:
            if len(variant) >= 3 and variant in self.vocabulary:
                return variant
        if len(word) < FUZZY_MIN_LENGTH - 1:
            return None
        best: list[str] = []
        best_distance = 3
        for target in self.fuzzy_targets.get(word[0], ()):
            limit = 2 if len(target) >= FUZZY_TWO_EDITS_LENGTH else 1
            distance = _osa_distance(word, target, limit)
            if distance > limit or distance > best_distance:
                continue
            if distance < best_distance:
                best, best_distance = [target], distance
            else:
                best.append(target)
        # Two equally close targets: the typo is ambiguous, leave it.
        return best[0] if len(best) == 1 else None

    def _fits(self, word: str, canonical: str | None, wanted: str) -> bool:
        if canonical == wanted:
            return True
        # Inside a name, an abbreviated word ("Sacred Heart Univ", "Salisbury St").
        return len(word) >= 2 and wanted not in self.words.connector and wanted.startswith(word)

    def link(self, text: str, writer: int, mentioned: set[int]) -> list[_Link]:
        """The values mentioned in ``text``, in order; ``mentioned`` (value numbers
        already mentioned in the dialogue) breaks ties between candidates."""
        tokens = _link_tokens(text)
        if not tokens or not self.index:
            return []
        canonical = [self.canonical(w) for w, _, _ in tokens]
        # The phrases come from an editable rule file: bound their time on hostile text.
        fixed = [
            m.span()
            for p in self.words.set_phrases
            for m in p.finditer(text, timeout=PHRASE_TIMEOUT)
        ]
        links: list[_Link] = []
        negated = self._negations(tokens)
        i = 0
        while i < len(tokens):
            entries = self.index.get(canonical[i] or "")
            if not entries:
                i += 1
                continue
            length, found = self._longest(text, tokens, canonical, i, entries)
            if not found:
                i += 1
                continue
            number = self._resolve(found, writer, mentioned)
            start, end = tokens[i][1], tokens[i + length - 1][2]
            inside_phrase = any(s <= start and end <= e for s, e in fixed)
            if number is not None and not inside_phrase:
                value, type_ = self.values[number]
                mention = EntityMention(text[start:end], value, type_, start, end)
                links.append(_Link(number, mention, negated[i]))
            i += length
        return links

    def _longest(
        self,
        text: str,
        tokens: list[tuple[str, int, int]],
        canonical: list[str | None],
        i: int,
        entries: list[tuple[_Shape, int]],
    ) -> tuple[int, list[tuple[_Shape, int]]]:
        """The longest shapes that match at token ``i`` (entries are sorted longest first)."""
        found: list[tuple[_Shape, int]] = []
        length = 0
        for shape, number in entries:
            size = len(shape.tokens)
            if size < length:
                break
            if i + size > len(tokens):
                continue
            if not all(
                self._fits(tokens[i + k][0], canonical[i + k], shape.tokens[k])
                for k in range(1, size)
            ):
                continue
            if shape.case_sensitive and text[tokens[i][1] : tokens[i][2]] != self.values[number][0]:
                continue
            length = size
            found.append((shape, number))
        return length, found

    def _resolve(
        self, found: list[tuple[_Shape, int]], writer: int, mentioned: set[int]
    ) -> int | None:
        """One value for a stretch of text, or ``None`` when it stays ambiguous.

        A whole name beats a partial one; then a value in the writer's own list (people
        mostly describe their own friends); then a value already mentioned.
        """
        exact = {number for shape, number in found if shape.exact}
        pool = sorted(exact or {number for _, number in found})
        for prefer in (self.party_values[writer], mentioned):
            if len(pool) == 1:
                break
            narrowed = [v for v in pool if v in prefer]
            if narrowed:
                pool = narrowed
        return pool[0] if len(pool) == 1 else None

    def _negations(self, tokens: list[tuple[str, int, int]]) -> list[bool]:
        """For each token, whether a negation precedes it in its clause (one pass).

        A clause ends at punctuation or a contrast word ("no, but I have one at X"). A
        reply word opening a clause and followed by a pronoun answers the partner and
        negates nothing ("no I have two at X").
        """
        w = self.words
        out: list[bool] = []
        active = False
        clause_start = 0
        for j, (word, _, _) in enumerate(tokens):
            out.append(active)
            if word in _BREAKS or word in w.contrast:
                active, clause_start = False, j + 1
            elif word in w.negation and not active:
                is_reply = (
                    j == clause_start
                    and word in w.reply
                    and j + 1 < len(tokens)
                    and tokens[j + 1][0] in w.pronoun
                )
                active = not is_reply
        return out


# ---------------------------------------------------------------------------
# Intents
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MessageView:
    """What the intent rules see of a message."""

    tags: frozenset[str]
    mentions: int
    negated: int

    def has(self, tag: str) -> bool:
        return tag in self.tags


IntentRule = tuple[str, str, Callable[[MessageView], bool]]

#: Cocoa's decision list for MutualFriends messages: (rule name, intent, condition).
#: The first that holds wins; a value under a negation counts for ``negative`` only.
INTENT_RULES: tuple[IntentRule, ...] = (
    ("question", "inquire", lambda m: m.has("question")),
    ("mentions-a-value", "inform", lambda m: m.mentions > m.negated),
    ("negated-values", "negative", lambda m: m.negated > 0),
    ("negation", "negative", lambda m: m.has("negative")),
    ("greeting", "greet", lambda m: m.has("greeting")),
)
FALLBACK_INTENT = "unknown"


def decide_intent(view: MessageView) -> tuple[str, str]:
    """``(intent, rule name)`` of the first rule of :data:`INTENT_RULES` that holds."""
    for name, intent, holds in INTENT_RULES:
        if holds(view):
            return intent, name
    return FALLBACK_INTENT, "no-rule"


def _friend_key(friend: Mapping[str, str]) -> frozenset[tuple[str, str]]:
    return frozenset((_fold(k).strip(), _fold(str(v)).strip()) for k, v in friend.items())


class MutualFriendsParser:
    """Parses MutualFriends dialogues into acts, with the mentioned values as arguments.

    Rules load once; between dialogues the parser keeps only a cache of the ways to write
    each value, so it is safe to reuse. A message act's ``tags`` hold the value types it
    mentions (``company``, ``school``...), a select's the types of the friend's
    attributes; ``note`` names the decision rule that chose the intent (for a select,
    whether the friend is in the reader's list). :meth:`parse_with_entities` and
    :meth:`analyse` give the mentions themselves.
    """

    corpus = CORPUS

    def __init__(
        self,
        rules: RuleSet | None = None,
        act_space: ActSpace | None = None,
        source: str = f"rules/{RULES_FILE}",
    ):
        self.rules = rules if rules is not None else load_mutualfriends_rules()
        self.words = _words(self.rules, source)
        self.names = _Names(self.words)
        self._openers = self.words.greeting | self.words.reply
        self.act_space = act_space if act_space is not None else load_act_space()

    def parse(self, dialogue: Dialogue) -> list[Act]:
        """One :class:`~actparse.models.Act` per turn."""
        return [t.act for t in self.analyse(dialogue)]

    def parse_with_entities(
        self, dialogue: Dialogue
    ) -> list[tuple[Act, tuple[EntityMention, ...]]]:
        """One ``(act, mentions)`` per turn; a select's mentions are empty (see ``analyse``)."""
        return [(t.act, t.entities) for t in self.analyse(dialogue)]

    def analyse(self, dialogue: Dialogue) -> list[TurnParse]:
        """One :class:`TurnParse` per turn: the act, its entities, and for a select the
        friend and whether it is in the reader's list."""
        linker = _Linker(self.names, dialogue.parties)
        kb_keys = [frozenset(_friend_key(f) for f in p.kb) for p in dialogue.parties]
        mentioned: set[int] = set()
        out: list[TurnParse] = []
        for turn in dialogue.turns:
            if turn.action == "message":
                parsed = self._message(turn, linker, mentioned)
            elif turn.action == "select":
                parsed = self._select(turn, kb_keys)
                # A selected friend's values count as mentioned for later tie-breaks.
                for value in (parsed.friend or {}).values():
                    mentioned.update(linker.by_text.get(_fold(value).strip(), ()))
            else:
                parsed = TurnParse(
                    Act(turn.index, turn.agent, None, note=f"unknown action {turn.action!r}")
                )
            out.append(parsed)
        return out

    def tags(self, text: str) -> frozenset[str]:
        """The message tags (``question``, ``greeting``, ``negative``) of a text.

        Rules run sentence by sentence, so "Hi. Do you know anyone at Molycorp" is a
        question although its first word is a greeting.
        """
        found: set[str] = set()
        for sentence in split_sentences(text) or [text]:
            tokens = tokenize(sentence)
            for tag in MESSAGE_TAGS:
                if tag not in found and self.rules.has(tag, tokens, sentence):
                    found.add(tag)
            if "question" not in found:
                # "Hi, do you know anyone at STX": the question starts after the opener.
                rest = self._after_opener(tokens)
                if rest is not None and self.rules.has("question", rest, " ".join(rest)):
                    found.add("question")
        return frozenset(found)

    def _after_opener(self, tokens: list[str]) -> list[str] | None:
        """The tokens after a leading greeting or reply word and its punctuation."""
        k = 0
        while k < len(tokens) and (tokens[k] in self._openers or tokens[k] in _BREAKS):
            k += 1
        return tokens[k:] if 0 < k < len(tokens) else None

    def _act(
        self,
        turn: Turn,
        intent: str,
        types: Sequence[str],
        note: str | None,
        entities: Sequence[EntityMention] = (),
    ) -> Act:
        coarse = self.act_space.coarse(CORPUS, intent)
        return Act(
            turn.index,
            turn.agent,
            intent,
            tags=tuple(types),
            note=note,
            coarse=coarse,
            entities=tuple(entities),
        )

    def _message(self, turn: Turn, linker: _Linker, mentioned: set[int]) -> TurnParse:
        links = linker.link(turn.text, turn.agent, mentioned)
        mentioned.update(link.value for link in links)
        mentions = [link.mention for link in links]
        negated = [link.mention for link in links if link.negated]
        view = MessageView(self.tags(turn.text), len(mentions), len(negated))
        intent, rule = decide_intent(view)
        types = list(dict.fromkeys(m.type for m in mentions))
        note = rule
        if negated and intent != "negative":
            note += "; negated: " + ", ".join(m.value for m in negated)
        act = self._act(turn, intent, types, note, mentions)
        return TurnParse(act, tuple(mentions), tuple(negated))

    def _select(
        self, turn: Turn, kb_keys: list[frozenset[frozenset[tuple[str, str]]]]
    ) -> TurnParse:
        friend = turn.data
        if not isinstance(friend, Mapping) or not friend:
            raise ValueError(f"turn {turn.index}: a select needs the chosen friend in its data")
        key = _friend_key(friend)
        in_own = key in kb_keys[1 - turn.agent]
        in_writer = key in kb_keys[turn.agent]
        types = list(dict.fromkeys(_type_of(friend, a) for a in friend))
        note = "in the reader's list" if in_own else "not in the reader's list"
        chosen = [EntityMention(str(v), str(v), _type_of(friend, a)) for a, v in friend.items()]
        act = self._act(turn, "select", types, note, chosen)
        return TurnParse(act, friend=friend, in_own_list=in_own, in_writer_list=in_writer)


@functools.cache
def default_parser() -> MutualFriendsParser:
    """The parser with the shipped rules, built once per process."""
    return MutualFriendsParser()


# ---------------------------------------------------------------------------
# Readers
# ---------------------------------------------------------------------------


def _get(obj: Any, key: str, path: str) -> Any:
    """``obj[key]``; a missing key raises ``KeyError`` naming the whole path."""
    if not isinstance(obj, Mapping):
        where = path.rsplit(".", 1)[0] if "." in path else "the record"
        raise TypeError(f"{where} must be a JSON object, got {type(obj).__name__}")
    if key not in obj:
        raise KeyError(path)
    return obj[key]


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise TypeError(f"{what} must be a list, got {type(value).__name__}")
    return value


def _friend(names: Any, values: Any, types: Mapping[str, str], what: str) -> Friend:
    names = _list(names, f"{what} attribute names")
    values = _list(values, f"{what} values")
    if len(names) != len(values):
        raise ValueError(f"{what} has {len(names)} attribute names but {len(values)} values")
    pairs = {
        text_field(n, f"{what} attribute name"): text_field(v, f"{what} value")
        for n, v in zip(names, values)
    }
    return Friend(pairs, types)


def _two_kbs(kbs: Any, what: str) -> list[list[Any]]:
    kbs = _list(kbs, what)
    if len(kbs) != 2:
        raise ValueError(f"{what} must hold 2 knowledge bases, got {len(kbs)}")
    return [_list(kb, f"{what}[{a}]") for a, kb in enumerate(kbs)]


def _attribute_types(attributes: Any, what: str) -> dict[str, str]:
    """Attribute name -> value type, from a list of ``{name, value_type}`` objects or the
    HuggingFace columns ``{name: [...], value_type: [...]}``; absent: none known."""
    if attributes is None:
        return {}
    if isinstance(attributes, Mapping):
        names = _list(attributes.get("name", []), f"{what}.name")
        kinds = _list(attributes.get("value_type", []), f"{what}.value_type")
        if len(names) != len(kinds):
            raise ValueError(f"{what} has {len(names)} names but {len(kinds)} value types")
        pairs = list(zip(names, kinds))
    else:
        pairs = []
        for n, attribute in enumerate(_list(attributes, what)):
            if not isinstance(attribute, Mapping):
                raise TypeError(f"{what}[{n}] must be a JSON object")
            pairs.append((attribute.get("name"), attribute.get("value_type")))
    return {
        text_field(name, f"{what} name"): text_field(kind, f"{what} value_type")
        for name, kind in pairs
        if kind is not None
    }


def _outcome(reward: Any, extra: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
    if reward is None and not extra:
        return None
    if reward is not None and (isinstance(reward, bool) or not isinstance(reward, int | float)):
        raise TypeError(f"the outcome reward must be a number, got {reward!r}")
    out = dict(extra or {})
    out["reward"] = None if reward is None else int(reward)
    return out


def _is_hf(raw: Mapping[str, Any]) -> bool:
    if "scenario_kbs" in raw:
        return True
    if "scenario" in raw:
        return False
    raise ValueError(
        "not a MutualFriends record: expected 'scenario_kbs' (HuggingFace export) or "
        "'scenario' (Cocoa transcript)"
    )


def _dialogue_from_hf(raw: Mapping[str, Any]) -> Dialogue:
    types = _attribute_types(raw.get("scenario_attributes"), "scenario_attributes")
    parties = []
    for a, kb in enumerate(_two_kbs(raw["scenario_kbs"], "scenario_kbs")):
        friends = []
        for n, row in enumerate(kb):
            what = f"scenario_kbs[{a}][{n}]"
            row = _list(row, what)
            if len(row) != 2:
                raise ValueError(f"{what} must be [attribute names, values], got {len(row)} items")
            friends.append(_friend(row[0], row[1], types, what))
        parties.append(Party(kb=tuple(friends)))
    events = _get(raw, "events", "events")
    actions = _list(_get(events, "actions", "events.actions"), "events.actions")
    agents = _list(_get(events, "agents", "events.agents"), "events.agents")
    messages = _list(_get(events, "data_messages", "events.data_messages"), "events.data_messages")
    selects = _select_rows(_get(events, "data_selects", "events.data_selects"))
    for name, column in (
        ("agents", agents),
        ("data_messages", messages),
        ("data_selects", selects),
    ):
        if len(column) != len(actions):
            raise ValueError(
                f"events.actions has {len(actions)} entries but events.{name} has {len(column)}"
            )
    turns = []
    for i, action in enumerate(actions):
        agent = agent_index(agents[i], f"events.agents[{i}]")
        if action == "message":
            text = text_field(messages[i], f"events.data_messages[{i}]")
            turns.append(Turn(i, agent, "message", text))
        elif action == "select":
            names, values = selects[i]
            if not names:
                raise ValueError(f"event {i}: a select without a friend in events.data_selects")
            friend = _friend(names, values, types, f"events.data_selects[{i}]")
            turns.append(Turn(i, agent, "select", data=friend))
        else:
            raise ValueError(f"event {i}: unknown action {action!r} (expected message or select)")
    return Dialogue(
        turns=tuple(turns),
        parties=(parties[0], parties[1]),
        id=raw.get("uuid"),
        corpus=CORPUS,
        outcome=_outcome(raw.get("outcome_reward")),
    )


def _select_rows(selects: Any) -> list[tuple[Any, Any]]:
    """``(attribute names, values)`` per event, from the export's columns
    ``{attributes: [...], values: [...]}`` or from a list of ``{attributes, values}``."""
    if isinstance(selects, Mapping):
        names = _list(_get(selects, "attributes", "events.data_selects.attributes"), "attributes")
        values = _list(_get(selects, "values", "events.data_selects.values"), "values")
        if len(names) != len(values):
            raise ValueError(
                f"events.data_selects has {len(names)} attribute lists but "
                f"{len(values)} value lists"
            )
        return list(zip(names, values))
    rows = []
    for i, row in enumerate(_list(selects, "events.data_selects")):
        where = f"events.data_selects[{i}]"
        rows.append(
            (_get(row, "attributes", f"{where}.attributes"), _get(row, "values", f"{where}.values"))
        )
    return rows


def _dialogue_from_cocoa(raw: Mapping[str, Any]) -> Dialogue:
    scenario = _get(raw, "scenario", "scenario")
    types = _attribute_types(
        scenario.get("attributes") if isinstance(scenario, Mapping) else None, "scenario.attributes"
    )
    parties = []
    for a, kb in enumerate(_two_kbs(_get(scenario, "kbs", "scenario.kbs"), "scenario.kbs")):
        friends = []
        for n, row in enumerate(kb):
            what = f"scenario.kbs[{a}][{n}]"
            if not isinstance(row, Mapping):
                raise TypeError(f"{what} must be a JSON object (attribute -> value)")
            friends.append(_friend(list(row), list(row.values()), types, what))
        parties.append(Party(kb=tuple(friends)))
    turns = []
    for i, event in enumerate(_list(_get(raw, "events", "events"), "events")):
        action = _get(event, "action", f"events[{i}].action")
        agent = agent_index(_get(event, "agent", f"events[{i}].agent"), f"events[{i}].agent")
        data = event.get("data")
        if action == "message":
            turns.append(Turn(i, agent, "message", text_field(data, f"events[{i}].data")))
        elif action == "select":
            if not isinstance(data, Mapping) or not data:
                raise ValueError(f"event {i}: a select needs the friend as an object in 'data'")
            friend = _friend(list(data), list(data.values()), types, f"events[{i}].data")
            turns.append(Turn(i, agent, "select", data=friend))
        else:
            raise ValueError(f"event {i}: unknown action {action!r} (expected message or select)")
    outcome = raw.get("outcome")
    if outcome is not None and not isinstance(outcome, Mapping):
        raise TypeError("outcome must be a JSON object")
    extra = {k: v for k, v in (outcome or {}).items() if k != "reward"}
    return Dialogue(
        turns=tuple(turns),
        parties=(parties[0], parties[1]),
        id=raw.get("uuid"),
        corpus=CORPUS,
        outcome=_outcome((outcome or {}).get("reward"), extra),
    )


def dialogue_from_mutualfriends(raw: Mapping[str, Any]) -> Dialogue:
    """A :class:`~actparse.models.Dialogue` from a MutualFriends record, in either layout.

    HuggingFace export: ``scenario_kbs`` (each friend ``[attribute names, values]``),
    ``scenario_attributes``, ``events`` with parallel lists ``actions``, ``agents``,
    ``data_messages``, ``data_selects {attributes, values}``, and ``outcome_reward``.
    Cocoa transcript: ``scenario.kbs`` (friends as objects), ``scenario.attributes``,
    ``events`` of ``{action, agent, data}``, ``outcome.reward``. Friends become
    :class:`Friend` mappings carrying their value types. Malformed input raises
    ``KeyError`` (naming the missing field's path), ``TypeError`` or ``ValueError``.
    """
    if not isinstance(raw, Mapping):
        raise TypeError(f"a MutualFriends record must be a JSON object, got {type(raw).__name__}")
    return _dialogue_from_hf(raw) if _is_hf(raw) else _dialogue_from_cocoa(raw)


def iter_records(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(position, raw record)`` for every dialogue of a file, positions from 1.

    A Cocoa JSON list is loaded whole (the position is the index in the list); JSON
    lines are streamed (the position is the line number). Errors raise
    :class:`~actparse.readers.InputError` naming the file and position.
    """
    for record in read_records(path, CORPUS):
        yield record.line, record.raw


# ---------------------------------------------------------------------------
# Labelling
# ---------------------------------------------------------------------------


def label_mutualfriends(
    raw: Mapping[str, Any], parser: MutualFriendsParser | None = None
) -> dict[str, Any]:
    """A copy of a raw record with one act per event added; every input field is kept.

    HuggingFace export: a new field ``acts``, one object per event. Cocoa transcript:
    ``metadata`` on each event. Each act object holds ``intent``, ``coarse`` and
    ``entities`` (``[{surface, value, type}]``); a select's also holds ``friend`` and
    ``in_own_list`` (whether the friend is in the reader's own list). The input is not
    modified.
    """
    dialogue = dialogue_from_mutualfriends(raw)
    out, _acts = write_mutualfriends(raw, (parser or default_parser()).analyse(dialogue))
    return out


def write_mutualfriends(
    raw: Mapping[str, Any], parsed: Sequence[TurnParse]
) -> tuple[dict[str, Any], list[Act]]:
    """The labelled copy of ``raw`` (see :func:`label_mutualfriends`) and its acts."""
    out = dict(raw)
    if _is_hf(raw):
        out["acts"] = [p.to_dict() for p in parsed]
    else:
        events = []
        for event, p in zip(raw["events"], parsed):
            copy = dict(event)
            copy["metadata"] = p.to_dict()
            events.append(copy)
        out["events"] = events
    return out, [p.act for p in parsed]


# ---------------------------------------------------------------------------
# Evaluation
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SelectionMiss:
    """A dialogue whose final selections disagree with its recorded outcome."""

    id: str | None
    reward: int
    finals: tuple[Mapping[str, str] | None, Mapping[str, str] | None]

    def __str__(self) -> str:
        def show(friend: Mapping[str, str] | None) -> str:
            return "nothing" if friend is None else ", ".join(friend.values())

        return (
            f"{self.id or '<no id>'}: reward {self.reward}, but agent 0 selected "
            f"{show(self.finals[0])} and agent 1 {show(self.finals[1])}"
        )


@dataclass
class MutualFriendsReport:
    """Figures over a set of dialogues; :meth:`summary` is the JSON view."""

    dialogues: int = 0
    turns: int = 0
    messages: int = 0
    messages_with_entities: int = 0
    mentions: int = 0
    mentions_by_type: Counter[str] = field(default_factory=Counter)
    intents: Counter[str] = field(default_factory=Counter)
    coarse: Counter[str] = field(default_factory=Counter)
    selections: int = 0
    selections_in_both: int = 0
    selections_in_reader: int = 0
    #: Dialogues with a recorded reward, and those whose final selections agree with it.
    scored: int = 0
    agreeing: int = 0
    rewarded: int = 0
    missed: list[SelectionMiss] = field(default_factory=list)

    def add(self, dialogue: Dialogue, parsed: Sequence[TurnParse]) -> None:
        """Count one parsed dialogue."""
        self.dialogues += 1
        self.turns += len(parsed)
        finals: list[Mapping[str, str] | None] = [None, None]
        for turn, p in zip(dialogue.turns, parsed):
            if p.act.intent is not None:
                self.intents[p.act.intent] += 1
            if p.act.coarse is not None:
                self.coarse[p.act.coarse] += 1
            if turn.action == "message":
                self.messages += 1
                self.mentions += len(p.entities)
                self.messages_with_entities += bool(p.entities)
                self.mentions_by_type.update(m.type for m in p.entities)
            elif p.friend is not None:
                self.selections += 1
                self.selections_in_both += bool(p.in_own_list and p.in_writer_list)
                self.selections_in_reader += bool(p.in_own_list)
                finals[turn.agent] = p.friend
        reward = (dialogue.outcome or {}).get("reward")
        if reward is None:
            return
        self.scored += 1
        self.rewarded += reward == 1
        # Cocoa's controller rewards 1 exactly when both agents' last selections agree.
        a, b = finals
        success = a is not None and b is not None and _friend_key(a) == _friend_key(b)
        if success == (reward == 1):
            self.agreeing += 1
        else:
            self.missed.append(SelectionMiss(dialogue.id, int(reward), (finals[0], finals[1])))

    def misses(self, n: int) -> list[SelectionMiss]:
        """The first ``n`` dialogues whose final selections disagree with the outcome."""
        return self.missed[:n]

    def summary(self) -> dict[str, Any]:
        """JSON-ready figures; shares are 0.0 when there is nothing to count."""

        def share(part: int, whole: int) -> float:
            return part / whole if whole else 0.0

        return {
            "dialogues": self.dialogues,
            "turns": self.turns,
            "message_turns": self.messages,
            "select_turns": self.selections,
            "entity_mentions": self.mentions,
            "mentions_per_dialogue": share(self.mentions, self.dialogues),
            "mentions_per_message": share(self.mentions, self.messages),
            "messages_with_entities": share(self.messages_with_entities, self.messages),
            "mentions_by_type": dict(sorted(self.mentions_by_type.items())),
            "intents": dict(sorted(self.intents.items())),
            "coarse": dict(sorted(self.coarse.items())),
            "selections_in_both_lists": share(self.selections_in_both, self.selections),
            "selections_in_reader_list": share(self.selections_in_reader, self.selections),
            "scored_dialogues": self.scored,
            "rewarded_dialogues": self.rewarded,
            "selection_agreement": share(self.agreeing, self.scored),
        }


def evaluate_mutualfriends(
    dialogues: Iterable[Dialogue | Mapping[str, Any]], parser: Any = None
) -> MutualFriendsReport:
    # ``parser`` is typed loosely so that callers holding the generic parser protocol
    # can pass the shipped MutualFriends parser; anything else is refused below.
    """Parse every dialogue and gather the figures.

    ``dialogues`` are :class:`~actparse.models.Dialogue` objects or raw records of either
    layout. The report counts entity mentions (per dialogue, per message, by type),
    intents, the share of selections whose friend is in both lists, and
    ``selection_agreement``: how often "both agents' final selections are the same
    friend" agrees with ``outcome_reward``.
    """
    if parser is not None and not isinstance(parser, MutualFriendsParser):
        raise TypeError(f"evaluate_mutualfriends needs a MutualFriendsParser, got {parser!r}")
    chosen = parser or default_parser()
    report = MutualFriendsReport()
    for item in dialogues:
        dialogue = item if isinstance(item, Dialogue) else dialogue_from_mutualfriends(item)
        report.add(dialogue, chosen.analyse(dialogue))
    return report
