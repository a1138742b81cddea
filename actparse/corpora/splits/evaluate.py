"""The final-split score of a split corpus: the text's final deal against the final split.

A dialogue that ends in agreement has a final split (the selection of Deal or No Deal,
the accepted submission of CaSiNo); the score asks whether the proposal the tracked
deal stands on before that formal turn
(:attr:`~actparse.engine.deals.DealTrack.final`) is the final split, and counts
it by confidence (:func:`confidence`). :class:`SplitReport` collects the figures and,
for every dialogue we got wrong, a readable
:class:`~actparse.reports.Miss` with its kind (:data:`MISS_KINDS`), counted under
``final_split_misses_by_kind``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from actparse.engine.deals import CONFIDENCE_LEVELS, Proposal, track_deals
from actparse.engine.final_chooser import (
    FinalChoice,
    FinalChooser,
    final_choice,
    rules_choice,
)
from actparse.models import Act, Dialogue, ItemSplit
from actparse.reports import Miss, MissTurn, Report, share

__all__ = [
    "FORMAL_INTENTS",
    "MISS_KINDS",
    "ConfidenceTally",
    "SplitReport",
    "describe_split",
    "is_text_proposal",
    "miss_kind",
    "render_dialogue",
]

#: Intents of formal actions: their splits are the outcome, not text proposals.
FORMAL_INTENTS = frozenset({"select", "submit-deal", "accept-deal", "reject-deal", "walk-away"})
#: How agents 0 and 1 are named in misses, unless the corpus names them.
AGENTS = ("agent 0", "agent 1")
#: The kinds of a missed final split: the final split is among our text proposals but
#: another was chosen as final; there are text proposals and the final split is not
#: among them; there is no text proposal before the formal deal (made in the form only).
MISS_KINDS = ("wrong_proposal_final", "proposal_parsed_wrong", "no_text_proposal")


@dataclass
class ConfidenceTally:
    """Final splits scored, and those right, by confidence (:func:`confidence`)."""

    scored: Counter[str] = field(default_factory=Counter)
    right: Counter[str] = field(default_factory=Counter)

    def add(self, level: str, right: bool) -> None:
        """Count one final split of confidence ``level``."""
        self.scored[level] += 1
        self.right[level] += right

    def summary(self) -> dict[str, dict[str, float | int | None]]:
        """Dialogues and accuracy at each of :data:`CONFIDENCE_LEVELS` (``None``: none)."""
        return {
            level: {
                "dialogues": self.scored[level],
                "accuracy": self.right[level] / self.scored[level] if self.scored[level] else None,
            }
            for level in CONFIDENCE_LEVELS
        }


def is_text_proposal(act: Act) -> bool:
    """A message act that carries a split, whatever its intent.

    A question can propose: "how about you take the food?"."""
    return act.split is not None and act.intent is not None and act.intent not in FORMAL_INTENTS


def miss_kind(proposal: Proposal | Act | None, found: int | None) -> str:
    """The kind of a missed final split, one of :data:`MISS_KINDS`.

    ``proposal`` is our final split of the text, before the formal deal (``None``: the
    text proposed nothing) and ``found`` the turn of a text proposal equal to the final
    split (``None``: none was)."""
    if proposal is None:
        return "no_text_proposal"
    return "proposal_parsed_wrong" if found is None else "wrong_proposal_final"


def describe_split(split: ItemSplit, agents: Sequence[str] = AGENTS) -> str:
    """A split as people read it.

    For example ``YOU book 1 hat 2 ball 0 | THEM book 2 hat 0 ball 1`` (``?`` for a count the
    proposal left open)."""
    shares = []
    for name, counts in zip(agents, split.counts):
        share = " ".join(f"{i} {'?' if c is None else c}" for i, c in zip(split.items, counts))
        shares.append(f"{name} {share}")
    return " | ".join(shares)


def render_dialogue(
    dialogue: Dialogue, acts: Sequence[Act] | None = None, agents: Sequence[str] = AGENTS
) -> tuple[str, ...]:
    """The dialogue as lines ``turn agent: text  [intent split]``.

    The act part only with ``acts``; a formal action is written ``<action>``."""
    lines = []
    for k, turn in enumerate(dialogue.turns):
        text = turn.text if turn.is_message else f"<{turn.action}>"
        line = f"{turn.index:2d} {agents[turn.agent]}: {text}"
        if acts is not None:
            act = acts[k]
            line += f"  [{act.intent or 'no act'}"
            if act.split is not None:
                line += f" {describe_split(act.split, agents)}"
            line += "]"
        lines.append(line)
    return tuple(lines)


def _learned_how(choice: FinalChoice) -> str:
    """How the item values chose a split, for a miss (``choice.tracked`` is set)."""
    tracked = choice.tracked
    assert tracked is not None and choice.split is not None
    if choice.proposal is not None:
        return f"turn {choice.proposal.turn}; the item values favour it over turn {tracked.turn}'s"
    pairs = zip(tracked.split.counts, choice.split.counts)
    if all(t is None or t == c for said, chosen in pairs for t, c in zip(said, chosen)):
        return f"turn {tracked.turn}, its open counts filled by the item values"
    return f"no proposal; the item values favour it over turn {tracked.turn}'s"


def _same(split: ItemSplit | None, expected: ItemSplit) -> bool:
    return split is not None and split.counts == expected.counts


def _difference(ours: ItemSplit, reference: ItemSplit) -> str:
    """Which items our split gets wrong: "differs on hat; leaves ball open"."""
    wrong, open_items = [], []
    for k, item in enumerate(reference.items):
        counts = (ours.counts[0][k], ours.counts[1][k])
        if None in counts:
            open_items.append(item)
        elif counts != (reference.counts[0][k], reference.counts[1][k]):
            wrong.append(item)
    parts = [f"differs on {', '.join(wrong)}"] if wrong else []
    if open_items:
        parts.append(f"leaves {', '.join(open_items)} open")
    return "; ".join(parts)


@dataclass
class SplitReport(Report):
    """Final-split accuracy and act counts over a corpus of split negotiations."""

    headline: ClassVar[str] = "final_split_accuracy"

    corpus: str = ""
    #: How agents 0 and 1 are named in misses ("YOU", "THEM").
    agents: tuple[str, str] = AGENTS
    dialogues: int = 0
    agreed: int = 0
    correct: int = 0
    anywhere: int = 0
    coarse_counts: Counter[str] = field(default_factory=Counter)
    intent_counts: Counter[str] = field(default_factory=Counter)
    #: Agreed dialogues and those we got right, by the confidence of our final split.
    by_confidence: ConfidenceTally = field(default_factory=ConfidenceTally)
    #: The learned chooser of the final split (None: the rules alone), and what the
    #: rules alone got right beside it.
    chooser: FinalChooser | None = None
    rules_correct: int = 0
    learned_choices: int = 0
    #: Each miss with whether the final split appears among our proposals (for ordering).
    _misses: list[tuple[bool, Miss]] = field(default_factory=list)

    def add(
        self,
        dialogue: Dialogue,
        acts: Sequence[Act],
        where: str,
        expected: ItemSplit | None,
        formal_turn: int | None,
    ) -> None:
        """Score one dialogue.

        ``expected`` is the final split (``None``: no agreement) and ``formal_turn`` the turn index
        of the selection or submission."""
        self.dialogues += 1
        for act in acts:
            if act.coarse is not None:
                self.coarse_counts[act.coarse] += 1
            if act.intent is not None:
                self.intent_counts[act.intent] += 1
        if expected is None or formal_turn is None:
            return
        self.agreed += 1
        track = track_deals(acts, formal_turn)
        choice = final_choice(track, dialogue.parties, self.chooser)
        rules = rules_choice(track) if choice.by != "rules" else choice
        self.learned_choices += choice.by != "rules"
        self.rules_correct += _same(rules.split, expected)
        found = next(
            (
                a.turn
                for a in acts[:formal_turn]
                if is_text_proposal(a) and a.split is not None and a.split.counts == expected.counts
            ),
            None,
        )
        self.anywhere += found is not None
        right = _same(choice.split, expected)
        self.by_confidence.add(choice.confidence, right)
        if right:
            self.correct += 1
            return
        miss = self._miss(dialogue, acts, where, expected, formal_turn, choice, found)
        self._misses.append((found is not None, miss))

    def _miss(
        self,
        dialogue: Dialogue,
        acts: Sequence[Act],
        where: str,
        expected: ItemSplit,
        formal_turn: int,
        choice: FinalChoice,
        found: int | None,
    ) -> Miss:
        """A readable miss: the final split, ours, and the dialogue."""
        reference = describe_split(expected, self.agents)
        final = choice.proposal or choice.tracked
        if final is not None and choice.split is not None:
            at = dialogue.turns[final.turn]
            ours = describe_split(choice.split, self.agents)
            ours_line = f"our final split (turn {final.turn}): {ours}"
            if choice.by == "learned" and choice.tracked is not None:
                ours_line = f"our final split ({_learned_how(choice)}): {ours}"
            text, reason = at.text, _difference(choice.split, expected)
        else:
            # No proposal to show: the turn that disagrees is the formal one.
            at = dialogue.turns[formal_turn]
            ours, ours_line = "no proposal", "our final split: none"
            text, reason = f"<{at.action}>", f"no text proposal before the <{at.action}>"
        if found is not None:
            reason += f"; the final split was proposed at turn {found}"
        turn = MissTurn(at.index, at.agent, text, reference, ours, reason)
        appears = "no" if found is None else f"yes (turn {found})"
        summary = (
            f"final split {reference}; {ours_line}; "
            f"the final split appears among our proposals: {appears}"
        )
        context = render_dialogue(dialogue, acts, self.agents)
        return Miss(where, summary, (turn,), context, kind=miss_kind(choice.tracked, found))

    def agent_names(self) -> tuple[str, str]:
        """The names the misses give agents 0 and 1."""
        return self.agents

    def scored_items(self) -> int:
        """The dialogues that ended in an agreed split."""
        return self.agreed

    def summary(self) -> dict[str, Any]:
        """The figures as JSON-ready numbers (fractions in 0..1)."""
        return {
            "corpus": self.corpus,
            "dialogues": self.dialogues,
            "agreed_dialogues": self.agreed,
            "final_split_accuracy": share(self.correct, self.agreed, empty=0.0),
            "final_split_accuracy_rules_only": share(self.rules_correct, self.agreed, empty=0.0),
            "final_split_learned_choices": self.learned_choices,
            "split_anywhere": share(self.anywhere, self.agreed, empty=0.0),
            "final_split_misses_by_kind": self.misses_by_kind(),
            "final_split_accuracy_by_confidence": self.by_confidence.summary(),
            "coarse_act_counts": dict(sorted(self.coarse_counts.items())),
            "intent_counts": dict(sorted(self.intent_counts.items())),
        }

    def misses_by_kind(self) -> dict[str, int]:
        """How many agreed dialogues we missed, by kind (each of :data:`MISS_KINDS`, zero too)."""
        counts = Counter(miss.kind for _, miss in self._misses)
        return {kind: counts[kind] for kind in MISS_KINDS}

    def misses(self, n: int | None = None) -> list[Miss]:
        """The dialogues we got wrong; those whose split we never found come first."""
        ordered = [m for _, m in sorted(self._misses, key=lambda am: (am[0], am[1].where))]
        return ordered if n is None else ordered[:n]
