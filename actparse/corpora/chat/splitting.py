"""The item splits of a chat dialogue: the shared split turn loop with the declared items.

:class:`ChatSplitParser` is :class:`~actparse.corpora.splits.dialogue.SplitDialogueParser`
configured by a dialogue's item set (its lexicon from :func:`.items.item_lexicon`) and
the chat parser's tag rules; :func:`split_parser` builds one per set of item names, kind
of noun (:mod:`.kinds`: mass-noun or count-noun settings, by default from the names) and
rule set. Its intents are only the split-level ones (:data:`.intents.SPLIT_RULES`); the
chat decision list decides the coarse act from them.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from actparse.corpora.chat.intents import RULE_TAGS, SPLIT_RULES
from actparse.corpora.chat.items import item_lexicon
from actparse.corpora.splits.claims import SplitParse
from actparse.corpora.splits.dialogue import DealState, SplitDialogueParser
from actparse.engine.folders import corpus_tag_rules
from actparse.engine.strategies import default_tagger
from actparse.engine.tags import RuleSet

__all__ = ["ChatDealState", "ChatSplitParser", "split_parser"]


@dataclass
class ChatDealState(DealState):
    """The deal state, and whether the message just parsed names an item, and its tags."""

    names_items: bool = False
    #: The rule tags of the message just parsed, so the chat parser tags it once.
    tags: frozenset[str] = frozenset()


class ChatSplitParser(SplitDialogueParser):
    """The split turn loop for one set of declared items."""

    corpus = "chat"
    rule_tags = RULE_TAGS
    intent_rules = SPLIT_RULES
    refusal_tag = "disagree"
    need_tag = "need"
    need_subject = "self"
    concession = "concession"
    refusal_intents = frozenset({"disagree"})

    def __init__(
        self, items: tuple[str, ...], kind: str | None = None, rules: RuleSet | None = None
    ) -> None:
        self.items = items
        super().__init__(
            lexicon=item_lexicon(items, kind),
            rules=rules if rules is not None else corpus_tag_rules("chat"),
            strategies=default_tagger(),
        )

    def parse_message(
        self, text: str, writer: int, totals: Sequence[int], state: DealState
    ) -> tuple[SplitParse, frozenset[str]]:
        """The split parse of a message; notes on the state whether it names an item."""
        parsed, tags = super().parse_message(text, writer, totals, state)
        if isinstance(state, ChatDealState):
            state.names_items = parsed.names_items
            state.tags = tags
        return parsed, tags


@functools.lru_cache(maxsize=64)
def split_parser(
    items: tuple[str, ...], kind: str | None = None, rules: RuleSet | None = None
) -> ChatSplitParser:
    """The split parser of one set of item names, built once per set, kind and rule set.

    ``kind`` (``count`` or ``mass``) overrides the rule that picks the settings from the
    names (:func:`.kinds.NounKinds.kind`). ``rules`` are the tag rules of the chat parser
    that asks (by default the shipped ones); a rule set is keyed by its identity.
    """
    return ChatSplitParser(items, kind, rules)
