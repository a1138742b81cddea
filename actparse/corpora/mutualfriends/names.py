"""How knowledge-base values are written: folded words, and every shape of a name.

- :func:`fold` and :func:`link_tokens`: the words of a message or a value with case,
  accents and apostrophes folded, and their character offsets;
- :class:`Words`: the word classes of the rule file the linker reads;
- :class:`Names`: every way to write a value (whole, partial, acronym), cached across
  dialogues.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

import regex

from actparse.engine.rulefiles import RuleError
from actparse.engine.tags import RuleSet

__all__ = [
    "BREAKS",
    "MAX_NAME_WORDS",
    "MAX_PARTIAL_WORDS",
    "MESSAGE_TAGS",
    "WORD_CLASSES",
    "Names",
    "Shape",
    "Words",
    "fold",
    "link_tokens",
    "word_classes",
]

#: Tags the rule file must define: message tags, then the linker's word classes.
MESSAGE_TAGS = ("question", "greeting", "negative", "smalltalk")
WORD_CLASSES = ("connector", "generic", "stop", "contrast", "reply", "pronoun")

#: Partial names are stretches of at most this many words (as Cocoa's linker)...
MAX_PARTIAL_WORDS = 6
#: ...taken from values of at most this many words (longer ones match whole only).
MAX_NAME_WORDS = 20


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
#: Clause punctuation, kept as tokens by :func:`link_tokens`.
BREAKS = frozenset(".,;:!?()")


def fold(text: str) -> str:
    """Case, accents and apostrophes (straight or curly) folded: ``Tully's`` -> ``tullys``."""
    if text.isascii():
        # The common case, and the hot path: no accents to strip, lower() is casefold().
        return text.lower().replace("'", "")
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return bare.casefold().translate(_APOSTROPHES)


def link_tokens(text: str) -> list[tuple[str, int, int]]:
    """``(folded word, start, end)`` per token; clause punctuation is kept as a token.

    A period ends a clause only after a word of three letters or more: "Johnson C.
    Smith" and "St. John's" stay one name.
    """
    out: list[tuple[str, int, int]] = []
    for match in _TOKEN.finditer(text):
        raw = match.group()
        start, end = match.span()
        if raw == ".":
            if out and out[-1][0] not in BREAKS and len(out[-1][0]) <= 2:
                continue
            out.append((".", start, end))
        elif raw in BREAKS:
            out.append((raw, start, end))
        elif raw == "&":
            out.append(("and", start, end))
        elif raw.lower() in ("n't", "n\u2019t"):
            out.append(("n't", start, end))
        else:
            word = fold(raw)
            if word:
                out.append((word, start, end))
    return out


def _value_tokens(value: str) -> list[str]:
    return [w for w, _, _ in link_tokens(value) if w not in BREAKS]


# ---------------------------------------------------------------------------
# The word classes of the rule file
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Words:
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
            words.update(fold(v) if v not in ("n't", "&") else v for v in rule.values)
    return frozenset(words)


def word_classes(rules: RuleSet, source: str) -> Words:
    """The :class:`Words` of a rule file.

    ``source`` names it when a needed tag (:data:`MESSAGE_TAGS`, :data:`WORD_CLASSES`) is missing
    (a :class:`RuleError`)."""
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
    return Words(
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


# ---------------------------------------------------------------------------
# The shapes of a name
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Shape:
    """One way to write a value: its folded tokens, and whether it names it whole."""

    tokens: tuple[str, ...]
    exact: bool
    #: A one-word value that is also a function word ("Next") must be written as is.
    case_sensitive: bool


class Names:
    """The ways to write each value (whole, partial, acronym), cached across dialogues.

    Cached since the same schools and companies come back in scenario after scenario."""

    CACHE_LIMIT = 200_000

    def __init__(self, words: Words):
        self.words = words
        self._cache: dict[str, tuple[Shape, ...]] = {}

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

    def shapes(self, value: str) -> tuple[Shape, ...]:
        """Every way to write ``value``, whole forms first."""
        try:
            return self._cache[value]
        except KeyError:
            pass
        if len(self._cache) >= self.CACHE_LIMIT:
            self._cache.clear()
        found: dict[tuple[str, ...], Shape] = {}
        for shape in self._shapes(value):
            # A token sequence keeps its first (strongest) reading.
            found.setdefault(shape.tokens, shape)
        shapes = self._cache[value] = tuple(found.values())
        return shapes

    def _shapes(self, value: str) -> Iterator[Shape]:
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
            yield Shape(whole, True, single_function_word)
        if len(tokens) > MAX_NAME_WORDS:
            return
        # An acronym of three or more words ("NTU", "JCSU"), unless it is a common word.
        if len(content) >= 3:
            acronym = "".join(t[0] for t in content)
            if acronym not in self.words.stop and acronym not in connector:
                yield Shape((acronym,), False, False)
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
                        yield Shape(span, False, False)
