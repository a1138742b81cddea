"""A learned final-split chooser: the division the text's deal ends on, weighed by the values.

The tracked deal (:mod:`actparse.engine.deals`) names the proposal the text stands on
before the formal deal. Where its parse is a unit off, or the deal was settled a message
earlier, the parties' own item values tell: people rarely settle on a division that gives
one side items worth nothing to it and wanted by the other, or leaves one side with
little. A :class:`FinalChooser` scores *every* division of the items by named features
(:data:`FEATURES`) of the tracked proposals and of the values, and picks the best; ties
go to the tracked final. The weights are a conditional logit's, learned on development
dialogues by ``benchmarks/final_chooser.py`` and read from a JSON file (never a pickle)
with their provenance; scoring is pure Python, no learning library at run time.

The file::

    {"description": "...", "provenance": {...},
     "features": {"is_final": 2.1, "lesser_points": 1.7, ...}}

A feature the file does not name weighs nothing; a name not in :data:`FEATURES` is an
error naming the file. Nothing here knows a corpus: a dialogue's divisions come from
its parties' item counts, the values from the same items; a dialogue without both
parties' values is left to the rules.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Literal

from actparse.engine.deals import DealTrack, Proposal, confidence
from actparse.engine.rulefiles import RuleError, read_json_object, shipped
from actparse.models import ItemSplit, Party

__all__ = [
    "FEATURES",
    "SHIPPED",
    "ChoiceContext",
    "FinalChoice",
    "FinalChooser",
    "final_choice",
    "items_off",
    "load_final_chooser",
    "rules_choice",
    "shipped_chooser",
]

Counts = tuple[tuple[int | None, ...], ...]
Division = tuple[tuple[int, ...], tuple[int, ...]]

#: What the chooser sees of one division of the items, by name. "Unsure": the tracked
#: final is not of ``high`` confidence (:func:`~actparse.engine.deals.confidence`).
FEATURES: Mapping[str, str] = {
    "is_final": "the tracked final (a count it left open is free)",
    "one_item_off_final": "differs from the tracked final in one item",
    "items_off_final": "differs from it in two items or more",
    "was_proposed": "a proposal of the text",
    "was_agreed": "a proposal the other side agreed to",
    "one_item_off_a_proposal": "no proposal, one item from the nearest",
    "items_for_nothing": "items given to a side that values them at nothing, wanted by the other",
    "lesser_points": "the points of the side with fewer, over the most a side can score",
    "joint_points": "both sides' points, over the most a side can score",
    "points_gap": "the difference of the two sides' points, over the most a side can score",
    "to_who_values_more": "items whose larger share goes to the side valuing them more, less "
    "those whose larger share goes to the other, per item type",
    "one_item_off_final_unsure": "one item off the final, the final unsure",
    "was_proposed_unsure": "a proposal of the text, the final unsure",
    "is_final_unsure": "the tracked final, unsure",
    "sides_swapped": "the tracked final with the two sides swapped (a side misread)",
    "partners_last": "the last proposal of the side that did not make the final",
    "second_last_proposal": "the proposal made before the last one",
    "formal_side_favour": "the points of the side whose formal offer stands less the other "
    "side's, over the most a side can score (the side filling in the form tilts it its way)",
}

_KEYS = frozenset({"description", "provenance", "features"})
#: The most divisions of the items the chooser weighs; beyond, the rules decide (a
#: plug-in's large counts would multiply out: four items of 50 are 6.8 million).
MAX_DIVISIONS = 10_000
#: A parser's default: the chooser its corpus ships (:func:`shipped_chooser`).
SHIPPED: Literal["shipped"] = "shipped"


@dataclass(frozen=True, slots=True)
class FinalChoice:
    """The final split of a dialogue's text and how it was chosen.

    ``split`` is ``None`` when the text proposed nothing. ``by`` is ``rules`` (the
    tracked final) or ``learned`` (another division the chooser preferred over
    ``tracked``, the tracked final). ``proposal`` is the latest proposal of the text with
    the chosen division (``None``: no message proposed it). ``confidence`` is the tracked
    final's (:func:`~actparse.engine.deals.confidence`), ``low`` for a division the
    chooser moved to: no message agreed to it as the rules read them."""

    split: ItemSplit | None
    proposal: Proposal | None
    confidence: str
    by: Literal["rules", "learned"] = "rules"
    tracked: Proposal | None = None


@dataclass(frozen=True)
class ChoiceContext:
    """What the features of a dialogue's divisions are read against, computed once."""

    final: Proposal
    proposals: tuple[Proposal, ...]
    values: tuple[tuple[float, ...], tuple[float, ...]]
    totals: tuple[int, ...]
    #: The most points a side can score (the scale of the point features).
    scale: float
    unsure: bool
    partners_last: Counts | None
    second_last: Counts | None
    swapped: Counts
    #: The side whose formal offer stands (:attr:`~actparse.engine.deals.DealTrack.formal_by`).
    formal_by: int | None = None

    @classmethod
    def of(cls, track: DealTrack, parties: Sequence[Party]) -> ChoiceContext | None:
        """The context of a tracked dialogue.

        ``None`` (the rules decide) with no final, without both parties' item values (a
        side of unknown values would read as valuing nothing), or with more divisions
        than :data:`MAX_DIVISIONS`."""
        final = track.final
        if final is None or len(parties) != 2 or not parties[0].items:
            return None
        totals = tuple(item.count for item in parties[0].items)
        known = [item.value for party in parties for item in party.items]
        if None in known or len(known) != 2 * len(totals):
            return None
        if len(final.split.counts[0]) != len(totals) or math.prod(n + 1 for n in totals) > (
            MAX_DIVISIONS
        ):
            return None
        values = (_values(parties[0]), _values(parties[1]))
        made = tuple(sorted(track.proposals.values(), key=lambda p: p.turn))
        partners = [p for p in made if p.agent != final.agent]
        scale = max(1.0, *(sum(v * n for v, n in zip(side, totals)) for side in values))
        return cls(
            final=final,
            proposals=made,
            values=values,
            totals=totals,
            scale=scale,
            unsure=confidence(final) != "high",
            partners_last=partners[-1].split.counts if partners else None,
            second_last=made[-2].split.counts if len(made) > 1 else None,
            swapped=(final.split.counts[1], final.split.counts[0]),
            formal_by=track.formal_by,
        )

    def divisions(self) -> Iterator[Division]:
        """Every division of the items between the two sides."""
        for mine in itertools.product(*(range(n + 1) for n in self.totals)):
            yield mine, tuple(n - k for n, k in zip(self.totals, mine))

    def features(self, division: Division) -> dict[str, float]:
        """The named features (:data:`FEATURES`) of one division."""
        off_final = items_off(division, self.final.split.counts)
        off = [items_off(division, p.split.counts) for p in self.proposals]
        unsure = float(self.unsure)
        points = [self._points(division, a) for a in (0, 1)]
        was_proposed = float(min(off) == 0)
        return {
            "is_final": float(off_final == 0),
            "one_item_off_final": float(off_final == 1),
            "items_off_final": float(off_final >= 2),
            "was_proposed": was_proposed,
            "was_agreed": float(any(k == 0 and p.agreed for k, p in zip(off, self.proposals))),
            "one_item_off_a_proposal": float(min(off) == 1),
            "items_for_nothing": float(self._for_nothing(division)),
            "lesser_points": min(points),
            "joint_points": sum(points),
            "points_gap": abs(points[0] - points[1]),
            "to_who_values_more": self._to_who_values_more(division),
            "one_item_off_final_unsure": float(off_final == 1) * unsure,
            "was_proposed_unsure": was_proposed * unsure,
            "is_final_unsure": float(off_final == 0) * unsure,
            "sides_swapped": float(off_final > 0) * _same(division, self.swapped),
            "partners_last": _same(division, self.partners_last),
            "second_last_proposal": _same(division, self.second_last),
            "formal_side_favour": self._formal_side_favour(points),
        }

    def _points(self, division: Division, agent: int) -> float:
        return sum(k * v for k, v in zip(division[agent], self.values[agent])) / self.scale

    def _formal_side_favour(self, points: list[float]) -> float:
        if self.formal_by not in (0, 1):
            return 0.0
        return points[self.formal_by] - points[1 - self.formal_by]

    def _for_nothing(self, division: Division) -> int:
        mine, theirs = self.values
        return sum(
            1
            for i in range(len(self.totals))
            for a, own, other in ((0, mine, theirs), (1, theirs, mine))
            if division[a][i] and own[i] == 0 and other[i] > 0
        )

    def _to_who_values_more(self, division: Division) -> float:
        score = 0
        for i, total in enumerate(self.totals):
            v0, v1 = self.values[0][i], self.values[1][i]
            if v0 == v1:
                continue
            more = 0 if v0 > v1 else 1
            score += (2 * division[more][i] > total) - (2 * division[1 - more][i] > total)
        return score / len(self.totals)


def items_off(division: Division, counts: Counts) -> int:
    """The item types whose division differs from a split's (a count left open is free)."""
    off = 0
    for i, (first, second) in enumerate(zip(counts[0], counts[1])):
        if first is not None:
            off += first != division[0][i]
        elif second is not None:
            off += second != division[1][i]
    return off


def _same(division: Division, counts: Counts | None) -> float:
    return float(counts is not None and items_off(division, counts) == 0)


def _values(party: Party) -> tuple[float, ...]:
    return tuple(float(item.value or 0) for item in party.items)  # None ruled out before


@dataclass(frozen=True)
class FinalChooser:
    """Picks the division a dialogue's text ends on by learned feature weights."""

    weights: Mapping[str, float]
    description: str = ""
    provenance: Mapping[str, Any] = field(default_factory=dict)
    source: str = ""

    def score(self, features: Mapping[str, float]) -> float:
        """A division's score: the sum of its features' weights."""
        return sum(w * features[name] for name, w in self.weights.items())

    def choose(self, track: DealTrack, parties: Sequence[Party]) -> FinalChoice:
        """The final split of a tracked dialogue: the tracked final, unless another beats it."""
        final = track.final
        context = ChoiceContext.of(track, parties)
        if context is None:
            return rules_choice(track)
        best: tuple[float, float, Division] | None = None
        for division in context.divisions():
            features = context.features(division)
            # Ties go to the tracked final.
            key = (self.score(features), features["is_final"], division)
            if best is None or key[:2] > best[:2]:
                best = key
        assert best is not None and final is not None  # a context has a final and divisions
        chosen = best[2]
        complete = None not in final.split.counts[0] and None not in final.split.counts[1]
        if complete and items_off(chosen, final.split.counts) == 0:
            return rules_choice(track)
        split = ItemSplit(final.split.items, chosen, ("chosen-by-values",))
        # A partial proposal (a count left open) did not propose the whole division.
        same = [p for p in context.proposals if p.split.counts == chosen]
        return FinalChoice(split, same[-1] if same else None, "low", "learned", final)

    def to_disk(self, path: str | Path) -> None:
        """Write the chooser as its JSON file (:func:`load_final_chooser` reads it back)."""
        doc = {
            "description": self.description,
            "provenance": dict(self.provenance),
            "features": dict(self.weights),
        }
        Path(path).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")


def rules_choice(track: DealTrack) -> FinalChoice:
    """The final split as the rules alone read it: the tracked final."""
    final = track.final
    return FinalChoice(final.split if final else None, final, confidence(final), "rules", final)


def load_final_chooser(path: str | Path | Traversable) -> FinalChooser:
    """A chooser from its JSON file; a :class:`RuleError` naming the file when it is malformed."""
    source = str(path)
    doc = read_json_object(path, "final-split chooser", _KEYS)
    weights = doc.get("features")
    if not isinstance(weights, dict) or not weights:
        raise RuleError(f"{source}: 'features' must map feature names to weights")
    strange = sorted(set(weights) - set(FEATURES))
    if strange:
        raise RuleError(f"{source}: unknown features {strange} (known: {sorted(FEATURES)})")
    bad = sorted(k for k, w in weights.items() if not _finite_number(w))
    if bad:
        raise RuleError(f"{source}: the weights of {bad} are not finite numbers")
    provenance = doc.get("provenance", {})
    if not isinstance(provenance, dict):
        raise RuleError(f"{source}: 'provenance' must be a mapping")
    return FinalChooser(
        {k: float(w) for k, w in weights.items()},
        description=str(doc.get("description", "")),
        provenance=provenance,
        source=source,
    )


def _finite_number(weight: object) -> bool:
    # NaN would make every comparison false and the first division win.
    return (
        isinstance(weight, (int, float)) and not isinstance(weight, bool) and math.isfinite(weight)
    )


def final_choice(
    track: DealTrack, parties: Sequence[Party], chooser: FinalChooser | None
) -> FinalChoice:
    """The final split of a tracked dialogue: ``chooser``'s, or the rules' with none."""
    return rules_choice(track) if chooser is None else chooser.choose(track, parties)


@functools.cache
def shipped_chooser(path: tuple[str, ...]) -> FinalChooser | None:
    """The chooser a corpus ships (its path under ``rules/``), read once; ``()``: none."""
    return load_final_chooser(shipped(*path)) if path else None
