"""The deal on the table as dialogue state: every proposal and what became of it.

:func:`track_deals` reads the acts of a dialogue in order and says, turn by turn, what
each message does to the deal (a :class:`~actparse.models.DealMove`): it makes a
proposal, restates one, agrees to one, confirms its own or refuses one. A proposal is
named by the turn that made it. Over the dialogue each proposal gets a status
(:class:`Proposal`): ``open``, ``agreed`` (by whom, at which turn), ``superseded`` (by
which proposal), ``refused`` or ``withdrawn``; :attr:`DealTrack.final` is the deal the
text ends on.

The rules, by name (the golden dialogues of ``tests/corpora/<corpus>/deal_golden.yaml``
name the one each shows):

- ``agreement-answers-the-table``: an agreement ("deal", "ok let's do it", "submit that
  trade") agrees to the proposal the deal stands on when it is said; with nothing on
  the table (after a refusal that put nothing back) it makes no move.
- ``own-agreement-confirms``: the writer's "yes" to its own proposal on the table
  confirms it (``confirm``), and says it is no agreement: only the other side agrees.
- ``asked-and-argued-down-gives-in``: but when the writer asked for its proposal ("can i
  have the hats ?", a question), nobody agreed to it and the partner only argued back
  (replies of ``inform`` with no word of assent: "hats are worth nothing to me"), the
  writer's "ok" gives in: it agrees to the partner's latest proposal, which stands
  again, and withdraws its own. Not after a proposal stated as firm (its writer's "ok"
  there as often gives up the deal: "ok , we won't make a deal"), nor after a reply that
  assents, asks or has no act (a missed acceptance, or a question the "yes" answers),
  nor to a proposal the writer refused.
- ``restatement-is-no-proposal``: a split equal to a proposal still standing refers to
  it (a summary after agreement, an insistence: ``restate``) instead of making a new
  one; ``restating-partner-agrees``: the partner's, said back, is agreed to.
- ``refusal-answers-the-table``: a refusal refuses the partner's proposal on the table;
  when the parser put the deal before it back on the table (the refusal carries that
  split: restores-refused-deal), the deal stands on that one again.
- ``counter-supersedes``: a new proposal supersedes the standing proposals and
  withdraws the writer's own that nobody agreed to (``own-counter-withdraws``). The
  parser completes it from the deal on the table, so a counter that names one item
  changes only that item.
- ``rejected-submission-refuses``: a formal submission rejected (CaSiNo's
  ``Reject-Deal``) refuses the text's proposal on the table when it submitted that
  division; formal actions make no move of their own.
- ``formal-side-is-kept``: the side whose formal offer stands when the text ends (who
  submitted the deal, who selected first) is kept in :attr:`DealTrack.formal_by`; a
  rejected submission clears it. It makes no move: the final split may weigh it.
- ``the-table-is-final``: the deal the text ends on is the proposal it stands on; a
  proposal agreed to and then countered is superseded, as parties renegotiate.

Measured on the development dialogues of Deal or No Deal and CaSiNo, a later proposal
after an agreement is far more often a real renegotiation than a misread summary:
keeping an agreed proposal over later counters lost 3 and 6 points. The agreement is
what makes a final deal sure: see :attr:`Proposal.agreed`. Evaluation may weigh the
tracked final against the other divisions of the items by the parties' item values
(:mod:`actparse.engine.final_chooser`).

Nothing here knows a corpus: moves are read from the coarse acts (``agree``,
``disagree``, and ``offer`` and ``reject`` of formal actions) and the splits of the acts.
Each step looks proposals up by turn and by division, so a dialogue is tracked in time
about linear in its turns.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from actparse.models import Act, DealMove, ItemSplit

__all__ = [
    "CONFIDENCE_LEVELS",
    "DEAL_MOVES",
    "PROPOSAL_STATUSES",
    "DealTrack",
    "Proposal",
    "confidence",
    "track_deals",
    "with_deal_moves",
]

#: What a message can do to the deal.
DEAL_MOVES = ("propose", "restate", "agree", "confirm", "refuse")
#: What becomes of a proposal.
PROPOSAL_STATUSES = ("open", "agreed", "superseded", "refused", "withdrawn")
#: The coarse acts that agree to and refuse a proposal.
AGREE = "agree"
REFUSE = "disagree"
#: The coarse act of a reply that argues (reasons, needs, values) without a move; the
#: tag of a word of assent, which makes such a reply a likely acceptance; the tag of a
#: question, which makes a proposal an ask (asked-and-argued-down-gives-in).
INFORM = "inform"
ASSENT_TAG = "agree"
QUESTION_TAG = "question"
#: The coarse acts of formal actions (a submitted deal, its answer, a selection): the
#: outcome, not moves of the text; a rejected submission refuses the text's deal it
#: submitted.
OFFER = "offer"
REJECT = "reject"
FORMAL = frozenset({OFFER, "accept", REJECT, "quit"})
#: The statuses of a proposal still on the table.
STANDING = ("open", "agreed")


@dataclass(slots=True)
class Proposal:
    """One proposal of a dialogue and what became of it."""

    turn: int
    agent: int
    split: ItemSplit
    status: str = "open"
    #: Who agreed to it and at which turn, the proposer's own confirmations not included.
    agreed: list[tuple[int, int]] = field(default_factory=list)
    #: The turn that superseded, withdrew or refused it.
    by: int | None = None
    #: Asked as a question ("can i have the hats ?"): a tentative proposal.
    asked: bool = False


@dataclass
class DealTrack:
    """The proposals of a dialogue and each message's move, in turn order."""

    proposals: dict[int, Proposal] = field(default_factory=dict)
    moves: dict[int, DealMove] = field(default_factory=dict)
    #: The proposal the deal stands on (``None`` before any, and after a refusal that
    #: put nothing back).
    standing: int | None = None
    #: The latest proposal made with each division (restatement-is-no-proposal).
    by_counts: dict[tuple[tuple[int | None, ...], ...], Proposal] = field(default_factory=dict)
    #: The split of the last formal submission (rejected-submission-refuses).
    submitted: ItemSplit | None = None
    #: The proposals still standing (open or agreed), by turn: a new one ends them all.
    live: dict[int, Proposal] = field(default_factory=dict)
    #: The side whose formal offer stands (formal-side-is-kept): the submission not
    #: rejected, the first selection, or the formal turn the text was read up to.
    formal_by: int | None = None
    #: The latest proposal of each side, by agent (asked-and-argued-down-gives-in).
    latest: dict[int, Proposal] = field(default_factory=dict)
    #: The proposal on the table the partner of its writer has replied to, and whether
    #: every reply since it only argued: an ``inform`` with no word of assent.
    replied_to: int | None = None
    only_argued: bool = False

    @property
    def final(self) -> Proposal | None:
        """The proposal the text ends on (the-table-is-final), ``None`` with none made.

        After a refusal that put nothing back, the last proposal made: the text left
        nothing else on the table."""
        if self.standing is not None:
            return self.proposals[self.standing]
        return self.proposals[max(self.proposals)] if self.proposals else None

    def step(self, act: Act, coarse: str | None) -> DealMove | None:
        """The move of one message act of coarse act ``coarse`` (``None``: no move)."""
        on_table = None if self.standing is None else self.proposals[self.standing]
        if coarse == REFUSE:
            return self._refuse(act, on_table)
        if act.split is not None:
            same = self.by_counts.get(act.split.counts)
            if same is None or same.status not in STANDING:
                return self._propose(act, act.split)
            return self._agree(same, act)  # restating-partner-agrees, or restates its own
        if coarse == AGREE and on_table is not None:
            if on_table.agent == act.agent and self._argued_against(on_table):
                return self._give_in(on_table, act)
            return self._agree(on_table, act)
        return None

    def hear(self, act: Act, coarse: str | None) -> None:
        """Note whether a reply to the table by its writer's partner only argues."""
        if self.standing is None or act.agent == self.proposals[self.standing].agent:
            return
        if self.replied_to != self.standing:
            self.replied_to, self.only_argued = self.standing, True
        self.only_argued &= coarse == INFORM and ASSENT_TAG not in act.tags

    def _argued_against(self, own: Proposal) -> bool:
        """The writer asked for its own proposal, and the partner only argued back."""
        return own.asked and not own.agreed and self.replied_to == own.turn and self.only_argued

    def formal(self, act: Act, coarse: str | None) -> None:
        """What a formal action does to the text's deal (rejected-submission-refuses)."""
        if coarse == OFFER:
            self.submitted = act.split
            if self.formal_by is None:
                self.formal_by = act.agent
            return
        if coarse != REJECT:
            return
        self.formal_by = None
        if self.submitted is not None and self.standing is not None:
            on_table = self.proposals[self.standing]
            if on_table.split.counts == self.submitted.counts:
                on_table.status, on_table.by = "refused", act.turn
                self.live.pop(on_table.turn, None)
                self.standing = None

    def _agree(self, proposal: Proposal, act: Act) -> DealMove:
        """Agree to (or, its own, restate or confirm) a standing proposal."""
        self.standing = proposal.turn
        if proposal.agent == act.agent:
            # own-agreement-confirms: the writer's own "yes" or summary changes nothing.
            move = "restate" if act.split is not None else "confirm"
            return DealMove(move, proposal.turn, self.standing)
        proposal.agreed.append((act.agent, act.turn))
        proposal.status = "agreed"
        return DealMove("agree", proposal.turn, self.standing)

    def _give_in(self, own: Proposal, act: Act) -> DealMove:
        """The writer's "ok" after its ask was argued down (asked-and-argued-down-gives-in).

        It agrees to the partner's latest proposal, which stands again, and withdraws its
        own; with no proposal of the partner's, or one the writer refused, it confirms
        its own."""
        others = [p for agent, p in self.latest.items() if agent != act.agent]
        back = max(others, key=lambda p: p.turn, default=None)
        if back is None or back.status == "refused":
            return self._agree(own, act)
        own.status, own.by = "withdrawn", act.turn
        back.by = None
        self.live = {back.turn: back}
        return self._agree(back, act)

    def _refuse(self, act: Act, on_table: Proposal | None) -> DealMove | None:
        """Refuse the partner's proposal on the table (refusal-answers-the-table)."""
        if on_table is None or on_table.agent == act.agent:
            return None
        on_table.status, on_table.by = "refused", act.turn
        self.live.pop(on_table.turn, None)
        back = self.by_counts.get(act.split.counts) if act.split is not None else None
        self.standing = None
        if back is not None and back is not on_table:
            # The parser put the deal before it back on the table (restores-refused-deal).
            back.status, back.by = ("agreed" if back.agreed else "open"), None
            self.live[back.turn] = back
            self.standing = back.turn
        return DealMove("refuse", on_table.turn, self.standing)

    def _propose(self, act: Act, split: ItemSplit) -> DealMove:
        """Make a new proposal, superseding or withdrawing those standing."""
        for p in self.live.values():
            p.status = "withdrawn" if p.agent == act.agent and not p.agreed else "superseded"
            p.by = act.turn
        proposal = Proposal(act.turn, act.agent, split, asked=QUESTION_TAG in act.tags)
        self.proposals[act.turn] = self.by_counts[split.counts] = proposal
        self.live = {act.turn: proposal}
        self.latest[act.agent] = proposal
        self.standing = act.turn
        return DealMove("propose", act.turn, self.standing)


#: How sure a final split is (:func:`confidence`), surest first.
CONFIDENCE_LEVELS = ("high", "medium", "low", "none")


def confidence(final: Proposal | None) -> str:
    """How sure the final split of the text is, one of :data:`CONFIDENCE_LEVELS`.

    ``high``: the other side agreed to it in text (it stands agreed: not refused since)
    and its parse assumed nothing
    (:attr:`~actparse.models.ItemSplit.uncertain` is empty); ``medium``: one of the two;
    ``low``: neither; ``none``: the text proposed nothing."""
    if final is None:
        return "none"
    sure = (final.status == "agreed", not final.split.uncertain)
    return "high" if all(sure) else "medium" if any(sure) else "low"


def track_deals(
    acts: Sequence[Act],
    before: int | None = None,
    coarse_of: Callable[[str], str | None] | None = None,
) -> DealTrack:
    """The proposals of a dialogue's message acts and each message's move.

    Acts from turn ``before`` on (a formal deal) are not read, but the side of the act at
    ``before`` is the :attr:`~DealTrack.formal_by`; formal actions and turns with no act
    are skipped. A move is read from an act's coarse act, or from
    ``coarse_of`` its intent when given (acts before the pipeline set them)."""
    track = DealTrack()
    for act in acts:
        if before is not None and act.turn >= before:
            if act.turn == before:
                track.formal_by = act.agent
            break
        if act.intent is None:
            continue
        coarse = act.coarse if coarse_of is None else coarse_of(act.intent)
        if coarse in FORMAL:
            track.formal(act, coarse)
            continue
        track.hear(act, coarse)
        if act.split is None and coarse not in (AGREE, REFUSE):
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
