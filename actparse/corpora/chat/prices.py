"""Prices of a dialogue of no known corpus: Craigslist's price finder, and whose price is whose.

The prices of a message are linked as Craigslist's parser links them (Cocoa's price
tracker, :class:`~actparse.corpora.craigslist.finder.PriceFinder` in ``cocoa`` mode):
``$`` marks a price, a bare number is one between contexts of the price lexicon. A
declared ``listing_price`` plays the part of Craigslist's listing: a bare number over
1.5 times it is no price, and a price equal to it is the listing price. Two additions
for money written otherwise (:func:`currency_tokens`): a number next to a currency mark
(``€``, ``EUR``, ``euros``, ``£``...) is a price as a ``$`` one is, and beside such a
mark ``8.500`` is eight thousand five hundred (``thousands-point``).

Whose price is whose (:func:`writer_roles`): a speaker's declared role, else the rule
``first-below-listing`` (the first speaker to name a price below the listing price is
the buyer, the other the seller), else ``lower-first-price`` (of the first prices the
two speakers name, the lower one's speaker is the buyer). A speaker of no known role is
read as Craigslist reads one whose partner is no seller: as a seller.

In a dialogue that declares items and no listing price, numbers are counts: only a
number marked as money (``$``, a currency mark) is a price (``counts-are-no-prices``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from actparse.corpora.craigslist.finder import PriceFinder
from actparse.corpora.craigslist.lexicon import load_lexicon
from actparse.corpora.craigslist.linking import ListingContext
from actparse.corpora.craigslist.parser import proposed_price
from actparse.engine.tokenizer import tokenize
from actparse.models import Dialogue, Listing, PriceMention

__all__ = [
    "CURRENCY_MARKS",
    "PriceTracker",
    "currency_tokens",
    "proposed_price",
    "writer_roles",
]

#: Marks of money other than ``$`` (which the price finder knows): a number beside one
#: is a price. Lowercase, as the tokenizer gives them.
CURRENCY_MARKS = frozenset(
    {"€", "eur", "euro", "euros", "£", "gbp", "pound", "pounds", "chf", "¥", "yen", "usd"}
)
# A number with points between groups of three digits, and an optional decimal comma:
# "8.500", "12.000,50" (the thousands-point rule).
_THOUSANDS_POINT = re.compile(r"^\d{1,3}(\.\d{3})+(,\d{1,2})?$")
# The marks written before a number with no space ("€9000"): the non-letter ones.
_SIGNS = tuple(sorted(m for m in CURRENCY_MARKS if not m.isalpha()))
# The marks a text is searched for: a mark inside another ("eur" in "euros") is enough.
_SEARCHED = tuple(
    sorted(m for m in CURRENCY_MARKS if not any(o != m and o in m for o in CURRENCY_MARKS))
)
_NO_LISTING = Listing(title="", description="", price=None)


def _money_number(token: str) -> str:
    """A number written beside a currency mark, as the price finder reads numbers."""
    if _THOUSANDS_POINT.match(token):
        whole, _, cents = token.partition(",")
        return whole.replace(".", "") + ("." + cents if cents else "")
    return token


def currency_tokens(tokens: Sequence[str]) -> list[str]:
    """The tokens with every number beside a currency mark written as a ``$`` price.

    >>> currency_tokens(["eur", "8.500", "or", "8,500", "€", "or", "€9000"])
    ['eur', '$8500', 'or', '$8,500', '€', 'or', '$9000']
    >>> currency_tokens(["8.5", "kg"])
    ['8.5', 'kg']
    """
    out = list(tokens)
    for i, token in enumerate(tokens):
        mark = next((m for m in _SIGNS if token.startswith(m) and len(token) > 1), None)
        if mark is not None and token[1:2].isdigit():
            out[i] = "$" + _money_number(token[1:])
            continue
        if not token[:1].isdigit():
            continue
        before = tokens[i - 1] if i > 0 else ""
        after = tokens[i + 1] if i + 1 < len(tokens) else ""
        if before in CURRENCY_MARKS or after in CURRENCY_MARKS:
            out[i] = "$" + _money_number(token)
    return out


def _has_currency(text: str) -> bool:
    """Whether the text holds a currency mark of :data:`CURRENCY_MARKS` (even in a word)."""
    lowered = text.lower()
    return any(mark in lowered for mark in _SEARCHED)


def writer_roles(
    declared: Sequence[str],
    first_prices: Mapping[int, float],
    order: Sequence[int],
    listing: float | None,
) -> list[str]:
    """Each agent's role (``buyer``, ``seller`` or ``""``) by the rules of the module.

    ``first_prices`` is each agent's first named price, ``order`` the agents in the
    order they first named one.

    >>> writer_roles(["", ""], {1: 80.0, 0: 120.0}, [1, 0], 100.0)
    ['seller', 'buyer']
    >>> writer_roles(["", ""], {0: 50000.0, 1: 42000.0}, [0, 1], None)
    ['seller', 'buyer']
    """
    roles = [r.lower() if r.lower() in ("buyer", "seller") else "" for r in declared]
    opposite = {"buyer": "seller", "seller": "buyer"}
    if roles[0] or roles[1]:
        return [roles[0] or opposite[roles[1]], roles[1] or opposite[roles[0]]]
    buyer: int | None = None
    if listing is not None:
        buyer = next((a for a in order if first_prices[a] < listing), None)
    if buyer is None and len(first_prices) == 2 and first_prices[0] != first_prices[1]:
        buyer = 0 if first_prices[0] < first_prices[1] else 1
    if buyer is None:
        return ["", ""]
    return ["buyer" if a == buyer else "seller" for a in (0, 1)]


class PriceTracker:
    """The prices of each message of a dialogue, typed against the dialogue state."""

    def __init__(self) -> None:
        self.finder = PriceFinder(load_lexicon(), "cocoa")

    def find(
        self, text: str, listing: ListingContext, marked_only: bool = False
    ) -> list[PriceMention]:
        """The prices of a message (types unresolved).

        ``marked_only`` (``counts-are-no-prices``): only a number with a money mark is a
        price, as in a dialogue of items and no listing price, whose numbers are counts;
        a text with no ``$`` and no currency mark is not searched at all.
        """
        currency = _has_currency(text)
        if marked_only and not currency and "$" not in text:
            return []
        if not currency and self.finder.skips(text):
            return []
        tokens = tokenize(text)
        found = self.finder.find(currency_tokens(tokens) if currency else tokens, listing)
        if marked_only:
            found = [m for m in found if "$" in m.surface]
        return found

    @staticmethod
    def listing(dialogue: Dialogue) -> ListingContext:
        """The listing every party shares (a chat dialogue declares one price for both)."""
        return ListingContext(dialogue.parties[0].listing or _NO_LISTING)
