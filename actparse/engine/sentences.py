"""NLTK 3.2.4's untrained Punkt sentence splitter, without NLTK.

It is run as ``nltk.word_tokenize`` ran it for Cocoa (step 4a of :mod:`actparse.engine.tokenizer`).

An untrained ``PunktSentenceTokenizer()`` has no abbreviations, collocations, sentence
starters or orthographic statistics, which removes most of Punkt's machinery. The
period-context search is a linear scan instead of NLTK's regex, with identical results.
"""

from __future__ import annotations

import regex

from actparse.engine.guard import timeout_for

__all__ = ["split_sentences"]

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
    stripped = text.rstrip()
    marks = stripped.count(".") + stripped.count("?") + stripped.count("!")
    if not marks or (marks == 1 and stripped[-1] in ".?!"):
        # No candidate boundary, or one that ends the text (nothing follows it to make
        # a period context): one sentence, without trailing whitespace.
        return [stripped] if stripped else []
    return _realign_boundaries(text, _sentence_slices(text))
