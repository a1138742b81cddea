"""The parser of your own dialogues: coarse acts, prices, item splits and strategies.

Every message gets a coarse act from the chat decision list (:mod:`.intents`) over its
tags (``rules/chat/tags.yaml``), its prices (:mod:`.prices`: Craigslist's price finder,
the declared listing price as its listing) and, where the dialogue declares ``items``
and has exactly two speakers, the item split it proposes (:mod:`.splitting`: the shared
split turn loop with the declared item names, :mod:`.items`). A formal action of the
table (``offer``, ``accept``... and their other names, :data:`.intents.FORMAL_ACTIONS`)
is its own act. Strategies come from the shared rules.

With one speaker, or three and more, there is no one partner to split items with or to
read a price against: such a dialogue gets coarse acts and prices only, and every act
says so with the tag ``splits-off:<n>-speakers`` (:func:`speakers_note`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from actparse.corpora.chat.intents import (
    FORMAL,
    INTENT_RULES,
    INTENTS,
    RULE_TAGS,
    ChatView,
    formal_intent,
)
from actparse.corpora.chat.items import message_tokens
from actparse.corpora.chat.kinds import KINDS
from actparse.corpora.chat.prices import PriceTracker, proposed_price, writer_roles
from actparse.corpora.chat.reader import CORPUS, SPLITS_OFF, speakers
from actparse.corpora.chat.splitting import ChatDealState, ChatSplitParser, split_parser
from actparse.corpora.craigslist.linking import ListingContext
from actparse.engine.acts import ActSpace, load_act_space
from actparse.engine.deals import with_deal_moves
from actparse.engine.folders import corpus_tag_rules
from actparse.engine.strategies import (
    StrategyTagger,
    add_strategies,
    add_strategies_many,
    default_tagger,
)
from actparse.engine.tags import RuleSet
from actparse.models import Act, Dialogue, PriceMention, Turn

__all__ = ["FORMAL", "INTENTS", "ChatParser", "speakers_note"]

#: The note of a non-message turn whose action names no formal act.
UNKNOWN_FORMAL = "non-message turn {!r}"


def speakers_note(n: int) -> str:
    """The tag that says a dialogue of ``n`` speakers gets no item splits.

    >>> speakers_note(3)
    'splits-off:3-speakers'
    """
    return f"{SPLITS_OFF}{n}-speakers"


@dataclass
class _PriceState:
    """The prices of a dialogue so far, for any number of speakers."""

    last: dict[int, float] = field(default_factory=dict)
    named: bool = False
    last_intent: dict[int, str | None] = field(default_factory=dict)

    def price_type(self, value: float, listing: float | None, writer: int) -> str:
        """How a price relates to the dialogue, from the reader's side (as Craigslist).

        The reader's own price is ``my_price``, the writer's earlier one ``partner_price``.
        """
        if value == listing:
            return "listing_price"
        if any(p == value for a, p in self.last.items() if a != writer):
            return "my_price"
        if self.last.get(writer) == value:
            return "partner_price"
        return "price"


@dataclass
class _Context:
    """What one dialogue's turns share while they are parsed."""

    dialogue: Dialogue
    listing: ListingContext
    roles: list[str]
    found: list[list[PriceMention]]
    splitter: ChatSplitParser | None
    totals: list[int]
    deal: ChatDealState = field(default_factory=ChatDealState)
    prices: _PriceState = field(default_factory=_PriceState)
    note: str | None = None


def _same(intent: str) -> str | None:
    """An intent as its own coarse act."""
    return intent


class ChatParser:
    """Parses dialogues of no known corpus into coarse acts with prices and item splits.

    Rules load once; a parser keeps nothing between dialogues and is safe to reuse.
    ``noun_kind`` (``count`` or ``mass``) reads every item set with that kind's split
    settings, for a user who knows better than the rule that picks them from the names.
    """

    corpus = CORPUS
    #: Every intent the parser gives: the coarse acts themselves.
    intents = INTENTS

    def __init__(
        self,
        *,
        rules: RuleSet | None = None,
        act_space: ActSpace | None = None,
        strategies: StrategyTagger | None = None,
        noun_kind: str | None = None,
    ) -> None:
        if noun_kind is not None and noun_kind not in KINDS:
            raise ValueError(f"noun_kind must be one of {KINDS} or None, got {noun_kind!r}")
        #: The kind of noun every item set is read as (None: by the names, majority-mass).
        self.noun_kind = noun_kind
        self.rules = rules if rules is not None else corpus_tag_rules(CORPUS)
        self.rules.require(RULE_TAGS, "the chat parser's tags")
        # Kept for the pipeline, which sets the coarse acts (actparse.engine.pipeline).
        self.act_space = act_space if act_space is not None else load_act_space()
        self.strategies = strategies if strategies is not None else default_tagger()
        self.prices = PriceTracker()

    def parse(self, dialogue: Dialogue) -> list[Act]:
        """One act per turn of the dialogue, with each message's strategies."""
        return add_strategies(dialogue, self._acts(dialogue), self.strategies)

    def parse_many(self, dialogues: Sequence[Dialogue]) -> list[list[Act]]:
        """The acts of each dialogue, as :meth:`parse` gives them."""
        acts = [self._acts(d) for d in dialogues]
        return add_strategies_many(dialogues, acts, self.strategies)

    def tags(self, text: str) -> frozenset[str]:
        """The rule tags of a message (the tokens of :func:`.items.message_tokens`)."""
        tokens = message_tokens(text)
        return frozenset(self.rules.tags(RULE_TAGS, tokens, " ".join(tokens)))

    def _context(self, dialogue: Dialogue) -> _Context:
        """Prices found in every message, the roles they imply, and the split parser."""
        listing = self.prices.listing(dialogue)
        found: list[list[PriceMention]] = []
        first: dict[int, float] = {}
        marked_only = bool(dialogue.parties[0].items) and listing.price is None
        for turn in dialogue.turns:
            mentions = self.prices.find(turn.text, listing, marked_only) if turn.text else []
            found.append(mentions)
            if mentions and turn.agent not in first:
                first[turn.agent] = mentions[0].value
        count = len(speakers(dialogue))
        declared = [p.role for p in dialogue.parties]
        two = count == 2
        roles = writer_roles(
            declared, first if two else {}, list(first) if two else [], listing.price
        )
        items = dialogue.parties[0].items
        names = tuple(i.name for i in items)
        splitter = split_parser(names, self.noun_kind, self.rules) if items and two else None
        return _Context(
            dialogue,
            listing,
            roles,
            found,
            splitter,
            [i.count for i in items],
            note=None if two else speakers_note(count),
        )

    def _acts(self, dialogue: Dialogue) -> list[Act]:
        """The acts of the dialogue's turns, without strategies."""
        ctx = self._context(dialogue)
        acts = []
        for turn, found in zip(dialogue.turns, ctx.found):
            if turn.is_message:
                act = self._message_act(turn, found, ctx)
            else:
                act = self._formal_act(turn, found, ctx)
            if ctx.note is not None:
                act = act._replace(tags=(*act.tags, ctx.note))
            if act.price is not None:
                ctx.prices.last[turn.agent] = act.price
                ctx.prices.named = True
            ctx.prices.last_intent[turn.agent] = act.intent
            acts.append(act)
        if ctx.splitter is not None:
            # The native intents are the coarse acts (coarse.yaml maps each to itself).
            acts = with_deal_moves(acts, _same)
        return acts

    @staticmethod
    def _formal_act(turn: Turn, found: Sequence[PriceMention], ctx: _Context) -> Act:
        """The act of a formal action: its coarse act, with the price its text names."""
        intent = formal_intent(turn.action or "")
        if intent is None:
            return Act(turn.index, turn.agent, None, note=UNKNOWN_FORMAL.format(turn.action))
        price = turn.offer_price
        if price is None and intent == "offer" and found:
            price = found[0].value
        return Act(turn.index, turn.agent, intent, price)

    def _message_act(self, turn: Turn, found: Sequence[PriceMention], ctx: _Context) -> Act:
        """The act of a message: its split (item dialogues), its price and its coarse act."""
        writer = turn.agent
        split_act: Act | None = None
        if ctx.splitter is not None and writer in (0, 1):
            split_act = ctx.splitter.message_act(turn, ctx.totals, ctx.deal)
        state = ctx.prices
        listing = ctx.listing.price
        mentions = tuple(
            PriceMention(m.surface, m.value, m.token, state.price_type(m.value, listing, writer))
            for m in found
        )
        readers = [i for a, i in state.last_intent.items() if a != writer]
        # A message the split loop read keeps its tags: each message is tagged once.
        tags = ctx.deal.tags if split_act is not None else self.tags(turn.text)
        view = ChatView(
            tags=tags,
            split_intent=split_act.intent if split_act is not None else None,
            names_items=ctx.deal.names_items if split_act is not None else False,
            price_types=frozenset(m.type for m in mentions if m.type),
            first_price=not state.named,
            reader_last=readers[-1] if readers else None,
        )
        intent = INTENT_RULES.decide(view)
        price = None
        if mentions:
            role = ctx.roles[writer] if writer < len(ctx.roles) else ""
            price = proposed_price(mentions, role or "seller", state.last.get(writer))
        split = split_act.split if split_act is not None else None
        why = split_act.tags if split_act is not None else tuple(sorted(view.tags))
        return Act(turn.index, writer, intent, price, why, mentions, split=split)
