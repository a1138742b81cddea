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
Punkt's machinery (see :func:`split_sentences`).

Everything below reproduces those steps output for output, including Python 2's
regex semantics: patterns NLTK compiled without ``re.UNICODE`` have ASCII-only
``\\w``, ``\\d``, ``\\s`` and ``\\b`` (we compile them with ``regex.ASCII``), while the
ones compiled with ``re.UNICODE`` use Python's own notion of whitespace, which we
spell out in :data:`_WS` because the ``regex`` module's Unicode ``\\s`` differs from
``str.isspace`` on U+001C..U+001F.

For speed and to avoid pathological backtracking, some steps are computed directly
instead of with NLTK's regexes, always with provably identical results: Punkt's
period-context search is a linear scan, Treebank rules that are plain literal
substitutions use ``str.replace``, the two "final period" rules inspect the string's
end, and every step is skipped when the characters it needs are absent.  Regexes
are compiled once, at import.  The module never imports NLTK.
"""

from __future__ import annotations

import regex

from actparse.guard import timeout_for

__all__ = [
    "is_number_token",
    "split_sentences",
    "stick_dollar_sign",
    "tokenize",
    "word_tokenize",
]

# Flags for patterns NLTK compiled without re.UNICODE (ASCII semantics on Python 2).
_ASCII = regex.VERSION0 | regex.ASCII
# Flags for patterns NLTK compiled with re.UNICODE.
_UNICODE = regex.VERSION0

# Exactly the characters for which ``str.isspace()`` (and hence ``re``'s Unicode
# ``\s`` and ``str.split()``/``str.strip()``) is true.  Tested against isspace().
# Written with regex escapes so that the pattern text holds no literal whitespace.
_WS = r"\t\n\x0b\x0c\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
_SPACE = f"[{_WS}]"
_NON_SPACE = f"[^{_WS}]"
# ASCII whitespace, as Python 2's non-Unicode ``\s``.
_ASCII_WS = " \t\n\r\x0b\x0c"

# ---------------------------------------------------------------------------
# Step 1-3: Cocoa's own normalisation
# ---------------------------------------------------------------------------

_DOT_RUN = regex.compile(r"\.{2,}", _ASCII)
# re.sub(r'\\|>|/', ' ', s) is a character-for-character replacement.
_SLASHES_TO_SPACE = str.maketrans({"\\": " ", ">": " ", "/": " "})


def _normalize(text: str) -> str:
    """Cocoa's pre-NLTK steps: lowercase, dot runs to ``...``, ``\\ > /`` to spaces."""
    text = text.lower()
    if ".." in text:
        text = _DOT_RUN.sub("...", text, timeout=timeout_for(text))
    if "\\" in text or ">" in text or "/" in text:
        text = text.translate(_SLASHES_TO_SPACE)
    return text


# ---------------------------------------------------------------------------
# Step 4a: untrained Punkt sentence splitting
# ---------------------------------------------------------------------------

_SENT_END_CHARS = frozenset(".?!")
# Punkt's "characters that cannot appear within words" (PunktLanguageVars).
_NON_WORD = r"""(?:[?!)";}\]*:@'({\[])"""
# Multi-character punctuation: dash runs, dot runs, spaced ellipses (". . .").
_MULTI_CHAR = rf"(?:-{{2,}}|\.{{2,}}|(?:\.{_SPACE}){{2,}}\.)"
# Characters that may not start a word token.
_WORD_START = r"""[^("`{\[:;&\#*@)}\]\-,]"""

# Punkt's word tokenizer (compiled with re.UNICODE in NLTK): a multi-character
# punctuation mark, or a word running (lazily) until whitespace, the end, a non-word
# character, multi-character punctuation or a word-final comma; or any single
# non-space character.
_PUNKT_WORD = regex.compile(
    _MULTI_CHAR
    + "|"
    + f"(?={_WORD_START}){_NON_SPACE}+?"
    + f"(?={_SPACE}|$|{_NON_WORD}|{_MULTI_CHAR}"
    + f"|,(?=$|{_SPACE}|{_NON_WORD}|{_MULTI_CHAR}))"
    + "|"
    + _NON_SPACE,
    _UNICODE,
)

# The same characters as _NON_WORD, as a set.
_NON_WORD_CHARS = frozenset("?!)\";}]*:@'({[")

# PunktToken._RE_NUMERIC (no re.UNICODE: ASCII digits only).
_NUMERIC = regex.compile(r"^-?[\.,]?\d[\d,\.-]*\.?$", _ASCII)

# Tokens that the orthographic heuristic says never start a sentence.
_PUNKT_PUNCTUATION = frozenset(";:,.!?")

# PunktLanguageVars.re_boundary_realignment (re.MULTILINE, no re.UNICODE): closing
# quotes/brackets right after a sentence break belong to the previous sentence.
_REALIGN = regex.compile(r"""["')\]}]+?(?:\s+|(?=--)|$)""", _ASCII | regex.MULTILINE)
_REALIGN_FIRST_CHARS = frozenset("\"')]}")


def _is_initial(tok: str) -> bool:
    """Punkt's ``[^\\W\\d]\\.$`` (Unicode): one letter (or ``_``) and a period."""
    if len(tok) != 2 or tok[1] != ".":
        return False
    first = tok[0]
    return (first.isalnum() or first == "_") and not first.isdecimal()


def _is_sentence_break(tok: str, next_tok: str) -> bool:
    """Punkt's decision for ``tok`` followed by ``next_tok``, with empty parameters.

    First pass: ``.``, ``?`` and ``!`` and period-final tokens (but not ellipses or
    anything ending in ``..``) are breaks.  Second pass: with no abbreviations,
    collocations or orthographic statistics, the only surviving rule un-breaks an
    initial (``j.``) or a number (``5.``) when the next token is not a sentence
    starter: punctuation or a lowercase first letter, or, after an initial, an
    uppercase first letter (the "J. Bach" special case, whose condition "never seen
    lowercase" is vacuously true without statistics).
    """
    if tok in _SENT_END_CHARS:
        breaks = True
    elif len(tok) >= 2 and not tok.strip("."):  # ellipsis, i.e. \.\.+$
        return False
    else:
        breaks = tok.endswith(".") and not tok.endswith("..")
    if not breaks or not tok.endswith("."):
        # "?" and "!" are not period-final, so the second pass leaves them alone.
        return breaks
    initial = _is_initial(tok)
    # Punkt types numbers as "##number##"; a literal "##number##." token cannot
    # occur because "#" never starts a Punkt word token.
    if not initial and not _NUMERIC.match(tok, timeout=timeout_for(tok)):
        return True
    if next_tok in _PUNKT_PUNCTUATION or next_tok[0].islower():
        return False
    return not (initial and next_tok[0].isupper())


def _punkt_words(text: str) -> list[str]:
    """Punkt's word tokenization, done line by line (blank lines are skipped)."""
    words: list[str] = []
    for line in text.split("\n"):
        if line.strip():
            words.extend(_PUNKT_WORD.findall(line, timeout=timeout_for(line)))
    return words


def _contains_sentence_break(context: str) -> bool:
    """Whether any token of ``context`` but the last is a sentence break."""
    words = _punkt_words(context)
    return any(_is_sentence_break(words[i], words[i + 1]) for i in range(len(words) - 1))


def _period_contexts(text: str) -> list[tuple[int, int, int, int]]:
    """The matches of Punkt's period-context regex, found without the regex.

    Punkt scans ``\\S*[.?!](?=(?P<after_tok>NonWord|\\s+(?P<next_tok>\\S+)))``
    (``re.UNICODE``).  A match lies inside one whitespace-free run.  Since ``\\S*``
    is greedy it ends at the *last* position of the run that is valid: just after a
    ``.?!`` that is followed either by a non-word character, or by the end of the
    run and then more text.  Validity does not depend on where the match starts, so
    each run holds at most one match, starting at the run's beginning.  Walking the
    runs that contain a ``.?!`` finds the same matches in linear time, where the
    regex retries every start position of a long run (quadratic) and is slow.

    Returns ``(start, end, next_start, next_stop)`` per match: ``text[start:end]`` is
    the match and ``text[next_start:next_stop]`` the ``next_tok`` group, or
    ``(-1, -1)`` when the match is followed by a non-word character.
    """
    candidates = [i for char in ".?!" for i in _find_all(text, char)]
    if not candidates:
        return []
    candidates.sort()
    length = len(text)
    text_end = len(text.rstrip())
    contexts: list[tuple[int, int, int, int]] = []
    k = 0
    while k < len(candidates):
        # The run around the first candidate not yet handled.
        start = candidates[k]
        while start > 0 and not text[start - 1].isspace():
            start -= 1
        stop = candidates[k] + 1
        while stop < length and not text[stop].isspace():
            stop += 1
        first = k
        while k < len(candidates) and candidates[k] < stop:
            k += 1
        for candidate in reversed(candidates[first:k]):
            end = candidate + 1
            if end < stop:
                if text[end] in _NON_WORD_CHARS:
                    contexts.append((start, end, -1, -1))
                    break
            elif stop < text_end:
                next_start = stop
                while text[next_start].isspace():
                    next_start += 1
                next_stop = next_start + 1
                while next_stop < length and not text[next_stop].isspace():
                    next_stop += 1
                contexts.append((start, end, next_start, next_stop))
                break
    return contexts


def _find_all(text: str, char: str) -> list[int]:
    """All positions of ``char`` in ``text``."""
    positions = []
    pos = text.find(char)
    while pos >= 0:
        positions.append(pos)
        pos = text.find(char, pos + 1)
    return positions


def _is_break_context(text: str, start: int, end: int, next_start: int, next_stop: int) -> bool:
    """Punkt's ``text_contains_sentbreak`` on a period context (see _period_contexts).

    Fast paths cover the usual contexts exactly; anything else is tokenized.
    """
    if text[end - 1] != ".":
        # A final "?" or "!" is always a token of its own (it is a non-word
        # character, so no word or multi-character token can include it), it is
        # always a break, and the context always has a token after it.
        return True
    word = text[start : end - 1]
    following = text[end] if next_start < 0 else text[next_start]
    if word.isalnum() and following != ".":
        # "word." is a single Punkt token: no punctuation inside, and no spaced
        # ellipsis (". . .") can start at its period.
        token = text[start:end]
        if next_start < 0:
            # The non-word character is the context's last token.
            return _is_sentence_break(token, following)
        if following.isalnum() and _is_sentence_break(token, text[next_start:next_stop]):
            # The next token starts with ``following``; being alphanumeric it is not
            # punctuation, which is all the decision looks at.
            return True
    context_end = end + 1 if next_start < 0 else next_stop
    return _contains_sentence_break(text[start:context_end])


def _sentence_slices(text: str) -> list[tuple[int, int]]:
    """Punkt's ``_slices_from_text``: the candidate breaks the annotator accepts."""
    slices: list[tuple[int, int]] = []
    last_break = 0
    for start, end, next_start, next_stop in _period_contexts(text):
        if _is_break_context(text, start, end, next_start, next_stop):
            slices.append((last_break, end))
            # The next sentence starts at the next token, or at the punctuation mark.
            last_break = next_start if next_start >= 0 else end
    # The last sentence gets no trailing whitespace.
    slices.append((last_break, len(text.rstrip())))
    return slices


def _realign_boundaries(text: str, slices: list[tuple[int, int]]) -> list[str]:
    """Move closing quotes/brackets after a break into the preceding sentence."""
    sentences: list[str] = []
    realign = 0
    for index, (start, stop) in enumerate(slices):
        start += realign
        if index + 1 == len(slices):
            if start < stop:
                sentences.append(text[start:stop])
            continue
        next_start, next_stop = slices[index + 1]
        match = None
        if next_start < next_stop and text[next_start] in _REALIGN_FIRST_CHARS:
            match = _REALIGN.match(text[next_start:next_stop], timeout=timeout_for(text))
        if match:
            moved = match.group(0).rstrip()
            sentences.append(text[start : next_start + len(moved)])
            realign = match.end()
        else:
            realign = 0
            if start < stop:
                sentences.append(text[start:stop])
    return sentences


def split_sentences(text: str) -> list[str]:
    """Split ``text`` into sentences like NLTK 3.2.4's untrained ``PunktSentenceTokenizer``.

    ``text`` is expected to be normalized already (see :func:`tokenize`), but any
    string works.  Sentences keep their inner whitespace; the last one has trailing
    whitespace removed, and empty sentences are dropped.
    """
    if "." not in text and "?" not in text and "!" not in text:
        # No candidate boundary: one sentence, without trailing whitespace.
        stripped = text.rstrip()
        return [stripped] if stripped else []
    return _realign_boundaries(text, _sentence_slices(text))


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


def _treebank_tokenize(text: str) -> list[str]:
    """NLTK 3.2.4's ``_treebank_word_tokenizer.tokenize`` for one sentence.

    The rules run in NLTK's order; each is skipped when the characters it needs are
    absent, which never changes the result.
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
    if has_period:
        text = _split_final_period(text, _IMPROVED_CLOSERS, unicode_space=True)
    if ":" in text or "," in text:
        text = _COLON_COMMA.sub(r" \1 \2", text, timeout=timeout_for(text))
        text = _FINAL_COLON_COMMA.sub(r" \1 ", text, timeout=timeout_for(text))
    if has_period:
        text = text.replace("...", " ... ")
    text = _pad(text, _SYMBOLS)
    if has_period:
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


def word_tokenize(text: str) -> list[str]:
    """NLTK 3.2.4 ``word_tokenize`` with an untrained Punkt: sentences, then Treebank.

    ``text`` is expected to be normalized already (see :func:`tokenize`).
    """
    return [token for sentence in split_sentences(text) for token in _treebank_tokenize(sentence)]


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
