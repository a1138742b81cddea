"""The price-context lexicon: the words seen just left and just right of prices.

A bare number counts as a price only between a known left context and a known right
context. :func:`train_lexicon` learns them by weak supervision (the neighbours of
`$`-marked tokens); :mod:`actparse.corpora.craigslist.calibrate` corrects them with
reference acts. Stored as JSON with its provenance, never pickled.
"""

from __future__ import annotations

import datetime
import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from actparse.corpora.craigslist.numbers import END, START, has_dollar
from actparse.engine.rulefiles import RuleError, load_file, parse_json, read_text, shown
from actparse.engine.tokenizer import tokenize
from actparse.io.fields import MAX_COUNT
from actparse.io.messages import json_kind
from actparse.io.output import open_output

__all__ = [
    "COCOA_LAYOUT",
    "LEXICON_FILE",
    "LEXICON_FORMAT",
    "PriceLexicon",
    "describe_source",
    "load_lexicon",
    "train_lexicon",
]

LEXICON_FORMAT = "actparse-price-lexicon/1"
#: How the provenance names a lexicon read from Cocoa's own layout.
COCOA_LAYOUT = "Cocoa price tracker (left/right counts)"
#: The shipped lexicon, under ``rules/``.
LEXICON_FILE = ("craigslist", "price_lexicon.json")


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

    def save(self, path: str | Path, inputs: Iterable[str | Path] = ()) -> None:
        """Write the lexicon as JSON (never a pickle), whole or not at all.

        As every output is written: never over one of ``inputs`` (see
        :class:`~actparse.io.output.open_output`)."""
        text = json.dumps(self.to_json(), indent=1, ensure_ascii=False, sort_keys=False)
        with open_output(path, inputs) as out:
            out.write(text + "\n")

    @classmethod
    def from_json(cls, doc: Any, source: str = "<lexicon>") -> PriceLexicon:
        """Build a lexicon from its JSON document, checking its shape.

        Two layouts are read: actparse's (``format``, ``provenance``, ``left``,
        ``right``) and Cocoa's own price-tracker tables as JSON (``left`` and ``right``
        counts and no ``format``; any other top-level fields, such as where it came
        from, become the provenance).
        """
        if not isinstance(doc, dict):
            raise RuleError(
                f"{source}: not a price lexicon (expected a JSON object, got {json_kind(doc)})"
            )
        fmt = doc.get("format")
        if fmt is None and "left" in doc and "right" in doc:
            provenance = {k: v for k, v in doc.items() if k not in ("left", "right")}
            provenance.setdefault("layout", COCOA_LAYOUT)
        elif fmt == LEXICON_FORMAT:
            found = doc.get("provenance")
            if found is not None and not isinstance(found, dict):
                raise RuleError(
                    f"{source}: 'provenance' must be an object (where the lexicon came "
                    f"from), got {json_kind(found)}"
                )
            provenance = dict(found or {})
        else:
            raise RuleError(
                f"{source}: not a price lexicon (expected format {LEXICON_FORMAT}, or "
                "Cocoa's 'left' and 'right' counts)"
            )
        left_counts = _counts(doc.get("left"), "left", source)
        right_counts = _counts(doc.get("right"), "right", source)
        return cls(
            left=frozenset(left_counts),
            right=frozenset(right_counts),
            provenance=provenance,
            left_counts=left_counts,
            right_counts=right_counts,
        )


def _counts(table: Any, side: str, source: str) -> dict[str, int]:
    """A side's counts: an object of contexts to whole numbers of times seen, not empty.

    A count is 0 for a context calibration added. Not empty, since an empty side makes no bare
    number a price."""
    if not isinstance(table, dict):
        raise RuleError(
            f"{source}: '{side}' must be an object of contexts and counts, got {json_kind(table)}"
        )
    if not table:
        raise RuleError(
            f"{source}: '{side}' has no contexts, so no bare number would ever be a price"
        )
    for word, count in table.items():
        if type(count) is not int or not 0 <= count <= MAX_COUNT:
            got = json_kind(count) if count is None or isinstance(count, bool) else count
            raise RuleError(
                f"{source}: {side}[{shown(word)}]: a count must be a whole number from 0 to "
                f"{MAX_COUNT}, got {_short(got)}"
            )
    return {str(word): count for word, count in table.items()}


def _short(value: Any) -> str:
    text = str(value)
    return text if len(text) <= 40 else f"{text[:20]}...{text[-10:]} ({len(text)} characters)"


def load_lexicon(path: str | Path | Traversable | None = None) -> PriceLexicon:
    """Load a price lexicon (default: the one shipped in ``rules/craigslist/``).

    A lexicon is JSON whatever its file name; a file that is not, or is not a lexicon,
    raises :class:`~actparse.engine.rulefiles.RuleError` naming the file and the key.
    """
    if path is None:
        return load_file(path, LEXICON_FILE, PriceLexicon.from_json)
    source = str(path)
    return PriceLexicon.from_json(parse_json(read_text(path), source), source)


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
            if has_dollar(tokens[i]):
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
