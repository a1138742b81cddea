"""The toy corpus' reader, parser (tag rules, then a decision list) and evaluator."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Any, ClassVar

import yaml

from actparse.engine.decisions import DecisionList, IntentRule
from actparse.engine.tags import RuleSet, load_rules
from actparse.engine.tokenizer import tokenize
from actparse.io.records import Record
from actparse.models import Act, Dialogue, Party, Turn
from actparse.registry import Parser
from actparse.reports import Miss, MissTurn, Report, located
from toycorpus.spec import NAME

RULES = files("toycorpus") / "rules"
#: The tags an intent is decided on, in the order the decision list asks.
TAGS = ("greeting", "question")
INTENTS: DecisionList[frozenset[str]] = DecisionList(
    (
        IntentRule("greeting", "greet", lambda tags: "greeting" in tags),
        IntentRule("question", "inquire", lambda tags: "question" in tags),
    ),
    fallback="unknown",
)


def read(raw: dict[str, Any]) -> Dialogue:
    """A toy record as a dialogue."""
    turns = tuple(
        Turn(k, int(t["speaker"]), "message", str(t["text"]))
        for k, t in enumerate(raw["toy_turns"])
    )
    return Dialogue(
        turns, (Party(), Party()), corpus=NAME, outcome={"ref": raw.get("toy_reference")}
    )


class ToyParser:
    """One intent per message, from the tags of ``rules/tags.yaml``."""

    def __init__(self) -> None:
        self.rules: RuleSet = load_rules(RULES / "tags.yaml")
        # coarse map: read here until actparse applies a corpus' rules/coarse.yaml itself;
        # then this and the coarse= below go.
        doc = yaml.safe_load((RULES / "coarse.yaml").read_text(encoding="utf-8"))
        self.coarse: dict[str, str] = doc["intents"]

    def parse(self, dialogue: Dialogue) -> list[Act]:
        """The act of every turn."""
        acts = []
        for turn in dialogue.turns:
            tags = self.rules.tags(TAGS, tokenize(turn.text.lower()), turn.text)
            intent = INTENTS.decide(frozenset(tags))
            acts.append(
                Act(turn.index, turn.agent, intent, tags=tuple(tags), coarse=self.coarse[intent])
            )
        return acts


@dataclass
class ToyReport(Report):
    """Agreement of our intents with the reference ones."""

    headline: ClassVar[str] = "intent_agreement"
    corpus: str = NAME
    dialogues: int = 0
    turns: int = 0
    agreeing: int = 0
    missed: list[Miss] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        """The figures."""
        share = self.agreeing / self.turns if self.turns else 1.0
        return {"dialogues": self.dialogues, "turns": self.turns, "intent_agreement": share}

    def misses(self, n: int | None = None) -> list[Miss]:
        """The dialogues with a disagreeing turn."""
        return self.missed if n is None else self.missed[:n]


def evaluate(records: Iterable[Record | Dialogue], parser: Parser) -> ToyReport:
    """Compare the parser's intents with the records' ``toy_reference``."""
    report = ToyReport()
    for where, dialogue in located(records):
        report.dialogues += 1
        reference: Sequence[str] = (dialogue.outcome or {}).get("ref") or []
        wrong = []
        for turn, act, ref in zip(dialogue.turns, parser.parse(dialogue), reference):
            report.turns += 1
            if act.intent == ref:
                report.agreeing += 1
            else:
                wrong.append(MissTurn(turn.index, turn.agent, turn.text, ref, str(act.intent)))
        if wrong:
            report.missed.append(Miss(where, f"{len(wrong)} disagreeing turns", tuple(wrong)))
    return report
