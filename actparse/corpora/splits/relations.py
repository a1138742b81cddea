"""Step 3, after the scan: sides from a mention's neighbours.

:func:`~actparse.corpora.splits.sides.assign_sides` reads the words before each mention;
these rules look at how mentions relate to each other and to the words after them, so
they run on the whole message once the scan is done: a benefit phrase claims the list
before it ("the book and balls for me"), "everything but X", exchanges ("the books for
the ball"), statements of worth claim nothing, and a list with no person in it is about
the side the talk is about.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from actparse.corpora.splits.lexicon import SplitLexicon
from actparse.corpora.splits.mentions import OTHER, SELF, Mention, conjoined, counted, person
from actparse.corpora.splits.tokens import EXCHANGE_FOR

__all__ = [
    "ALTERNATIVE",
    "apply_exceptions",
    "apply_exchanges",
    "claim_backwards",
    "claim_only_things",
    "drop_alternatives",
    "drop_or_sentences",
    "drop_scores",
    "drop_value_statements",
    "fill_elliptic_lists",
    "settle_modal_offers",
]


def claim_backwards(
    tokens: Sequence[str],
    mentions: Sequence[Mention],
    benefits: Sequence[tuple[int, int]],
    subjects: Sequence[int],
    lexicon: SplitLexicon,
) -> None:
    """A benefit phrase ("for me", "to you", "mine") claims the mentions before it.

    It reaches back over one list of mentions within its sentence and stops at a new
    subject; a mention that already has a side from a subject before it is taken only
    when no clause boundary lies between them ("you get the hats, the book and balls for
    me": the hats stay the reader's), while one marked only by a benefit phrase before
    it is taken ("2 books for me, 3 hats, 1 ball for you": the hats are the reader's);
    "the rest" is never part of a list.
    """
    subject_set = set(subjects)
    for pos, side in benefits:
        later: Mention | None = None
        for m in reversed(mentions):
            if m.end >= pos:
                continue
            between = range(m.end + 1, pos)
            # "2 water for you", "the rest is yours": the phrase follows its list; "if i
            # take 2 food, would that work for you?" asks, it does not give.
            if later is None and not all(
                lexicon.has("copula", tokens[k]) for k in range(m.end + 1, pos - 1)
            ):
                break
            if any(lexicon.has("sentence_end", tokens[k]) for k in between):
                break
            if any(k in subject_set for k in between):
                break
            if m.why == "benefit-after":
                break
            if later is not None and (
                later.kind == "rest" or not conjoined(tokens, m, later, lexicon)
            ):
                break
            if (
                m.side is not None
                # "2 food for you and 3 water, 1 food for me": a list headed by the
                # benefit phrase before it yields to the one that closes it.
                and m.why != "benefit-before"
                and any(lexicon.has("boundary", tokens[k]) and tokens[k] != "and" for k in between)
            ):
                break
            m.side, m.why, m.negated = side, "benefit-after", False
            later = m


def _possessor(tokens: Sequence[str], m: Mention, lexicon: SplitLexicon) -> int | None:
    """Whose the items are now ("my 2 food", "3 of your firewood"): ``SELF``/``OTHER``."""
    for tok in tokens[m.start : m.end]:
        if lexicon.has("my", tok):
            return SELF
        if lexicon.has("your", tok):
            return OTHER
    return None


def apply_exchanges(
    tokens: Sequence[str], mentions: Sequence[Mention], lexicon: SplitLexicon
) -> None:
    """Items traded "for" others go to the side opposite them.

    For example "the books for the ball and a hat", "2 hats in exchange for a book"; the list after
    "for" goes together. With no other marker, "my" and "your" tell who gives ("1 water for 3 of
    your firewood": the firewood comes to the writer). A list of trades ("2 water for 1
    firewood and 2 firewood for 1 food") is given pair by pair by the same side
    (exchange-pairs-restart); a trade proposed with no subject ("how about trading ...") is
    the writer's (an-exchange-proposed-is-the-writers); one item for one ("swap the hat for a
    ball") moves each against the table (a-swap-moves-one)."""
    if "for" not in tokens and EXCHANGE_FOR not in tokens:
        return  # every rule here starts from a "for" between two mentions
    _owned_exchanges(tokens, mentions, lexicon)
    _trades(tokens, mentions, lexicon)


def _owned_exchanges(
    tokens: Sequence[str], mentions: Sequence[Mention], lexicon: SplitLexicon
) -> None:
    """Items traded for "my" or "your" items go to the side opposite their owner."""
    for k in range(1, len(mentions)):
        before, after = mentions[k - 1], mentions[k]
        gap = _trade_gap(tokens, before, after)
        if not gap or gap[0] not in ("for", EXCHANGE_FOR):
            continue
        owner = _possessor(tokens, after, lexicon)
        if owner is None or after.side is not None or before.side is not None:
            continue
        after.side, after.why = owner ^ 1, "exchange-owner"
        # The whole list before "for" goes the other way ("1 water and 2 food for ...").
        j = k - 1
        while j >= 0 and mentions[j].side is None:
            mentions[j].side, mentions[j].why = owner, "exchange-owner"
            if j == 0 or not conjoined(tokens, mentions[j - 1], mentions[j], lexicon):
                break
            j -= 1


def _trades(tokens: Sequence[str], mentions: Sequence[Mention], lexicon: SplitLexicon) -> None:
    """Items traded "for" items of a side already known go to the other side."""
    trading: int | None = None
    for k, (before, after) in enumerate(itertools.pairwise(mentions), 1):
        gap = _trade_gap(tokens, before, after)
        if (
            len(gap) > 2
            and (lexicon.has("benefit", gap[0]) or lexicon.has("source", gap[0]))
            and person(gap[1], lexicon, subject=False) is not None
        ):
            # "3 waters from me for your 3 food": the benefit phrase belongs to the first.
            gap = gap[2:]
        if (
            gap
            and gap[0] in ("for", EXCHANGE_FOR)
            and before.side is not None
            and not any(person(t, lexicon, subject=False) is not None for t in gap)
        ):
            if before.why == _IMPERATIVE_GIVING:
                # an-exchange-proposed-is-the-writers: "swap the hat for a ball",
                # "interested in trading 2 water for 1 food": a giving verb with no
                # subject that trades its list for another is the writer's offer.
                _give_list(tokens, mentions, k - 1, OTHER, lexicon)
            trading = before.side ^ 1
            after.side, after.why = trading, "exchange"
            if _single(before) and _single(after):
                # a-swap-moves-one: "swap the hat for a ball", "a water for a food":
                # one item for one, each moved from the table to the other side.
                before.moved = after.moved = True
            continue
        if trading is not None and conjoined(tokens, before, after, lexicon):
            if _trades_on(tokens, mentions, k):
                # exchange-pairs-restart: "2 water for 1 firewood and 2 firewood for 1
                # food": a list of trades, each given by the side that gave the first.
                after.side, after.why = trading ^ 1, "exchange-pair"
                trading = None
                continue
            after.side, after.why = trading, "exchange"
            continue
        trading = None


def _trade_gap(tokens: Sequence[str], before: Mention, after: Mention) -> Sequence[str]:
    """The words between two mentions, a comma before them left out.

    a-comma-before-for-still-trades: "all the balls and one book , for the hat" trades as
    "... one book for the hat" does."""
    gap = tokens[before.end + 1 : after.start]
    return gap[1:] if gap and gap[0] == "," else gap


#: Why a mention is the reader's to give: a giving verb with no subject before it.
_IMPERATIVE_GIVING = "imperative+give"


def _give_list(
    tokens: Sequence[str], mentions: Sequence[Mention], k: int, side: int, lexicon: SplitLexicon
) -> None:
    """Mention ``k`` and the list it ends, given by the imperative, go to ``side``."""
    while k >= 0 and mentions[k].why == _IMPERATIVE_GIVING:
        mentions[k].side, mentions[k].why = side, "exchange-offer"
        if k == 0 or not conjoined(tokens, mentions[k - 1], mentions[k], lexicon):
            break
        k -= 1


def _single(m: Mention) -> bool:
    """One of an item, named without a written number ("the hat" of several, "a ball")."""
    return m.singular or (m.article and m.kind == "count" and m.count == 1)


def _trades_on(tokens: Sequence[str], mentions: Sequence[Mention], k: int) -> bool:
    """Mention ``k`` is itself traded "for" the next one (it opens a pair of its own)."""
    if k + 1 >= len(mentions):
        return False
    gap = tokens[mentions[k].end + 1 : mentions[k + 1].start]
    return len(gap) == 1 and gap[0] in ("for", EXCHANGE_FOR)


def _clause_span(tokens: Sequence[str], m: Mention, lexicon: SplitLexicon) -> range:
    """The tokens of the clause around a mention (up to the nearest strong boundaries)."""

    def strong(k: int) -> bool:
        # A comma ends a clause here; "and" may join two items of one statement, but not
        # before a subject of its own ("3 water and i don't care about the firewood").
        tok = tokens[k]
        if tok == "and":
            nxt = tokens[k + 1] if k + 1 < len(tokens) else ""
            return person(nxt, lexicon, subject=True) is not None
        return lexicon.has("boundary", tok) or lexicon.has("relative_clause", tok)

    start = m.start
    while start > 0 and not strong(start - 1):
        start -= 1
    end = m.end
    while end + 1 < len(tokens) and not strong(end + 1):
        end += 1
    return range(start, end + 1)


#: Why a mention has no side: it is one of two alternatives ("the book or a hat").
ALTERNATIVE = "alternative"


def drop_alternatives(
    tokens: Sequence[str], mentions: Sequence[Mention], lexicon: SplitLexicon
) -> None:
    """Items offered as alternatives are not yet anybody's.

    "Either the book or one hat", "a hat or a ball": items offered as alternatives
    are not yet anybody's (alternatives-claim-nothing); the items of the list after
    "or" go with it ("the book or two hats and a ball")."""
    if "or" not in tokens:
        return  # most messages: spare the scan
    for k, tok in enumerate(tokens):
        if tok != "or":
            continue
        before = next((m for m in mentions if m.end == k - 1), None)
        after = next((m for m in mentions if m.start == k + 1), None)
        if before is None or after is None or before.item is None or after.item is None:
            continue
        before.side, before.why = None, ALTERNATIVE
        later = [m for m in mentions if m.start >= after.start]
        previous = None
        for m in later:
            if previous is not None and not conjoined(tokens, previous, m, lexicon):
                break
            m.side, m.why = None, ALTERNATIVE
            previous = m


def settle_modal_offers(mentions: Sequence[Mention]) -> None:
    """Settle the side of X in "I can do X".

    "I can do X" gives X ("i can do 2 balls if i get the hats") or takes it ("i can
    do the balls and you can have the rest"): X goes to the side opposite the message's
    other claims (do-list-opposite-other-claims); with none, the writer takes it ("i
    can do the balls and 1 hat", "best i can do is the book and two hats":
    do-list-alone-takes)."""
    offered = [m for m in mentions if "+do" in m.why and m.side is not None]
    others = {
        m.side for m in mentions if m.side is not None and "+do" not in m.why and m.kind != "bare"
    }
    if not offered or len(others) > 1:
        return
    # With no other claim, what the writer can do is what the writer takes; what the
    # reader can do ("so you can do 2 firewood?") is still what the reader gives.
    other = others.pop() if others else OTHER
    for m in offered:
        if m.side == other:
            m.side, m.why = other ^ 1, m.why.replace("+do", "+do-take")


def drop_value_statements(
    tokens: Sequence[str], mentions: Sequence[Mention], lexicon: SplitLexicon
) -> None:
    """A mention in a clause about worth is a preference, not a claim.

    "The books are worth nothing to me": a mention in a clause about worth is a
    preference, not a claim."""
    if lexicon.words["value"].isdisjoint(tokens):
        return  # most messages: spare a clause scan per mention
    for m in mentions:
        if m.side is None:
            continue
        if any(lexicon.has("value", tokens[k]) for k in _clause_span(tokens, m, lexicon)):
            m.side, m.why = None, "value"


def drop_scores(tokens: Sequence[str], mentions: Sequence[Mention], lexicon: SplitLexicon) -> None:
    """A number after a copula and before a person's benefit phrase is a score.

    "The balls are 0 for me", "book is 10 for me", "hats are 3 each to me", "the balls
    are 5 / 5 for you?": what the items are worth to a person, not how many the person
    gets (a-count-after-a-copula-is-a-score); neither the items nor the number claim
    anything."""
    n = len(tokens)
    for m in mentions:
        k = m.end + 1
        if k + 1 >= n or tokens[k] not in ("is", "are") or lexicon.number(tokens[k + 1]) is None:
            continue
        k += 2
        if k + 1 < n and tokens[k] == "/" and lexicon.number(tokens[k + 1]) is not None:
            k += 2  # "5 / 5"
        if k < n and (lexicon.has("each", tokens[k]) or lexicon.has("value", tokens[k])):
            k += 1  # "3 each", "5 points"
        if (
            k + 1 < n
            and lexicon.has("benefit", tokens[k])
            and person(tokens[k + 1], lexicon, subject=False) is not None
        ):
            for scored in mentions:
                if scored is m or m.end < scored.start < k:
                    scored.side, scored.why = None, "value"


def claim_only_things(
    tokens: Sequence[str], mentions: Sequence[Mention], lexicon: SplitLexicon
) -> None:
    """Items named as the writer's only interest are the writer's claim.

    "The book is the only thing I'm interested in", "the hats are the only thing of
    value to me": items named as the writer's only interest are the writer's claim
    (only-thing-claims); the reader's ("the only thing you want") stay as they were."""
    for m in mentions:
        if m.item is None:
            continue
        k = m.end + 1
        if k >= len(tokens) or tokens[k] not in ("is", "are"):
            continue
        k += 1
        if k < len(tokens) and tokens[k] == "the":
            k += 1
        if tuple(tokens[k : k + 2]) not in (("only", "thing"), ("only", "things")):
            continue
        rest: list[str] = []
        for tok in tokens[k + 2 :]:
            if lexicon.has("sentence_end", tok):
                break
            rest.append(tok)
        if any(lexicon.has("other", t) for t in rest):
            continue
        if any(lexicon.has("self", t) or lexicon.has("self_object", t) for t in rest):
            m.side, m.why = SELF, "only-thing"


def apply_exceptions(
    tokens: Sequence[str], mentions: Sequence[Mention], lexicon: SplitLexicon
) -> None:
    """In "everything but the balls", the items after the exception go to the other side."""
    for rest, after in itertools.pairwise(mentions):
        if rest.kind not in ("rest", "every") or rest.side is None:
            continue
        gap = tokens[rest.end + 1 : after.start]
        if gap and lexicon.has("except", gap[0]) and len(gap) <= 2:
            after.side, after.why = rest.side ^ 1, "except"
            rest.kind = "rest"


def fill_elliptic_lists(
    tokens: Sequence[str], mentions: Sequence[Mention], lexicon: SplitLexicon, default_side: int
) -> None:
    """Give a side to elliptic lists: mentions with no side before any person.

    Mentions with nobody's side that come before any person (or "we") in their
    sentence, in a sentence with no word of worth and no third person ("ball and one
    hat?", "one of each", "2 hats and we have a deal") are about ``default_side``: the
    side the talk is about (the writer, unless the caller knows better); after a claim
    in the message they continue it, and before "the rest" given to one side they are
    the other side's ("how about just the ball and i take the rest?")."""
    if all(
        m.side is not None or m.why in ("value", ALTERNATIVE) or m.kind == "bare" for m in mentions
    ):
        return  # no mention the rule could fill: spare the scan
    blocked, sentence_of, person_at, we_at = _sentence_states(tokens, lexicon)
    previous: int | None = None
    following = _rest_follows(tokens, mentions, lexicon)
    for m in mentions:
        if m.side is not None:
            if m.kind != "bare":
                previous = m.side
            continue
        if m.why in ("value", ALTERNATIVE) or m.kind == "bare":
            continue
        if sentence_of[m.start] in blocked or person_at[m.start] or we_at[m.start]:
            continue
        if lexicon.bare_noun == "none" and not counted(tokens, m, lexicon):
            # Where a bare noun is a preference, "what about the food?" asks; only a
            # written count ("2 water and 1 food?") proposes.
            continue
        # "I can give you 1 food. 2 water and 2 firewood": a list that follows a claim
        # in the same message continues it.
        if previous is not None:
            m.side = previous
        else:  # before "the rest" of one side, the other's (elliptic-before-rest)
            m.side = following ^ 1 if following is not None else default_side
        m.why = "elliptic"


def _sentence_states(
    tokens: Sequence[str], lexicon: SplitLexicon
) -> tuple[set[int], list[int], list[bool], list[bool]]:
    """Per token, its sentence and whether a person or "we" came before it there.

    Returns the sentences with a word of worth or a third person (blocked: no elliptic
    list in them), and per token its sentence number, whether a person came before it
    in its sentence, and whether "we" did."""
    blocked: set[int] = set()
    sentence = 0
    seen_person = False
    sentence_of: list[int] = []
    person_at: list[bool] = []
    we_at: list[bool] = []
    seen_we = False
    for k, (tok, word) in enumerate(zip(tokens, lexicon.token_classes(tokens))):
        if "sentence_end" in word:
            sentence += 1
            seen_person = seen_we = False
        if "third_person" in word or "value" in word:
            blocked.add(sentence)
        if tok == "there" and k + 1 < len(tokens) and tokens[k + 1] in ("is", "are", "was"):
            # "there are 3 of each item": a fact about the items, not an offer.
            blocked.add(sentence)
        if "we" in word:
            seen_we = True
        if word and person(tok, lexicon, subject=False) is not None:
            seen_person = True
        if "opinion" in word or "deal_noun" in word:
            seen_person = False
        sentence_of.append(sentence)
        person_at.append(seen_person)
        we_at.append(seen_we)
    return blocked, sentence_of, person_at, we_at


def _rest_follows(
    tokens: Sequence[str], mentions: Sequence[Mention], lexicon: SplitLexicon
) -> int | None:
    """The side of "the rest" that follows an elliptic list, if it is its first claim."""
    # elliptic-before-rest: a list before "the rest" given to one side, with no claim
    # between them, is the other side's share ("the book and one ball u take rest"),
    # unless "the rest" ends that list ("hat and rest for me").
    claimed = [k for k, m in enumerate(mentions) if m.side is not None and m.kind != "bare"]
    following = None
    if claimed and mentions[claimed[0]].kind == "rest":
        k = claimed[0]
        if k == 0 or not conjoined(tokens, mentions[k - 1], mentions[k], lexicon):
            following = mentions[k].side
    return following


def drop_or_sentences(
    tokens: Sequence[str], mentions: Sequence[Mention], lexicon: SplitLexicon
) -> None:
    """A sentence opening with "or" offers an alternative; the earlier offer stands.

    "I can agree to that. Or I could take 2 water ...", "I could give you 1 water.
    Or you get 2 ...": a sentence inside a message that opens with "or" offers an
    alternative to what came before (the message's own offer, or the deal on the table
    it answers); the earlier offer stands. A message that opens with "or" is an offer."""
    if "or" not in tokens:
        return  # most messages: only an "or" makes an alternative
    alternative = False
    start = True
    by_start = {m.start: m for m in mentions}
    for i, tok in enumerate(tokens):
        if lexicon.has("sentence_end", tok):
            start, alternative = True, False
            continue
        if start and tok == "or" and i > 0:
            alternative = True
        start = False
        m = by_start.get(i)
        if m is not None and alternative:
            m.side, m.why = None, ALTERNATIVE
