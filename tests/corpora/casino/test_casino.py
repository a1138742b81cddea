"""CaSiNo: reading the original JSON, the tag rules, the parser with its running deal, and
the evaluation (final split, acts by strategy label, need statements)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from corpus_fixtures import CorpusFixtures

from actparse.corpora.casino import (
    ACT_TARGETS,
    CORPUS,
    INTENT_RULES,
    NEED_STRATEGIES,
    CasinoParser,
    dialogue_from_casino,
    evaluate_casino,
    final_deal,
)
from actparse.engine.acts import load_act_space
from actparse.engine.pipeline import pipeline
from actparse.io.records import InputError, read_records
from actparse.models import Dialogue
from actparse.reports import Report

PARSER = pipeline(CORPUS, CasinoParser())  # its acts with their coarse acts
FIXTURE = "casino_20.json"


def _raw(fixtures: CorpusFixtures) -> list[dict[str, Any]]:
    return [record.raw for record in read_records(fixtures / FIXTURE)]


def _by_id(fixtures: CorpusFixtures, ident: int) -> Dialogue:
    return dialogue_from_casino(next(r for r in _raw(fixtures) if r["dialogue_id"] == ident))


def chat(*messages: tuple[int, str], deal: tuple[list[int], list[int]] | None = None) -> Dialogue:
    """A dialogue of messages by agent (0 or 1), then, with ``deal`` (the submitter's
    and the partner's counts), agent 0 submits it and agent 1 accepts."""
    logs: list[dict[str, Any]] = [
        {"text": text, "task_data": {}, "id": f"mturk_agent_{agent + 1}"}
        for agent, text in messages
    ]
    if deal is not None:
        you, they = (dict(zip(("Food", "Water", "Firewood"), map(str, c))) for c in deal)
        logs.append(
            {
                "text": "Submit-Deal",
                "task_data": {"issue2youget": you, "issue2theyget": they},
                "id": "mturk_agent_1",
            }
        )
        logs.append(
            {"text": "Accept-Deal", "task_data": {"data": "accept_deal"}, "id": "mturk_agent_2"}
        )
    return dialogue_from_casino({"dialogue_id": 0, "chat_logs": logs})


# --------------------------------------------------------------------------------------
# Rules (every example and counterexample of rules/casino/tags.yaml runs in
# test_rule_files.py)
# --------------------------------------------------------------------------------------


def test_decision_list_names_are_unique_and_intents_mapped() -> None:
    names = [rule.name for rule in INTENT_RULES.rules]
    assert len(names) == len(set(names))
    # A question about needs is an inquiry before any split rule can call it a proposal;
    # terms come before needs, needs before small talk.
    split_rules = ["repeats-own-split", "restates-partner-split", "new-split"]
    start = names.index(split_rules[0])
    assert names.index("asks-preferences") < start
    assert names[start : start + 3] == split_rules
    assert start < names.index("states-needs") < names.index("small-talk")
    intents = set(INTENT_RULES.intents)
    intents |= {"submit-deal", "accept-deal", "reject-deal", "walk-away"}
    assert intents == load_act_space().native("casino")


# --------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------


def test_records_and_deal_actions(fixtures: CorpusFixtures) -> None:
    records = list(read_records(fixtures / FIXTURE))
    assert [r.line for r in records] == list(range(1, 21))
    assert {r.format for r in records} == {"casino"}
    d = records[0].dialogue()
    assert d.id == "938" and d.corpus == "casino"
    assert [t.action for t in d.turns][-2:] == ["submit-deal", "accept-deal"]
    submit = d.turns[-2]
    assert submit.agent == 1
    assert submit.data == {"issue2youget": [0, 3, 1], "issue2theyget": [3, 0, 2]}
    # mturk_agent_1 ranks firewood high (5), food medium (4), water low (3)
    assert [(i.name, i.count, i.value) for i in d.parties[0].items] == [
        ("food", 3, 4.0),
        ("water", 3, 3.0),
        ("firewood", 3, 5.0),
    ]
    deal = final_deal(d)
    assert deal is not None and deal[1].counts == ((3, 0, 2), (0, 3, 1))


def test_rejected_then_accepted_and_walk_away(fixtures: CorpusFixtures) -> None:
    resubmitted = _by_id(fixtures, 719)
    deal = final_deal(resubmitted)
    assert deal is not None and deal[0].index == len(resubmitted.turns) - 2
    assert final_deal(_by_id(fixtures, 681)) is None  # ends with a walk-away
    assert _by_id(fixtures, 681).turns[-1].action == "walk-away"


def test_annotations_follow_their_messages(fixtures: CorpusFixtures) -> None:
    d = _by_id(fixtures, 607)
    labelled = [t for t in d.turns if t.labels]
    assert labelled and all(t.is_message for t in labelled)
    assert [t.labels for t in d.turns[:3]] == [
        ("self-need",),
        ("no-need",),
        ("promote-coordination",),
    ]
    # A message without annotation (the corpus has a few): the labels after it still
    # land on the message with the same text.
    raw = next(r for r in _raw(fixtures) if r["dialogue_id"] == 107)
    skipped = raw["chat_logs"][4]["text"]
    raw = {**raw, "annotations": [a for a in raw["annotations"] if a[0] != skipped]}
    labels = {t.text[:30]: t.labels for t in dialogue_from_casino(raw).turns}
    assert labels["I would do that but our meat s"] == ("self-need",)
    assert labels[skipped[:30]] == ()
    assert labels["Okay that works for me as well"] == ("non-strategic",)
    assert labels["No I cannot do that unfortunat"] == ("self-need", "other-need")


@pytest.mark.parametrize(
    ("raw", "error", "message"),
    [
        pytest.param({"dialogue_id": 1}, InputError, "chat_logs", id="missing-chat-logs"),
        pytest.param(
            {"chat_logs": [{"text": "hi", "task_data": {}, "id": "agent_3"}]},
            InputError,
            "must be one of",
            id="bad-agent",
        ),
        pytest.param(
            {
                "chat_logs": [
                    {
                        "text": "Submit-Deal",
                        "task_data": {"issue2youget": {"Food": "x"}, "issue2theyget": {}},
                        "id": "mturk_agent_1",
                    }
                ]
            },
            InputError,
            "food must be a whole number",
            id="bad-counts",
        ),
    ],
)
def test_malformed_records_say_what_is_wrong(
    raw: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        dialogue_from_casino(raw)


# --------------------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------------------


def test_one_act_per_turn_with_coarse_acts(fixtures: CorpusFixtures) -> None:
    space = load_act_space()
    for raw in _raw(fixtures):
        d = dialogue_from_casino(raw)
        acts = PARSER.parse(d)
        assert [a.turn for a in acts] == [t.index for t in d.turns]
        for turn, act in zip(d.turns, acts):
            assert act.coarse == space.coarse("casino", act.intent)
            if not turn.is_message:
                assert act.intent == turn.action
            json.dumps(act.to_dict())
    coarse = {a.intent: a.coarse for a in PARSER.parse(_by_id(fixtures, 719))}
    assert coarse["submit-deal"] == "offer" and coarse["reject-deal"] == "reject"
    assert coarse["accept-deal"] == "accept"


def test_the_running_deal_fills_what_an_offer_leaves_open() -> None:
    d = chat(
        (0, "Hello! What do you need the most?"),
        (1, "I really need water, it is hot where I camp."),
        (0, "How about I take 2 firewood and 3 food, you get 3 water and 1 firewood?"),
        (1, "Could I have 2 firewood instead?"),
        (0, "I can give you 2 firewood if I keep all the food."),
        (1, "Deal!"),
        deal=([3, 0, 1], [0, 3, 2]),
    )
    got = [(a.intent, a.split.counts if a.split else None) for a in PARSER.parse(d)]
    offer = ((3, 0, 2), (0, 3, 1))
    counter = ((3, 0, 1), (0, 3, 2))
    assert got == [
        ("inquire", None),
        ("inform", None),
        ("propose", offer),
        # names firewood only: food and water stay as on the table
        ("propose", counter),
        ("agree", counter),  # restates the reader's split
        ("agree", None),
        ("submit-deal", counter),
        ("accept-deal", None),
    ]
    summary = evaluate_casino([d]).summary()
    assert summary["agreed_dialogues"] == 1 and summary["final_split_accuracy"] == 1.0


def test_a_refusal_puts_the_deal_before_the_refused_request_back() -> None:
    # restores-refused-deal: "one more water?" - "nope": the offer before it stands.
    d = chat(
        (0, "I will give you 3 firewood and I will take 3 water and 3 food."),
        (1, "This does not work for me, at least give me one more water package"),
        (0, "Nope, take it or leave it."),
        (1, "Okay then deal!"),
        deal=([3, 3, 0], [0, 0, 3]),
    )
    got = [(a.intent, a.split.counts if a.split else None) for a in PARSER.parse(d)]
    offer = ((3, 3, 0), (0, 0, 3))
    assert got[:3] == [
        ("propose", offer),
        ("propose", ((3, 2, 0), (0, 1, 3))),
        ("disagree", offer),
    ]
    assert evaluate_casino([d]).summary()["final_split_accuracy"] == 1.0


@pytest.mark.parametrize(
    ("reply", "refuses"),
    [
        pytest.param("Nope, take it or leave it.", True, id="refusal"),
        pytest.param("Sorry, that is unfair", True, id="sorry-unfair"),
        pytest.param("No problem.", False, id="no-problem-is-no-refusal"),
        pytest.param("no worries", False, id="no-worries-is-no-refusal"),
        pytest.param("Sorry. Okay I accept the deal.", False, id="sorry-then-accept"),
    ],
)
def test_refusals_after_a_proposal(reply: str, refuses: bool) -> None:
    offer = "How about I get 2 water, 1 firewood, and 2 food?"
    acts = PARSER.parse(chat((0, offer), (1, reply)))
    assert (acts[1].intent == "disagree") == refuses
    # With no deal before the offer, a refusal puts nothing back on the table.
    assert acts[1].split is None


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        pytest.param("What do you need the most?", "inquire", id="elicit-most"),
        pytest.param("Which item is most important to you?", "inquire", id="elicit-which"),
        pytest.param("I need water the most, how about you?", "inquire", id="needs-asked-back"),
        pytest.param("I'm doing well, how about you?", "greet", id="wellbeing-asked-back"),
        pytest.param("Hello, how are you?", "greet", id="how-are-you"),
        pytest.param("Have a great weekend!", "greet", id="closing-wish"),
        pytest.param("Awesome! Enjoy your trip", "greet", id="assent-then-closing"),
        pytest.param("I am so excited for this trip!", "greet", id="trip-talk"),
        pytest.param("Where are you going camping?", "greet", id="question-about-the-trip"),
        pytest.param("What do you need most for your trip?", "inquire", id="needs-for-the-trip"),
        pytest.param("Are you going to be needing a lot of water?", "inquire", id="elicit-needing"),
        pytest.param("I love camping, but it gets so cold at night", "inform", id="need-wins"),
        pytest.param("There are six of us, so we go through a lot", "inform", id="group-size"),
        pytest.param("I need a lot of water to survive", "inform", id="self-need"),
        pytest.param("My kids need extra food", "inform", id="other-need"),
        pytest.param("We brought plenty of water", "inform", id="no-need"),
        pytest.param("How about you take 2 water and I take the rest?", "propose", id="offer"),
        pytest.param("Hello there!", "greet", id="greet"),
        pytest.param("Sounds good to me", "agree", id="agree"),
    ],
)
def test_message_intents(text: str, intent: str) -> None:
    (act,) = PARSER.parse(chat((0, text)))
    assert act.intent == intent


@pytest.mark.parametrize(
    ("reply", "intent"),
    [
        pytest.param("I agree. Have a nice trip!", "agree", id="consent-then-closing"),
        pytest.param("Great, have a nice trip!", "greet", id="weak-assent-then-closing"),
        pytest.param("ok", "agree", id="bare-assent"),
        pytest.param("Yes, I am so excited!", "greet", id="weak-assent-then-trip-talk"),
    ],
)
def test_assent_with_terms_on_the_table(reply: str, intent: str) -> None:
    offer = "How about I take 2 water and you take the rest?"
    acts = PARSER.parse(chat((0, offer), (1, reply)))
    assert acts[1].intent == intent


def test_assent_with_nothing_on_the_table_is_small_talk() -> None:
    (act,) = PARSER.parse(chat((0, "Yes, I am so excited for the trip!")))
    assert act.intent == "greet"


# --------------------------------------------------------------------------------------
# Evaluation
# --------------------------------------------------------------------------------------


def test_evaluation_summary(fixtures: CorpusFixtures) -> None:
    report = evaluate_casino(dialogue_from_casino(r) for r in _raw(fixtures))
    summary = report.summary()
    assert summary["dialogues"] == 20
    assert summary["agreed_dialogues"] == 19  # all but the walk-away
    assert 0.0 <= summary["final_split_accuracy"] <= 1.0
    assert summary["annotated_utterances"] > 0
    by_strategy = summary["act_by_strategy"]
    assert "elicit-pref" in by_strategy and "self-need" in by_strategy
    for shares in by_strategy.values():
        assert abs(sum(shares.values()) - 1.0) < 1e-9
    needs = summary["need_statements"]
    assert set(NEED_STRATEGIES) <= set(needs) and needs["most_common"] in ("inform", "propose")
    for family in ACT_TARGETS:
        assert 0.0 <= summary[family] <= 1.0
        assert summary["act_target_utterances"][family] > 0
    json.dumps(summary)
    misses = report.misses()
    assert len(misses) == round(19 * (1 - summary["final_split_accuracy"]))
    for miss in misses[:3]:
        json.dumps(miss.to_dict())
        assert miss.summary.startswith("final split mturk_agent_1 food ")
        (turn,) = miss.turns
        assert turn.reference in miss.summary and turn.ours and turn.reason
        assert turn.ours == "no proposal" or turn.ours in miss.summary
        assert len(miss.context) == len(_by_id(fixtures, int(miss.where)).turns)


def test_evaluation_reads_records_and_is_a_report(
    fixtures: CorpusFixtures, casino_with_a_miss: Path
) -> None:
    # `actparse eval` passes records: the same figures, misses named by file, position
    # and dialogue id.
    report = evaluate_casino(read_records(fixtures / FIXTURE), PARSER)
    assert isinstance(report, Report) and report.headline == "final_split_accuracy"
    assert (
        report.summary()
        == evaluate_casino(dialogue_from_casino(r) for r in _raw(fixtures)).summary()
    )
    missed = evaluate_casino(read_records(casino_with_a_miss), PARSER).misses()
    assert missed
    for miss in missed:
        assert re.fullmatch(r".*casino_20\.json:\d+ \(\d+\)", miss.where), miss.where


# --------------------------------------------------------------------------------------
# The whole corpus (skipped without the shared corpora)
# --------------------------------------------------------------------------------------

#: Floors only go up. Measured on train + valid: final split 0.769 (development part,
#: train 1-600: 0.786; held-out part, train 601-900 + valid: 0.738), elicit-pref
#: inquire 0.846, need statements inform or propose 0.769 (agree 0.056). Round two:
#: final split on train + valid 0.7815 (developed on, train 1-700: 0.794; held out,
#: train 701-900: 0.746, valid: 0.733). Rules that helped only one half of the
#: development part were dropped; the part from dialogue 601 on keeps 0.70. Round
#: three (issue 12): 0.7881 on train + valid (train 1-700: 0.802; held out, train
#: 701-900: 0.746, valid: 0.733). Round four (a-minority-share-keeps-the-table,
#: written-all-counts): 0.7969 (train 1-700: 0.813; held out, train 701-900: 0.751,
#: valid: 0.733). The learned final-split chooser (fitted on train 1-700): 0.8035, from
#: dialogue 601 on 0.760 (the rules alone there: 0.751). With the side of the formal
#: offer weighed (formal_side_favour): 0.8091, from dialogue 601 on 0.763. Round five
#: (extras-after-one-each, a-stated-need-names-no-count, even splits, denied clauses,
#: ...): 0.8245, the rules alone 0.8113 (train 1-700: 0.845; from dialogue 601 on 0.766,
#: the rules alone 0.754; held out, train 701-900: 0.767, valid: 0.733, both unchanged).
FINAL_SPLIT_FLOOR = 0.824
RULES_FINAL_SPLIT_FLOOR = 0.811
HELD_OUT_FINAL_SPLIT_FLOOR = 0.753
ELICIT_PREF_FLOOR = 0.88
#: The acts rules/acts.yaml defines, by what the strategy labels say an utterance does
#: (train + valid: 0.606, 0.894, 0.891 when these floors were set).
SMALL_TALK_GREET_FLOOR = 0.60
NEED_INFORM_FLOOR = 0.88


@pytest.mark.corpus
@pytest.mark.slow
def test_train_and_valid(data_dir: Path) -> None:
    paths = [data_dir / "casino" / name for name in ("casino_train.json", "casino_valid.json")]
    if not all(p.is_file() for p in paths):
        pytest.skip(f"CaSiNo not found under {data_dir / 'casino'}")
    dialogues = [record.dialogue() for path in paths for record in read_records(path)]
    summary = evaluate_casino(dialogues).summary()
    assert summary["agreed_dialogues"] == 906
    assert summary["final_split_accuracy"] >= FINAL_SPLIT_FLOOR, summary
    assert summary["final_split_accuracy_rules_only"] >= RULES_FINAL_SPLIT_FLOOR, summary
    assert summary["elicit_pref_inquire"] >= ELICIT_PREF_FLOOR
    assert summary["small_talk_greet"] >= SMALL_TALK_GREET_FLOOR
    assert summary["need_inform"] >= NEED_INFORM_FLOOR
    needs = summary["need_statements"]
    assert needs["most_common"] in ("inform", "propose")
    for label in NEED_STRATEGIES:
        shares = needs[label]
        assert shares.get("agree", 0.0) < max(shares.get("inform", 0.0), shares.get("propose", 0.0))
    held_out = evaluate_casino(dialogues[600:]).summary()
    assert held_out["final_split_accuracy"] >= HELD_OUT_FINAL_SPLIT_FLOOR
    assert held_out["final_split_accuracy_rules_only"] >= HELD_OUT_FINAL_SPLIT_FLOOR
