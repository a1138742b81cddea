"""Where each of Cocoa's tokens lies in the text as written.

:func:`~actparse.engine.tokenizer.tokenize` rewrites the text before it splits it
(lowercase, dot runs to ``...``, ``\\ > /`` to spaces, ``"`` to ````` or ``''``, a ``$``
glued to its number across a space), so a token is not always a substring of the text.
:func:`token_spans` finds the characters each token came from, so that a ``Doc`` can
keep the text as given while its tokens carry Cocoa's forms, and a price found on
Cocoa's tokens can be marked on any tokenizer's tokens.
"""

from __future__ import annotations

from collections.abc import Sequence

# The tokenizer's own characters and table: the alignment must read the text as it does.
from actparse.engine.tokenizer import _SLASHES, _SLASHES_TO_SPACE

__all__ = ["token_spans"]

_QUOTE_TOKENS = ("``", "''")


def _normalized_with_origins(text: str) -> tuple[str, Sequence[int], Sequence[int]]:
    """Cocoa's normalization of ``text``, with the origin of each character.

    The normalization is ``tokenizer._normalize``'s; a character's origin is the start and end in
    ``text`` of the characters it came from."""
    lowered = text.lower()
    if ".." not in lowered and len(lowered) == len(text):
        # Most messages: one character for one, so the origins are the positions.
        return lowered.translate(_SLASHES_TO_SPACE), range(len(text)), range(1, len(text) + 1)
    if len(lowered) == len(text):
        chars = list(lowered)
        starts = list(range(len(text)))
    else:
        # A character whose lowercase is longer ("İ"): each piece maps to its source.
        starts = [i for i, c in enumerate(text) for _p in c.lower()]
        # The whole text's lowercase, not each character's: a final sigma depends on
        # what follows it.
        pieces = [p for c in text for p in c.lower()]
        chars = list(lowered) if len(pieces) == len(lowered) else pieces
    ends = [s + 1 for s in starts]
    out: list[str] = []
    out_starts: list[int] = []
    out_ends: list[int] = []
    i, n = 0, len(chars)
    while i < n:
        c = chars[i]
        if c == ".":
            j = i
            while j < n and chars[j] == ".":
                j += 1
            if j - i >= 2:  # a run of dots became "..."
                out.extend("...")
                out_starts.extend([starts[i]] * 3)
                out_ends.extend([ends[j - 1]] * 3)
                i = j
                continue
        out.append(" " if c in _SLASHES else c)
        out_starts.append(starts[i])
        out_ends.append(ends[i])
        i += 1
    return "".join(out), out_starts, out_ends


def _match(norm: str, j: int, token: str) -> int | None:
    """The end in ``norm`` of ``token`` read from ``j``, or ``None`` if it is not there.

    A quote token stands for a ``"``; whitespace inside a token is the space a glued
    ``$`` crossed ("$ 5" is the token ``$5``).
    """
    k, n = 0, len(norm)
    while k < len(token):
        if j < n and norm[j] == token[k]:
            j += 1
            k += 1
        elif token[k : k + 2] in _QUOTE_TOKENS and j < n and norm[j] == '"':
            j += 1
            k += 2
        elif k > 0 and j < n and norm[j].isspace():
            j += 1
        else:
            return None
    return j


def token_spans(text: str, tokens: Sequence[str]) -> list[tuple[int, int]]:
    """``(start, end)`` in ``text`` of each token of ``tokenize(text)``, in order.

    Spans never overlap and never go backwards. A token that cannot be found where it
    should be (no input the tests know gives one) gets an empty span where the search
    stood, so the result always has one span per token.
    """
    norm, starts, ends = _normalized_with_origins(text)
    spans: list[tuple[int, int]] = []
    j, n = 0, len(norm)
    for token in tokens:
        while j < n and norm[j].isspace():
            j += 1
        end = _match(norm, j, token)
        if end is None:
            found = norm.find(token, j)
            if found < 0:
                at = starts[j] if j < n else len(text)
                spans.append((at, at))
                continue
            j, end = found, found + len(token)
        spans.append((starts[j], ends[end - 1]))
        j = end
    return spans
