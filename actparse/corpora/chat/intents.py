"""The decision list of the chat corpus: coarse acts from tags, splits and prices.

What the rules see of a message is a :class:`ChatView`: its tags (``rules/chat/tags.yaml``),
the item split it proposes with the writer's and the reader's last proposals (item
dialogues), and how its prices relate to the dialogue (price dialogues). The intents are
the shared coarse acts themselves (``rules/acts.yaml``). Formal actions of a table's
``action`` column are named by :data:`FORMAL_ACTIONS`.
"""

from __future__ import annotations

from dataclasses import dataclass

from actparse.corpora.splits.dialogue import SPLIT_INTENT_RULES, MessageView
from actparse.engine.decisions import DecisionList, IntentRule

__all__ = [
    "FORMAL",
    "FORMAL_ACTIONS",
    "INTENTS",
    "INTENT_RULES",
    "RULE_TAGS",
    "SPLIT_RULES",
    "ChatView",
    "formal_intent",
]

#: Formal actions a table may carry, each its own coarse act.
FORMAL = ("offer", "accept", "reject", "quit")
#: Other names of formal actions, by the first word of the action (lowercase, ``_`` and
#: spaces read as ``-``): a selection or a submitted deal puts terms on the table as a
#: formal offer does (Deal or No Deal's ``select`` and CaSiNo's ``submit-deal`` are
#: ``offer`` in their own coarse maps too); accepting, rejecting and walking away are
#: themselves.
FORMAL_ACTIONS = {
    "offer": "offer",
    "select": "offer",
    "submit": "offer",
    "accept": "accept",
    "reject": "reject",
    "decline": "reject",
    "quit": "quit",
    "walk": "quit",
    "leave": "quit",
}
INTENTS = (
    "greet",
    "inquire",
    "inform",
    "propose",
    "insist",
    "press",
    "agree",
    "disagree",
    *FORMAL,
    "unknown",
)
#: The tags of ``rules/chat/tags.yaml`` the rules ask for.
RULE_TAGS = ("agree", "disagree", "question", "greeting", "smalltalk", "need", "press")


def formal_intent(action: str) -> str | None:
    """The coarse act of a formal action, or ``None`` for a message or an unknown action.

    >>> formal_intent("Submit-Deal"), formal_intent("walk_away"), formal_intent("message")
    ('offer', 'quit', None)
    """
    first = action.strip().lower().replace("_", "-").replace(" ", "-").split("-")[0]
    return FORMAL_ACTIONS.get(first)


@dataclass(frozen=True, slots=True)
class ChatView:
    """What the intent rules see of a message: tags, its split and its prices."""

    tags: frozenset[str]
    #: The intent the split rules gave (item dialogues), or ``None``.
    split_intent: str | None = None
    names_items: bool = False
    #: How each price of the message relates to the dialogue (``price``: new,
    #: ``partner_price``: the writer's own earlier one, ``my_price``: the reader's,
    #: ``listing_price``), as Craigslist types them.
    price_types: frozenset[str] = frozenset()
    #: No price was named before this message.
    first_price: bool = True
    #: The reader's last intent.
    reader_last: str | None = None

    def has(self, tag: str) -> bool:
        """Whether the message carries ``tag``."""
        return tag in self.tags


def _talk_rules() -> tuple[IntentRule[ChatView], ...]:
    """The rules on tags alone, after the terms (splits and prices)."""
    return (
        IntentRule("refusal", "disagree", lambda m: m.has("disagree")),
        IntentRule("vague-push", "press", lambda m: m.has("press") and not m.has("agree")),
        IntentRule("assent", "agree", lambda m: m.has("agree") and not m.has("question")),
        IntentRule(
            "small-talk",
            "greet",
            lambda m: m.has("smalltalk") and not m.has("need") and not m.names_items,
        ),
        IntentRule("question", "inquire", lambda m: m.has("question")),
        IntentRule("greeting", "greet", lambda m: m.has("greeting")),
        IntentRule("asked-for-agreement", "agree", lambda m: m.has("agree")),
        IntentRule("needs-or-items", "inform", lambda m: m.has("need") or m.names_items),
        IntentRule("answer", "inform", lambda m: m.reader_last == "inquire"),
    )


#: The decision list: the first rule that holds wins, else ``unknown``. Terms first (a
#: split, then a price), then what the tags say.
INTENT_RULES: DecisionList[ChatView] = DecisionList(
    (
        IntentRule(
            "split-terms",
            "propose",
            lambda m: m.split_intent == "propose",
        ),
        IntentRule("split-repeated", "insist", lambda m: m.split_intent == "insist"),
        IntentRule("split-restated", "agree", lambda m: m.split_intent == "agree"),
        IntentRule(
            "first-price",
            "propose",
            lambda m: m.first_price and bool(m.price_types) and not m.has("agree"),
        ),
        IntentRule(
            "new-price",
            "propose",
            lambda m: "price" in m.price_types or "listing_price" in m.price_types,
        ),
        IntentRule("repeats-own-price", "insist", lambda m: "partner_price" in m.price_types),
        IntentRule("restates-partner-price", "agree", lambda m: "my_price" in m.price_types),
        *_talk_rules(),
    ),
    fallback="unknown",
    not_tags=(
        "propose",
        "insist",
        "agree",
        "inquire",
        "price",
        "partner_price",
        "my_price",
        "listing_price",
    ),
)

#: What the split turn loop decides with (its refusals put the deal before back on the
#: table): the split rules, then refusals; the chat list decides the rest.
SPLIT_RULES: DecisionList[MessageView] = DecisionList(
    (
        *SPLIT_INTENT_RULES,
        IntentRule("refusal", "disagree", lambda m: m.has("disagree")),
        IntentRule("question", "inquire", lambda m: m.has("question")),
    ),
    fallback="unknown",
)
