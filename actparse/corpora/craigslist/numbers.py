"""Numbers in Cocoa's tokens: which tokens can be prices and the value each stands for."""

from __future__ import annotations

import contextlib

import regex

from actparse.engine.guard import timeout_for

__all__ = [
    "ASCII_DIGITS",
    "END",
    "NUMBER_START",
    "START",
    "has_digit",
    "has_dollar",
    "parse_number",
]

#: The context words of a number at the start and at the end of a message.
START, END = "<s>", "</s>"

# float() needs a digit (inf and nan aside, which are never prices): a cheap pre-filter.
_DIGIT = regex.compile(r"\d")
#: ASCII digits, for a set test on ASCII tokens.
ASCII_DIGITS = frozenset("0123456789")
#: What a number token starts with (after `$` and `,`): a digit, a point or a sign.
NUMBER_START = frozenset("0123456789.,$+-")


def has_digit(token: str) -> bool:
    """Whether a token holds a digit; float() needs one (inf and nan aside).

    ASCII tokens take a set test; others (float() also reads non-ASCII decimal digits)
    the Unicode-aware pattern.
    """
    if token.isascii():
        return not ASCII_DIGITS.isdisjoint(token)
    return _DIGIT.search(token, timeout=timeout_for(token)) is not None


def parse_number(token: str) -> float | None:
    """The number a token stands for, under Cocoa's rules, or ``None``.

    `$` and `,` are dropped; a final ``k`` multiplies by 1000 (every ``k`` is removed, as
    Cocoa's ``replace`` did). Python 2's ``float`` is emulated: no underscores.
    """
    s = token.replace("$", "").replace(",", "")
    if "_" in s:
        return None
    if s.endswith("k"):
        # Python 2's str(float) kept 12 significant digits before re-parsing.
        with contextlib.suppress(ValueError):
            s = format(float(s.replace("k", "")) * 1000, ".12g")
    try:
        return float(s)
    except ValueError:
        return None


def has_dollar(token: str) -> bool:
    """Whether a token is marked as a price by a `$` at either end."""
    return token[0] == "$" or token[-1] == "$"
