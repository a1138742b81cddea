"""MutualFriends evaluation.

Figures over parsed dialogues, and the dialogues whose final selections disagree with the recorded
outcome.

The corpus has no reference acts; what can be checked is the outcome. Cocoa's controller
rewards a dialogue exactly when both agents' last selections are the same friend, so
``selection_agreement`` is how often that reading of our parsed selections agrees with
the recorded reward.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

from actparse.corpora.mutualfriends import CORPUS
from actparse.corpora.mutualfriends.parser import TurnParse
from actparse.corpora.mutualfriends.reader import friend_key
from actparse.engine.pipeline import pipeline
from actparse.io.records import Record
from actparse.models import Dialogue, Turn
from actparse.reports import Miss, MissTurn, Report, located, share

if TYPE_CHECKING:
    from actparse.registry import Parser

__all__ = ["MutualFriendsReport", "evaluate_mutualfriends"]


def _values(friend: Mapping[str, str]) -> str:
    return ", ".join(friend.values())


def _line(turn: Turn) -> str:
    """One turn of a dialogue as a line of a miss's context."""
    if turn.action == "message":
        return f"{turn.index} agent {turn.agent}: {turn.text}"
    if turn.action == "select" and turn.data:
        return f"{turn.index} agent {turn.agent} selects {_values(turn.data)}"
    return f"{turn.index} agent {turn.agent}: <{turn.action or 'unknown action'}>"


@dataclass(frozen=True)
class _Final:
    """An agent's last selection: the turn, the friend, and the lists it is in."""

    turn: Turn
    friend: Mapping[str, str]
    in_reader_list: bool
    in_writer_list: bool


@dataclass(frozen=True)
class _SelectionMiss:
    """A dialogue whose final selections disagree with its recorded outcome."""

    where: str
    reward: int
    finals: tuple[_Final | None, _Final | None]
    dialogue: Dialogue

    def to_miss(self) -> Miss:
        """The readable :class:`~actparse.reports.Miss`.

        The outcome against the final selections, each final selection with what the reward implies,
        and the dialogue."""

        def show(final: _Final | None) -> str:
            return "nothing" if final is None else _values(final.friend)

        a, b = self.finals
        summary = f"reward {self.reward}, but agent 0 selected {show(a)} and agent 1 {show(b)}"
        turns = tuple(
            self._turn(final, self.finals[1 - agent], 1 - agent)
            for agent, final in enumerate(self.finals)
            if final is not None
        )
        context = tuple(_line(turn) for turn in self.dialogue.turns)
        return Miss(self.where, summary, turns, context)

    def _turn(self, final: _Final, other: _Final | None, partner: int) -> MissTurn:
        """The final selection of one agent, against its partner's."""
        same = f"the same friend as agent {partner}"
        reference = f"{same if self.reward == 1 else 'not ' + same} (reward {self.reward})"
        if other is None:
            ours = f"agent {partner} selected nothing"
        elif friend_key(final.friend) == friend_key(other.friend):
            ours = same
        else:
            ours = f"another friend than agent {partner}'s"

        def held(flag: bool) -> str:
            return "in" if flag else "not in"

        reason = (
            f"the friend is {held(final.in_reader_list)} agent {partner}'s list and "
            f"{held(final.in_writer_list)} agent {final.turn.agent}'s own"
        )
        return MissTurn(
            final.turn.index,
            final.turn.agent,
            "select " + _values(final.friend),
            reference,
            ours,
            reason,
        )


@dataclass
class MutualFriendsReport(Report):
    """Figures over a set of dialogues; :meth:`summary` is the JSON view."""

    headline: ClassVar[str] = "selection_agreement"
    corpus = CORPUS

    dialogues: int = 0
    turns: int = 0
    messages: int = 0
    messages_with_entities: int = 0
    mentions: int = 0
    mentions_by_type: Counter[str] = field(default_factory=Counter)
    intents: Counter[str] = field(default_factory=Counter)
    coarse: Counter[str] = field(default_factory=Counter)
    selections: int = 0
    selections_in_both: int = 0
    selections_in_reader: int = 0
    #: Dialogues with a recorded reward, and those whose final selections agree with it.
    scored: int = 0
    agreeing: int = 0
    rewarded: int = 0
    missed: list[_SelectionMiss] = field(default_factory=list)

    def add(self, dialogue: Dialogue, parsed: Sequence[TurnParse], where: str = "") -> None:
        """Count one parsed dialogue; ``where`` names it in the misses (default: its id)."""
        self.dialogues += 1
        self.turns += len(parsed)
        finals: list[_Final | None] = [None, None]
        for turn, p in zip(dialogue.turns, parsed):
            if p.act.intent is not None:
                self.intents[p.act.intent] += 1
            if p.act.coarse is not None:
                self.coarse[p.act.coarse] += 1
            if turn.action == "message":
                self.messages += 1
                self.mentions += len(p.entities)
                self.messages_with_entities += bool(p.entities)
                self.mentions_by_type.update(m.type for m in p.entities)
            elif p.friend is not None:
                self.selections += 1
                self.selections_in_both += bool(p.in_own_list and p.in_writer_list)
                self.selections_in_reader += bool(p.in_own_list)
                finals[turn.agent] = _Final(
                    turn, p.friend, bool(p.in_own_list), bool(p.in_writer_list)
                )
        reward = (dialogue.outcome or {}).get("reward")
        if reward is None:
            return
        self.scored += 1
        self.rewarded += reward == 1
        # Cocoa's controller rewards 1 exactly when both agents' last selections agree.
        a, b = finals
        success = a is not None and b is not None and friend_key(a.friend) == friend_key(b.friend)
        if success == (reward == 1):
            self.agreeing += 1
        else:
            name = where or dialogue.id or "<no id>"
            self.missed.append(_SelectionMiss(name, int(reward), (a, b), dialogue))

    def scored_items(self) -> int:
        """The dialogues with a recorded reward."""
        return self.scored

    def misses(self, n: int | None = None) -> list[Miss]:
        """The dialogues whose final selections disagree with the outcome, in input order.

        The first ``n``, or all; each final selection with what the reward implies."""
        chosen = self.missed if n is None else self.missed[:n]
        return [m.to_miss() for m in chosen]

    def summary(self) -> dict[str, Any]:
        """JSON-ready figures; shares are 0.0 when there is nothing to count."""
        return {
            "dialogues": self.dialogues,
            "turns": self.turns,
            "message_turns": self.messages,
            "select_turns": self.selections,
            "entity_mentions": self.mentions,
            "mentions_per_dialogue": share(self.mentions, self.dialogues, empty=0.0),
            "mentions_per_message": share(self.mentions, self.messages, empty=0.0),
            "messages_with_entities": share(self.messages_with_entities, self.messages, empty=0.0),
            "mentions_by_type": dict(sorted(self.mentions_by_type.items())),
            "intents": dict(sorted(self.intents.items())),
            "coarse": dict(sorted(self.coarse.items())),
            "selections_in_both_lists": share(self.selections_in_both, self.selections, empty=0.0),
            "selections_in_reader_list": share(
                self.selections_in_reader, self.selections, empty=0.0
            ),
            "scored_dialogues": self.scored,
            "rewarded_dialogues": self.rewarded,
            "selection_agreement": share(self.agreeing, self.scored, empty=0.0),
        }


@runtime_checkable
class _Analyser(Protocol):
    """What the figures need of a parser: :meth:`MutualFriendsParser.analyse`."""

    def analyse(self, dialogue: Dialogue) -> list[TurnParse]:
        """The per-turn analysis of ``dialogue``."""
        ...


def evaluate_mutualfriends(
    items: Iterable[Record | Dialogue], parser: Parser | None = None
) -> MutualFriendsReport:
    """Parse every dialogue and gather the figures.

    ``items`` are :class:`~actparse.io.records.Record` objects (what ``actparse eval``
    reads) or :class:`~actparse.models.Dialogue` objects; ``parser`` must be a
    :class:`~actparse.corpora.mutualfriends.parser.MutualFriendsParser` (default: the
    shipped one), since the figures need its per-turn analysis. The report counts entity
    mentions (per dialogue, per message, by type), intents, the share of selections
    whose friend is in both lists, and ``selection_agreement``: how often "both agents'
    final selections are the same friend" agrees with the recorded reward.
    """
    # Typed as the registry's parser protocol so that generic callers type-check; the
    # figures need ``analyse``. Checked by that method, not the class: a wrapper that
    # passes it on (the HTML report's recording parser) is as good as the parser.
    if parser is not None and not isinstance(parser, _Analyser):
        raise TypeError(f"evaluate_mutualfriends needs a MutualFriendsParser, got {parser!r}")
    chosen = pipeline(CORPUS, parser)
    report = MutualFriendsReport()
    for where, dialogue in located(items):
        analysed = chosen.analyse(dialogue)
        # The analysis is the parser's own; its acts get their coarse acts here, as
        # every parse does in the pipeline.
        acts = chosen.coarse_acts([t.act for t in analysed])
        report.add(dialogue, [replace(t, act=a) for t, a in zip(analysed, acts)], where)
    return report
