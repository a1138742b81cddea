"""Each step of the spec: skip rule, price typing, intent decision list, proposed price,
and whole dialogues."""

from __future__ import annotations

import pytest

from actparse import parse_dialogue
from actparse.corpora.craigslist.lexicon import PriceLexicon
from actparse.corpora.craigslist.parser import (
    INTENT_RULES,
    CraigslistParser,
    DialogueState,
    MessageView,
    proposed_price,
    type_price,
)
from actparse.models import SKIPPED, Dialogue, Listing, Party, PriceMention, Turn

LISTING = Listing(title="Road bike", description="Good tires", price=400.0)
PARTIES = (Party("buyer", LISTING, 300.0), Party("seller", LISTING, 400.0))
LEXICON = PriceLexicon(left=frozenset({"do", "for", "<s>"}), right=frozenset({"?", "</s>", "."}))
PARSER = CraigslistParser(lexicon=LEXICON)
# Forty words: pads a message past the 40-token skip rule.
LONG = " and" + " it rides really well on hills and flat roads alike" * 4


def dialogue(*messages: tuple[int, str], extra: tuple[Turn, ...] = ()) -> Dialogue:
    turns = tuple(Turn(i, a, "message", t) for i, (a, t) in enumerate(messages))
    turns += tuple(
        Turn(len(turns) + i, t.agent, t.action, t.text, t.offer_price) for i, t in enumerate(extra)
    )
    return Dialogue(turns=turns, parties=PARTIES, corpus="craigslist")


def view(
    *tags: str, time: int = 3, curr: float | None = 100.0, my_act: str | None = None
) -> MessageView:
    return MessageView(tuple(tags), time, curr, my_act)


@pytest.mark.parametrize(
    ("message", "intent"),
    [
        pytest.param(view(time=0, curr=None), "intro", id="1-intro-first-event-no-price"),
        pytest.param(view("question", time=0, curr=None), "intro", id="1-intro-even-a-question"),
        pytest.param(
            view("price", "has_price", time=0, curr=None), "init-price", id="2-init-at-time-0"
        ),
        pytest.param(
            view("partner_price", "has_price", curr=None), "init-price", id="2-init-no-curr"
        ),
        pytest.param(view("vague-price", "negative"), "vague-price", id="3-vague-price"),
        pytest.param(view("price", "has_price"), "counter-price", id="4-new-price"),
        pytest.param(view("listing_price", "has_price"), "counter-price", id="4-listing-price"),
        pytest.param(view("partner_price", "has_price"), "insist", id="5-repeats-own"),
        pytest.param(view("question"), "inquiry", id="6-question-only"),
        pytest.param(view("question", "greeting"), "unknown", id="6-question-with-more-tags"),
        pytest.param(view("agree"), "agree", id="7-agree-tag"),
        pytest.param(
            view("my_price", "has_price", "question"), "agree", id="7-names-readers-price"
        ),
        pytest.param(view(my_act="inquiry"), "inform", id="8-answer-to-inquiry"),
        pytest.param(view(my_act="agree"), "unknown", id="8-no-tags-after-other-act"),
        pytest.param(view("negative"), "disagree", id="9-negation-only"),
        pytest.param(view("negative", "greeting"), "unknown", id="10-fallback"),
    ],
)
def test_intent_decision_list(message: MessageView, intent: str) -> None:
    assert INTENT_RULES.decide(message) == intent


def test_decision_list_names_are_unique() -> None:
    names = [rule.name for rule in INTENT_RULES]
    assert len(names) == len(set(names)) == 9


def test_type_price_from_the_readers_side() -> None:
    state = DialogueState(prices=[150.0, 350.0])
    # reader 0 (buyer): my_price is 150, partner_price (the writer's) is 350
    assert type_price(400.0, 400.0, state, reader=0) == "listing_price"
    assert type_price(150.0, 400.0, state, reader=0) == "my_price"
    assert type_price(350.0, 400.0, state, reader=0) == "partner_price"
    assert type_price(200.0, 400.0, state, reader=0) == "price"
    assert type_price(150.0, 400.0, state, reader=1) == "partner_price"


def m(value: float, type_: str = "price") -> PriceMention:
    return PriceMention(str(value), value, 0, type_)


@pytest.mark.parametrize(
    ("mentions", "role", "last", "expected"),
    [
        pytest.param([m(300), m(350)], "seller", None, 350, id="seller-best-is-highest"),
        pytest.param([m(300), m(350)], "buyer", None, 300, id="buyer-best-is-lowest"),
        pytest.param([m(380), m(420)], "seller", 400, 380, id="seller-drops-raise-above-last"),
        pytest.param([m(420)], "seller", 400, None, id="seller-no-concession"),
        pytest.param([m(250), m(200)], "buyer", 220, 250, id="buyer-concession-kept"),
        pytest.param([m(220)], "buyer", 220, 220, id="repeat-is-kept"),
        pytest.param([m(400, "listing_price")], "buyer", None, None, id="buyer-never-listing"),
        pytest.param([m(400, "listing_price")], "seller", None, 400, id="seller-may-list"),
        pytest.param([], "buyer", None, None, id="no-prices"),
    ],
)
def test_proposed_price(
    mentions: list[PriceMention], role: str, last: float | None, expected: float | None
) -> None:
    assert proposed_price(mentions, role, last) == expected


def test_skip_rule_short_dialogue() -> None:
    acts = PARSER.parse(dialogue((0, "hi"), (1, "hello"), (0, "$100?"), (1, "ok")))
    assert all(a.intent is None and a.note == SKIPPED for a in acts)


def test_skip_rule_needs_two_messages_each() -> None:
    long = "word " * 50
    acts = PARSER.parse(dialogue((0, long), (0, long), (1, long)))
    assert all(a.note == SKIPPED for a in acts)
    acts = PARSER.parse(dialogue((0, long), (1, "ok"), (0, "fine"), (1, "sure")))
    assert acts[0].note != SKIPPED  # one agent past 40 tokens is enough


def test_whole_dialogue_state() -> None:
    d = dialogue(
        (0, "hi, is the bike available?" + LONG),
        (1, "yes it is" + LONG),
        (0, "would you do $300?"),
        (1, "i can do 380."),
        (0, "do 300?"),
        (1, "is it for you?"),
        (0, "yes"),
        (1, "no"),
        (0, "i can do 380."),
        extra=(Turn(0, 0, "offer", offer_price=380.0), Turn(0, 1, "accept")),
    )
    acts = PARSER.parse(d)
    got = [(a.intent, a.price) for a in acts]
    assert got == [
        ("intro", None),
        ("unknown", None),  # greeting-free statement, no inquiry before
        ("init-price", 300.0),
        ("counter-price", 380.0),
        ("insist", 300.0),  # the writer repeats its own last price
        ("inquiry", None),
        ("inform", None),  # answers the reader's inquiry
        ("disagree", None),
        ("agree", 380.0),  # names the reader's own price
        ("offer", 380.0),
        ("accept", None),
    ]


def test_unknown_actions_get_no_act_but_count_as_events() -> None:
    d = dialogue(
        (0, "hello there" + LONG),
        (1, "hi" + LONG),
        (0, "fine"),
        (1, "ok"),
        extra=(Turn(0, 0, None),),
    )
    acts = PARSER.parse(d)
    assert acts[-1].intent is None and acts[-1].note


def test_parse_dialogue_accepts_raw_records(fixtures) -> None:  # type: ignore[no-untyped-def]
    import json

    record = json.loads((fixtures / "craigslist_validation_20.jsonl").read_text().splitlines()[0])
    acts = parse_dialogue(record)
    assert len(acts) == len(record["utterance"])
    assert [a.intent for a in acts] == record["dialogue_acts"]["intent"]


# Regressions, keyed by the issue that found them.
REGRESSIONS = {
    2: [
        # HF offers were stored as float32; the restored price must equal the same price
        # typed in a later message, or the typing (my_price/partner_price) goes wrong.
        ("offer-price-float32", 149.99000549316406, 149.99),
    ],
}


@pytest.mark.parametrize(
    ("name", "stored", "restored"),
    [
        pytest.param(*case, id=f"issue{n}-{case[0]}")
        for n, cases in REGRESSIONS.items()
        for case in cases
    ],
)
def test_regressions(name: str, stored: float, restored: float) -> None:
    from actparse.corpora.craigslist.hf import shortest_float32

    assert shortest_float32(stored) == restored
