"""The extended price mode: prices Cocoa's rules miss.

For example "two hundred dollars", "150 bucks", "2k", "1.5 grand", "1200 usd", from the named rules
of ``rules/craigslist/prices_extended.yaml``. quantulum3 is imported on first use (or by
:func:`load_quantities` before labelling starts), never in the Cocoa mode.
"""

from __future__ import annotations

import bisect
import functools
import logging
import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import regex

from actparse.corpora.craigslist.lexicon import PriceLexicon
from actparse.corpora.craigslist.linking import ListingContext, find_prices
from actparse.corpora.craigslist.numbers import END, START, parse_number
from actparse.engine.guard import timeout_for
from actparse.engine.rulefiles import LINE, RuleError, check_keys, load_file, where
from actparse.models import PriceMention

__all__ = [
    "EXTENDED_RULES",
    "QUANTULUM_MAX_CHARS",
    "QUANTULUM_MAX_DIGITS",
    "QUANTULUM_MAX_NUMBERS",
    "ExtendedRule",
    "ExtendedRules",
    "extended_readings",
    "find_prices_extended",
    "load_extended_rules",
    "load_quantities",
    "quantulum_refusal",
]

#: The shipped rules, under ``rules/``.
EXTENDED_RULES = ("craigslist", "prices_extended.yaml")

# quantulum3's number parser takes time that grows with about the fourth power of a run
# of digits (80 digits: seconds; 5,000: hours) and faster than linearly with the numbers
# of a text. It is given no text past these bounds, where it stays within about a
# third of a second a call. The Craigslist messages stay far below them (at most 567
# characters, 6 digits to a token and 7 tokens with digits), and so does any price.
#: Characters of the text quantulum3 is given.
QUANTULUM_MAX_CHARS = 1000
#: Digits in one token ("999999999999" is under a trillion).
QUANTULUM_MAX_DIGITS = 12
#: Tokens with digits in the text.
QUANTULUM_MAX_NUMBERS = 20

_log = logging.getLogger(__name__)
_RULE_KINDS = ("regex", "quantity")
_READINGS = ("currency", "scaled", "spelled")
_RULE_KEYS = frozenset(
    {
        "name",
        "kind",
        "pattern",
        "reading",
        "multiplier",
        "listing_checks",
        "right_context",
        "example_listing_price",
        "description",
        "examples",
        "counterexamples",
    }
)
_WORD_KEYS = frozenset(
    {"dollar_units", "dollar_surfaces", "scale_words", "magnitude_words", "vague_quantifiers"}
)


@dataclass(frozen=True)
class ExtendedRule:
    """One named rule of the extended price mode (see ``rules/prices_extended.yaml``)."""

    name: str
    kind: str
    pattern: str = ""
    reading: str = ""
    multiplier: float = 1.0
    #: ``none``, ``cocoa`` (Cocoa's checks for a number without `$`) or ``band``.
    listing_checks: str = "none"
    #: The token after the match must be a right price context of the lexicon.
    right_context: bool = False
    description: str = ""
    examples: tuple[tuple[str, tuple[float, ...]], ...] = ()
    counterexamples: tuple[str, ...] = ()
    #: The listing price the examples and counterexamples are read with.
    example_listing_price: float | None = None

    def __post_init__(self) -> None:
        # Cocoa tokens are ASCII-lowercased already; VERSION0 keeps `re` semantics.
        compiled = regex.compile(self.pattern, regex.VERSION0) if self.pattern else None
        object.__setattr__(self, "_compiled", compiled)

    @property
    def compiled(self) -> regex.Pattern[str] | None:
        """The compiled pattern of a ``regex`` rule."""
        pattern: regex.Pattern[str] | None = self._compiled  # type: ignore[attr-defined]
        return pattern


@dataclass(frozen=True)
class ExtendedRules:
    """The rules and word lists of the extended price mode."""

    rules: tuple[ExtendedRule, ...]
    dollar_units: frozenset[str]
    dollar_surfaces: tuple[str, ...]
    scale_words: dict[str, float]
    magnitude_words: frozenset[str]
    vague_quantifiers: frozenset[str]

    @functools.cached_property
    def triggers(self) -> frozenset[str]:
        """Tokens without which no quantity reading can apply (quantulum3 is not called)."""
        words = {"dollar", "dollars", "usd", *self.scale_words, *self.magnitude_words}
        for surface in self.dollar_surfaces:
            words |= {surface, surface + "s"}
        return frozenset(words)

    def __getitem__(self, name: str) -> ExtendedRule:
        for rule in self.rules:
            if rule.name == name:
                return rule
        raise KeyError(name)


def _words(doc: dict[str, Any], key: str, at: str) -> list[str]:
    value = doc.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RuleError(f"{at}: words.{key} must be a list of strings")
    return value


def _listing_checks(value: Any, at: str) -> str:
    if value is True:
        return "cocoa"
    if value is False or value is None:
        return "none"
    if value == "band":
        return "band"
    raise RuleError(f"{at}: listing_checks must be true, false or 'band'")


def _optional_float(value: Any) -> float | None:
    return None if value is None else float(value)


#: The negotiation band of ``listing_checks: band``, as fractions of the listing price.
PRICE_BAND = (0.5, 1.5)


def _listing_allows(rule: ExtendedRule, value: float, listing: ListingContext | None) -> bool:
    if rule.listing_checks == "cocoa":
        return listing is None or listing.allows(value)
    if rule.listing_checks == "band":
        price = listing.price if listing is not None else None
        return price is not None and PRICE_BAND[0] * price <= value <= PRICE_BAND[1] * price
    return True


def parse_extended_rules(doc: Any, source: str) -> ExtendedRules:
    """Validate a parsed extended-price rule file; errors name the file and line."""
    if not isinstance(doc, dict) or not isinstance(doc.get("rules"), list):
        raise RuleError(f"{source}:1: expected a mapping with 'words' and a 'rules' list")
    words_doc = doc.get("words") or {}
    words = check_keys(words_doc, _WORD_KEYS, where(source, words_doc), "words")
    scale = words.get("scale_words", {})
    if not isinstance(scale, dict):
        raise RuleError(f"{source}: words.scale_words must map words to multipliers")
    rules: list[ExtendedRule] = []
    for record in doc["rules"]:
        at = where(source, record)
        what = f"rule '{record.get('name', '?') if isinstance(record, dict) else '?'}'"
        check_keys(record, _RULE_KEYS, at, what)
        record = {k: v for k, v in record.items() if k != LINE}
        at_rule = f"{at}: {what}"
        kind = record.get("kind")
        if "name" not in record or kind not in _RULE_KINDS:
            raise RuleError(f"{at_rule}: needs a name and a kind in {_RULE_KINDS}")
        if kind == "regex" and not record.get("pattern"):
            raise RuleError(f"{at_rule}: a regex rule needs a pattern")
        if kind == "quantity" and record.get("reading") not in _READINGS:
            raise RuleError(f"{at_rule}: a quantity rule needs a reading in {_READINGS}")
        examples = record.get("examples") or {}
        if not isinstance(examples, dict):
            raise RuleError(f"{at_rule}: examples must map texts to their prices")
        try:
            rules.append(
                ExtendedRule(
                    name=str(record["name"]),
                    kind=str(kind),
                    pattern=str(record.get("pattern", "")),
                    reading=str(record.get("reading", "")),
                    multiplier=float(record.get("multiplier", 1.0)),
                    listing_checks=_listing_checks(record.get("listing_checks", False), at_rule),
                    right_context=bool(record.get("right_context", False)),
                    description=str(record.get("description", "")),
                    examples=tuple(
                        (str(t), tuple(float(v) for v in values))
                        for t, values in examples.items()
                        if t != "__line__"
                    ),
                    counterexamples=tuple(str(t) for t in record.get("counterexamples") or ()),
                    example_listing_price=_optional_float(record.get("example_listing_price")),
                )
            )
        except (regex.error, TypeError, ValueError) as err:
            raise RuleError(f"{at_rule}: {err}") from None
    return ExtendedRules(
        rules=tuple(rules),
        dollar_units=frozenset(_words(words, "dollar_units", source)),
        dollar_surfaces=tuple(_words(words, "dollar_surfaces", source)),
        scale_words={str(k): float(v) for k, v in scale.items() if k != "__line__"},
        magnitude_words=frozenset(_words(words, "magnitude_words", source)),
        vague_quantifiers=frozenset(_words(words, "vague_quantifiers", source)),
    )


def load_extended_rules(path: str | Path | Traversable | None = None) -> ExtendedRules:
    """Load the extended-price rules (default: ``rules/craigslist/prices_extended.yaml``)."""
    return load_file(path, EXTENDED_RULES, parse_extended_rules)


@functools.cache
def _quantulum(dollar_surfaces: tuple[str, ...]) -> Callable[[str], list[Any]]:
    """quantulum3's parser, imported on first use.

    Loading it costs seconds, and only the extended mode needs it."""
    with warnings.catch_warnings():
        # It warns that its optional classifier is missing; the rules do not use it.
        warnings.simplefilter("ignore")
        from quantulum3 import classifier, load, parser  # type: ignore[import-untyped]

    # Its classifier switches itself on whenever scikit-learn is importable (the
    # benchmark extra installs it) and then unpickles a model built with another
    # scikit-learn version, which fails; the rules never use it, so readings are the
    # same with or without scikit-learn installed.
    classifier.USE_CLF = False
    dollar = load.units().names["dollar"]
    surfaces = list(dict.fromkeys([*dollar.surfaces, *dollar_surfaces]))
    if surfaces != list(dollar.surfaces):
        load.add_custom_unit("dollar", surfaces=surfaces)
    parse: Callable[[str], list[Any]] = parser.parse
    return parse


@dataclass(frozen=True, slots=True)
class _Reading:
    """A price of the extended mode over tokens ``first..last``."""

    first: int
    last: int
    value: float
    surface: str


class _TokenText:
    """Tokens joined by single spaces, with each token's start offset."""

    def __init__(self, tokens: Sequence[str]) -> None:
        self.tokens = tokens
        self.text = " ".join(tokens)
        self.starts: list[int] = []
        offset = 0
        for token in tokens:
            self.starts.append(offset)
            offset += len(token) + 1

    def span(self, start: int, end: int) -> tuple[int, int]:
        """First and last token of the character span ``start..end``."""
        return bisect.bisect_right(self.starts, start) - 1, bisect.bisect_left(self.starts, end) - 1

    def left(self, first: int) -> str:
        return self.tokens[first - 1] if first > 0 else START

    def right(self, last: int) -> str:
        return self.tokens[last + 1] if last + 1 < len(self.tokens) else END


def _regex_readings(
    rule: ExtendedRule, text: _TokenText, lexicon: PriceLexicon, listing: ListingContext | None
) -> list[_Reading]:
    readings = []
    assert rule.compiled is not None
    for match in rule.compiled.finditer(text.text, timeout=timeout_for(text.text)):
        number = parse_number(match.group("number"))
        if number is None or math.isinf(number) or math.isnan(number):
            continue
        value = number * rule.multiplier
        if not _listing_allows(rule, value, listing):
            continue
        first, last = text.span(match.start(), match.end())
        if rule.right_context and text.right(last) not in lexicon.right:
            continue
        readings.append(_Reading(first, last, value, match.group(0)))
    return readings


def _quantity_readings(
    rules: ExtendedRules,
    text: _TokenText,
    lexicon: PriceLexicon,
    listing: ListingContext | None,
) -> list[_Reading]:
    readings = {r.reading: r for r in rules.rules if r.kind == "quantity"}
    if not readings or rules.triggers.isdisjoint(text.tokens):
        return []
    refusal = quantulum_refusal(text.text, text.tokens)
    if refusal is not None:
        _log.info("quantity rules skipped: %s", refusal)
        return []
    found = []
    for quantity in _quantulum(rules.dollar_surfaces)(text.text):
        first, last = text.span(*quantity.span)
        surface = str(quantity.surface)
        value = float(quantity.value)
        # A range ("100-150 dollars") comes back as its middle with an uncertainty: it
        # names no single price.
        if math.isinf(value) or math.isnan(value) or quantity.uncertainty is not None:
            continue
        head = text.tokens[first]
        vague = head in rules.magnitude_words and text.left(first) in rules.vague_quantifiers
        unit = quantity.unit.name
        if unit in rules.dollar_units and "currency" in readings:
            if not vague:
                found.append(_Reading(first, last, value, surface))
        elif unit == "dimensionless":
            scale = rules.scale_words.get(text.right(last))
            if scale is not None and "scaled" in readings:
                found.append(
                    _Reading(first, last + 1, value * scale, f"{surface} {text.right(last)}")
                )
            elif (
                "spelled" in readings
                and not vague
                and _has_magnitude(text, first, last, rules)
                # Like a bare number in Cocoa's rules: between known contexts, and not
                # a number the listing rules out.
                and lexicon.is_price_context(text.left(first), text.right(last))
                and (listing is None or listing.allows(value))
            ):
                found.append(_Reading(first, last, value, surface))
    return found


def load_quantities(rules: ExtendedRules) -> None:
    """Load quantulum3 now if the rules have quantity rules.

    It takes seconds, which the first message to need it should not pay (they would count against
    its record's deadline, :mod:`actparse.io.deadline`)."""
    if any(rule.kind == "quantity" for rule in rules.rules):
        _quantulum(rules.dollar_surfaces)


def quantulum_refusal(text: str, tokens: Sequence[str]) -> str | None:
    """Why quantulum3 is not given ``text``, or ``None`` if it is.

    ``text`` is given as its ``tokens``. A text past the bounds above could keep it busy for
    minutes."""
    if len(text) > QUANTULUM_MAX_CHARS:
        return f"{len(text)} characters (more than {QUANTULUM_MAX_CHARS})"
    numbers = 0
    for token in tokens:
        digits = sum(c.isdigit() for c in token) if not token.isalpha() else 0
        if digits > QUANTULUM_MAX_DIGITS:
            return f"a token of {digits} digits (more than {QUANTULUM_MAX_DIGITS})"
        numbers += digits > 0
    if numbers > QUANTULUM_MAX_NUMBERS:
        return f"{numbers} tokens with digits (more than {QUANTULUM_MAX_NUMBERS})"
    return None


def _has_magnitude(text: _TokenText, first: int, last: int, rules: ExtendedRules) -> bool:
    # "two hundred", "2 thousand": a plain "two" or "five" is too often no price.
    words = text.tokens[first : last + 1]
    return not rules.magnitude_words.isdisjoint(words)


def extended_readings(
    tokens: Sequence[str],
    lexicon: PriceLexicon,
    listing: ListingContext | None = None,
    rules: ExtendedRules | None = None,
    only: str | None = None,
) -> list[PriceMention]:
    """The prices the extended rules find (``only``: one rule by name), without Cocoa's."""
    readings = _extended(tokens, lexicon, listing, rules or load_extended_rules(), only)
    return [PriceMention(r.surface, r.value, r.first) for r in readings]


def _extended(
    tokens: Sequence[str],
    lexicon: PriceLexicon,
    listing: ListingContext | None,
    rules: ExtendedRules,
    only: str | None = None,
) -> list[_Reading]:
    text = _TokenText(tokens)
    readings: list[_Reading] = []
    for rule in rules.rules:
        if rule.kind == "regex" and only in (None, rule.name):
            readings.extend(_regex_readings(rule, text, lexicon, listing))
    if only is None or rules[only].kind == "quantity":
        selected = rules
        if only is not None:
            selected = replace(rules, rules=(rules[only],))
        readings.extend(_quantity_readings(selected, text, lexicon, listing))
    # Earlier rules win where readings overlap: quantulum3 reads "2k" as kelvin.
    taken: set[int] = set()
    kept: list[_Reading] = []
    for reading in readings:
        span = set(range(reading.first, reading.last + 1))
        if span & taken:
            continue
        taken |= span
        kept.append(reading)
    kept.sort(key=lambda r: r.first)
    return kept


def find_prices_extended(
    tokens: Sequence[str],
    lexicon: PriceLexicon,
    listing: ListingContext | None = None,
    rules: ExtendedRules | None = None,
) -> list[PriceMention]:
    """Cocoa's prices plus those of the extended rules, in token order.

    Where both read the same tokens the extended reading wins: in "1.5 grand" Cocoa may
    take 1.5, the extended rules 1500.
    """
    extra = _extended(tokens, lexicon, listing, rules or load_extended_rules())
    if not extra:
        return find_prices(tokens, lexicon, listing)
    covered = {i for r in extra for i in range(r.first, r.last + 1)}
    mentions = [m for m in find_prices(tokens, lexicon, listing) if m.token not in covered]
    mentions.extend(PriceMention(r.surface, r.value, r.first) for r in extra)
    mentions.sort(key=lambda m: m.token)
    return mentions
