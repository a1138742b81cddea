"""Scoring strategy labels against a corpus' own annotations (CaSiNo ships them).

Each annotated utterance is one multi-label example: per label, precision, recall, F1
and support (the utterances the annotators gave it); the macro F1 over the seven labels
the CaSiNo paper predicts and over all ten; the share of utterances whose label set is
exactly right; and the confusions that cost most, each with example utterances, so that
a rule writer sees what to look at first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from actparse.engine.strategies import LABELS, PAPER_LABELS
from actparse.reports import Table

__all__ = ["NONE", "StrategyScores"]

#: The other side of a confusion that involves a single label: a label missed with
#: nothing wrong in its place, or a label given where the annotators gave nothing like it.
NONE = "(none)"
#: Example utterances kept per confusion.
EXAMPLES = 2


def _f1(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


@dataclass
class StrategyScores:
    """Counts of predicted against annotated labels over utterances."""

    true_pos: Counter[str] = field(default_factory=Counter)
    false_pos: Counter[str] = field(default_factory=Counter)
    false_neg: Counter[str] = field(default_factory=Counter)
    utterances: int = 0
    exact: int = 0
    #: (annotated label missed, label given instead) -> utterances.
    confusions: Counter[tuple[str, str]] = field(default_factory=Counter)
    examples: dict[tuple[str, str], list[str]] = field(default_factory=dict)

    def add(self, gold: Sequence[str], predicted: Sequence[str], text: str) -> None:
        """Count one annotated utterance."""
        g, p = set(gold), set(predicted)
        self.utterances += 1
        self.exact += g == p
        for label in g & p:
            self.true_pos[label] += 1
        missed, extra = sorted(g - p), sorted(p - g)
        for label in extra:
            self.false_pos[label] += 1
        for label in missed:
            self.false_neg[label] += 1
        # Every missed label is confused with every label given in its place.
        pairs = [(m, e) for m in missed or [NONE] for e in extra or [NONE]]
        for pair in pairs:
            if pair == (NONE, NONE):
                continue
            self.confusions[pair] += 1
            kept = self.examples.setdefault(pair, [])
            if len(kept) < EXAMPLES:
                kept.append(text)

    def per_label(self) -> dict[str, dict[str, float]]:
        """``{label: {precision, recall, f1, support}}`` for every label."""
        out: dict[str, dict[str, float]] = {}
        for label in LABELS:
            tp, fp, fn = self.true_pos[label], self.false_pos[label], self.false_neg[label]
            precision = tp / (tp + fp) if tp + fp else 0.0
            recall = tp / (tp + fn) if tp + fn else 0.0
            out[label] = {
                "precision": precision,
                "recall": recall,
                "f1": _f1(precision, recall),
                "support": tp + fn,
            }
        return out

    def macro_f1(self, labels: Sequence[str]) -> float:
        """The mean F1 over ``labels``."""
        scores = self.per_label()
        return sum(scores[label]["f1"] for label in labels) / len(labels)

    def costliest(self, n: int = 8) -> list[dict[str, Any]]:
        """The ``n`` most frequent confusions, with example utterances."""
        return [
            {
                "annotated": gold,
                "ours": ours,
                "utterances": count,
                "examples": self.examples[(gold, ours)],
            }
            for (gold, ours), count in self.confusions.most_common(n)
        ]

    def summary(self) -> dict[str, Any]:
        """The figures ``actparse eval --json`` prints under ``figures``."""
        return {
            "strategies": self.per_label(),
            "strategy_macro_f1_7": self.macro_f1(PAPER_LABELS),
            "strategy_macro_f1_10": self.macro_f1(LABELS),
            "strategy_exact_match": self.exact / self.utterances if self.utterances else 0.0,
            "strategy_utterances": self.utterances,
            "strategy_confusions": self.costliest(),
        }

    def tables(self) -> list[Table]:
        """Per label scores, and the costliest confusions with examples."""
        scores = self.per_label()
        rows = tuple(
            (
                label,
                f"{s['precision']:.2f}",
                f"{s['recall']:.2f}",
                f"{s['f1']:.2f}",
                str(int(s["support"])),
            )
            for label, s in scores.items()
        )
        labels = Table(
            "strategies against the annotations",
            ("label", "precision", "recall", "F1", "support"),
            rows,
            note=(
                f"macro F1: {self.macro_f1(PAPER_LABELS):.3f} over the paper's seven labels, "
                f"{self.macro_f1(LABELS):.3f} over all ten; exact label set "
                f"{self.exact / self.utterances if self.utterances else 0.0:.2%} of "
                f"{self.utterances} utterances"
            ),
        )
        confusions = Table(
            "costliest strategy confusions",
            ("annotated", "ours", "utterances", "example"),
            tuple(
                (c["annotated"], c["ours"], str(c["utterances"]), " | ".join(c["examples"]))
                for c in self.costliest()
            ),
            note=f"{NONE}: a label missed with nothing in its place, or given where none was",
        )
        return [labels, confusions]
