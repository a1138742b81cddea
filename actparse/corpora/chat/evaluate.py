"""Scores of your own dialogues against the reference columns they carry.

The columns (:mod:`actparse.corpora.chat.references`): ``reference_coarse`` and
``reference_price`` per turn, ``reference_split`` per dialogue. :func:`evaluate_chat`
parses every dialogue and gives a :class:`ChatReport`:

- ``coarse_agreement`` (the headline): of the turns with a reference coarse act, the
  share whose coarse act is that act, with each act's precision and recall and the
  confusion of the two;
- ``price_agreement``: of the turns with the ``reference_price`` field, the share whose
  price is the reference's (within half a cent), or none where the reference has none;
- ``final_split_accuracy``: of the dialogues with a reference split, the share whose
  final split is it; our final split is the proposal the tracked deal stands on at the
  end (:attr:`~actparse.engine.deals.DealTrack.final`), as Deal or No Deal and
  CaSiNo take it before their formal deal, counted by confidence too.

A dialogue without any reference column is counted, and not scored.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from actparse.corpora.chat.reader import CORPUS, speakers
from actparse.corpora.chat.references import COLUMNS, References, references
from actparse.corpora.splits.evaluate import ConfidenceTally, describe_split
from actparse.engine.deals import confidence, track_deals
from actparse.engine.pipeline import pipeline
from actparse.errors import InputError
from actparse.io.records import Record
from actparse.models import Act, Dialogue, ItemSplit
from actparse.registry import Parser
from actparse.reports import Miss, MissTurn, Report, Table, located, share

__all__ = ["PRICE_TOLERANCE", "ChatReport", "evaluate_chat", "same_split"]

#: Prices within half a cent agree.
PRICE_TOLERANCE = 0.005
#: How a turn without an act (or without a price) is written in misses and tables.
NO_ACT = "no act"


def same_split(ours: ItemSplit, reference: ItemSplit) -> bool:
    """Whether two splits give each agent the same count of every item, whatever its order."""
    if set(ours.items) != set(reference.items):
        return False
    return all(ours.for_agent(a) == reference.for_agent(a) for a in (0, 1))


def _prices_agree(ours: float | None, reference: float | None) -> bool:
    if ours is None or reference is None:
        return ours is None and reference is None
    return abs(ours - reference) <= PRICE_TOLERANCE


def _price(price: float | None) -> str:
    return "no price" if price is None else f"price {price:g}"


def _speakers(dialogue: Dialogue) -> list[str]:
    """The speakers' names by agent number (``agent 2`` where a name is missing or a number)."""
    # "0 food 2" would read as counts: a speaker written as a number is named as an agent.
    names = [f"agent {s}" if s.isdigit() else s for s in speakers(dialogue)]
    top = max((t.agent for t in dialogue.turns), default=1)
    return names + [f"agent {a}" for a in range(len(names), max(top + 1, 2))]


def context(dialogue: Dialogue, acts: Sequence[Act], refs: References) -> tuple[str, ...]:
    """The dialogue as lines ``turn speaker: text  [ours]  (reference ...)``."""
    names = _speakers(dialogue)
    lines = []
    for turn, act in zip(dialogue.turns, acts):
        text = turn.text if turn.is_message else f"<{turn.action}>"
        ours = act.coarse or NO_ACT
        if act.price is not None:
            ours += f" {act.price:g}"
        if act.split is not None:
            ours += f" {describe_split(act.split, names[:2])}"
        line = f"{turn.index:2d} {names[turn.agent]}: {text}  [{ours}]"
        expected = []
        if turn.index in refs.coarse:
            expected.append(refs.coarse[turn.index])
        if turn.index in refs.prices:
            expected.append(_price(refs.prices[turn.index]))
        if expected:
            line += f"  (reference {' '.join(expected)})"
        lines.append(line)
    return tuple(lines)


@dataclass
class _Scored:
    """One dialogue's disagreements: the turns, and the final split when it misses."""

    turns: list[MissTurn] = field(default_factory=list)
    split_line: str = ""


@dataclass
class ChatReport(Report):
    """Coarse act, price and final split agreement with the reference columns."""

    headline: ClassVar[str] = "coarse_agreement"

    corpus: str = CORPUS
    dialogues: int = 0
    scored_dialogues: int = 0
    coarse_turns: int = 0
    coarse_correct: int = 0
    price_turns: int = 0
    priced_turns: int = 0
    price_correct: int = 0
    split_dialogues: int = 0
    split_correct: int = 0
    split_anywhere: int = 0
    split_by_confidence: ConfidenceTally = field(default_factory=ConfidenceTally)
    #: Reference coarse act -> our coarse act -> turns.
    confusion: dict[str, Counter[str]] = field(default_factory=dict)
    _misses: list[tuple[int, Miss]] = field(default_factory=list)

    def add(self, where: str, dialogue: Dialogue, acts: Sequence[Act], refs: References) -> None:
        """Score one dialogue's acts against its references."""
        self.dialogues += 1
        if not refs.given:
            return
        self.scored_dialogues += 1
        scored = _Scored()
        self._score_turns(dialogue, acts, refs, scored)
        if refs.split is not None:
            self._score_split(dialogue, acts, refs.split, scored)
        wrong = len(scored.turns) + bool(scored.split_line)
        if wrong:
            self._misses.append((wrong, self._miss(where, dialogue, acts, refs, scored)))

    def _score_turns(
        self, dialogue: Dialogue, acts: Sequence[Act], refs: References, scored: _Scored
    ) -> None:
        for turn, act in zip(dialogue.turns, acts):
            k = turn.index
            reference, ours, reasons = [], [], []
            if k in refs.coarse:
                self.coarse_turns += 1
                ours_coarse = act.coarse or NO_ACT
                self.confusion.setdefault(refs.coarse[k], Counter())[ours_coarse] += 1
                ok = ours_coarse == refs.coarse[k]
                self.coarse_correct += ok
                reference.append(refs.coarse[k])
                ours.append(ours_coarse)
                if not ok:
                    reasons.append("coarse act differs")
            if k in refs.prices:
                self.price_turns += 1
                self.priced_turns += refs.prices[k] is not None
                ok = _prices_agree(act.price, refs.prices[k])
                self.price_correct += ok
                reference.append(_price(refs.prices[k]))
                ours.append(_price(act.price))
                if not ok:
                    reasons.append("price differs")
            if reasons:
                text = turn.text if turn.is_message else f"<{turn.action}>"
                scored.turns.append(
                    MissTurn(
                        k, turn.agent, text, " ".join(reference), " ".join(ours), "; ".join(reasons)
                    )
                )

    def _score_split(
        self, dialogue: Dialogue, acts: Sequence[Act], expected: ItemSplit, scored: _Scored
    ) -> None:
        self.split_dialogues += 1
        names = _speakers(dialogue)[:2]
        final = track_deals(acts).final
        proposal = None if final is None else next(a for a in acts if a.turn == final.turn)
        found = next(
            (a.turn for a in acts if a.split is not None and same_split(a.split, expected)), None
        )
        self.split_anywhere += found is not None
        right = final is not None and same_split(final.split, expected)
        self.split_by_confidence.add(confidence(final), right)
        if proposal is not None and final is not None:
            if right:
                self.split_correct += 1
                return
            at = dialogue.turns[proposal.turn]
            ours = describe_split(final.split, names)
            ours_line = f"our final split (turn {proposal.turn}): {ours}"
        else:
            at, ours = dialogue.turns[-1], "no split"
            ours_line = "no act of ours carries a split"
        reference = describe_split(expected, names)
        reason = "final split differs"
        if found is not None:
            reason += f"; the reference split is proposed at turn {found}"
        text = at.text if at.is_message else f"<{at.action}>"
        scored.turns.append(MissTurn(at.index, at.agent, text, reference, ours, reason))
        scored.split_line = f"final split {reference}; {ours_line}"

    def _miss(
        self,
        where: str,
        dialogue: Dialogue,
        acts: Sequence[Act],
        refs: References,
        scored: _Scored,
    ) -> Miss:
        turns = [t for t in scored.turns if t.reason != "final split differs"]
        parts = []
        coarse = sum(1 for t in turns if "coarse act" in t.reason)
        if coarse:
            parts.append(f"{coarse} of {len(refs.coarse)} coarse acts differ")
        prices = sum(1 for t in turns if "price" in t.reason)
        if prices:
            parts.append(f"{prices} of {len(refs.prices)} prices differ")
        if scored.split_line:
            parts.append(scored.split_line)
        return Miss(where, "; ".join(parts), tuple(scored.turns), context(dialogue, acts, refs))

    def scored_items(self) -> int:
        """Everything scored: turns with a reference act or price, dialogues with a split."""
        return self.coarse_turns + self.price_turns + self.split_dialogues

    def reference_wanted(self) -> str:
        """The reference columns, as the error for an input without any names them."""
        return (
            f"a reference column ({COLUMNS[0]} or {COLUMNS[1]} on its turns, {COLUMNS[2]} "
            "per dialogue)"
        )

    def headline_missing(self) -> str:
        """Coarse agreement counts the turns with a reference coarse act: here there are none."""
        return f"no turn has a {COLUMNS[0]}"

    def recall(self) -> dict[str, float]:
        """For each reference coarse act, the share of its turns that get it from us."""
        return {act: ours[act] / sum(ours.values()) for act, ours in sorted(self.confusion.items())}

    def precision(self) -> dict[str, float]:
        """For each coarse act we give on a scored turn, the share the reference gives too."""
        given: Counter[str] = Counter()
        for ours in self.confusion.values():
            given.update(ours)
        return {
            act: (self.confusion.get(act, Counter())[act]) / n for act, n in sorted(given.items())
        }

    def summary(self) -> dict[str, Any]:
        """The figures as JSON-ready numbers (fractions in 0..1)."""
        # A figure over nothing is no figure: null in JSON, "-" in the tables.
        return {
            "corpus": self.corpus,
            "dialogues": self.dialogues,
            "scored_dialogues": self.scored_dialogues,
            "unscored_dialogues": self.dialogues - self.scored_dialogues,
            "coarse_turns": self.coarse_turns,
            "coarse_agreement": share(self.coarse_correct, self.coarse_turns, empty=None),
            "price_turns": self.price_turns,
            "priced_turns": self.priced_turns,
            "price_agreement": share(self.price_correct, self.price_turns, empty=None),
            "split_dialogues": self.split_dialogues,
            "final_split_accuracy": share(self.split_correct, self.split_dialogues, empty=None),
            "split_anywhere": share(self.split_anywhere, self.split_dialogues, empty=None),
            "final_split_accuracy_by_confidence": self.split_by_confidence.summary(),
        }

    def figures(self) -> dict[str, Any]:
        """The summary plus each act's precision and recall, and the confusion."""
        out = self.summary()
        out["coarse_recall"] = self.recall()
        out["coarse_precision"] = self.precision()
        out["coarse_confusion"] = {
            ref: dict(ours.most_common()) for ref, ours in sorted(self.confusion.items())
        }
        return out

    def tables(self) -> list[Table]:
        """The figures, then one row per reference coarse act: recall, precision, confusion."""
        s = self.summary()
        unscored = s["unscored_dialogues"]
        dialogues = f"{s['dialogues']} dialogue{'' if s['dialogues'] == 1 else 's'}"
        note = f"{dialogues}, {s['scored_dialogues']} with reference columns" + (
            f" ({unscored} without: not scored)" if unscored else ""
        )
        rows = [
            _row("coarse act", s["coarse_turns"], "turn", s["coarse_agreement"]),
            _row("price", s["price_turns"], "turn", s["price_agreement"]),
            _row("final split", s["split_dialogues"], "dialogue", s["final_split_accuracy"]),
            _row("split anywhere", s["split_dialogues"], "dialogue", s["split_anywhere"]),
        ]
        tables = [Table(self.title(), ("figure", "scored", "agreement"), tuple(rows), note)]
        if self.confusion:
            precision, recall = self.precision(), self.recall()
            acts = []
            for ref, ours in sorted(self.confusion.items(), key=lambda kv: -sum(kv[1].values())):
                others = ", ".join(f"{k} {v}" for k, v in ours.most_common() if k != ref)
                acts.append(
                    (
                        ref,
                        str(sum(ours.values())),
                        f"{recall[ref]:.1%}",
                        f"{precision[ref]:.1%}" if ref in precision else "-",
                        others,
                    )
                )
            tables.append(
                Table(
                    "Coarse acts",
                    ("reference", "turns", "recall", "precision", "ours instead"),
                    tuple(acts),
                )
            )
        return tables

    def misses(self, n: int | None = None) -> list[Miss]:
        """The dialogues with disagreements, most first (then in input order)."""
        order = sorted(range(len(self._misses)), key=lambda k: -self._misses[k][0])
        ordered = [self._misses[k][1] for k in order]
        return ordered if n is None else ordered[:n]


def _row(figure: str, scored: int, what: str, share: float | None) -> tuple[str, str, str]:
    """A row of the figures table: ``-`` for a figure with nothing to score."""
    counted = f"{scored} {what}{'' if scored == 1 else 's'}"
    return figure, counted, "-" if share is None else f"{share:.2%}"


def _with_raw(items: Iterable[Record | Dialogue]) -> Iterator[tuple[str, Dialogue, Any]]:
    """``(where, dialogue, raw record)`` for each input (``None`` for a bare dialogue)."""
    last: list[Record | Dialogue] = []

    def remembered() -> Iterator[Record | Dialogue]:
        for item in items:
            last[:] = [item]
            yield item

    for where, dialogue in located(remembered()):
        item = last[0]
        yield where, dialogue, item.raw if isinstance(item, Record) else None


def evaluate_chat(items: Iterable[Record | Dialogue], parser: Parser | None = None) -> ChatReport:
    """Score dialogues (records or bare dialogues) against their reference columns.

    A bare dialogue has no record to read references from: it is counted, not scored.
    A reference value that does not read is an
    :class:`~actparse.errors.InputError` naming the dialogue, the turn and the column.
    """
    parser = pipeline(CORPUS, parser)  # the coarse acts set, as every path sets them
    space = getattr(parser, "act_space", None)
    acts_known = space.names if space is not None else ()
    report = ChatReport()
    for where, dialogue, raw in _with_raw(items):
        try:
            refs = references(raw, dialogue, acts_known)
        except InputError as err:
            raise InputError(f"{where}: {err}") from None
        acts = parser.parse(dialogue)
        report.add(where, dialogue, acts, refs)
    return report
