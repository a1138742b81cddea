"""Regression check: compare our acts with the reference acts an input carries.

Scoring follows the HuggingFace export's conventions: a turn has intent ``''`` and price
``-1`` when it has no act; prices are equal when they are the same float32, the export's
storage (:func:`same_price`). Turns are scored only in dialogues the reference did not
skip; ``message_*`` figures count only chat messages (non-empty utterances).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from actparse.corpora.craigslist.hf import NO_PRICE, float32
from actparse.corpora.craigslist.parser import CORPUS
from actparse.engine.pipeline import pipeline
from actparse.errors import NothingToScore
from actparse.io.records import Record
from actparse.models import SKIPPED, Act, Dialogue, ReferenceAct
from actparse.registry import Parser
from actparse.reports import Miss, MissTurn, Report, Table, share

__all__ = [
    "CraigslistReport",
    "DialogueResult",
    "TurnResult",
    "evaluate",
    "same_price",
]


def same_price(act: Act, ref: ReferenceAct) -> bool:
    """Whether our act's price is the reference's, both rounded to float32.

    The reference price comes as a float32 value (the HF export's JSON lines and Parquet
    files, which stored prices as float32: 79.99 is 79.98999786376953 there) or as the
    double typed (actparse's own output read back, JSON or Parquet, and Cocoa's
    transcripts: 79.99). Ours is always the double typed. Rounding both to float32 puts
    every pair at the export's precision: a float32 value rounds to itself, a double to
    the float32 the export would have stored. A fixed tolerance cannot do this, as the
    float32 error grows with the price (2e-6 at 79.99, 1e-5 at 1499.99); equal float32s
    need no chosen number, and still tell apart every two prices the export told apart.
    """
    # The export wrote a missing or falsy price (0 included) as -1.
    ours = act.price if act.price else NO_PRICE
    theirs = ref.price if ref.price is not None else NO_PRICE
    return float32(ours) == float32(theirs)


@dataclass(frozen=True)
class TurnResult:
    """One scored turn."""

    turn: int
    agent: int
    text: str
    is_message: bool
    ours: Act
    reference: ReferenceAct
    intent_ok: bool
    price_ok: bool
    reason: str = ""

    @property
    def ok(self) -> bool:
        return self.intent_ok and self.price_ok


@dataclass(frozen=True)
class DialogueResult:
    """One dialogue: skip decisions and, when the reference parsed it, its turns."""

    where: str
    reference_skipped: bool
    ours_skipped: bool
    turns: tuple[TurnResult, ...] = ()

    @property
    def message_disagreements(self) -> int:
        return sum(1 for t in self.turns if t.is_message and not t.ok)


def _fmt_price(price: float | None) -> str:
    if price is None or price == NO_PRICE:
        return "-"
    return f"{price:g}"


def explain(result: TurnResult, earlier_disagreement: int | None) -> str:
    """A short human reason for a disagreement."""
    ours, ref = result.ours, result.reference
    parts = []
    if not result.price_ok:
        found = ", ".join(f"{m.surface}={m.value:g} ({m.type})" for m in ours.mentions)
        if ours.price is not None and ref.price is None:
            parts.append(f"we propose {ours.price:g} from [{found}]; the reference has no price")
        elif ours.price is None and ref.price is not None:
            seen = f" (we found [{found}], none proposable)" if found else " (we found no price)"
            parts.append(f"the reference has {ref.price:g}{seen}")
        else:
            parts.append(f"price {_fmt_price(ours.price)} vs reference {_fmt_price(ref.price)}")
    if not result.intent_ok:
        tags = ",".join(ours.tags) or "no tags"
        parts.append(f"intent {ours.intent or '-'} ({tags}) vs reference {ref.intent or '-'}")
    if earlier_disagreement is not None:
        parts.append(f"state may differ since turn {earlier_disagreement}")
    return "; ".join(parts)


def _agreement(flags: Sequence[bool]) -> float:
    """The share of ``flags`` that hold; 1.0 for none, as nothing scored disagrees."""
    return share(sum(flags), len(flags), empty=1.0)


@dataclass
class CraigslistReport(Report):
    """Agreement figures, the confusion of intents, and every dialogue's result."""

    headline: ClassVar[str] = "message_joint_agreement"
    corpus: str = CORPUS
    dialogues: list[DialogueResult] = field(default_factory=list)

    def _turns(self, messages_only: bool = False) -> list[TurnResult]:
        return [
            t
            for d in self.dialogues
            if not d.reference_skipped
            for t in d.turns
            if t.is_message or not messages_only
        ]

    def summary(self) -> dict[str, Any]:
        """The figures ``eval --json`` prints (fractions in 0..1)."""
        turns = self._turns()
        messages = self._turns(messages_only=True)
        return {
            "dialogues": len(self.dialogues),
            "scored_dialogues": sum(1 for d in self.dialogues if not d.reference_skipped),
            "turns": len(turns),
            "message_turns": len(messages),
            "intent_agreement": _agreement([t.intent_ok for t in turns]),
            "price_agreement": _agreement([t.price_ok for t in turns]),
            "joint_agreement": _agreement([t.ok for t in turns]),
            "message_intent_agreement": _agreement([t.intent_ok for t in messages]),
            "message_price_agreement": _agreement([t.price_ok for t in messages]),
            "message_joint_agreement": _agreement([t.ok for t in messages]),
            "skip_agreement": _agreement(
                [d.reference_skipped == d.ours_skipped for d in self.dialogues]
            ),
        }

    def scored_items(self) -> int:
        """The messages of the dialogues the reference parsed."""
        return len(self._turns(messages_only=True))

    def confusion(self) -> dict[str, Counter[str]]:
        """For each reference intent of a message, the count of each of our intents."""
        table: dict[str, Counter[str]] = {}
        for t in self._turns(messages_only=True):
            table.setdefault(t.reference.intent or "-", Counter())[t.ours.intent or "-"] += 1
        return table

    def worst(self, n: int | None = 5) -> list[DialogueResult]:
        """The dialogues with the most disagreeing messages."""
        bad = [d for d in self.dialogues if d.message_disagreements]
        bad.sort(key=lambda d: -d.message_disagreements)
        return bad if n is None else bad[:n]

    def misses(self, n: int | None = None) -> list[Miss]:
        """The dialogues with disagreeing messages, most first.

        Each message comes with the reference act, ours and the reason."""
        return [
            Miss(
                where=d.where,
                summary=f"{d.message_disagreements} disagreeing messages",
                turns=tuple(
                    MissTurn(
                        t.turn,
                        t.agent,
                        t.text,
                        _describe_act(t.reference.intent, t.reference.price),
                        _describe_act(t.ours.intent, t.ours.price),
                        t.reason,
                    )
                    for t in d.turns
                    if t.is_message and not t.ok
                ),
            )
            for d in self.worst(n)
        ]

    def figures(self) -> dict[str, Any]:
        """The summary plus the confusion table and the skip disagreements."""
        out = self.summary()
        out["confusion"] = {ref: dict(c) for ref, c in sorted(self.confusion().items())}
        out["skip_disagreements"] = [
            d.where for d in self.dialogues if d.reference_skipped != d.ours_skipped
        ]
        return out

    def tables(self) -> list[Table]:
        """Agreement on all scored turns and on messages, then the intents of messages."""
        s = self.summary()
        note = (
            f"{s['dialogues']} dialogues ({s['scored_dialogues']} parsed by the reference), "
            f"{s['turns']} turns, {s['message_turns']} messages"
        )
        rows = [
            (name, f"{s[name + '_agreement']:.2%}", f"{s['message_' + name + '_agreement']:.2%}")
            for name in ("intent", "price", "joint")
        ]
        rows.append(("skip decision", f"{s['skip_agreement']:.2%}", ""))
        confusion = []
        for ref, counts in sorted(self.confusion().items(), key=lambda kv: -sum(kv[1].values())):
            total = sum(counts.values())
            others = ", ".join(f"{k} {v}" for k, v in counts.most_common() if k != ref)
            confusion.append((ref, str(total), f"{counts[ref] / total:.1%}", others))
        return [
            Table(
                "Agreement with the reference",
                ("figure", "all turns", "messages"),
                tuple(rows),
                note,
            ),
            Table(
                "Intents of messages",
                ("reference", "messages", "agree", "ours instead"),
                tuple(confusion),
            ),
        ]


def _describe_act(intent: str | None, price: float | None) -> str:
    text = intent or "no act"
    return text if price is None or price == NO_PRICE else f"{text} {price:g}"


def score_dialogue(
    where: str, dialogue: Dialogue, acts: Sequence[Act], reference: Sequence[ReferenceAct]
) -> DialogueResult:
    """Compare one dialogue's acts with its reference acts."""
    ref_skipped = all(not r.intent for r in reference)
    ours_skipped = bool(acts) and all(a.note == SKIPPED for a in acts)
    if ref_skipped:
        return DialogueResult(where, True, ours_skipped)
    results = []
    first_bad: int | None = None
    for turn, act, ref in zip(dialogue.turns, acts, reference):
        intent_ok = (act.intent or "") == ref.intent
        price_ok = same_price(act, ref)
        result = TurnResult(
            turn.index, turn.agent, turn.text, turn.is_message, act, ref, intent_ok, price_ok
        )
        if not result.ok:
            result = TurnResult(**{**result.__dict__, "reason": explain(result, first_bad)})
            if first_bad is None:
                first_bad = turn.index
        results.append(result)
    return DialogueResult(where, False, ours_skipped, tuple(results))


def evaluate(records: Iterable[Record], parser: Parser | None = None) -> CraigslistReport:
    """Parse every record and compare with the reference acts it carries."""
    parser = pipeline(CORPUS, parser)  # the coarse acts set, as every path sets them
    report = CraigslistReport()
    for record in records:
        dialogue = record.dialogue()
        if dialogue.reference is None:
            raise NothingToScore(
                f"{record.where}: no reference acts to compare with "
                "(HF records need dialogue_acts; Cocoa events need metadata)"
            )
        acts = parser.parse(dialogue)
        report.dialogues.append(score_dialogue(record.where, dialogue, acts, dialogue.reference))
    return report
