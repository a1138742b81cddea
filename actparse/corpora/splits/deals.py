"""The deal on the table as dialogue state: every proposal and what became of it.

:func:`track_deals` reads the acts of a dialogue in order and says, turn by turn, what
each message does to the deal (a :class:`~actparse.models.DealMove`): it makes a
proposal, restates one, agrees to one or refuses one. A proposal is named by the turn
that made it. Over the dialogue each proposal gets a status (:class:`Proposal`):
``open``, ``agreed`` (by whom, at which turn), ``superseded`` (by which proposal),
``refused`` or ``withdrawn``; :meth:`DealTrack.final` is the deal the text ends on.

The rules, by name (the tests and docs use them):

- ``agreement-answers-the-table``: an agreement ("deal", "ok let's do it", "submit that")
  agrees to the proposal the deal stands on when it is said, the one seen last that
  nobody refused; a refused proposal is never agreed to by a bare "ok" after it.
- ``restatement-is-no-proposal``: a split equal to a proposal still standing refers to
  it (a summary after agreement, an insistence) instead of making a new one.
- ``restating-partner-agrees``: a split equal to the partner's standing proposal
  agrees to it.
- ``refusal-answers-the-table``: a refusal refuses the partner's proposal the deal
  stands on; when the parser put the deal before it back on the table (the refusal
  carries that split), the deal stands on that one again.
- ``counter-supersedes``: a new proposal supersedes the partner's standing proposals
  and withdraws the writer's own (``own-counter-withdraws``). The parser already
  completes it from the deal on the table, so a counter that names one item changes
  only that item.
- ``last-agreed-is-final``: the deal the text ends on is the proposal it stands on;
  a proposal agreed to and then countered is superseded, as parties renegotiate.

Measured on the development dialogues of Deal or No Deal and CaSiNo, a later proposal
after an agreement is far more often a real renegotiation than a misread summary:
keeping an agreed proposal over later counters lost 3 and 6 points. The agreement
is what makes a final deal sure: see :attr:`Proposal.agreed`.

Nothing here knows a corpus: moves are read from the coarse acts (``agree``,
``disagree``; formal actions are skipped) and the splits of the acts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from actparse.models import Act, DealMove, ItemSplit

__all__ = [
    "DEAL_MOVES",
    "PROPOSAL_STATUSES",
    "DealTrack",
    "Proposal",
    "track_deals",
    "with_deal_moves",
]

#: What a message can do to the deal.
DEAL_MOVES = ("propose", "restate", "agree", "refuse")
#: What becomes of a proposal.
PROPOSAL_STATUSES = ("open", "agreed", "superseded", "refused", "withdrawn")
#: The coarse acts that agree to and refuse a proposal.
AGREE = "agree"
REFUSE = "disagree"
#: The coarse acts of formal actions (a submitted deal, its answer, a selection): the
#: outcome, not moves of the text.
FORMAL = frozenset({"offer", "accept", "reject", "quit"})


@dataclass(slots=True)
class Proposal:
    """One proposal of a dialogue and what became of it."""

    turn: int
    agent: int
    split: ItemSplit
    status: str = "open"
    #: Who agreed to it and at which turn, the proposer's own restatements not included.
    agreed: list[tuple[int, int]] = field(default_factory=list)
    #: The turn that superseded, withdrew or refused it.
    by: int | None = None
    #: The turn of its latest event: made, restated, agreed to.
    last_seen: int = 0

    def to_dict(self) -> dict[str, object]:
        """The JSON view: turn, agent, status, who agreed when, by which turn."""
        return {
            "turn": self.turn,
            "agent": self.agent,
            "status": self.status,
            "agreed": [{"agent": a, "turn": t} for a, t in self.agreed],
            "by": self.by,
            "split": self.split.to_dict(),
        }


@dataclass
class DealTrack:
    """The proposals of a dialogue and each message's move, in turn order."""

    proposals: dict[int, Proposal] = field(default_factory=dict)
    moves: dict[int, DealMove] = field(default_factory=dict)
    #: The proposal the deal stands on (``None`` before any).
    standing: int | None = None

    @property
    def final(self) -> Proposal | None:
        """The proposal the text ends on (last-agreed-is-final), ``None`` with none made.

        After a refusal that put nothing back, the last proposal made: the text left
        nothing else on the table."""
        if self.standing is not None:
            return self.proposals[self.standing]
        return self.proposals[max(self.proposals)] if self.proposals else None

    def answered(self) -> Proposal | None:
        """The proposal an agreement or refusal answers (agreement-answers-the-table)."""
        standing = [p for p in self.proposals.values() if p.status != "refused"]
        return max(standing, key=lambda p: (p.last_seen, p.turn), default=None)

    def same(self, split: ItemSplit, *, standing: bool = True) -> Proposal | None:
        """The latest proposal with the same counts (restatement-is-no-proposal).

        Only one still standing (open or agreed) unless ``standing`` is false."""
        same = [
            p
            for p in self.proposals.values()
            if p.split.counts == split.counts and (not standing or p.status in ("open", "agreed"))
        ]
        return max(same, key=lambda p: (p.last_seen, p.turn), default=None)

    def step(self, act: Act, coarse: str | None) -> DealMove | None:
        """The move of one message act of coarse act ``coarse`` (``None``: no move)."""
        if coarse == REFUSE:
            return self._refuse(act)
        if act.split is not None:
            same = self.same(act.split)
            if same is None:
                return self._propose(act, act.split)
            if same.agent != act.agent:
                return self._agree(same, act)  # restating-partner-agrees
            same.last_seen, self.standing = act.turn, same.turn
            return DealMove("restate", same.turn, self.standing)
        if coarse == AGREE:
            target = self.answered()
            if target is not None:
                return self._agree(target, act)
        return None

    def _agree(self, proposal: Proposal, act: Act) -> DealMove:
        if proposal.agent != act.agent:
            proposal.agreed.append((act.agent, act.turn))
            proposal.status = "agreed"
        self.standing, proposal.last_seen = proposal.turn, act.turn
        return DealMove("agree", proposal.turn, self.standing)

    def _refuse(self, act: Act) -> DealMove | None:
        target = self.answered()
        if target is None or target.agent == act.agent:
            return None
        target.status, target.by = "refused", act.turn
        back = self.same(act.split, standing=False) if act.split is not None else None
        self.standing = None
        if back is not None and back is not target:
            # The parser put the deal before it back on the table (restores-refused-deal).
            back.status, back.by = ("agreed" if back.agreed else "open"), None
            self.standing = back.turn
        return DealMove("refuse", target.turn, self.standing)

    def _propose(self, act: Act, split: ItemSplit) -> DealMove:
        for p in self.proposals.values():
            if p.status in ("open", "agreed"):
                p.status = "withdrawn" if p.agent == act.agent and not p.agreed else "superseded"
                p.by = act.turn
        self.proposals[act.turn] = Proposal(act.turn, act.agent, split, last_seen=act.turn)
        self.standing = act.turn
        return DealMove("propose", act.turn, self.standing)


def track_deals(
    acts: Sequence[Act],
    before: int | None = None,
    coarse_of: Callable[[str], str | None] | None = None,
) -> DealTrack:
    """The proposals of a dialogue's message acts and each message's move.

    Acts from turn ``before`` on (a formal deal) are not read; formal actions and turns
    with no act are skipped. A move is read from an act's coarse act, or from
    ``coarse_of`` its intent when given (acts before the pipeline set them)."""
    track = DealTrack()
    for act in acts:
        if before is not None and act.turn >= before:
            break
        if act.intent is None:
            continue
        coarse = act.coarse if coarse_of is None else coarse_of(act.intent)
        if coarse in FORMAL or (act.split is None and coarse not in (AGREE, REFUSE)):
            continue
        move = track.step(act, coarse)
        if move is not None:
            track.moves[act.turn] = move
    return track


def with_deal_moves(
    acts: Sequence[Act], coarse_of: Callable[[str], str | None] | None = None
) -> list[Act]:
    """The acts, each message's with its :class:`~actparse.models.DealMove`."""
    moves = track_deals(acts, coarse_of=coarse_of).moves
    if not moves:
        return list(acts)
    # deal is the last field of an act: _make of a slice is faster than _replace, and
    # a turn without a move keeps its act as it is.
    return [
        act if act.turn not in moves else Act._make((*act[:-1], moves[act.turn])) for act in acts
    ]
