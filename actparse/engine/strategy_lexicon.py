"""A learned strategy lexicon: word and word-pair weights per strategy label, from JSON.

The strategy rules find what is said in so many words; a lexicon learned from annotated
dialogues weighs every word, and finds what the rules' phrase lists miss (CaSiNo's
held-out dialogues: rules alone 0.547 macro F1 over the paper's seven labels, rules and
lexicon together 0.59; README, "Negotiation strategies"). A label holds where its
intercept plus the weights of the message's words and adjacent word pairs is not negative:
a logistic regression's decision, read from a JSON file (never a pickle), scored in
pure Python, with no learning library at run time.

The file (written by ``benchmarks/strategy_baseline.py --export``)::

    {"description": "...", "provenance": {...},
     "token_pattern": "(?u)\\\\b\\\\w\\\\w+\\\\b", "ngrams": [1, 2],
     "labels": ["small-talk", ...],
     "intercepts": [-1.2, ...],                 # one per label
     "weights": {"how are": [0.8, ...], ...}}   # one per label, for each word or pair

Words are found as scikit-learn's ``CountVectorizer`` found them when the weights were
learned: the lowercased text, ``token_pattern``, pairs of adjacent words joined by a space;
a word counts once however often it occurs. Weights count to five decimals (the file's),
summed as integers, so a decision is exact.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from importlib.resources.abc import Traversable
from itertools import pairwise
from pathlib import Path

from actparse.engine.rulefiles import RuleError, read_json_object, shown

__all__ = ["StrategyLexicon", "load_strategy_lexicon"]

#: The default words, scikit-learn's: runs of two or more word characters.
DEFAULT_TOKENS = r"(?u)\b\w\w+\b"
#: The same on lowercased ASCII text, where ``\w`` is these characters: faster.
_ASCII_TOKENS = re.compile(r"[a-z0-9_]{2,}")
#: Weights are summed as integers: each label's weight times this (the file's five
#: decimals, exactly), plus an offset, in a field of its own of one big integer per word,
#: so that a message's words are summed by one ``sum`` of integers for all labels at once.
_SCALE = 10**5
_FIELD = 64
_FIELD_MASK = (1 << _FIELD) - 1
_OFFSET = 1 << 44

_KEYS = frozenset(
    {"description", "provenance", "token_pattern", "ngrams", "labels", "intercepts", "weights"}
)


class StrategyLexicon:
    """Labels a message by learned word weights (:func:`load_strategy_lexicon`)."""

    def __init__(
        self,
        labels: Sequence[str],
        intercepts: Sequence[float],
        weights: dict[str, Sequence[float]],
        *,
        token_pattern: str = DEFAULT_TOKENS,
        ngrams: tuple[int, int] = (1, 2),
        source: str = "<lexicon>",
    ) -> None:
        if isinstance(labels, str) or not all(isinstance(label, str) for label in labels):
            raise RuleError(f"{source}: labels must be a list of strings")
        if len(set(labels)) != len(labels):
            raise RuleError(f"{source}: a label is listed twice: {list(labels)}")
        if len(intercepts) != len(labels):
            raise RuleError(f"{source}: {len(labels)} labels but {len(intercepts)} intercepts")
        if not all(_is_number(b) for b in intercepts):
            raise RuleError(f"{source}: intercepts must be finite numbers")
        for gram, row in weights.items():
            if len(row) != len(labels):
                raise RuleError(
                    f"{source}: the weights of {shown(gram)} are {len(row)}, not one per label "
                    f"({len(labels)})"
                )
            if not all(_is_number(w) for w in row):
                raise RuleError(f"{source}: the weights of {shown(gram)} must be finite numbers")
        if tuple(ngrams) not in ((1, 1), (1, 2)):
            raise RuleError(f"{source}: ngrams must be [1, 1] or [1, 2], not {list(ngrams)}")
        self.labels = tuple(labels)
        self.source = source
        rows = {gram: tuple(float(w) for w in row) for gram, row in weights.items()}
        self._pairs = tuple(ngrams) == (1, 2)
        self._tokens = re.compile(token_pattern)
        self._ascii_tokens = _ASCII_TOKENS if token_pattern == DEFAULT_TOKENS else self._tokens
        # Every field's sum stays below the next field: at most one row per word.
        largest = max((abs(w) for row in rows.values() for w in row), default=0.0)
        if largest * _SCALE >= _OFFSET or (len(rows) + 1) * 2 * _OFFSET >= 1 << _FIELD:
            raise RuleError(f"{source}: weights too large or too many words to sum exactly")
        self._packed = {gram: _pack(row) for gram, row in rows.items()}
        self._fields = tuple(
            (label, _FIELD * k, round(b * _SCALE))
            for k, (label, b) in enumerate(zip(self.labels, map(float, intercepts)))
        )

    def labels_of(self, text: str) -> tuple[str, ...]:
        """The labels whose decision is not negative for ``text``, in the file's order.

        Not negative means a probability of at least one half."""
        lowered = text.lower()
        tokens = self._ascii_tokens if lowered.isascii() else self._tokens
        words = tokens.findall(lowered)
        grams = set(words)
        if self._pairs and len(words) > 1:
            grams.update(map(" ".join, pairwise(words)))
        rows = [row for row in map(self._packed.get, grams) if row is not None]
        total = sum(rows)
        offsets = len(rows) * _OFFSET
        return tuple(
            [
                label
                for label, shift, b in self._fields
                if ((total >> shift) & _FIELD_MASK) - offsets + b >= 0
            ]
        )


def _is_number(value: object) -> bool:
    """A finite int or float (not a bool, nor a string of digits)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _pack(row: Sequence[float]) -> int:
    """A word's weights as one integer: a field per label (see ``_SCALE``)."""
    packed = 0
    for k, weight in enumerate(row):
        packed |= (round(weight * _SCALE) + _OFFSET) << (_FIELD * k)
    return packed


def load_strategy_lexicon(path: str | Path | Traversable) -> StrategyLexicon:
    """A lexicon from its JSON file; a :class:`RuleError` naming the file when it is malformed."""
    source = str(path)
    doc = read_json_object(path, "lexicon", _KEYS)
    missing = {"labels", "intercepts", "weights"} - set(doc)
    if missing:
        raise RuleError(f"{source}: missing {sorted(missing)}")
    try:
        return StrategyLexicon(
            doc["labels"],
            doc["intercepts"],
            doc["weights"],
            token_pattern=doc.get("token_pattern", DEFAULT_TOKENS),
            ngrams=tuple(doc.get("ngrams", (1, 2))),
            source=source,
        )
    except RuleError:
        raise
    except (TypeError, ValueError, AttributeError, OverflowError, re.error) as err:
        raise RuleError(f"{source}: malformed lexicon: {err}") from None
