"""The strategy tagger (rules/strategies.yaml): every rule's examples, a golden table of
messages written for this test, and the tagger's contract (labels in a fixed order,
``non-strategic`` only alone, nothing for an empty message)."""

from __future__ import annotations

from pathlib import Path

import pytest

from actparse.engine.rulefiles import RuleError
from actparse.engine.strategies import (
    LABELS,
    NON_STRATEGIC,
    PAPER_LABELS,
    StrategyTagger,
    corpus_classes,
    default_tagger,
    load_strategy_rules,
    view,
)
from actparse.engine.tags import Rule, RuleSet, parse_rules

RULES = load_strategy_rules()
TAGGER = default_tagger()


RULE_CASES = [
    pytest.param(rule, text, expected, id=f"{rule.name}:{'+-'[not expected]}{text}")
    for rule in RULES.rules
    for expected, texts in ((True, rule.examples), (False, rule.counterexamples))
    for text in texts
]


def test_every_rule_has_examples_and_a_known_label() -> None:
    for rule in RULES.rules:
        assert rule.examples, rule.name
        assert rule.tag in LABELS and rule.tag != NON_STRATEGIC, rule.name


@pytest.mark.parametrize(("rule", "text", "expected"), RULE_CASES)
def test_rule_examples(rule: Rule, text: str, expected: bool) -> None:
    assert rule.matches((), view(text)) is expected


#: Messages written for this table (not from any corpus), with the labels they get.
GOLDEN = [
    ("how-are-you", "Hey there, how are you doing today?", {"small-talk"}),
    ("closing", "Great doing business, have a wonderful trip!", {"small-talk"}),
    ("bare-greeting-is-not-small-talk", "hi", {NON_STRATEGIC}),
    ("self-need-with-reason", "I need the firewood because my tent is thin", {"self-need"}),
    ("self-situation", "I get thirsty really fast on long walks", {"self-need"}),
    ("other-need", "My kids eat a ton, so food matters", {"other-need"}),
    ("no-need", "We already have plenty of water, so take it", {"no-need"}),
    ("elicit-pref", "What do you need the most?", {"elicit-pref"}),
    ("split-question-is-no-elicit-pref", "How should we split these?", {"promote-coordination"}),
    ("uv-part", "You probably have enough food already", {"uv-part"}),
    ("vouch-fair", "That sounds fair to me", {"vouch-fair"}),
    ("empathy", "Oh no, I am sorry to hear about your stove", {"showing-empathy"}),
    (
        "coordination",
        "I'm happy to trade some water in exchange for wood",
        {"promote-coordination"},
    ),
    ("offer-only", "I take 2 hats and you take the ball", {NON_STRATEGIC}),
    (
        "several-labels",
        "I understand, I'm willing to compromise on the books",
        {"showing-empathy", "promote-coordination"},
    ),
    # The third round's cues (README, "Negotiation strategies").
    ("no-need-good-on", "I'm good on water, so take it", {"no-need"}),
    ("no-need-do-without", "We can do without the books", {"no-need"}),
    ("uv-part-are-you-sure", "Are you sure you need all of the hats?", {"uv-part"}),
    ("vouch-fair-turning-down", "Sorry, that won't work for me.", {"vouch-fair"}),
    ("elicit-pref-how-much", "How much food do you think you need?", {"elicit-pref"}),
    ("empathy-you-are-right", "You're right, I get that.", {"showing-empathy"}),
    ("self-need-emphasised", "I really need the firewood", {"self-need"}),
    ("closing-thanks-for", "Thank you for your patience!", {"small-talk"}),
]
#: Known misses: phrasings the rules do not reach (each a strict xfail, so a rule that
#: starts catching one is noticed).
KNOWN_MISSES = [
    ("uv-part-implied", "Surely a lake that big keeps a camper in water", {"uv-part"}),
    ("empathy-implied", "That must have been a rough night for all of you", {"showing-empathy"}),
    ("self-need-bare", "Water is what matters here", {"self-need"}),
    ("other-need-counted", "My two kids eat a ton, so food matters", {"other-need"}),
    ("elicit-pref-which", "Which package matters most to you?", {"elicit-pref"}),
    ("no-need-circumstance", "Our site has a spring, so water is easy", {"no-need"}),
    ("uv-part-a-question", "You will be near the lake, right?", {"uv-part"}),
]


@pytest.mark.parametrize(
    ("text", "expected"), [pytest.param(t, e, id=name) for name, t, e in GOLDEN]
)
def test_golden(text: str, expected: set[str]) -> None:
    assert set(TAGGER.tag(text)) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(t, e, id=name, marks=pytest.mark.xfail(strict=True, reason="known miss"))
        for name, t, e in KNOWN_MISSES
    ],
)
def test_known_misses(text: str, expected: set[str]) -> None:
    assert set(TAGGER.tag(text)) == expected


def test_labels_come_in_order_and_non_strategic_alone() -> None:
    for text, _ in [(t, e) for _, t, e in GOLDEN]:
        labels = TAGGER.tag(text)
        assert list(labels) == sorted(labels, key=LABELS.index)
        assert NON_STRATEGIC not in labels or labels == (NON_STRATEGIC,)


def test_an_empty_message_has_no_labels() -> None:
    assert TAGGER.tag("") == ()
    assert TAGGER.tag("   ") == ()


def test_typographic_apostrophes_read_as_plain_ones() -> None:
    assert TAGGER.tag("I\u2019m doing great!") == TAGGER.tag("I'm doing great!")


def test_the_paper_labels_are_the_first_seven() -> None:
    assert LABELS[:7] == PAPER_LABELS
    assert "uv-part" in PAPER_LABELS and "showing-empathy" not in PAPER_LABELS


def test_a_rule_file_with_an_unknown_label_is_refused() -> None:
    doc = {"rules": [{"name": "x", "tag": "bluffing", "match": "any-token", "values": ["bluff"]}]}
    with pytest.raises(ValueError, match="bluffing"):
        StrategyTagger(RuleSet(parse_rules(doc, "test.yaml")))


def test_word_classes_fill_in_their_alternation() -> None:
    doc = {
        "classes": {"item": ["hat", "ball"]},
        "rules": [{"name": "x", "tag": "t", "match": "text-search", "values": [r"\bthe {item}\b"]}],
    }
    (rule,) = parse_rules(doc, "test.yaml")
    assert rule.matches((), "give me the ball")
    assert not rule.matches((), "give me the book")
    assert not rule.matches((), "the {item}")


def test_every_corpus_items_reach_every_tagger(tmp_path: Path) -> None:
    """Each corpus names its items in its own folder; the one rule set of every corpus'
    tagger sees them all, first, as it did when the shared file listed them."""
    assert corpus_classes()["item"] == (
        *("food", "foods", "water", "waters", "firewood", "firewoods", "wood", "woods"),
        *("fire wood", "book", "books", "hat", "hats", "ball", "balls"),
    )
    path = tmp_path / "mine.yaml"
    path.write_text(
        "classes:\n  item: [crate, ball]\nrules:\n"
        "  - {name: x, tag: no-need, match: text-search, values: ['\\bno {item}\\b']}\n",
        encoding="utf-8",
    )
    (rule,) = load_strategy_rules(path).rules
    assert rule.matches((), "no water") and rule.matches((), "no crate")
    assert rule.matches((), "no ball") and not rule.matches((), "no tent")


def test_classes_must_be_a_mapping() -> None:
    with pytest.raises(RuleError, match=r"test\.yaml:1: .classes."):
        parse_rules({"classes": ["hat"], "rules": []}, "test.yaml")


def test_the_cache_keeps_short_replies_only() -> None:
    # Keyed by the text itself, 1,024 entries of 1 MB messages held a gigabyte per process.
    tagger = StrategyTagger()
    long = "i need the firewood " * 1000
    assert tagger.tag(long) == tagger.tag(long)
    assert tagger.tag("ok") == (NON_STRATEGIC,)
    assert long not in tagger._cache and "ok" in tagger._cache
    assert sum(map(len, tagger._cache)) < 1000


def test_add_strategies_keeps_every_other_field() -> None:
    # add_strategies replaces the strategies field by position: the fields after it
    # (the deal move) must come through.
    from actparse.engine.strategies import add_strategies
    from actparse.models import Act, DealMove, Dialogue, Party, Turn

    act = Act(0, 0, "agree", deal=DealMove("agree", 3, 3), coarse="agree")
    parties = (Party(), Party())
    dialogue = Dialogue((Turn(0, 0, "message", "ok deal"),), parties, corpus="casino")
    (out,) = add_strategies(dialogue, [act])
    assert out._replace(strategies=()) == act
    assert out.strategies
