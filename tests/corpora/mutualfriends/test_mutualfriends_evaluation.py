"""MutualFriends: evaluation against the outcome, and the shared pieces it is wired
through (registry, writer contract, decision list, report interface)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mutualfriends_support import (
    CARD,
    FORMAT,
    HANDMADE_COCOA,
    HANDMADE_HF,
    PARSER,
    label,
    raw_records,
    read_fixture,
)

from actparse.corpora.mutualfriends import CORPUS
from actparse.corpora.mutualfriends.evaluate import MutualFriendsReport, evaluate_mutualfriends
from actparse.corpora.mutualfriends.parser import (
    INTENT_RULES,
    INTENTS,
    MessageView,
    MutualFriendsParser,
)
from actparse.corpora.mutualfriends.reader import dialogue_from_mutualfriends
from actparse.corpora.mutualfriends.writer import write_mutualfriends
from actparse.io.records import Record, read_records
from actparse.io.writers import write_record
from actparse.models import Dialogue, Party, Turn
from actparse.reports import JSON_KEYS, Report

# ---------------------------------------------------------------------------
# Evaluation against the outcome
# ---------------------------------------------------------------------------


def test_selection_agreement_counts_disagreements() -> None:
    a = {"School": "Salisbury State University"}
    b = {"School": "Fairmont State College"}
    kbs = (Party(kb=(a, b)), Party(kb=(a,)))
    both_a = (Turn(0, 0, "select", data=a), Turn(1, 1, "select", data=a))
    a_then_b = (Turn(0, 0, "select", data=a), Turn(1, 1, "select", data=b))
    dialogues = [
        Dialogue(both_a, kbs, id="agree", corpus="mutualfriends", outcome={"reward": 1}),
        Dialogue(a_then_b, kbs, id="wrong", corpus="mutualfriends", outcome={"reward": 1}),
        Dialogue(a_then_b, kbs, id="none", corpus="mutualfriends", outcome=None),
    ]
    report = evaluate_mutualfriends(dialogues)
    s = report.summary()
    assert (s["scored_dialogues"], s["selection_agreement"]) == (2, 0.5)
    assert s["selections_in_both_lists"] == pytest.approx(4 / 6)
    # Agent 1 selected a friend of agent 0 (the reader) that is not in its own list.
    assert s["selections_in_reader_list"] == 1.0
    (miss,) = report.misses(5)
    assert (miss.where, miss.summary) == (
        "wrong",
        "reward 1, but agent 0 selected Salisbury State University and agent 1 "
        "Fairmont State College",
    )
    assert [(t.turn, t.agent, t.text, t.reference, t.ours) for t in miss.turns] == [
        (
            0,
            0,
            "select Salisbury State University",
            "the same friend as agent 1 (reward 1)",
            "another friend than agent 1's",
        ),
        (
            1,
            1,
            "select Fairmont State College",
            "the same friend as agent 0 (reward 1)",
            "another friend than agent 0's",
        ),
    ]
    # Agent 1's friend is in agent 0's list but not in its own.
    assert miss.turns[1].reason == "the friend is in agent 0's list and not in agent 1's own"
    assert miss.context == (
        "0 agent 0 selects Salisbury State University",
        "1 agent 1 selects Fairmont State College",
    )
    assert report.misses() == report.misses(1)


@pytest.mark.corpus
def test_the_real_transcripts_sample(data_dir: Path) -> None:
    """The 15 real dialogues (the first five of each published split): every dialogue
    scored, and where the outcome says both found the mutual friend, our selections
    agree; every select is a turn of its own with its friend."""
    path = data_dir / "mutualfriends" / "transcripts_sample.json"
    if not path.is_file():
        pytest.skip(f"{path} is not there")
    records = list(read_records(path))
    report = evaluate_mutualfriends(records)
    s = report.summary()
    assert (s["dialogues"], s["scored_dialogues"], s["rewarded_dialogues"]) == (15, 15, 7)
    assert (s["turns"], s["message_turns"], s["select_turns"]) == (102, 77, 25)
    assert s["selection_agreement"] == 1.0
    # A floor: the entities our linker finds in the messages (55 when written).
    assert s["entity_mentions"] >= 55
    for record in records:
        acts = PARSER.parse(record.dialogue())
        selects = [a for a, t in zip(acts, record.dialogue().turns) if t.action == "select"]
        assert all(a.intent == "select" and a.entities for a in selects), record.where


def test_empty_evaluation_is_all_zero() -> None:
    s = evaluate_mutualfriends([]).summary()
    assert s["dialogues"] == 0 and s["selection_agreement"] == 0.0


def test_evaluation_refuses_another_parser() -> None:
    with pytest.raises(TypeError, match="needs a MutualFriendsParser"):
        # The wrong type on purpose: callers holding any parser are refused at run time.
        evaluate_mutualfriends([], parser=object())  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# The shared pieces: registry, writer contract, decision list, report interface
# ---------------------------------------------------------------------------


def test_the_registry_reaches_every_part() -> None:
    from actparse import registry

    corpus = registry.get(CORPUS)
    assert registry.resolve(corpus.parser) is MutualFriendsParser
    assert registry.resolve(corpus.evaluator) is evaluate_mutualfriends
    (fmt,) = corpus.formats
    assert registry.resolve(fmt.reader) is dialogue_from_mutualfriends
    assert registry.resolve(fmt.writer) is write_mutualfriends
    assert corpus.headline == MutualFriendsReport.headline
    for path in (CARD, HANDMADE_HF, HANDMADE_COCOA):
        assert {record.format for record in read_records(path)} == {FORMAT}


def test_write_record_goes_through_the_writer() -> None:
    for path in (CARD, HANDMADE_HF, HANDMADE_COCOA):
        for record in read_fixture(path):
            dialogue = record.dialogue()
            acts = PARSER.parse(dialogue)
            assert write_record(record.raw, record.format, dialogue, acts) == label(record.raw)


def test_the_writer_needs_one_act_per_turn() -> None:
    (raw,) = raw_records(CARD)
    dialogue = dialogue_from_mutualfriends(raw)
    with pytest.raises(ValueError, match="5 acts for a dialogue of 6 turns"):
        write_mutualfriends(raw, dialogue, PARSER.parse(dialogue)[:5])


def test_the_decision_list_gives_the_message_intents() -> None:
    assert set(INTENT_RULES.intents) | {"select"} == set(INTENTS)
    assert INTENT_RULES.decide_with_rule(MessageView(frozenset(), 0, 0)) == ("unknown", "no-rule")
    view = MessageView(frozenset({"greeting", "negative"}), 2, 2)
    assert INTENT_RULES.decide_with_rule(view) == ("negative", "negated-values")


def test_the_report_is_a_report_and_names_records_by_file_and_line() -> None:
    records = read_fixture(HANDMADE_HF)
    # Dialogue two is rewarded 0; claim 1 to make it a miss.
    bad = Record({**records[1].raw, "outcome_reward": 1}, FORMAT, "mf.jsonl", 7)
    report = evaluate_mutualfriends([records[0], bad])
    assert isinstance(report, Report)
    assert report.headline_value() == 0.5
    out = report.to_json()
    assert tuple(out) == JSON_KEYS
    assert (out["corpus"], out["dialogues"]) == (CORPUS, 2)
    assert out["headline"] == {"figure": "selection_agreement", "value": 0.5}
    (miss,) = out["misses"]
    assert miss["where"] == "mf.jsonl:7 (handmade-hf-2)"
    assert miss["summary"].startswith("reward 1, but agent 0 selected ")
    assert [t["agent"] for t in miss["turns"]] == [0, 1]
    json.dumps(out)
