"""The price modes: Cocoa's linking, or Cocoa's plus the extended rules."""

from __future__ import annotations

from collections.abc import Sequence

from actparse.corpora.craigslist.extended import (
    ExtendedRules,
    find_prices_extended,
    load_extended_rules,
    load_quantities,
)
from actparse.corpora.craigslist.lexicon import PriceLexicon
from actparse.corpora.craigslist.linking import ListingContext, find_prices
from actparse.corpora.craigslist.numbers import ASCII_DIGITS
from actparse.errors import OptionError
from actparse.models import PriceMention

__all__ = ["PRICE_MODES", "PriceFinder"]

#: The price modes of :class:`PriceFinder`.
PRICE_MODES = ("cocoa", "extended")


class PriceFinder:
    """Links the prices of a message in one of :data:`PRICE_MODES`.

    ``cocoa`` is Cocoa's price tracker (:func:`find_prices`). ``extended`` keeps every
    price Cocoa finds and adds those its rules miss (:func:`find_prices_extended`).
    """

    def __init__(
        self, lexicon: PriceLexicon, mode: str = "cocoa", rules: ExtendedRules | None = None
    ) -> None:
        if mode not in PRICE_MODES:
            raise OptionError(f"unknown price mode {mode!r}; one of {', '.join(PRICE_MODES)}")
        self.lexicon = lexicon
        self.mode = mode
        self.rules = (rules or load_extended_rules()) if mode == "extended" else None

    def prepare(self) -> None:
        """Load now what the first message would otherwise load (quantulum3, seconds)."""
        if self.rules is not None:
            load_quantities(self.rules)

    def skips(self, text: str) -> bool:
        """Whether a message certainly holds no price: Cocoa's prices need a digit."""
        return self.rules is None and text.isascii() and ASCII_DIGITS.isdisjoint(text)

    def find(
        self, tokens: Sequence[str], listing: ListingContext | None = None
    ) -> list[PriceMention]:
        """The prices among message tokens, in order (types not yet resolved)."""
        if self.rules is None:
            return find_prices(tokens, self.lexicon, listing)
        return find_prices_extended(tokens, self.lexicon, listing, self.rules)
