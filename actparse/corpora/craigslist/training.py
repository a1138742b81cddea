"""Learning a price lexicon.

Weak supervision, calibration on reference acts, and the cross-validated estimate of what the
calibration does on dialogues it never saw.

:func:`train_prices` is the whole pipeline ``actparse train-prices`` runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from actparse.corpora.craigslist.calibrate import (
    Calibration,
    ContextStats,
    calibrate,
    collect_evidence,
    context_stats,
)
from actparse.corpora.craigslist.evaluate import CraigslistReport, evaluate
from actparse.corpora.craigslist.lexicon import PriceLexicon, train_lexicon
from actparse.corpora.craigslist.parser import CraigslistParser
from actparse.errors import InputError, NothingToScore, OptionError
from actparse.io.records import Record, read_records
from actparse.io.timed import each_in_time

__all__ = ["CrossValidation", "Training", "cross_validate", "train_prices"]


@dataclass(frozen=True)
class CrossValidation:
    """Held-out agreement of calibrated lexicons, fold by fold and pooled."""

    folds: int
    #: Per fold: (held-out messages, agreeing with the weak lexicon, with the calibrated one).
    per_fold: tuple[tuple[int, int, int], ...]

    @property
    def messages(self) -> int:
        """Held-out messages scored, over all folds."""
        return sum(f[0] for f in self.per_fold)

    @property
    def baseline(self) -> float:
        """Pooled message joint agreement of the uncalibrated lexicon."""
        return sum(f[1] for f in self.per_fold) / max(self.messages, 1)

    @property
    def calibrated(self) -> float:
        """Pooled message joint agreement on held-out folds after calibration."""
        return sum(f[2] for f in self.per_fold) / max(self.messages, 1)


def _message_hits(report: CraigslistReport) -> tuple[int, int]:
    summary = report.summary()
    n = int(summary["message_turns"])
    return n, round(summary["message_joint_agreement"] * n)


def _evaluate(records: Sequence[Record], lexicon: PriceLexicon) -> CraigslistReport:
    """``actparse eval``'s report of ``records`` with a lexicon, each record within the deadline."""
    with each_in_time(records) as timed:
        return evaluate(timed, CraigslistParser(lexicon=lexicon))


def cross_validate(
    records: Sequence[Record],
    base: PriceLexicon,
    *,
    folds: int = 5,
    stats: ContextStats | None = None,
    min_support: int = 1,
    parser: CraigslistParser | None = None,
) -> CrossValidation:
    """Calibrate on k-1 folds of ``records``, score the held-out fold; every fold in turn.

    Dialogue ``i`` (in file order) is in fold ``i % folds``. Scores are message joint
    agreement, as ``actparse eval`` reports it.
    """
    if folds < 2:
        raise OptionError("cross-validation needs at least 2 folds")
    parser = parser or CraigslistParser(lexicon=base)
    with each_in_time(records) as timed:  # label's deadline, per record
        evidence = {d.where: d for d in collect_evidence(timed, parser)}
    per_fold = []
    for k in range(folds):
        held_out = [r for i, r in enumerate(records) if i % folds == k]
        learn = [
            evidence[r.where]
            for i, r in enumerate(records)
            if i % folds != k and r.where in evidence
        ]
        lexicon = calibrate(base, learn, stats=stats, min_support=min_support).lexicon
        n, base_ok = _message_hits(_evaluate(held_out, base))
        _, cal_ok = _message_hits(_evaluate(held_out, lexicon))
        per_fold.append((n, base_ok, cal_ok))
    return CrossValidation(folds, tuple(per_fold))


@dataclass(frozen=True)
class Training:
    """What :func:`train_prices` learned: the lexicon to save, and how it was checked."""

    lexicon: PriceLexicon
    calibration: Calibration | None = None
    cross_validation: CrossValidation | None = None


def train_prices(
    inputs: Sequence[str | Path],
    *,
    fmt: str = "auto",
    note: str = "",
    calibrate_on: str | Path | None = None,
    min_support: int = 1,
    folds: int = 0,
) -> Training:
    """Learn a price lexicon from the messages of ``inputs``.

    Weak supervision on `$` prices; with ``calibrate_on``, correct it with that file's reference
    acts and, with ``folds``, estimate the calibration's held-out agreement by cross-validation.

    Never train on the data you evaluate on: the figures of the calibration file are
    in-sample; the cross-validation is the held-out estimate.
    """
    if folds and calibrate_on is None:
        raise OptionError("folds cross-validate a calibration: --folds needs --calibrate")
    texts = [
        t.text
        for path in inputs
        for record in read_records(path, fmt)
        for t in record.dialogue().turns
        if t.is_message
    ]
    lexicon = train_lexicon(texts, inputs, note=note)
    _check_learned(lexicon, inputs, len(texts))
    if calibrate_on is None:
        return Training(lexicon)
    stats = context_stats(texts)
    references = list(read_records(calibrate_on, fmt))
    _check_references(references, calibrate_on)
    with each_in_time(references) as timed:  # label's deadline, per record
        evidence = collect_evidence(timed)
    calibration = calibrate(
        lexicon,
        evidence,
        stats=stats,
        min_support=min_support,
        reference=calibrate_on,
    )
    cv = None
    if folds:
        cv = cross_validate(references, lexicon, folds=folds, stats=stats, min_support=min_support)
    return Training(calibration.lexicon, calibration, cv)


def _check_learned(lexicon: PriceLexicon, inputs: Sequence[str | Path], messages: int) -> None:
    """Refuse a lexicon with a side of no contexts, which ``label --lexicon`` would refuse.

    Written, it would fail only when used, far from the training that made it."""
    empty = [side for side in ("left", "right") if not getattr(lexicon, side)]
    if empty:
        names = ", ".join(str(p) for p in inputs)
        raise InputError(
            f"{names}: no {' or '.join(empty)} price contexts learned from {messages} "
            "messages: train-prices learns the words around prices written with '$' "
            "(Craigslist-style messages), and a lexicon needs some on each side"
        )


def _check_references(references: Sequence[Record], path: str | Path) -> None:
    """Refuse a calibration file without reference acts: nothing would be calibrated."""
    if not any(_has_acts(record) for record in references):
        raise NothingToScore(
            f"{path}: no reference acts to calibrate on (HF records need dialogue_acts; "
            "Cocoa events need metadata)"
        )


def _has_acts(record: Record) -> bool:
    """Whether a record carries reference acts (the HF test split's are all empty)."""
    reference = record.dialogue().reference
    return reference is not None and any(act.intent for act in reference)
