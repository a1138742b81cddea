"""The Craigslist parser: Cocoa's ``parse_dialogue`` logic, turn by turn.

Each message is read by the partner of its writer, with the reader's listing and the
dialogue state seen from the reader's side (see ``craigslist-acts-spec.md``). The steps:
tokenize, link prices, type them against the state, tag, decide the intent with the
first rule of :data:`INTENT_RULES` that holds, and choose the proposed price.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from actparse.corpora.craigslist.finder import PriceFinder
from actparse.corpora.craigslist.lexicon import PriceLexicon, load_lexicon
from actparse.corpora.craigslist.linking import ListingContext
from actparse.engine.acts import ActSpace, load_act_space
from actparse.engine.decisions import DecisionList, IntentRule
from actparse.engine.folders import corpus_tag_rules
from actparse.engine.parties import check_two_parties
from actparse.engine.strategies import (
    StrategyTagger,
    add_strategies,
    add_strategies_many,
    default_tagger,
)
from actparse.engine.tags import RuleSet, load_rules
from actparse.engine.tokenizer import tokenize
from actparse.errors import OptionError
from actparse.models import (
    SKIPPED,
    UNKNOWN_ACTION,
    Act,
    Dialogue,
    Listing,
    PriceMention,
    Turn,
)

__all__ = [
    "ACTIONS",
    "CORPUS",
    "INTENTS",
    "INTENT_RULES",
    "SKIP_MIN_MESSAGES",
    "SKIP_MIN_TOKENS",
    "SKIP_MODES",
    "TAG_RULES",
    "CraigslistParser",
    "DialogueState",
    "MessageView",
    "default_parser",
    "load_tag_rules",
]

CORPUS = "craigslist"
#: The shipped tag rules, under ``rules/``.
TAG_RULES = (CORPUS, "tags.yaml")

#: Event actions of a Craigslist dialogue. ``None`` on a :class:`Turn` means the input
#: does not say which action a non-message turn was (the HuggingFace export of the test
#: split writes every non-message event as an empty utterance).
Action = Literal["message", "offer", "accept", "reject", "quit"]
ACTIONS: tuple[str, ...] = ("message", "offer", "accept", "reject", "quit")

#: Native Craigslist intents, in the order of Cocoa's decision list, then the actions.
INTENTS: tuple[str, ...] = (
    "intro",
    "init-price",
    "vague-price",
    "counter-price",
    "insist",
    "inquiry",
    "agree",
    "inform",
    "disagree",
    "unknown",
    "offer",
    "accept",
    "reject",
    "quit",
)


#: A dialogue is skipped when both agents wrote fewer tokens than this in total...
SKIP_MIN_TOKENS = 40
#: ...or when either agent sent fewer messages than this.
SKIP_MIN_MESSAGES = 2
#: Whether that rule applies (``skip=``): ``"cocoa"`` skips as Cocoa did (the reference
#: acts have none for such dialogues), ``"never"`` labels every dialogue.
SKIP_MODES: tuple[str, ...] = ("cocoa", "never")

NO_LISTING = Listing(title="", description="", price=None)

#: Tags computed from the rule file, in the order Cocoa appended them.
RULE_TAGS = ("question", "greeting", "negative", "vague-price", "agree")
PRICE_TYPES = ("listing_price", "my_price", "partner_price", "price")


class MessageView(NamedTuple):
    """What the intent rules see of a message: its tags and the reader's state."""

    tags: tuple[str, ...]
    time: int
    curr_price: float | None
    my_act: str | None

    def has(self, tag: str) -> bool:
        """Whether the message has the rule tag ``tag``."""
        return tag in self.tags


#: Cocoa's decision list. The first rule that holds wins.
INTENT_RULES: DecisionList[MessageView] = DecisionList(
    (
        IntentRule(
            "opening-without-price", "intro", lambda m: m.time == 0 and "has_price" not in m.tags
        ),
        IntentRule(
            "first-price", "init-price", lambda m: "has_price" in m.tags and m.curr_price is None
        ),
        IntentRule(
            "vague-price",
            "vague-price",
            lambda m: "has_price" not in m.tags and "vague-price" in m.tags,
        ),
        IntentRule(
            "new-price", "counter-price", lambda m: "price" in m.tags or "listing_price" in m.tags
        ),
        IntentRule("repeats-own-price", "insist", lambda m: "partner_price" in m.tags),
        IntentRule("question-only", "inquiry", lambda m: m.tags == ("question",)),
        IntentRule("agreement", "agree", lambda m: "agree" in m.tags or "my_price" in m.tags),
        IntentRule("answer-to-inquiry", "inform", lambda m: not m.tags and m.my_act == "inquiry"),
        IntentRule("negation-only", "disagree", lambda m: m.tags == ("negative",)),
    ),
    fallback="unknown",
    not_tags=("inquiry",),  # the reader's last act, not a tag
)


def load_tag_rules(path: str | None = None) -> RuleSet:
    """The Craigslist tag rules.

    Default: ``tags.yaml`` of the corpus' rule folder, the shipped
    ``rules/craigslist/tags.yaml``."""
    return load_rules(path) if path is not None else corpus_tag_rules(CORPUS)


@dataclass(slots=True)
class DialogueState:
    """What the parser remembers between turns (shared by both readers, as in Cocoa).

    Cocoa keeps one state per agent but updates both with the same logical form, so one
    shared record seen "from the reader's side" is equivalent.
    """

    time: int = 0
    prices: list[float | None] = field(default_factory=lambda: [None, None])
    curr_price: float | None = None
    #: Each agent's last intent; ``<start>`` before the first, ``None`` when unknown.
    last_intent: list[str | None] = field(default_factory=lambda: ["<start>", "<start>"])

    def update(self, agent: int, intent: str | None, price: float | None) -> None:
        """Record the act of ``agent``'s turn."""
        self.time += 1
        self.last_intent[agent] = intent
        if price is not None:
            self.prices[agent] = price
            self.curr_price = price


def _message_tokens(dialogue: Dialogue) -> list[list[str] | None]:
    """Cocoa's tokens of each message turn, ``None`` for the other turns."""
    return [tokenize(t.text) if t.action == "message" else None for t in dialogue.turns]


def type_price(value: float, listing_price: float | None, state: DialogueState, reader: int) -> str:
    """How a price relates to the state, from the reader's side."""
    if value == listing_price:
        return "listing_price"
    if value == state.prices[reader]:
        return "my_price"
    if value == state.prices[1 - reader]:
        return "partner_price"
    return "price"


def proposed_price(
    mentions: Sequence[PriceMention], writer_role: str, writer_last: float | None
) -> float | None:
    """The price the writer proposes among those mentioned.

    Keep a price when the writer has no earlier price or it is no better for the writer
    than that one (a concession or a repeat); a buyer never proposes the listing price.
    Of those kept, the best for the writer wins, the first on ties.
    """
    sign = 1.0 if writer_role == "seller" else -1.0
    best: float | None = None
    for m in mentions:
        if writer_last is not None and sign * (m.value - writer_last) > 0:
            continue
        if writer_role != "seller" and m.type == "listing_price":
            continue
        if best is None or sign * m.value > sign * best:
            best = m.value
    return best


class CraigslistParser:
    """Parses Craigslist dialogues into Cocoa-compatible acts.

    Rules and the price lexicon load once; the parser is stateless between dialogues
    and safe to reuse. ``prices`` picks the price mode
    (:data:`~actparse.corpora.craigslist.finder.PRICE_MODES`): ``"cocoa"`` (the
    default) reproduces Cocoa's linking, ``"extended"`` also finds prices written as
    words, with a currency word, or with a ``k`` suffix. ``skip`` (:data:`SKIP_MODES`):
    ``"cocoa"`` (the default) leaves the dialogues Cocoa's length rule skips without
    acts, each act's ``note`` saying so; ``"never"`` labels them too.
    """

    corpus = CORPUS
    #: Every intent the parser gives (its corpus' coarse map must map each).
    intents = INTENTS

    def __init__(
        self,
        *,
        lexicon: PriceLexicon | None = None,
        rules: RuleSet | None = None,
        act_space: ActSpace | None = None,
        prices: str = "cocoa",
        strategies: StrategyTagger | None = None,
        skip: str = "cocoa",
    ) -> None:
        if skip not in SKIP_MODES:
            raise OptionError(f"skip must be one of {', '.join(SKIP_MODES)}, got {skip!r}")
        self.skip = skip
        self.strategies = strategies if strategies is not None else default_tagger()
        self.lexicon = lexicon if lexicon is not None else load_lexicon()
        # "cocoa" reproduces the reference acts; "extended" also finds prices Cocoa's
        # rules miss ("150 bucks", "two hundred dollars"). Only the linking differs.
        self.price_finder = PriceFinder(self.lexicon, prices)
        self.rules = rules if rules is not None else load_tag_rules()
        self.rules.require(
            (*RULE_TAGS, *INTENT_RULES.named),
            "the Craigslist parser's tags and intent rules",
            computed=(*PRICE_TYPES, "has_price"),
        )
        # Kept for the pipeline, which sets the coarse acts (actparse.engine.pipeline).
        self.act_space = act_space if act_space is not None else load_act_space()

    def prepare(self) -> None:
        """Load what labelling would otherwise load on its first message.

        That is quantulum3 for the extended prices, so that it does not count against a record's
        deadline."""
        self.price_finder.prepare()

    def tags(
        self, tokens: Sequence[str], text: str, mentions: Sequence[PriceMention]
    ) -> tuple[str, ...]:
        """Cocoa's tags of a message, in Cocoa's order."""
        tags = self.rules.tags(RULE_TAGS, tokens, text)
        if mentions:  # most messages have none
            types = {m.type for m in mentions}
            tags.extend(t for t in PRICE_TYPES if t in types)
            tags.append("has_price")
        return tuple(tags)

    def is_skipped(self, dialogue: Dialogue, tokens: Sequence[Sequence[str] | None]) -> bool:
        """Cocoa's skip rule, on the message tokens of each turn (``None`` for non-messages)."""
        n_tokens = [0, 0]
        n_messages = [0, 0]
        for turn, toks in zip(dialogue.turns, tokens):
            if toks is not None and turn.agent in (0, 1):
                n_tokens[turn.agent] += len(toks)
                n_messages[turn.agent] += 1
        if n_tokens[0] < SKIP_MIN_TOKENS and n_tokens[1] < SKIP_MIN_TOKENS:
            return True
        return n_messages[0] < SKIP_MIN_MESSAGES or n_messages[1] < SKIP_MIN_MESSAGES

    def parse(self, dialogue: Dialogue) -> list[Act]:
        """One act per turn of the dialogue."""
        check_two_parties(dialogue)
        return add_strategies(
            dialogue, self._parse_tokenized(dialogue, _message_tokens(dialogue)), self.strategies
        )

    def parse_many(self, dialogues: Sequence[Dialogue]) -> list[list[Act]]:
        """The acts of each dialogue, as :meth:`parse` gives them.

        Every message of the batch is tokenized first, then the acts are decided, then
        the strategies tagged: each step run over the whole batch keeps its code and data
        warm in the CPU caches (tokens then acts: about 7% faster than dialogue by
        dialogue; for the strategies see :func:`add_strategies_many`).
        """
        for dialogue in dialogues:
            check_two_parties(dialogue)
        tokens = [_message_tokens(d) for d in dialogues]
        acts = [self._parse_tokenized(d, t) for d, t in zip(dialogues, tokens)]
        return add_strategies_many(dialogues, acts, self.strategies)

    def _parse_tokenized(
        self, dialogue: Dialogue, tokens: Sequence[Sequence[str] | None]
    ) -> list[Act]:
        if self.skip == "cocoa" and self.is_skipped(dialogue, tokens):
            return [
                Act(turn=t.index, agent=t.agent, intent=None, note=SKIPPED) for t in dialogue.turns
            ]
        listings = [ListingContext(p.listing or NO_LISTING) for p in dialogue.parties]
        state = DialogueState()
        acts: list[Act] = []
        for turn, toks in zip(dialogue.turns, tokens):
            act = self._parse_turn(dialogue, turn, toks, listings, state)
            state.update(turn.agent, act.intent, act.price)
            acts.append(act)
        return acts

    def _parse_turn(
        self,
        dialogue: Dialogue,
        turn: Turn,
        toks: Sequence[str] | None,
        listings: Sequence[ListingContext],
        state: DialogueState,
    ) -> Act:
        if turn.action == "offer":
            return Act(turn.index, turn.agent, "offer", turn.offer_price)
        if turn.action in ("accept", "reject", "quit"):
            return Act(turn.index, turn.agent, turn.action)
        if toks is None:
            return Act(turn.index, turn.agent, None, note=UNKNOWN_ACTION)
        listing = listings[1 - turn.agent]
        # Most messages hold no digit at all, and then no price (Cocoa mode).
        found = [] if self.price_finder.skips(turn.text) else self.price_finder.find(toks, listing)
        return self.message_act(dialogue, turn, toks, found, listing.price, state)

    def message_act(
        self,
        dialogue: Dialogue,
        turn: Turn,
        toks: Sequence[str],
        found: Sequence[PriceMention],
        listing_price: float | None,
        state: DialogueState,
    ) -> Act:
        """The act of a message whose prices are ``found``, given the state before it.

        Split from the linking so that lexicon calibration can ask what the act would be
        had another set of numbers counted as prices (see
        :mod:`actparse.corpora.craigslist.calibrate`).
        """
        writer = turn.agent
        reader = 1 - writer
        mentions: tuple[PriceMention, ...] = ()
        if found:  # most messages have no price
            mentions = tuple(
                PriceMention(
                    m.surface, m.value, m.token, type_price(m.value, listing_price, state, reader)
                )
                for m in found
            )
        tags = self.tags(toks, turn.text, mentions)
        view = MessageView(tags, state.time, state.curr_price, state.last_intent[reader])
        intent = INTENT_RULES.decide(view)
        price: float | None = None
        if mentions:
            # The writer's role is the reader's opposite, as Cocoa derived it.
            writer_role = "buyer" if dialogue.parties[reader].role == "seller" else "seller"
            price = proposed_price(mentions, writer_role, state.prices[writer])
        return Act(turn.index, turn.agent, intent, price, tags, mentions)


@functools.cache
def default_parser() -> CraigslistParser:
    """The parser with the shipped rules and lexicon, built once per process."""
    return CraigslistParser()
