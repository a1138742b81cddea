"""The data model every reader produces and every parser, writer and evaluator consumes.

Corpus-neutral: each corpus fills the fields it has (a listing and prices, item
splits, knowledge-base entities); its native intents live with its parser.

A corpus format is read into :class:`Dialogue` objects; parsing a dialogue gives one
:class:`Act` per turn. All of them are frozen: a parse never mutates its input.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple, get_type_hints

#: The note on every act of a dialogue the skip rule left unparsed: which rule, and how
#: to label it anyway. Written to outputs as the turn's ``no_act``: users group by it.
SKIPPED = "dialogue skipped by Cocoa's length rule (--skip never labels it)"
#: The note on a non-message turn whose action the input lost.
UNKNOWN_ACTION = "non-message turn of unknown action"


@dataclass(frozen=True, slots=True)
class Listing:
    """The item on sale as one agent sees it (buyer and seller may see different text)."""

    title: str
    description: str
    price: float | None
    category: str = ""


@dataclass(frozen=True, slots=True)
class Item:
    """An item type of a split negotiation: its count and its value to the record's party.

    ``value`` is ``None`` when unknown."""

    name: str
    count: int
    value: float | None = None


@dataclass(frozen=True, slots=True)
class Party:
    """One agent's private knowledge base; each corpus fills the fields it has.

    Craigslist: ``role`` (buyer/seller), ``listing``, ``target``. Deal or No Deal and
    CaSiNo: ``items`` (counts and this party's values). MutualFriends: ``kb``, the
    friends as attribute -> value mappings.
    """

    role: str = ""
    listing: Listing | None = None
    target: float | None = None
    items: tuple[Item, ...] = ()
    kb: tuple[Mapping[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Turn:
    """One event of a dialogue.

    ``action`` is ``"message"`` for a chat message, else the corpus' event (an offer, a
    selection, a submitted deal...), or ``None`` when the input lost it (the Craigslist
    HF export of the test split); ``offer_price`` is set for price offers only.
    """

    index: int
    agent: int
    action: str | None
    text: str = ""
    offer_price: float | None = None
    #: Structured data of a non-message event (a submitted deal, a selection).
    data: Mapping[str, Any] | None = None
    #: Annotations shipped with the corpus for this turn (CaSiNo strategy labels).
    labels: tuple[str, ...] = ()

    @property
    def is_message(self) -> bool:
        """True for a chat message (as opposed to an offer, accept, reject or quit)."""
        return self.action == "message"


@dataclass(frozen=True, slots=True)
class Dialogue:
    """A dialogue in the shape every parser reads, whatever format it came from."""

    turns: tuple[Turn, ...]
    parties: tuple[Party, Party]
    id: str | None = None
    #: The reference acts the input carried, one per turn (``None`` when absent).
    reference: tuple[ReferenceAct, ...] | None = None
    #: Which corpus (a name of :mod:`actparse.registry`). Required, by keyword: a dialogue
    #: of no stated corpus would go to whichever parser came first.
    corpus: str = field(kw_only=True)
    #: The outcome the corpus records (final split, reward), as the reader found it.
    outcome: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class ReferenceAct:
    """A reference act as shipped with a corpus: intent ``''`` and price ``None`` mean none."""

    intent: str
    price: float | None


class PriceMention(NamedTuple):
    """A price found in a message: the token as written and the number it stands for.

    ``type`` says how it relates to the dialogue state from the reader's side:
    ``listing_price``, ``my_price`` (the reader's own last price), ``partner_price`` (the
    writer's last price) or ``price`` (new). A named tuple, as :class:`Act` is.
    """

    surface: str
    value: float
    token: int
    type: str = "price"


@dataclass(frozen=True, slots=True)
class EntityMention:
    """A knowledge-base value found in a message (MutualFriends).

    ``surface`` is the text as written (``text[start:end]``, character offsets), ``value``
    the value as the knowledge base spells it, ``type`` its attribute's value type. For a
    selected friend the offsets are -1: the values come from the event, not from text.
    """

    surface: str
    value: str
    type: str
    start: int = -1
    end: int = -1

    def to_dict(self) -> dict[str, str]:
        """The JSON view: surface, value and type."""
        return {"surface": self.surface, "value": self.value, "type": self.type}


@dataclass(frozen=True, slots=True)
class ItemSplit:
    """A division of the items: ``counts[a][i]`` is what agent ``a`` gets of ``items[i]``.

    ``None`` marks a count a partial proposal left open.
    """

    items: tuple[str, ...]
    counts: tuple[tuple[int | None, ...], tuple[int | None, ...]]
    #: Why the parse is unsure, if it is: what it assumed rather than read (empty: a
    #: split read as written). Not part of equality: two splits are the same division.
    uncertain: tuple[str, ...] = field(default=(), compare=False)

    def for_agent(self, agent: int) -> dict[str, int | None]:
        """What ``agent`` gets, item by item."""
        return dict(zip(self.items, self.counts[agent]))

    def to_dict(self) -> dict[str, dict[str, int | None]]:
        """JSON view keyed by agent then item."""
        return {str(a): self.for_agent(a) for a in (0, 1)}


class DealMove(NamedTuple):
    """What a message does to the deal on the table (Deal or No Deal, CaSiNo, your own).

    ``move`` is one of ``propose`` (a new proposal), ``restate`` (a proposal made before,
    said again), ``agree`` and ``refuse``; ``proposal`` names the proposal it concerns by
    the turn that made it; ``standing`` is the proposal the deal stands on after the
    message."""

    move: str
    proposal: int
    standing: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON view: move, proposal and standing."""
        return {"move": self.move, "proposal": self.proposal, "standing": self.standing}


class Act(NamedTuple):
    """The act of one turn.

    ``intent`` is the native intent of its corpus, or ``None`` when the turn gets no act (the
    dialogue was skipped, or the turn is a non-message event whose action is unknown).
    ``price`` is the price the writer proposed, if any. ``tags`` and ``mentions`` record
    why the parser decided so.

    Acts are immutable named tuples rather than frozen dataclasses: one is built for every
    turn, and a tuple is built four times faster. Use ``act._replace(...)`` to change one.
    """

    turn: int
    agent: int
    intent: str | None
    price: float | None = None
    tags: tuple[str, ...] = ()
    mentions: tuple[PriceMention, ...] = ()
    note: str | None = None
    #: The act in the shared coarse act space (``rules/acts.yaml``).
    coarse: str | None = None
    #: The item split the turn proposes or submits (Deal or No Deal, CaSiNo).
    split: ItemSplit | None = None
    #: Knowledge-base values the turn mentions or selects (MutualFriends).
    entities: tuple[EntityMention, ...] = ()
    #: The turn's negotiation strategies (CaSiNo's labels, ``rules/strategies.yaml``).
    strategies: tuple[str, ...] = ()
    #: What the message does to the deal on the table (item-split corpora).
    deal: DealMove | None = None

    @property
    def no_act(self) -> str | None:
        """Why the turn has no act (its ``note``); ``None`` when it has one."""
        if self.intent is not None:
            return None
        return self.note or "no act"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view: intent, price, turn, agent, and the evidence."""
        out: dict[str, Any] = {
            "turn": self.turn,
            "agent": self.agent,
            "intent": self.intent,
            "price": self.price,
        }
        if self.tags:
            out["tags"] = list(self.tags)
        if self.mentions:
            out["mentions"] = [
                {"surface": m.surface, "value": m.value, "type": m.type} for m in self.mentions
            ]
        if self.note:
            out["note"] = self.note
        if self.coarse:
            out["coarse"] = self.coarse
        if self.split is not None:
            out["split"] = self.split.to_dict()
            if self.split.uncertain:
                out["split_uncertain"] = list(self.split.uncertain)
        if self.entities:
            out["entities"] = [e.to_dict() for e in self.entities]
        if self.strategies:
            out["strategies"] = list(self.strategies)
        if self.deal is not None:
            out["deal"] = self.deal.to_dict()
        return out


def _readable(cls: type, fields: Mapping[str, str]) -> None:
    """Words for ``help()`` of a named tuple.

    pydoc shows each field as "Alias for field number N", and the signature with ``ForwardRef(...)``
    (annotations are postponed)."""
    hints = get_type_hints(cls)
    cls.__annotations__ = hints
    cls.__new__.__annotations__ = hints
    for name, doc in fields.items():
        getattr(cls, name).__doc__ = doc


_readable(
    PriceMention,
    {
        "surface": "The price as written in the message (``$1.5k``).",
        "value": "The number it stands for (1500.0).",
        "token": "The index of its (first) token.",
        "type": "listing_price, my_price, partner_price or price (new), from the reader's side.",
    },
)
_readable(
    Act,
    {
        "turn": "The index of the turn in its dialogue.",
        "agent": "Who wrote the turn (0 or 1).",
        "intent": "The corpus' native intent; None when the turn gets no act.",
        "price": "The price the writer proposed (Craigslist), if any.",
        "tags": "The message tags the intent was decided on.",
        "mentions": "The prices found in the message (PriceMention), with their types.",
        "note": "Why a turn has no act (a skipped dialogue, an unknown action), if so.",
        "coarse": "The act in the shared coarse act space (rules/acts.yaml).",
        "split": "The item split proposed or submitted (Deal or No Deal, CaSiNo): ItemSplit.",
        "entities": "Knowledge-base values mentioned or selected (MutualFriends): EntityMention.",
        "strategies": "The negotiation strategies of the turn (CaSiNo's labels), possibly ().",
        "deal": "What the message does to the deal on the table: DealMove, or None.",
    },
)
_readable(
    DealMove,
    {
        "move": "propose, restate, agree or refuse.",
        "proposal": "The proposal it concerns, named by the turn that made it.",
        "standing": "The proposal the deal stands on after the message (None before any).",
    },
)
