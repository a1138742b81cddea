"""Items a message names only as a need, a liking or a holding ("i really need the water").

Where items are amounts (the lexicon's ``bare_noun: none``) "the water" is all of it after
a verb of having ("can i have the water?", "i'll take the water"). After a verb that
states a need, a liking or a holding ("i will definitely need the water", "my family
needs the firewood", "i like the firewood", "i do have the water") it says which item
matters, not how much of it: :func:`stated_mentions` finds those mentions, and
:func:`names_no_count` tells whether such a message, with a deal on the table, claims
nothing (a-stated-need-names-no-count).
"""

from __future__ import annotations

from collections.abc import Sequence

from actparse.corpora.splits.lexicon import SplitLexicon
from actparse.corpora.splits.mentions import SELF, Mention
from actparse.models import ItemSplit

__all__ = ["names_no_count", "stated_mentions"]

#: How far back from the verb a negation still denies it ("i don't really need the food").
_NEGATION_REACH = 4
#: The word classes of a subject a verb of liking or holding states after.
_SUBJECTS = ("self", "other", "we", "third_person", "group")
#: The word classes of a word before the subject that makes the verb ask ("can i have").
_ASKING = ("auxiliary", "negatable", "modal")


def stated_mentions(
    tokens: Sequence[str], mentions: Sequence[Mention], lexicon: SplitLexicon
) -> tuple[int, ...]:
    """The positions in ``mentions`` of the items named as a need, a liking or a holding.

    Each is "the" + an item with no written count, on a side, right after a verb of need
    (not negated: "i don't need the food" gives it away) or after a verb of liking or
    holding that follows its subject ("i like the firewood"; not "i would like the
    firewood", "can i have the water?")."""
    if lexicon.bare_noun != "none":
        return ()
    return tuple(
        k
        for k, m in enumerate(mentions)
        if m.kind == "all"
        and not m.explicit
        and m.side is not None
        and m.start > 0
        and _states(tokens, m.start - 1, lexicon)
    )


def _states(tokens: Sequence[str], verb: int, lexicon: SplitLexicon) -> bool:
    """The verb at ``verb`` states a need, a liking or a holding (see :func:`stated_mentions`)."""
    tok = tokens[verb]
    need = lexicon.has("need_verb", tok)
    if not need and not lexicon.has("stative_verb", tok):
        return False
    if any(lexicon.has("negation", t) for t in tokens[max(verb - _NEGATION_REACH, 0) : verb]):
        return False
    if need:
        return True
    j = verb - 1
    while j >= 0 and lexicon.has("emphasis", tokens[j]):
        j -= 1
    if j < 0 or not any(lexicon.has(c, tokens[j]) for c in _SUBJECTS):
        return False
    # "can i have the water?", "if i have the water, ...": a question or a condition
    # asks for it.
    before = tokens[j - 1] if j > 0 else "."
    return not any(lexicon.has(c, before) for c in _ASKING) and before != "if"


def names_no_count(
    mentions: Sequence[Mention],
    stated: Sequence[int],
    writer: int,
    totals: Sequence[int],
    running: ItemSplit | None,
) -> bool:
    """A message whose only claims are stated needs claims nothing, with a deal on the table.

    "I will definitely need the water" after the partner asked for one more water, "I like
    the firewood for cooking" after a deal was agreed: the need argues for the writer's
    share, it does not claim all of the item. Before any deal it is the writer's opening
    claim ("i really need the water!"); where the table already gives the writer all of
    the item it restates the table, and keeps that reading."""
    if running is None or not stated:
        return False
    claimed = [k for k, m in enumerate(mentions) if m.side is not None and m.kind != "bare"]
    if not claimed or not set(claimed) <= set(stated):
        return False
    # "that is why i need the water so much!" when the table gives the writer all of it.
    own = [m.item for m in (mentions[k] for k in claimed) if m.side == SELF]
    restates = bool(own) and all(
        item is not None and running.counts[writer][item] == totals[item] for item in own
    )
    return not restates
