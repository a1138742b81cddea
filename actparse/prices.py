"""Finding prices in messages, as Cocoa's price tracker did, and beyond it.

A bare number counts as a price only between a known left context and a known right
context: words that stood beside `$`-marked prices in training messages (weak
supervision, corrected by :mod:`actparse.calibrate`). The learned contexts are a
:class:`PriceLexicon`, stored as JSON.

:class:`PriceFinder` links prices in one of two modes: ``cocoa`` (:func:`find_prices`,
the reference behaviour) and ``extended`` (:func:`find_prices_extended`: also the rules of
``rules/prices_extended.yaml``, with quantulum3 imported on first use only).
:func:`offer_price_recall` measures either against the offers of finished dialogues.
"""

from __future__ import annotations

import bisect
import contextlib
import datetime
import functools
import hashlib
import json
import math
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import regex
import yaml

from actparse.guard import timeout_for
from actparse.models import Dialogue, Listing, PriceMention
from actparse.rules import RuleError, line_loader, rules_dir
from actparse.tokenizer import tokenize

__all__ = [
    "PRICE_MODES",
    "BareNumber",
    "ExtendedRule",
    "ExtendedRules",
    "ListingContext",
    "PriceFinder",
    "PriceLexicon",
    "PriceRecall",
    "bare_numbers",
    "extended_readings",
    "find_prices",
    "find_prices_extended",
    "load_extended_rules",
    "load_lexicon",
    "offer_price_recall",
    "parse_number",
    "train_lexicon",
]

LEXICON_FORMAT = "actparse-price-lexicon/1"
DEFAULT_LEXICON = "price_lexicon.json"
START, END = "<s>", "</s>"

# float() needs a digit (inf and nan aside, which are never prices): a cheap pre-filter.
_DIGIT = regex.compile(r"\d")
_ASCII_DIGITS = frozenset("0123456789")
_NUMBER_START = frozenset("0123456789.,$+-")


def _has_digit(token: str) -> bool:
    """Whether a token holds a digit; float() needs one (inf and nan aside).

    ASCII tokens take a set test; others (float() also reads non-ASCII decimal digits)
    the Unicode-aware pattern.
    """
    if token.isascii():
        return not _ASCII_DIGITS.isdisjoint(token)
    return _DIGIT.search(token, timeout=timeout_for(token)) is not None


# Python 2's \w was ASCII-only: Cocoa blanked every other character of the listing.
_NON_LISTING_CHAR = regex.compile(r"[^\w0-9\.,]", regex.ASCII)
_NO_LISTING = Listing(title="", description="", price=None)


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
        "trained_on": [describe_source(s) for s in sources],
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


def describe_source(source: str | Path) -> dict[str, Any]:
    """A data file as provenance names it: its name and, when readable, its SHA-256."""
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
    """A number without `$` that passes every check of :func:`find_prices` but the context
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
        if not _has_digit(token) or _has_dollar(token):
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
            if token[0] not in _NUMBER_START or _ASCII_DIGITS.isdisjoint(token):
                continue
        elif not _has_digit(token):
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
            if listing is not None and not listing.allows(value):
                continue
        mentions.append(PriceMention(surface=token, value=value, token=i))
    return mentions


#: The price modes of :class:`PriceFinder`.
PRICE_MODES = ("cocoa", "extended")
EXTENDED_RULES = "prices_extended.yaml"

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


def _words(doc: dict[str, Any], key: str, where: str) -> list[str]:
    value = doc.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RuleError(f"{where}: words.{key} must be a list of strings")
    return value


def _listing_checks(value: Any, where: str) -> str:
    if value is True:
        return "cocoa"
    if value is False or value is None:
        return "none"
    if value == "band":
        return "band"
    raise RuleError(f"{where}: listing_checks must be true, false or 'band'")


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


def parse_extended_rules(text: str, source: str) -> ExtendedRules:
    """Parse and validate an extended-price rule file; errors name the file and line."""
    try:
        doc = yaml.load(text, Loader=line_loader())
    except yaml.YAMLError as err:
        raise RuleError(f"{source}: not valid YAML: {err}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("rules"), list):
        raise RuleError(f"{source}:1: expected a mapping with 'words' and a 'rules' list")
    words = doc.get("words") or {}
    if not isinstance(words, dict) or set(words) - _WORD_KEYS - {"__line__"}:
        raise RuleError(f"{source}: 'words' may only hold {sorted(_WORD_KEYS)}")
    scale = words.get("scale_words", {})
    if not isinstance(scale, dict):
        raise RuleError(f"{source}: words.scale_words must map words to multipliers")
    rules: list[ExtendedRule] = []
    for record in doc["rules"]:
        if not isinstance(record, dict):
            raise RuleError(f"{source}: every rule must be a mapping, got {record!r}")
        where = f"{source}:{record.pop('__line__', '?')}: rule '{record.get('name', '?')}'"
        if set(record) - _RULE_KEYS:
            raise RuleError(f"{where}: unknown key(s) {sorted(set(record) - _RULE_KEYS)}")
        kind = record.get("kind")
        if "name" not in record or kind not in _RULE_KINDS:
            raise RuleError(f"{where}: needs a name and a kind in {_RULE_KINDS}")
        if kind == "regex" and not record.get("pattern"):
            raise RuleError(f"{where}: a regex rule needs a pattern")
        if kind == "quantity" and record.get("reading") not in _READINGS:
            raise RuleError(f"{where}: a quantity rule needs a reading in {_READINGS}")
        examples = record.get("examples") or {}
        if not isinstance(examples, dict):
            raise RuleError(f"{where}: examples must map texts to their prices")
        try:
            rules.append(
                ExtendedRule(
                    name=str(record["name"]),
                    kind=str(kind),
                    pattern=str(record.get("pattern", "")),
                    reading=str(record.get("reading", "")),
                    multiplier=float(record.get("multiplier", 1.0)),
                    listing_checks=_listing_checks(record.get("listing_checks", False), where),
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
            raise RuleError(f"{where}: {err}") from None
    return ExtendedRules(
        rules=tuple(rules),
        dollar_units=frozenset(_words(words, "dollar_units", source)),
        dollar_surfaces=tuple(_words(words, "dollar_surfaces", source)),
        scale_words={str(k): float(v) for k, v in scale.items() if k != "__line__"},
        magnitude_words=frozenset(_words(words, "magnitude_words", source)),
        vague_quantifiers=frozenset(_words(words, "vague_quantifiers", source)),
    )


def load_extended_rules(path: str | Path | Traversable | None = None) -> ExtendedRules:
    """Load the extended-price rules (default: ``rules/prices_extended.yaml``)."""
    if path is None:
        return _default_extended_rules()
    file = Path(path) if isinstance(path, str) else path
    return parse_extended_rules(file.read_text(encoding="utf-8"), str(path))


@functools.cache
def _default_extended_rules() -> ExtendedRules:
    text = rules_dir().joinpath(EXTENDED_RULES).read_text(encoding="utf-8")
    return parse_extended_rules(text, EXTENDED_RULES)


@functools.cache
def _quantulum(dollar_surfaces: tuple[str, ...]) -> Callable[[str], list[Any]]:
    """quantulum3's parser, imported on first use: loading it costs seconds, and only the
    extended mode needs it."""
    with warnings.catch_warnings():
        # It warns that its optional classifier is missing; the rules do not use it.
        warnings.simplefilter("ignore")
        from quantulum3 import load, parser  # type: ignore[import-untyped]

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


class PriceFinder:
    """Links the prices of a message in one of :data:`PRICE_MODES`.

    ``cocoa`` is Cocoa's price tracker (:func:`find_prices`). ``extended`` keeps every
    price Cocoa finds and adds those its rules miss (:func:`find_prices_extended`).
    """

    def __init__(
        self, lexicon: PriceLexicon, mode: str = "cocoa", rules: ExtendedRules | None = None
    ) -> None:
        if mode not in PRICE_MODES:
            raise ValueError(f"unknown price mode {mode!r}; one of {', '.join(PRICE_MODES)}")
        self.lexicon = lexicon
        self.mode = mode
        self.rules = (rules or load_extended_rules()) if mode == "extended" else None

    def skips(self, text: str) -> bool:
        """Whether a message certainly holds no price: Cocoa's prices need a digit."""
        return self.rules is None and text.isascii() and _ASCII_DIGITS.isdisjoint(text)

    def find(
        self, tokens: Sequence[str], listing: ListingContext | None = None
    ) -> list[PriceMention]:
        """The prices among message tokens, in order (types not yet resolved)."""
        if self.rules is None:
            return find_prices(tokens, self.lexicon, listing)
        return find_prices_extended(tokens, self.lexicon, listing, self.rules)


@dataclass(frozen=True)
class PriceRecall:
    """How well one price mode finds the prices of a set of dialogues.

    Ground truth the data already has: a dialogue that ends with an accepted offer names
    the agreed price, so that price should be among the prices found in its messages.
    """

    mode: str
    #: Dialogues ending with an accepted offer that carries a price.
    dialogues: int
    #: Those whose offer price is among the prices found in their messages.
    found: int
    #: Messages read (in every dialogue).
    messages: int
    #: Messages where this mode finds a price.
    with_price: int
    #: Messages where this mode finds a price and no other mode compared does.
    only: int

    @property
    def recall(self) -> float:
        """Share of accepted offers whose price was found."""
        return self.found / self.dialogues if self.dialogues else 1.0


def _accepted_offer(dialogue: Dialogue) -> float | None:
    turns = [t for t in dialogue.turns if t.action is not None]
    if not turns or turns[-1].action != "accept":
        return None
    offers = [t for t in turns if t.action == "offer"]
    return offers[-1].offer_price if offers else None


def offer_price_recall(
    dialogues: Iterable[Dialogue],
    lexicon: PriceLexicon | None = None,
    modes: Sequence[str] = PRICE_MODES,
) -> dict[str, PriceRecall]:
    """Offer-price recall of each price mode, and how often one finds what others do not.

    Each message is read with its reader's listing, as the parser reads it. Prices match
    within 1e-6 (offers of the HuggingFace export were stored as float32).
    """
    lexicon = lexicon or load_lexicon()
    finders = {mode: PriceFinder(lexicon, mode) for mode in modes}
    counts = {mode: Counter[str]() for mode in modes}
    for dialogue in dialogues:
        offer = _accepted_offer(dialogue)
        listings = [ListingContext(p.listing or _NO_LISTING) for p in dialogue.parties]
        seen: dict[str, list[float]] = {mode: [] for mode in modes}
        for turn in dialogue.turns:
            if not turn.is_message or turn.agent not in (0, 1):
                continue
            tokens = tokenize(turn.text)
            found = {m: finders[m].find(tokens, listings[1 - turn.agent]) for m in modes}
            for mode in modes:
                counts[mode]["messages"] += 1
                if found[mode]:
                    counts[mode]["with_price"] += 1
                    counts[mode]["only"] += not any(found[o] for o in modes if o != mode)
                    seen[mode].extend(p.value for p in found[mode])
        if offer is None:
            continue
        for mode in modes:
            counts[mode]["dialogues"] += 1
            counts[mode]["found"] += any(
                math.isclose(v, offer, rel_tol=1e-6, abs_tol=1e-6) for v in seen[mode]
            )
    return {
        mode: PriceRecall(
            mode,
            dialogues=c["dialogues"],
            found=c["found"],
            messages=c["messages"],
            with_price=c["with_price"],
            only=c["only"],
        )
        for mode, c in counts.items()
    }
