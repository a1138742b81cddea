"""Finding prices in messages, as Cocoa's price tracker did.

A bare number counts as a price only between a known left context and a known right
context: words that stood beside `$`-marked prices in training messages (weak
supervision). The learned contexts are a :class:`PriceLexicon`, stored as JSON.
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import hashlib
import json
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import regex

from actparse.models import Listing, PriceMention
from actparse.rules import rules_dir
from actparse.tokenizer import tokenize

__all__ = [
    "ListingContext",
    "PriceLexicon",
    "find_prices",
    "load_lexicon",
    "parse_number",
    "train_lexicon",
]

LEXICON_FORMAT = "actparse-price-lexicon/1"
DEFAULT_LEXICON = "price_lexicon.json"
START, END = "<s>", "</s>"

_DOLLAR_COMMA = regex.compile(r"[$,]")
# float() needs a digit (inf and nan aside, which are never prices): a cheap pre-filter.
_DIGIT = regex.compile(r"\d")
# Python 2's \w was ASCII-only: Cocoa blanked every other character of the listing.
_NON_LISTING_CHAR = regex.compile(r"[^\w0-9\.,]", regex.ASCII)


def parse_number(token: str) -> float | None:
    """The number a token stands for, under Cocoa's rules, or ``None``.

    `$` and `,` are dropped; a final ``k`` multiplies by 1000 (every ``k`` is removed, as
    Cocoa's ``replace`` did). Python 2's ``float`` is emulated: no underscores.
    """
    s = _DOLLAR_COMMA.sub("", token)
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


def _has_dollar(token: str) -> bool:
    return token[0] == "$" or token[-1] == "$"


@dataclass(frozen=True)
class PriceLexicon:
    """Word contexts seen just left and just right of prices, with provenance."""

    left: frozenset[str]
    right: frozenset[str]
    provenance: dict[str, Any] = field(default_factory=dict, compare=False)
    left_counts: dict[str, int] = field(default_factory=dict, compare=False, repr=False)
    right_counts: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    def is_price_context(self, left: str, right: str) -> bool:
        """Whether a bare number between these two tokens counts as a price."""
        return left in self.left and right in self.right

    def to_json(self) -> dict[str, Any]:
        """The JSON document :func:`load_lexicon` reads back."""
        return {
            "format": LEXICON_FORMAT,
            "provenance": self.provenance,
            "left": dict(sorted(self.left_counts.items())) or {k: 1 for k in sorted(self.left)},
            "right": dict(sorted(self.right_counts.items())) or {k: 1 for k in sorted(self.right)},
        }

    def save(self, path: str | Path) -> None:
        """Write the lexicon as JSON (never a pickle)."""
        text = json.dumps(self.to_json(), indent=1, ensure_ascii=False, sort_keys=False)
        Path(path).write_text(text + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, doc: Any, source: str = "<lexicon>") -> PriceLexicon:
        """Build a lexicon from its JSON document, checking its shape."""
        if not isinstance(doc, dict) or doc.get("format") != LEXICON_FORMAT:
            raise ValueError(f"{source}: not a price lexicon (expected format {LEXICON_FORMAT})")
        left, right = doc.get("left"), doc.get("right")
        if not isinstance(left, dict) or not isinstance(right, dict):
            raise ValueError(f"{source}: 'left' and 'right' must map tokens to counts")
        return cls(
            left=frozenset(left),
            right=frozenset(right),
            provenance=dict(doc.get("provenance") or {}),
            left_counts={str(k): int(v) for k, v in left.items()},
            right_counts={str(k): int(v) for k, v in right.items()},
        )


def load_lexicon(path: str | Path | Traversable | None = None) -> PriceLexicon:
    """Load a price lexicon (default: the one shipped in ``rules/``)."""
    if path is None:
        return _default_lexicon()
    file = Path(path) if isinstance(path, str) else path
    return PriceLexicon.from_json(json.loads(file.read_text(encoding="utf-8")), str(path))


@functools.cache
def _default_lexicon() -> PriceLexicon:
    file = rules_dir().joinpath(DEFAULT_LEXICON)
    return PriceLexicon.from_json(json.loads(file.read_text(encoding="utf-8")), DEFAULT_LEXICON)


def train_lexicon(
    messages: Iterable[str], sources: Sequence[str | Path] = (), note: str = ""
) -> PriceLexicon:
    """Learn price contexts from raw messages by weak supervision.

    Every token that starts or ends with `$` is taken as a price; the tokens beside it
    (``<s>``/``</s>`` at the edges) are recorded as left and right contexts.
    """
    left: Counter[str] = Counter()
    right: Counter[str] = Counter()
    n_messages = 0
    for text in messages:
        n_messages += 1
        tokens = [START, *tokenize(text), END]
        for i in range(1, len(tokens) - 1):
            if _has_dollar(tokens[i]):
                left[tokens[i - 1]] += 1
                right[tokens[i + 1]] += 1
    provenance: dict[str, Any] = {
        "method": "weak supervision: neighbours of tokens starting or ending with '$'",
        "trained_on": [_describe_source(s) for s in sources],
        "messages": n_messages,
        "created": datetime.date.today().isoformat(),
    }
    if note:
        provenance["note"] = note
    return PriceLexicon(
        left=frozenset(left),
        right=frozenset(right),
        provenance=provenance,
        left_counts=dict(left),
        right_counts=dict(right),
    )


def _describe_source(source: str | Path) -> dict[str, Any]:
    path = Path(source)
    entry: dict[str, Any] = {"file": path.name}
    if path.is_file():
        entry["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    return entry


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


@functools.lru_cache(maxsize=4096)
def listing_numbers(title: str, description: str) -> frozenset[float]:
    """Numbers of a listing's title and description (spec numbers, years, sizes)."""
    numbers: set[float] = set()
    for part in (title, description):
        for token in tokenize(_NON_LISTING_CHAR.sub(" ", part)):
            value = parse_number(token)
            if value is not None:
                numbers.add(value)
    return frozenset(numbers)


def find_prices(
    tokens: Sequence[str], lexicon: PriceLexicon, listing: ListingContext | None = None
) -> list[PriceMention]:
    """The prices among message tokens, in order (types not yet resolved)."""
    mentions: list[PriceMention] = []
    last = len(tokens) - 1
    for i, token in enumerate(tokens):
        if _DIGIT.search(token) is None:
            continue
        value = parse_number(token)
        if value is None or math.isinf(value) or math.isnan(value):
            # Cocoa asserted on NaN; a parser must not crash on "nan", so it is no price.
            continue
        if not _has_dollar(token):
            left = tokens[i - 1] if i > 0 else START
            right = tokens[i + 1] if i < last else END
            if not lexicon.is_price_context(left, right):
                continue
            if listing is not None:
                if listing.price is not None and value > 1.5 * listing.price:
                    continue
                # A number of the listing's own text is probably a spec, not a price.
                if value != listing.price and value in listing.numbers:
                    continue
        mentions.append(PriceMention(surface=token, value=value, token=i))
    return mentions
