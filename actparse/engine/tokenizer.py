"""Stanford Cocoa's CraigslistBargains tokenizer, reimplemented without NLTK.

Cocoa (Python 2) tokenized every utterance and listing with::

    utterance = utterance.lower()
    utterance = re.sub(r'\\.{2,}', '...', utterance)
    utterance = re.sub(r'\\\\|>|/', ' ', utterance)
    tokens = nltk.word_tokenize(utterance)          # NLTK 3.2.4
    tokens = stick_dollar_sign(tokens)

``nltk.word_tokenize`` splits the text into sentences with Punkt, then runs every
sentence through NLTK 3.2.4's "improved" Treebank word tokenizer.  Here the
sentence splitter is an *untrained* ``PunktSentenceTokenizer()``: no abbreviations,
collocations, sentence starters or orthographic statistics, which removes most of
Punkt's machinery (see :mod:`actparse.engine.sentences`).

Everything below reproduces those steps output for output, including Python 2's
regex semantics: patterns NLTK compiled without ``re.UNICODE`` have ASCII-only
``\\w``, ``\\d``, ``\\s`` and ``\\b`` (we compile them with ``regex.ASCII``), while the
ones compiled with ``re.UNICODE`` use Python's own notion of whitespace, which
:mod:`actparse.engine.sentences` spells out because the ``regex`` module's Unicode
``\\s`` differs from ``str.isspace`` on U+001C..U+001F.

For speed and to avoid pathological backtracking, some steps are computed directly
instead of with NLTK's regexes, always with provably identical results: Punkt's
period-context search is a linear scan, Treebank rules that are plain literal
substitutions use ``str.replace``, the two "final period" rules inspect the string's
end, every step is skipped when the characters it needs are absent, and a plain
sentence is tokenized chunk by chunk from a cache (see ``_treebank_tokenize``).  Regexes
are compiled once, at import.  The module never imports NLTK.
"""

from __future__ import annotations

from itertools import chain

import regex

from actparse.engine.guard import timeout_for
from actparse.engine.sentences import _ASCII, split_sentences

__all__ = [
    "is_number_token",
    "split_sentences",
    "stick_dollar_sign",
    "tokenize",
    "word_tokenize",
]

# ASCII whitespace, as Python 2's non-Unicode ``\s``.
_ASCII_WS = " \t\n\r\x0b\x0c"

# ---------------------------------------------------------------------------
# Step 1-3: Cocoa's own normalisation
# ---------------------------------------------------------------------------

_DOT_RUN = regex.compile(r"\.{2,}", _ASCII)
# re.sub(r'\\|>|/', ' ', s) is a character-for-character replacement.
#: The characters Cocoa reads as spaces (alignment.py maps them the same way).
_SLASHES = "\\>/"
_SLASHES_TO_SPACE = str.maketrans(dict.fromkeys(_SLASHES, " "))


def _normalize(text: str) -> str:
    """Cocoa's pre-NLTK steps: lowercase, dot runs to ``...``, ``\\ > /`` to spaces."""
    text = text.lower()
    if ".." in text:
        text = _DOT_RUN.sub("...", text, timeout=timeout_for(text))
    if "\\" in text or ">" in text or "/" in text:
        text = text.translate(_SLASHES_TO_SPACE)
    return text


# ---------------------------------------------------------------------------
# Step 4b: NLTK 3.2.4's "improved" Treebank word tokenizer
# ---------------------------------------------------------------------------


def _pad(text: str, chars: str) -> str:
    """Put a space on each side of every occurrence of each char in ``chars``.

    Same result as NLTK's ``re.sub('[chars]', r' \\g<0> ', text)``, but a few
    substring tests are far cheaper than a regex call when nothing matches.
    """
    for char in chars:
        if char in text:
            text = text.replace(char, f" {char} ")
    return text


# Improved rules (re.UNICODE in NLTK): guillemets and curly quotes are padded.
_OPEN_QUOTES = "\u00ab\u201c\u2018"  # opening guillemet, curly double and single quotes
_CLOSE_QUOTES = "\u00bb\u201d\u2019"  # their closing counterparts
# Starting quotes: a '"' after a space or an opening bracket opens a quotation.
_OPEN_DOUBLE_QUOTE = regex.compile(r'([ (\[{<])"', _ASCII)
# Punctuation: ':' and ',' are split off unless followed by a digit ("1,000").
_COLON_COMMA = regex.compile(r"([:,])([^\d])", _ASCII)
_FINAL_COLON_COMMA = regex.compile(r"([:,])$", _ASCII)
_SYMBOLS = ";@#$%&"
_QUESTION_EXCLAMATION = "?!"
_QUOTE_BEFORE_SPACE = regex.compile(r"([^'])' ", _ASCII)
_BRACKETS = "][(){}<>"
# Ending quotes.
_DOUBLE_APOSTROPHE = regex.compile(r"(\S)('')", _ASCII)
_CLITICS = (
    regex.compile(r"([^' ])('[sS]|'[mM]|'[dD]|') ", _ASCII),
    regex.compile(r"([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) ", _ASCII),
)
# Robert MacIntyre's contractions (CONTRACTIONS2 then CONTRACTIONS3), ASCII \b.
_CONTRACTIONS = tuple(
    regex.compile(pattern, _ASCII)
    for pattern in (
        r"(?i)\b(can)(not)\b",
        r"(?i)\b(d)('ye)\b",
        r"(?i)\b(gim)(me)\b",
        r"(?i)\b(gon)(na)\b",
        r"(?i)\b(got)(ta)\b",
        r"(?i)\b(lem)(me)\b",
        r"(?i)\b(mor)('n)\b",
        r"(?i)\b(wan)(na)\s",
        r"(?i) ('t)(is)\b",
        r"(?i) ('t)(was)\b",
    )
)
# Every contraction match contains one of these (lowercased); when none occurs all
# ten substitutions would be no-ops and are skipped.
_CONTRACTION_HINTS = ("cannot", "d'ye", "gimme", "gonna", "gotta", "lemme", "mor'n", "wanna", " 't")


def _may_contain_contraction(text: str) -> bool:
    lowered = text.lower()
    return any(hint in lowered for hint in _CONTRACTION_HINTS)


# The two "final period" rules share the shape ([^.])(\.)([CLOSERS]*)\s*$.
_IMPROVED_CLOSERS = frozenset("])}>\"' \u00bb\u201d\u2019")
_CLOSERS = frozenset("])}>\"'")


def _split_final_period(text: str, closers: frozenset[str], unicode_space: bool) -> str:
    """Apply ``([^\\.])(\\.)([closers]*)\\s*$`` -> ``\\1 \\2 \\3 `` or ``\\1 \\2\\3 ``.

    The pattern can only match at the last ``.`` of the text (anything after it must
    be closers or whitespace, neither of which includes ``.``), preceded by a
    non-period.  The greedy closer group takes the longest run of closers; the rest
    must be whitespace.  The improved rule (``unicode_space``) uses Unicode ``\\s``
    and puts a space between the period and the closers; the original rule uses
    ASCII ``\\s`` and keeps them together.
    """
    dot = text.rfind(".")
    if dot < 1 or text[dot - 1] == ".":
        return text
    rest = text[dot + 1 :]
    n_closers = 0
    while n_closers < len(rest) and rest[n_closers] in closers:
        n_closers += 1
    tail = rest[n_closers:]
    if unicode_space:
        if tail and not tail.isspace():
            return text
        return f"{text[:dot]} . {rest[:n_closers]} "
    if tail.strip(_ASCII_WS):
        return text
    return f"{text[:dot]} .{rest[:n_closers]} "


def _treebank_rules(text: str, *, final_period: bool = True) -> list[str]:
    """NLTK 3.2.4's ``_treebank_word_tokenizer.tokenize`` for one sentence.

    The rules run in NLTK's order; each is skipped when the characters it needs are
    absent, which never changes the result. Without ``final_period`` the two rules that
    split a sentence's last period are left out (for a chunk inside a sentence).
    """
    non_ascii = not text.isascii()

    # Starting quotes.
    if non_ascii:
        text = _pad(text, _OPEN_QUOTES)
    if text.startswith('"'):
        text = "``" + text[1:]
    if "``" in text:
        text = text.replace("``", " `` ")
    if '"' in text:
        text = _OPEN_DOUBLE_QUOTE.sub(r"\1 `` ", text, timeout=timeout_for(text))

    # Punctuation.
    has_period = "." in text
    if has_period and final_period:
        text = _split_final_period(text, _IMPROVED_CLOSERS, unicode_space=True)
    if ":" in text or "," in text:
        text = _COLON_COMMA.sub(r" \1 \2", text, timeout=timeout_for(text))
        text = _FINAL_COLON_COMMA.sub(r" \1 ", text, timeout=timeout_for(text))
    if has_period:
        text = text.replace("...", " ... ")
    text = _pad(text, _SYMBOLS)
    if has_period and final_period:
        text = _split_final_period(text, _CLOSERS, unicode_space=False)
    text = _pad(text, _QUESTION_EXCLAMATION)
    if "' " in text:
        text = _QUOTE_BEFORE_SPACE.sub(r"\1 ' ", text, timeout=timeout_for(text))

    # Parentheses, brackets and double dashes.
    text = _pad(text, _BRACKETS)
    if "--" in text:
        text = text.replace("--", " -- ")

    # Ending quotes, with a space on each side to make the rules simpler.
    text = f" {text} "
    if non_ascii:
        text = _pad(text, _CLOSE_QUOTES)
    if '"' in text:
        text = text.replace('"', " '' ")
    if "'" in text:
        if "''" in text:
            text = _DOUBLE_APOSTROPHE.sub(r"\1 \2 ", text, timeout=timeout_for(text))
        for pattern in _CLITICS:
            text = pattern.sub(r"\1 \2 ", text, timeout=timeout_for(text))

    # Contractions.
    if _may_contain_contraction(text):
        for pattern in _CONTRACTIONS:
            text = pattern.sub(r" \1 \2 ", text, timeout=timeout_for(text))

    return text.split()


# A sentence's chunks between single spaces, tokenized one by one. Every Treebank rule
# but the two final-period ones and the opening-quote one looks no further than a chunk
# and the spaces around it, and only ever puts spaces in. So, in a printable ASCII
# sentence whose chunks are separated by single spaces, each chunk but the last gives
# the same tokens in " chunk " without the final-period rules as in the whole sentence,
# and the last chunk gives them in " chunk" with every rule. Two sentences are
# tokenized whole: one that opens with '"' (the opening-quote rule turns it into ``,
# and the space it puts after it may open a quote next to it), and one whose last chunk
# is nothing but closing characters (the final period may lie in a chunk before it).
# tests/engine/test_tokenizer.py checks it against the rules on the whole sentence.
#: Words that are a contraction of NLTK's on their own ("cannot" -> "can not").
_CONTRACTION_WORDS = frozenset({"cannot", "gimme", "gonna", "gotta", "lemme", "wanna"})
_CHUNK_CACHE_SIZE = 1 << 14
_CACHED_CHUNK_LENGTH = 32


class _ChunkTokens(dict[str, tuple[str, ...]]):
    """Chunk -> its tokens, worked out on a chunk's first look-up.

    Chunk -> its tokens (see above), worked out on a chunk's first look-up, so a
    sentence's inner chunks cost one C-level ``map``; bounded in entries and length."""

    def __init__(self, *, last: bool) -> None:
        super().__init__()
        self._last = last

    def __missing__(self, chunk: str) -> tuple[str, ...]:
        # Tuples of strings, which the garbage collector stops tracking (lists it would
        # walk at every full collection, thousands of them).
        tokens: tuple[str, ...]
        if chunk.isalnum() and chunk.lower() not in _CONTRACTION_WORDS:
            tokens = (chunk,)  # no rule touches a plain word
        elif self._last:
            tokens = tuple(_treebank_rules(f" {chunk}"))
        else:
            tokens = tuple(_treebank_rules(f" {chunk} ", final_period=False))
        if len(chunk) <= _CACHED_CHUNK_LENGTH:
            if len(self) >= _CHUNK_CACHE_SIZE:
                self.clear()
            self[chunk] = tokens
        return tokens


_inner_chunks = _ChunkTokens(last=False)
_last_chunks = _ChunkTokens(last=True)


def _treebank_tokenize(text: str) -> list[str]:
    """NLTK 3.2.4's Treebank tokenization of one sentence.

    See :func:`_treebank_rules`; chunk by chunk where that is the same (see above)."""
    chunks = text.split(" ")
    if (
        len(chunks) < 2
        or "" in chunks
        or text[0] == '"'  # the opening-quote rule turns it into `` whatever follows
        or not (text.isascii() and text.isprintable())
    ):
        return _treebank_rules(text)
    last = chunks.pop()
    if not last.strip("])}>\"'"):
        return _treebank_rules(text)
    tokens = list(chain.from_iterable(map(_inner_chunks.__getitem__, chunks)))
    tokens += _last_chunks[last]
    return tokens


def word_tokenize(text: str) -> list[str]:
    """NLTK 3.2.4 ``word_tokenize`` with an untrained Punkt: sentences, then Treebank.

    ``text`` is expected to be normalized already (see :func:`tokenize`).
    """
    sentences = split_sentences(text)
    if len(sentences) == 1:
        return _treebank_tokenize(sentences[0])
    return list(chain.from_iterable(map(_treebank_tokenize, sentences)))


# ---------------------------------------------------------------------------
# Step 5: Cocoa's stick_dollar_sign
# ---------------------------------------------------------------------------

_NUMBER_START = frozenset(".,0123456789")


def is_number_token(tok: str) -> bool:
    """Cocoa's ``is_number``: ``re.match(r'[.,0-9]+', tok)``, i.e. starts with ``[.,0-9]``."""
    return bool(tok) and tok[0] in _NUMBER_START


def stick_dollar_sign(tokens: list[str]) -> list[str]:
    """Glue a lone ``$`` to the number after it (``$100``) or else before it (``100$``).

    A ``$`` token followed by a number token is merged with it (both consumed).
    Otherwise, if the *input* token before the ``$`` is a number token, the ``$`` is
    appended to the last output token; as in Cocoa this looks at the input token,
    so in ``$ 5 $`` the second ``$`` joins ``$5`` (giving ``$5$``) although ``$5`` is
    not itself a number token.  Any other ``$`` is kept as is.
    """
    if "$" not in tokens:
        return list(tokens)
    out: list[str] = []
    i = 0
    n = len(tokens)
    while i < n:
        token = tokens[i]
        if token == "$":
            if i + 1 < n and is_number_token(tokens[i + 1]):
                out.append(token + tokens[i + 1])
                i += 2
                continue
            if i > 0 and is_number_token(tokens[i - 1]):
                out[-1] += token
                i += 1
                continue
        out.append(token)
        i += 1
    return out


# ---------------------------------------------------------------------------
# The whole tokenizer
# ---------------------------------------------------------------------------


def tokenize(text: str) -> list[str]:
    """Tokenize ``text`` exactly as Stanford Cocoa did for CraigslistBargains.

    Lowercases, turns runs of two or more dots into ``...``, replaces ``\\``, ``>``
    and ``/`` with spaces, splits sentences with an untrained Punkt, tokenizes each
    with NLTK 3.2.4's Treebank rules, then glues ``$`` to adjacent numbers.

    >>> tokenize("I can't do $1,000.. how about 900$?")
    ['i', 'ca', "n't", 'do', '$1,000', '...', 'how', 'about', '900$', '?']
    """
    return stick_dollar_sign(word_tokenize(_normalize(text)))
