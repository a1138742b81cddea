"""The MutualFriends parser: one act per turn, with the mentioned values as arguments.

Messages get Cocoa's intents by one decision list (:data:`INTENT_RULES`) over a
:class:`MessageView` (the message's tags and how many values it mentions, and how many
under a negation): ``inquire`` (a question), ``inform`` (mentions a value),
``negative``, ``greet``, else ``unknown``. A ``select`` is checked against the
reader's list. The tags and word classes come from ``rules/mutualfriends/tags.yaml``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path

from actparse.corpora.mutualfriends import CORPUS
from actparse.corpora.mutualfriends.linker import FriendLists, Linker, selected_friend
from actparse.corpora.mutualfriends.names import BREAKS, MESSAGE_TAGS, Names, fold, word_classes
from actparse.corpora.mutualfriends.reader import attribute_type
from actparse.engine.acts import ActSpace, load_act_space
from actparse.engine.decisions import DecisionList, IntentRule
from actparse.engine.folders import TAGS_FILE, corpus_tag_rules, source_of
from actparse.engine.strategies import StrategyTagger, add_strategies, default_tagger
from actparse.engine.tags import RuleSet, load_rules
from actparse.engine.tokenizer import split_sentences, tokenize
from actparse.models import Act, Dialogue, EntityMention, Turn

__all__ = [
    "INTENTS",
    "INTENT_RULES",
    "RULES_FILE",
    "MessageView",
    "MutualFriendsParser",
    "TurnParse",
    "load_mutualfriends_rules",
]

#: Native intents, as Cocoa's MutualFriends parser names them.
INTENTS = ("greet", "inquire", "inform", "negative", "select", "unknown")
#: The shipped rule file, under ``rules/``.
RULES_FILE = (CORPUS, "tags.yaml")


def load_mutualfriends_rules(path: str | Path | Traversable | None = None) -> RuleSet:
    """The MutualFriends rule file, loaded once per process.

    Default: ``tags.yaml`` of the corpus' rule folder, the shipped :data:`RULES_FILE`."""
    return load_rules(path) if path is not None else corpus_tag_rules(CORPUS)


# ---------------------------------------------------------------------------
# Intents
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MessageView:
    """What the intent rules see of a message."""

    tags: frozenset[str]
    mentions: int
    negated: int

    def has(self, tag: str) -> bool:
        """Whether the message has ``tag`` (``question``, ``greeting``, ``negative``)."""
        return tag in self.tags


#: Cocoa's decision list for MutualFriends messages: the first rule that holds wins. A
#: value under a negation counts for ``negative`` only.
INTENT_RULES: DecisionList[MessageView] = DecisionList(
    (
        IntentRule("question", "inquire", lambda m: m.has("question")),
        IntentRule("mentions-a-value", "inform", lambda m: m.mentions > m.negated),
        IntentRule("negated-values", "negative", lambda m: m.negated > 0),
        IntentRule("negation", "negative", lambda m: m.has("negative")),
        IntentRule("greeting", "greet", lambda m: m.has("greeting") or m.has("smalltalk")),
    ),
    fallback="unknown",
)


# ---------------------------------------------------------------------------
# The parser
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TurnParse:
    """Everything the parser found for one turn.

    ``entities`` are the values mentioned in a message (empty for a select). ``negated``
    is the subset written under a negation ("none of mine went to Babson"). For a
    ``select``: the ``friend`` chosen, ``in_own_list`` (is it in the reader's own list,
    the reader being the other agent, as Cocoa's parser reads its partner's selection)
    and ``in_writer_list``.
    """

    act: Act
    entities: tuple[EntityMention, ...] = ()
    negated: tuple[EntityMention, ...] = ()
    friend: Mapping[str, str] | None = None
    in_own_list: bool | None = None
    in_writer_list: bool | None = None


class MutualFriendsParser:
    """Parses MutualFriends dialogues into acts, with the mentioned values as arguments.

    Rules load once; between dialogues the parser keeps only a cache of the ways to write
    each value, so it is safe to reuse. A message act's ``tags`` hold the value types it
    mentions (``company``, ``school``...) and its ``entities`` the mentions; a select's
    ``tags`` hold the types of the friend's attributes and its ``entities`` the friend's
    values. ``note`` names the decision rule that chose the intent (for a select, whether
    the friend is in the reader's list). :meth:`analyse` gives the details the
    evaluation counts.
    """

    corpus = CORPUS
    #: Every intent the parser gives (its corpus' coarse map must map each).
    intents = INTENTS

    def __init__(
        self,
        rules: RuleSet | None = None,
        act_space: ActSpace | None = None,
        source: str | None = None,
        strategies: StrategyTagger | None = None,
    ) -> None:
        self.strategies = strategies if strategies is not None else default_tagger()
        self.rules = rules if rules is not None else load_mutualfriends_rules()
        self.words = word_classes(self.rules, source or source_of(CORPUS, TAGS_FILE))
        self.rules.require(INTENT_RULES.named, "the MutualFriends intent rules")
        self.names = Names(self.words)
        self._openers = self.words.greeting | self.words.reply
        # Kept for the pipeline, which sets the coarse acts (actparse.engine.pipeline).
        self.act_space = act_space if act_space is not None else load_act_space()

    def parse(self, dialogue: Dialogue) -> list[Act]:
        """One :class:`~actparse.models.Act` per turn."""
        return add_strategies(dialogue, [t.act for t in self.analyse(dialogue)], self.strategies)

    def parse_with_entities(
        self, dialogue: Dialogue
    ) -> list[tuple[Act, tuple[EntityMention, ...]]]:
        """One ``(act, mentions)`` per turn; a select's mentions are empty (see ``analyse``)."""
        analysed = self.analyse(dialogue)
        acts = add_strategies(dialogue, [t.act for t in analysed], self.strategies)
        return [(act, t.entities) for act, t in zip(acts, analysed)]

    def analyse(self, dialogue: Dialogue) -> list[TurnParse]:
        """One :class:`TurnParse` per turn.

        The act, its entities, and for a select the friend and whether it is in the reader's
        list."""
        linker = Linker(self.names, dialogue.parties)
        lists = FriendLists(dialogue.parties)
        mentioned: set[int] = set()
        out: list[TurnParse] = []
        for turn in dialogue.turns:
            if turn.action == "message":
                parsed = self._message(turn, linker, mentioned)
            elif turn.action == "select":
                parsed = self._select(turn, lists)
                # A selected friend's values count as mentioned for later tie-breaks.
                for value in (parsed.friend or {}).values():
                    mentioned.update(linker.by_text.get(fold(value).strip(), ()))
            else:
                parsed = TurnParse(
                    Act(turn.index, turn.agent, None, note=f"unknown action {turn.action!r}")
                )
            out.append(parsed)
        return out

    def tags(self, text: str) -> frozenset[str]:
        """The message tags (``question``, ``greeting``, ``negative``, ``smalltalk``) of a text.

        Rules run sentence by sentence, so "Hi. Do you know anyone at Molycorp" is a
        question although its first word is a greeting.
        """
        found: set[str] = set()
        for sentence in split_sentences(text) or [text]:
            tokens = tokenize(sentence)
            # "How are you?" asks nothing about friends: a small-talk sentence is no
            # question, whatever its words or its question mark.
            tags = set(self.rules.tags(MESSAGE_TAGS, tokens, sentence))
            small_talk = "smalltalk" in tags
            if small_talk:
                tags.discard("question")
            found |= tags
            if "question" not in found and not small_talk:
                # "Hi, do you know anyone at STX": the question starts after the opener.
                rest = self._after_opener(tokens)
                if rest is not None and self.rules.has("question", rest, " ".join(rest)):
                    found.add("question")
        return frozenset(found)

    def _after_opener(self, tokens: list[str]) -> list[str] | None:
        """The tokens after a leading greeting or reply word and its punctuation."""
        k = 0
        while k < len(tokens) and (tokens[k] in self._openers or tokens[k] in BREAKS):
            k += 1
        return tokens[k:] if 0 < k < len(tokens) else None

    def _act(
        self,
        turn: Turn,
        intent: str,
        types: Sequence[str],
        note: str | None,
        entities: Sequence[EntityMention] = (),
    ) -> Act:
        return Act(
            turn.index, turn.agent, intent, tags=tuple(types), note=note, entities=tuple(entities)
        )

    def _message(self, turn: Turn, linker: Linker, mentioned: set[int]) -> TurnParse:
        links = linker.link(turn.text, turn.agent, mentioned)
        mentioned.update(link.value for link in links)
        mentions = [link.mention for link in links]
        negated = [link.mention for link in links if link.negated]
        view = MessageView(self.tags(turn.text), len(mentions), len(negated))
        intent, rule = INTENT_RULES.decide_with_rule(view)
        types = list(dict.fromkeys(m.type for m in mentions))
        note = rule
        if negated and intent != "negative":
            note += "; negated: " + ", ".join(m.value for m in negated)
        act = self._act(turn, intent, types, note, mentions)
        return TurnParse(act, tuple(mentions), tuple(negated))

    def _select(self, turn: Turn, lists: FriendLists) -> TurnParse:
        friend = selected_friend(turn)
        in_own, in_writer = lists.selection(friend, turn.agent)
        types = list(dict.fromkeys(attribute_type(friend, a) for a in friend))
        note = "in the reader's list" if in_own else "not in the reader's list"
        chosen = [
            EntityMention(str(v), str(v), attribute_type(friend, a)) for a, v in friend.items()
        ]
        act = self._act(turn, "select", types, note, chosen)
        return TurnParse(act, friend=friend, in_own_list=in_own, in_writer_list=in_writer)
