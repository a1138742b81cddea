"""Dialogues of a split corpus, turn by turn, with the deal on the table.

:class:`SplitDialogueParser` is the turn loop Deal or No Deal and CaSiNo share: a
corpus subclasses it, naming its corpus (which picks its lexicon, its tag rules
``tags.yaml`` of its rule folder), its items, its rule tags and its
decision list, and turns its formal actions into acts. Each message is parsed in the
context of the dialogue so far (:class:`DealState`), and its intent decided by a
:class:`~actparse.engine.decisions.DecisionList` over what the rules see of it
(:class:`MessageView`); every corpus' list starts from :data:`SPLIT_INTENT_RULES`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Literal

from actparse.corpora.splits.claims import SplitParse, parse_split
from actparse.corpora.splits.completion import complete_split
from actparse.corpora.splits.lexicon import SplitLexicon, load_split_lexicon
from actparse.corpora.splits.mentions import EITHER, OTHER, SELF
from actparse.corpora.splits.stated import names_no_count
from actparse.engine.acts import ActSpace, load_act_space
from actparse.engine.deals import with_deal_moves
from actparse.engine.decisions import DecisionList, IntentRule
from actparse.engine.final_chooser import SHIPPED, FinalChooser, shipped_chooser
from actparse.engine.folders import corpus_tag_rules
from actparse.engine.parties import check_two_parties
from actparse.engine.rulefiles import RuleError
from actparse.engine.strategies import (
    StrategyTagger,
    add_strategies,
    add_strategies_many,
    default_tagger,
)
from actparse.engine.tags import RuleSet
from actparse.models import Act, Dialogue, ItemSplit, Turn

__all__ = [
    "SPLIT_INTENT_RULES",
    "DealState",
    "MessageView",
    "SplitDialogueParser",
]


@dataclass(frozen=True, slots=True)
class MessageView:
    """What the intent rules see of a message.

    Its tags, the split it proposes, and the writer's and the reader's last proposals."""

    tags: frozenset[str]
    split: ItemSplit | None
    own_last: ItemSplit | None
    partner_last: ItemSplit | None
    names_items: bool

    def has(self, tag: str) -> bool:
        """Whether the message carries ``tag``."""
        return tag in self.tags


#: The rules about splits every corpus' decision list includes.
SPLIT_INTENT_RULES: tuple[IntentRule[MessageView], ...] = (
    IntentRule(
        "repeats-own-split", "insist", lambda m: m.split is not None and m.split == m.own_last
    ),
    IntentRule(
        "restates-partner-split",
        "agree",
        lambda m: m.split is not None and m.split == m.partner_last,
    ),
    IntentRule("new-split", "propose", lambda m: m.split is not None),
)


@dataclass
class DealState:
    """What a parser remembers between the turns of one dialogue."""

    #: Each agent's last proposal.
    last: list[ItemSplit | None] = field(default_factory=lambda: [None, None])
    #: The deal on the table: the last proposal or submission by either agent.
    running: ItemSplit | None = None
    #: The agent whose share the last explicit proposal named first.
    topic: int | None = None
    #: The item the dialogue named last.
    item: int | None = None
    #: Every proposal of each agent, in order.
    history: list[list[ItemSplit]] = field(default_factory=lambda: [[], []])
    #: The turn of the last proposal, and the deal on the table before it.
    proposed_at: int | None = None
    before: ItemSplit | None = None
    #: The last proposal was asked as a question.
    asked: bool = False
    #: A message gave each side one of every item (extras-after-one-each).
    one_each: bool = False

    def first_offer(self, owner: int | None) -> ItemSplit | None:
        """The first proposal of agent ``owner``, or of the dialogue.

        With no owner, the first proposal of the dialogue when only one agent has made any."""
        if owner is not None:
            history = self.history[owner]
            return history[0] if history else None
        made = [h for h in self.history if h]
        return made[0][0] if len(made) == 1 else None


class SplitDialogueParser:
    """The turn loop shared by the item-split corpora.

    A subclass names its corpus, items, rule tags and decision list, and turns its
    formal actions (a selection, a submitted deal) into acts in :meth:`formal_act`; the
    corpus name picks the lexicon and the tag rules (``tags.yaml`` of the corpus' rule
    folder); the pipeline sets the coarse acts (:mod:`actparse.engine.pipeline`). Rules
    and lexicon load once; what a subclass remembers between dialogues (Deal or No Deal's
    :class:`~actparse.corpora.splits.views.ViewMemo`) never changes a result, so a parser
    is safe to reuse.
    """

    corpus: str = ""
    #: The intents of the formal actions (:meth:`formal_act`).
    formal_intents: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    rule_tags: tuple[str, ...] = ()
    intent_rules: DecisionList[MessageView] = DecisionList(SPLIT_INTENT_RULES)
    #: Intents that refuse the proposal right before them, putting the deal before it
    #: back on the table (none by default).
    refusal_intents: frozenset[str] = frozenset()
    #: Intents that refuse a proposal asked as a question right before them ("can i have
    #: one ball ?" - "i need both of them please"), as refusal_intents do (none by
    #: default).
    answer_intents: frozenset[str] = frozenset()
    #: A learned strategy lexicon of the corpus (its path under ``rules/``), used with
    #: the strategy rules by default; none: the rules alone.
    strategy_lexicon: tuple[str, ...] = ()
    #: The learned final-split chooser of the corpus (its path under ``rules/``,
    #: :mod:`actparse.engine.final_chooser`), used by default; none: the rules alone.
    final_chooser_file: tuple[str, ...] = ()
    #: What the turn loop asks of the corpus' rules, named by the corpus and checked
    #: against its tag rules and lexicon when the parser is built (none: that step is
    #: off). The tag of a refusal: an elliptic list in one keeps its own reading.
    refusal_tag: str | None = None
    #: The tag of a stated need, and the word class of the writer as its subject: such a
    #: need with no terms makes the writer the topic.
    need_tag: str | None = None
    need_subject: str | None = None
    #: The word class of a grudging yes: an answer with one grants what it was asked.
    concession: str | None = None

    def __init__(
        self,
        *,
        lexicon: SplitLexicon | None = None,
        rules: RuleSet | None = None,
        act_space: ActSpace | None = None,
        strategies: StrategyTagger | None = None,
        final_chooser: FinalChooser | Literal["shipped"] | None = SHIPPED,
    ) -> None:
        self.lexicon = lexicon if lexicon is not None else load_split_lexicon(self.corpus)
        self.rules = rules if rules is not None else corpus_tag_rules(self.corpus)
        # Kept for the pipeline, which sets the coarse acts (actparse.engine.pipeline).
        self.act_space = act_space if act_space is not None else load_act_space()
        self.strategies = (
            strategies if strategies is not None else default_tagger(self.strategy_lexicon)
        )
        # How the final split of a dialogue is chosen (evaluation only, so read when first
        # asked: labelling never needs the file): the corpus' learned chooser by default
        # (SHIPPED), another given, or None for the rules alone.
        self._final_chooser = final_chooser
        declared = (self.refusal_tag, self.need_tag)
        self.rules.require(
            (*self.rule_tags, *self.intent_rules.named, *(t for t in declared if t)),
            f"the {self.corpus} parser's rule tags and intent rules",
        )
        self._need_subject = self._word_class(self.need_subject)
        self._concession = self._word_class(self.concession)

    @cached_property
    def final_chooser(self) -> FinalChooser | None:
        """The learned final-split chooser evaluation uses (``None``: the rules alone)."""
        if self._final_chooser == SHIPPED:
            return shipped_chooser(self.final_chooser_file)
        return self._final_chooser

    def _word_class(self, name: str | None) -> frozenset[str]:
        """The words of a class of the lexicon the corpus names (none: no words)."""
        if name is None:
            return frozenset()
        if name not in self.lexicon.words:
            raise RuleError(
                f"{self.lexicon.source or 'the split lexicon'}: the {self.corpus} parser asks "
                f"for the word class {name!r}, which it does not have"
            )
        return self.lexicon.words[name]

    @property
    def intents(self) -> tuple[str, ...]:
        """Every intent the parser gives.

        Its corpus' coarse map must map each: those of its decision list and of its formal
        actions."""
        decided = [rule.intent for rule in self.intent_rules.rules]
        return tuple(dict.fromkeys([*decided, self.intent_rules.fallback, *self.formal_intents]))

    def tags(self, tokens: Sequence[str]) -> frozenset[str]:
        """The rule tags of a message, from its normalised tokens.

        The rules' text is the tokens joined by spaces, so a word never matches inside another."""
        text = " ".join(tokens)
        return frozenset(self.rules.tags(self.rule_tags, tokens, text))

    def parse(self, dialogue: Dialogue) -> list[Act]:
        """One act per turn of the dialogue, with each message's strategies and deal move."""
        check_two_parties(dialogue)
        return add_strategies(dialogue, self._acts(dialogue), self.strategies)

    def parse_many(self, dialogues: Sequence[Dialogue]) -> list[list[Act]]:
        """The acts of each dialogue, as :meth:`parse` gives them.

        The acts of the whole batch first, then its strategies (:func:`add_strategies_many`)."""
        for dialogue in dialogues:
            check_two_parties(dialogue)
        return add_strategies_many(dialogues, [self._acts(d) for d in dialogues], self.strategies)

    @cached_property
    def _coarse_of(self) -> Callable[[str], str | None] | None:
        """The coarse act of an intent, by the corpus' coarse map (looked up once).

        The map's dict: an intent it lacks makes no move here (the pipeline names it
        when it sets the coarse acts)."""
        found = self.act_space.coarse_map(self.corpus)
        return None if found is None else found.acts.get

    def _acts(self, dialogue: Dialogue) -> list[Act]:
        """The acts of the dialogue's turns with their deal moves, without strategies.

        The moves are read from the coarse acts of the intents; the pipeline sets them on
        the acts after (:mod:`actparse.engine.pipeline`)."""
        totals = [item.count for item in dialogue.parties[0].items]
        state = DealState()
        acts: list[Act] = []
        for turn in dialogue.turns:
            act = self.formal_act(turn, totals, state)
            if act is None:
                act = self.message_act(turn, totals, state)
            acts.append(act)
        return with_deal_moves(acts, self._coarse_of)

    def formal_act(self, turn: Turn, totals: Sequence[int], state: DealState) -> Act | None:
        """The act of a non-message turn (``None`` for a message)."""
        if turn.is_message:
            return None
        return Act(turn.index, turn.agent, None, note=f"non-message turn {turn.action!r}")

    def parse_message(
        self, text: str, writer: int, totals: Sequence[int], state: DealState
    ) -> tuple[SplitParse, frozenset[str]]:
        """The split parse of a message in its context, and its rule tags.

        An item list with no person is about the side the talk was about, unless the other reading
        restates one side of the deal on the table ("3 fire, 0 water, 2 food" confirms the reader's
        offer), and it does not just move a count of the table ("one hat")."""
        default_side = SELF if state.topic in (None, writer) else OTHER
        parsed = parse_split(
            text,
            self.lexicon,
            totals,
            default_side=default_side,
            context_item=state.item,
            one_each=state.one_each,
        )
        tags = self.tags(parsed.tokens)  # both readings have the same tokens
        # A part of an item that moves a count of the table (adjusts-counts) would
        # restate the table whichever side it is read for: keep the default reading
        # ("2 hats and a ball for me?" - "one hat": the reader gets one).
        moves_a_count = self.lexicon.unnamed == "opposite" and parsed.adjusts_counts(totals)
        # A refusal does not restate the deal it refuses: "nope , the book and the ball"
        # after "i want the book and the ball" is the writer's own (refusal-keeps-its-
        # reading).
        if (
            parsed.elliptic
            and state.running is not None
            and not moves_a_count
            and self.refusal_tag not in tags
        ):
            flipped = parse_split(
                text,
                self.lexicon,
                totals,
                tokens=parsed.tokens,
                default_side=default_side ^ 1,
                context_item=state.item,
                one_each=state.one_each,
            )
            if (
                self.split_of(flipped, writer, totals, state)
                == state.running
                != (self.split_of(parsed, writer, totals, state))
            ):
                parsed = flipped
        return parsed, tags

    def split_of(
        self, parsed: SplitParse, writer: int, totals: Sequence[int], state: DealState
    ) -> ItemSplit | None:
        """The split a parsed message proposes, completed from the deal on the table."""
        if not parsed.has_claim:
            return None
        if names_no_count(parsed.mentions, parsed.stated, writer, totals, state.running):
            # a-stated-need-names-no-count: "i will definitely need the water" with a deal
            # on the table argues for the writer's share; it claims no count.
            return None
        unnamed = parsed.completion(self.lexicon.unnamed, len(totals), totals)
        if unnamed == "opposite" and _fills_open_items(parsed, state.running):
            # "i will give all the hats for the book" - "what about the balls?": the
            # message settles what the table left open (fills-open-items).
            unnamed = "running"
        return complete_split(parsed.claims, writer, totals, self.items, unnamed, state.running)

    def _message_split(
        self, parsed: SplitParse, writer: int, totals: Sequence[int], state: DealState
    ) -> ItemSplit | None:
        """The split a parsed message proposes, with what its parse assumed."""
        split = self.split_of(parsed, writer, totals, state)
        if split is not None:
            return _with_doubts(split, parsed)
        if parsed.refers_back is None:
            return None
        # "i agree to your initial offer", "let's go with my original deal"
        whose = parsed.refers_back
        split = state.first_offer(None if whose == EITHER else writer ^ whose)
        return None if split is None else replace(split, uncertain=("refers-back",))

    def message_act(self, turn: Turn, totals: Sequence[int], state: DealState) -> Act:
        """The act of a message; updates the state with the split it proposes."""
        writer = turn.agent
        parsed, tags = self.parse_message(turn.text, writer, totals, state)
        split = self._message_split(parsed, writer, totals, state)
        if split is None and self.need_tag in tags and self._need_subject & set(parsed.tokens):
            # "i need three items to make this work" - "how about the book and 2 hats?":
            # a list that answers a need with no terms is for the writer of the need
            # (a-need-sets-the-topic).
            state.topic = writer
        view = MessageView(
            tags, split, state.last[writer], state.last[1 - writer], parsed.names_items
        )
        intent = self.intent_rules.decide(view)
        if (
            split is None
            and (
                intent in self.refusal_intents
                or (
                    intent in self.answer_intents
                    and state.asked
                    and self._concession.isdisjoint(parsed.tokens)
                )
            )
            and state.proposed_at == turn.index - 1
            and not parsed.names_items
        ):
            # "no" right after the partner's proposal: the deal before it is back on the
            # table (restores-refused-deal); it stays there unless someone proposes again.
            split = state.before
            if split is not None:
                split = replace(split, uncertain=("restored-after-refusal",))
                state.running = split
                state.proposed_at = None
            return Act(turn.index, writer, intent, tags=tuple(sorted(tags)), split=split)
        state.one_each = state.one_each or parsed.one_each
        last_item = parsed.last_item()
        if last_item is not None:
            state.item = last_item
        if split is not None:
            state.last[writer] = split
            state.before, state.proposed_at = state.running, turn.index
            state.asked = parsed.tokens[-1:] == ("?",)
            state.running = split
            state.history[writer].append(split)
            side = parsed.first_side()
            if not parsed.elliptic:
                # A list with no person is about the side the last one-sided offer named
                # ("i want the hats" - "a hat and the ball?"); after an offer that named
                # both shares it is the writer's own.
                if side is not None and parsed.names_one_side():
                    state.topic = writer if side == SELF else 1 - writer
                else:
                    state.topic = None
        why = tuple(m.describe(self.items) for m in parsed.mentions)
        return Act(turn.index, writer, intent, tags=tuple(sorted(tags)) + why, split=split)


def _with_doubts(split: ItemSplit, parsed: SplitParse) -> ItemSplit:
    """The split with what its parse assumed rather than read, if anything.

    As He et al. (2018) mark a Deal or No Deal parse uncertain: ``count-assumed`` (an
    item named with no quantity at all: "hats", "i need water"), ``side-assumed`` (a list
    with no person: whose it is came from the talk), ``item-assumed`` (a count with no
    item: "i can give you 2")."""
    doubts = []
    if any(m.kind == "bare" for m in parsed.mentions):
        doubts.append("count-assumed")
    if parsed.elliptic:
        doubts.append("side-assumed")
    if any(m.implied for m in parsed.mentions):
        doubts.append("item-assumed")
    return replace(split, uncertain=tuple(doubts)) if doubts else split


def _fills_open_items(parsed: SplitParse, running: ItemSplit | None) -> bool:
    """The deal on the table leaves items open and the message names only those."""
    if running is None:
        return False
    open_items = {k for k, c in enumerate(running.counts[0]) if c is None}
    named = {k for side in parsed.claims.counts for k, c in enumerate(side) if c is not None}
    return bool(open_items) and bool(named) and named <= open_items
