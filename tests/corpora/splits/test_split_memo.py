"""The split parser remembers the sided mentions of recent messages: the same answers as
without the memo, copies its callers may change, and a bounded size."""

from __future__ import annotations

from actparse.corpora.splits import claims
from actparse.corpora.splits.claims import parse_split
from actparse.corpora.splits.lexicon import load_split_lexicon
from actparse.corpora.splits.mentions import OTHER, SELF, find_mentions
from actparse.corpora.splits.sides import assign_sides
from actparse.corpora.splits.tokens import tokenize

TOTALS = (1, 2, 3)


def _fresh(text: str, default_side: int, context_item: int | None) -> list[str]:
    lexicon = load_split_lexicon("dealornodeal")
    tokens = tokenize(text, lexicon)
    mentions = find_mentions(tokens, lexicon, context_item)
    assign_sides(tokens, mentions, lexicon, default_side)
    return [repr(m) for m in mentions]


def test_remembered_mentions_are_the_same_and_independent() -> None:
    lexicon = load_split_lexicon("dealornodeal")
    text = "you can have 2 and i get the hats"
    for side in (SELF, OTHER):
        for context in (None, 0, 2):
            first = parse_split(text, lexicon, TOTALS, default_side=side, context_item=context)
            for m in first.mentions:
                m.side, m.why = None, "changed by a caller"
            again = parse_split(text, lexicon, TOTALS, default_side=side, context_item=context)
            assert [repr(m) for m in again.mentions] == _fresh(text, side, context)
            assert all(a is not b for a, b in zip(first.mentions, again.mentions))


def test_the_memo_is_bounded() -> None:
    lexicon = load_split_lexicon("casino")
    for n in range(claims.MEMO_SIZE + 50):
        parse_split(f"i need {n} water", lexicon, (3, 3, 3))
    assert len(lexicon.memo) <= claims.MEMO_SIZE
