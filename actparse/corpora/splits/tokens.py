"""Step 1: the tokens of a message as the split parser reads them.

Lowercase, apostrophes normalised (backticks, curly quotes), contractions expanded
("can't" -> can not, "i'll" -> i will) and the multi-word phrases of the lexicon read as
one token ("everything else" -> the-rest). The tag rules of the split corpora see these
tokens too.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Mapping, Sequence
from itertools import chain

import regex

from actparse.corpora.splits.lexicon import SplitLexicon
from actparse.corpora.splits.words import per_lexicon

__all__ = ["EXCHANGE_FOR", "tokenize"]

# Words, numbers, and single other characters; an apostrophe inside a word keeps the
# word whole so that contractions can be looked up.
_TOKEN = regex.compile(r"[a-z]+(?:'[a-z]+)*|\d+|[^\sa-z\d]", regex.VERSION0)
# Backticks, acute accents and curly quotes all stand for the apostrophe.
_APOSTROPHES = str.maketrans({"`": "'", "\u2019": "'", "\u2018": "'", "\u00b4": "'"})
_APOSTROPHE_MARKS = tuple(chr(code) for code in _APOSTROPHES)
# Clitics split off a word after an apostrophe ("i'll" -> i will).
_CLITICS = {"ll": "will", "d": "would", "m": "am", "re": "are", "ve": "have", "s": "is"}

# The token the phrase table makes of "in exchange for" and "in return for".
EXCHANGE_FOR = "exchange-for"


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
    text = text.lower()
    if any(mark in text for mark in _APOSTROPHE_MARKS):
        # translate costs several times the test, and most messages have no such mark.
        text = text.translate(_APOSTROPHES)
    raw = _TOKEN.findall(text)
    if _CLITICS.keys().isdisjoint(raw):
        # No clitic standing alone, so every word becomes the same tokens wherever it
        # is: one lookup each in the word table (most messages).
        words = _words(lexicon)
        tokens = list(chain.from_iterable(map(words.__getitem__, raw)))
    else:
        tokens = _tokens_in_context(raw, lexicon)
    return _join_phrases(tokens, lexicon.phrases)


def _tokens_in_context(raw: Sequence[str], lexicon: SplitLexicon) -> list[str]:
    """The tokens of the raw words of a message, in context.

    A clitic that stands alone is read with the words before it ("i ; ll take"); typos are corrected
    (before the phrases)."""
    expansions = _expansions(lexicon)
    tokens: list[str] = []
    for token in raw:
        if token in _CLITICS:
            clitic = _CLITICS[token]
            if token != "s" and _stray_apostrophe(tokens):
                # "i ; ll take", "i ; 'd like": a clitic cut off by a mistyped apostrophe.
                while tokens[-1] in _STRAY:
                    tokens.pop()
                tokens.append(clitic)
                continue
        tokens.extend(_word_parts(token, lexicon, expansions))
    typos = _typos(lexicon)
    if typos and not typos.keys().isdisjoint(tokens):
        tokens = [part for t in tokens for part in typos.get(t, (t,))]
    return tokens


def _word_parts(token: str, lexicon: SplitLexicon, expansions: _Table) -> tuple[str, ...]:
    """What one raw word expands to, typos not yet corrected."""
    parts = expansions.get(token)
    if parts is not None:
        return parts
    if "'" in token:
        return tuple(_expand(token, lexicon))
    if token.isspace():  # separators the pattern's ASCII \s does not cover
        return ()
    return (token,)  # most words: _expand would give the word itself


#: A table built from a lexicon: a word to the tokens it stands for.
_Table = dict[str, tuple[str, ...]]


def _expansions(lexicon: SplitLexicon) -> _Table:
    """What :func:`_expand` makes of every word it changes, built once per lexicon.

    The words are those without an apostrophe (contractions, "couldnt", "wouldent"): the per-token
    work of tokenizing is then one lookup. Whitespace tokens are not in it (they are dropped)."""
    return per_lexicon(lexicon, _build_expansions)


def _build_expansions(lexicon: SplitLexicon) -> _Table:
    candidates = {key for key in lexicon.contractions if "'" not in key}
    for stem in lexicon.words["negatable"]:
        candidates.update((stem + "nt", stem + "ent"))
    table = {}
    for token in sorted(candidates):
        if "'" in token or token.isspace():
            continue
        parts = tuple(_expand(token, lexicon))
        if parts != (token,):
            table[token] = parts
    return table


#: How many words a word table keeps (:func:`_words`); words past it are worked out
#: each time: a stream of ever new words cannot grow the table without bound.
_WORDS_KEPT = 50_000


class _WordTable(dict[str, tuple[str, ...]]):
    """The tokens each raw word of a message becomes when no clitic stands alone in it.

    Expanded (:data:`_expansions`, :func:`_expand`) and typos corrected (:func:`_typos`), worked out
    the first time a word is looked up and kept (up to :data:`_WORDS_KEPT` words)."""

    def __init__(self, lexicon: SplitLexicon) -> None:
        super().__init__()
        # A weak reference: the table lives in _TABLES until its lexicon is collected.
        self._lexicon = weakref.ref(lexicon)

    def __missing__(self, token: str) -> tuple[str, ...]:
        lexicon = self._lexicon()
        if lexicon is None:  # pragma: no cover - a table is only used with its lexicon
            raise KeyError(token)
        typos = _typos(lexicon)
        parts = tuple(
            part
            for word in _word_parts(token, lexicon, _expansions(lexicon))
            for part in typos.get(word, (word,))
        )
        if len(self) < _WORDS_KEPT:
            self[token] = parts
        return parts


def _words(lexicon: SplitLexicon) -> _Table:
    """The word table of a lexicon (:class:`_WordTable`)."""
    return per_lexicon(lexicon, _WordTable)


#: Words at least this long also keep their meaning with one letter left out
#: ("everthing", "baskeball"); shorter ones would meet real words ("hat" - "at").
_DROPPED_LETTER_MIN = 7
#: Words at least this long keep their meaning with one stray letter typed inside them
#: next to a neighbouring key of a letter beside it ("bsall"); "hat" would meet "heat".
_STRAY_LETTER_MIN = 4
#: The neighbours of each letter on a QWERTY keyboard (same row and the rows around it).
_KEY_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
_KEY_NEIGHBOURS: dict[str, frozenset[str]] = {
    ch: frozenset(
        other
        for r2, row2 in enumerate(_KEY_ROWS)
        if abs(r2 - r) <= 1
        for c2, other in enumerate(row2)
        if other != ch and abs(c2 - c) <= 1
    )
    for r, row in enumerate(_KEY_ROWS)
    for c, ch in enumerate(row)
}


def _stray_letters(word: str) -> set[str]:
    """``word`` with one letter typed inside it whose key neighbours a letter beside it.

    Neighbours the key of that letter: "ball" -> "bsall", "bkook"."""
    out: set[str] = set()
    for k in range(1, len(word)):
        for extra in _KEY_NEIGHBOURS.get(word[k - 1], frozenset()) | _KEY_NEIGHBOURS.get(
            word[k], frozenset()
        ):
            out.add(word[:k] + extra + word[k:])
    return out


def _typos(lexicon: SplitLexicon) -> _Table:
    """The typo table of a lexicon (see :func:`_build_typos`), built once."""
    return per_lexicon(lexicon, _build_typos)


def _build_typos(lexicon: SplitLexicon) -> _Table:
    """Misspellings of item words and a few others, mapped to the tokens meant.

    Misspellings of item words, of "everything" and of the words pointing back at an
    earlier offer ("original") that are no other word of the lexicon, each mapped to
    the tokens meant (typo-tolerant-items): two neighbouring letters swapped ("aht",
    "obok", "everythign"), a letter typed twice ("balll"), a stray letter from a key
    next to its neighbour's inside a word of four letters or more ("bsall"), in long
    words one letter left out ("intial"), an item word glued to its article, determiner or number
    ("theball", "onehat"), and "i" or "you" glued to the verb after it ("itake",
    "youcan")."""
    # Near-spellings (lexicon.variants) are spelt no further: a slip of a slip is no name.
    listed = [w for w in lexicon.item_words if w not in lexicon.variants]
    targets = [
        *listed,
        *sorted(lexicon.words["everything"]),
        *sorted(lexicon.words["original"]),
    ]
    known = set(lexicon.item_words) | set(lexicon.numbers) | set(lexicon.contractions)
    for members in lexicon.words.values():
        known |= members
    table: dict[str, tuple[str, ...]] = {}
    for word in targets:
        variants = {word[:k] + word[k + 1] + word[k] + word[k + 2 :] for k in range(len(word) - 1)}
        variants |= {word[: k + 1] + word[k:] for k in range(len(word))}
        if len(word) >= _DROPPED_LETTER_MIN:
            variants |= {word[:k] + word[k + 1 :] for k in range(len(word))}
        for variant in variants - known:
            table.setdefault(variant, (word,))
    # A stray letter is the least likely reading: the readings above win over it.
    for word in targets:
        if len(word) >= _STRAY_LETTER_MIN and word.isalpha():
            for variant in _stray_letters(word) - known:
                table.setdefault(variant, (word,))
    leads = lexicon.words["determiner"] | set(lexicon.numbers)
    for word in listed:
        for lead in sorted(leads):
            glued = lead + word
            if glued not in known:
                table.setdefault(glued, (lead, word))
    # "itake", "youcan": a person glued to the verb after it.
    verbs = set().union(
        *(lexicon.words[c] for c in ("possess", "give", "imperative", "modal", "negatable"))
    )
    for lead in sorted(lexicon.words["self"] | lexicon.words["other"]):
        for verb in sorted(verbs):
            glued = lead + verb
            if glued not in known:
                table.setdefault(glued, (lead, verb))
    return table


#: What a mistyped apostrophe comes out as.
_STRAY = frozenset({";", "'", ""})


def _stray_apostrophe(tokens: Sequence[str]) -> bool:
    """The tokens end with a word and then only stray apostrophes (";", "'")."""
    k = len(tokens)
    while k > 0 and tokens[k - 1] in _STRAY:
        k -= 1
    return 0 < k < len(tokens) and tokens[k - 1].isalpha()


def _join_phrases(
    tokens: Sequence[str], phrases: Mapping[str, tuple[tuple[tuple[str, ...], str], ...]]
) -> tuple[str, ...]:
    """Replace every phrase of the table by its token, the longest match first."""
    if phrases.keys().isdisjoint(tokens):
        return tuple(tokens)  # no phrase can start anywhere
    out: list[str] = []
    done = 0  # tokens before this are in out
    # Only where a phrase can start is there anything to try.
    for i in [i for i, token in enumerate(tokens) if token in phrases]:
        if i < done:
            continue  # inside a phrase already joined
        for words, replacement in phrases[tokens[i]]:
            k = len(words)
            if tuple(tokens[i : i + k]) == words:
                out.extend(tokens[done:i])
                out.append(replacement)
                done = i + k
                break
    if not done:
        return tuple(tokens)
    out.extend(tokens[done:])
    return tuple(out)
