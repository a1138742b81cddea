"""Linking prices in a message as Cocoa's price tracker did.

A token marked with `$` is a price; a bare number is one only between known contexts of
the :class:`~actparse.corpora.craigslist.lexicon.PriceLexicon`, and only when the
reader's listing does not rule it out (:class:`ListingContext`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import regex

from actparse.corpora.craigslist.lexicon import PriceLexicon
from actparse.corpora.craigslist.numbers import (
    ASCII_DIGITS,
    END,
    NUMBER_START,
    START,
    has_digit,
    has_dollar,
    parse_number,
)
from actparse.engine.guard import timeout_for
from actparse.engine.tokenizer import tokenize
from actparse.models import Listing, PriceMention

__all__ = ["BareNumber", "ListingContext", "bare_numbers", "find_prices", "listing_numbers"]

# Python 2's \w was ASCII-only: Cocoa blanked every other character of the listing.
_NON_LISTING_CHAR = regex.compile(r"[^\w0-9\.,]", regex.ASCII)


class ListingContext:
    """What the price checks need from the reader's listing.

    The listing's numbers cost a tokenization of its whole description, and only a bare
    number that passed the context check needs them, so they are computed on first use.
    """

    __slots__ = ("_listing", "_numbers", "price")

    def __init__(self, listing: Listing) -> None:
        self._listing = listing
        self._numbers: frozenset[float] | None = None
        self.price = listing.price

    @property
    def numbers(self) -> frozenset[float]:
        """Numbers of the listing's title and description."""
        if self._numbers is None:
            self._numbers = listing_numbers(self._listing.title, self._listing.description)
        return self._numbers

    def allows(self, value: float) -> bool:
        """Cocoa's checks of a number without `$` against the listing."""
        if self.price is not None and value > 1.5 * self.price:
            return False
        # A number of the listing's own text is probably a spec, not a price.
        return value == self.price or value not in self.numbers


@functools.lru_cache(maxsize=4096)
def listing_numbers(title: str, description: str) -> frozenset[float]:
    """Numbers of a listing's title and description (spec numbers, years, sizes)."""
    numbers: set[float] = set()
    for part in (title, description):
        for token in tokenize(_NON_LISTING_CHAR.sub(" ", part, timeout=timeout_for(part))):
            value = parse_number(token)
            if value is not None:
                numbers.add(value)
    return frozenset(numbers)


@dataclass(frozen=True, slots=True)
class BareNumber:
    """A number without `$` whose being a price depends on its two neighbours alone.

    A number without `$` that passes every check of :func:`find_prices` but the context
    check: whether it is a price depends on its two neighbours alone."""

    token: int
    surface: str
    value: float
    left: str
    right: str


def bare_numbers(tokens: Sequence[str], listing: ListingContext | None = None) -> list[BareNumber]:
    """The bare numbers of a message that the lexicon decides (see :class:`BareNumber`)."""
    found: list[BareNumber] = []
    last = len(tokens) - 1
    for i, token in enumerate(tokens):
        if not has_digit(token) or has_dollar(token):
            continue
        value = parse_number(token)
        if value is None or math.isinf(value) or math.isnan(value):
            continue
        if listing is not None and not listing.allows(value):
            continue
        left = tokens[i - 1] if i > 0 else START
        right = tokens[i + 1] if i < last else END
        found.append(BareNumber(i, token, value, left, right))
    return found


def find_prices(
    tokens: Sequence[str], lexicon: PriceLexicon, listing: ListingContext | None = None
) -> list[PriceMention]:
    """The prices among message tokens, in order (types not yet resolved)."""
    mentions: list[PriceMention] = []
    last = len(tokens) - 1
    for i, token in enumerate(tokens):
        # A number token starts (after `$` and `,`, which parse_number drops) with a
        # digit, a point or a sign, and holds a digit: punctuation tokens ("." "," "$")
        # never reach float(), whose ValueError is costly. Only non-ASCII tokens need
        # the Unicode digit test.
        if token.isascii():
            if token[0] not in NUMBER_START or ASCII_DIGITS.isdisjoint(token):
                continue
        elif not has_digit(token):
            continue
        value = parse_number(token)
        if value is None or math.isinf(value) or math.isnan(value):
            # Cocoa asserted on NaN; a parser must not crash on "nan", so it is no price.
            continue
        if not has_dollar(token):
            left = tokens[i - 1] if i > 0 else START
            right = tokens[i + 1] if i < last else END
            if not lexicon.is_price_context(left, right):
                continue
            if listing is not None and not listing.allows(value):
                continue
        mentions.append(PriceMention(surface=token, value=value, token=i))
    return mentions
