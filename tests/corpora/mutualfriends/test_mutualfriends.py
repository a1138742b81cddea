"""MutualFriends end to end: the rule file, and reading, labelling and evaluating the
dataset card's example (fixtures/mutualfriends_card_sample.jsonl) and hand-made
dialogues in both layouts.

Linking and intents on small scenarios are in test_mutualfriends_linking.py, the
evaluation against the outcome in test_mutualfriends_evaluation.py, reading files and
malformed records in test_mutualfriends_reader.py; every rule of
rules/mutualfriends/tags.yaml runs its examples and counterexamples in
tests/engine/test_rule_files.py.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from mutualfriends_support import (
    CARD,
    HANDMADE_COCOA,
    HANDMADE_HF,
    PARSER,
    label,
    raw_records,
    read_fixture,
)

from actparse.corpora.mutualfriends.evaluate import evaluate_mutualfriends
from actparse.corpora.mutualfriends.parser import (
    INTENT_RULES,
    RULES_FILE,
    MessageView,
    MutualFriendsParser,
    load_mutualfriends_rules,
)
from actparse.corpora.mutualfriends.reader import Friend, dialogue_from_mutualfriends
from actparse.engine.rulefiles import RuleError, shipped
from actparse.engine.tags import load_rules
from actparse.models import EntityMention


def _entities(entities: list[dict[str, str]]) -> list[tuple[str, str, str]]:
    return [(e["surface"], e["value"], e["type"]) for e in entities]


def _summary_of_acts(acts: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(a["intent"], a["coarse"], _entities(a["entities"])) for a in acts]


# ---------------------------------------------------------------------------
# The rule file
# ---------------------------------------------------------------------------

RULES = load_mutualfriends_rules()


def test_rule_file_is_shipped_and_defines_every_tag() -> None:
    assert shipped(*RULES_FILE).is_file()
    assert set(RULES.by_tag) == {
        "question",
        "greeting",
        "negative",
        "smalltalk",
        "contrast",
        "reply",
        "pronoun",
        "connector",
        "generic",
        "stop",
    }
    # YAML 1.1 reads bare no/on/yes as booleans; the loader would reject them, but make
    # sure every word survived as the word.
    for rule in RULES.rules:
        assert all(isinstance(v, str) for v in rule.values), rule.name
    assert {"no", "on", "yes", "off"} <= set(RULES["function-word"].values)


def test_a_rule_file_without_a_needed_tag_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "mf.yaml"
    path.write_text(
        "rules:\n  - name: q\n    tag: question\n    match: last-token\n    values: ['?']\n"
    )
    with pytest.raises(RuleError, match=r"mf\.yaml: no rule sets the tag\(s\) \['greeting'"):
        MutualFriendsParser(load_rules(path), source=str(path))


# ---------------------------------------------------------------------------
# The dataset card's example
# ---------------------------------------------------------------------------

MOLYCORP = ("Molycorp", "Molycorp", "company")
MUTUAL = {
    "School": "Salisbury State University",
    "Company": "Molycorp",
    "Location Preference": "indoor",
}


def test_card_sample_every_turn_labelled() -> None:
    (raw,) = raw_records(CARD)
    labelled = label(raw)
    acts = labelled["acts"]
    assert _summary_of_acts(acts) == [
        ("greet", "greet", []),
        ("inquire", "inquire", [MOLYCORP]),
        ("inform", "inform", [("indoors", "indoor", "loc_pref")]),
        (
            "inform",
            "inform",
            [
                MOLYCORP,
                ("Salisbury", "Salisbury State University", "school"),
                ("Sacred Heart", "Sacred Heart University", "school"),
            ],
        ),
        ("select", "offer", []),
        ("select", "offer", []),
    ]
    for select in acts[4:]:
        assert select["friend"] == MUTUAL
        assert select["in_own_list"] is True
    assert "friend" not in acts[0]


def test_card_sample_output_keeps_every_field_and_is_json() -> None:
    (raw,) = raw_records(CARD)
    before = copy.deepcopy(raw)
    labelled = label(raw)
    assert raw == before  # the input is not modified
    assert set(labelled) == set(raw) | {"acts"}
    assert all(labelled[k] == raw[k] for k in raw)
    assert len(labelled["acts"]) == len(raw["events"]["actions"])
    json.dumps(labelled)


def test_card_sample_acts_and_offsets() -> None:
    (raw,) = raw_records(CARD)
    dialogue = dialogue_from_mutualfriends(raw)
    pairs = PARSER.parse_with_entities(dialogue)
    acts = [act for act, _ in pairs]
    assert PARSER.coarse_acts(acts) == PARSER.parse(dialogue)
    assert [a.tags for a in acts[:4]] == [(), ("company",), ("loc_pref",), ("company", "school")]
    assert [(a.turn, a.agent) for a in acts] == [(0, 1), (1, 1), (2, 0), (3, 0), (4, 1), (5, 0)]
    text = dialogue.turns[3].text
    for mention in pairs[3][1]:
        assert text[mention.start : mention.end] == mention.surface
    assert pairs[3][1][2] == EntityMention(
        "Sacred Heart", "Sacred Heart University", "school", 68, 80
    )


def test_card_sample_reader() -> None:
    (raw,) = raw_records(CARD)
    dialogue = dialogue_from_mutualfriends(raw)
    assert dialogue.corpus == "mutualfriends"
    assert dialogue.id == "C_423324a5fff045d78bef75a6f295a3f4"
    assert dialogue.outcome == {"reward": 1}
    assert [len(p.kb) for p in dialogue.parties] == [9, 9]
    assert [t.action for t in dialogue.turns] == ["message"] * 4 + ["select"] * 2
    assert dialogue.turns[4].data == MUTUAL
    friend = dialogue.parties[0].kb[0]
    assert isinstance(friend, Friend)
    assert friend.type_of("Location Preference") == "loc_pref"


def test_card_sample_evaluation() -> None:
    report = evaluate_mutualfriends(read_fixture(CARD))
    s = report.summary()
    assert s["dialogues"] == 1
    assert s["entity_mentions"] == 5
    assert s["mentions_per_dialogue"] == 5.0
    assert s["mentions_by_type"] == {"company": 2, "loc_pref": 1, "school": 2}
    assert s["selections_in_both_lists"] == 1.0
    assert s["selection_agreement"] == 1.0
    assert report.misses(5) == []
    json.dumps(s)


# ---------------------------------------------------------------------------
# Hand-made dialogues, HuggingFace layout
# ---------------------------------------------------------------------------

PRIYA = {
    "Name": "Priya Nair",
    "School": "Kenyon College",
    "Hobby": "Pottery",
    "Time Preference": "evening",
}
LENA = {
    "Name": "Lena Fischer",
    "School": "Colgate University",
    "Hobby": "Archery",
    "Time Preference": "afternoon",
}


def test_handmade_hf_dialogue_one() -> None:
    raw = raw_records(HANDMADE_HF)[0]
    acts = label(raw)["acts"]
    assert _summary_of_acts(acts) == [
        # "morning" is a time preference, but inside "Good morning" it is a greeting.
        ("inform", "inform", [("Kenyon", "Kenyon College", "school")]),
        # The question starts after the greeting.
        ("inquire", "inquire", [("pottery", "Pottery", "hobby")]),
        (
            "inform",
            "inform",
            [("Priya Nair", "Priya Nair", "person"), ("evenings", "evening", "time_pref")],
        ),
        # A typo of a long name, under a negation.
        ("negative", "disagree", [("Bucknel", "Bucknell University", "school")]),
        ("select", "offer", []),
        ("negative", "disagree", [("Lena", "Lena Fischer", "person")]),
        ("select", "offer", []),
        ("select", "offer", []),
    ]
    # Agent 1 selects a friend that agent 0 (the reader) does not have.
    assert (acts[4]["friend"], acts[4]["in_own_list"]) == (LENA, False)
    assert (acts[6]["friend"], acts[6]["in_own_list"]) == (PRIYA, True)
    assert (acts[7]["friend"], acts[7]["in_own_list"]) == (PRIYA, True)


def test_handmade_hf_dialogue_two() -> None:
    raw = raw_records(HANDMADE_HF)[1]
    acts = label(raw)["acts"]
    brightwave = ("Brightwave", "Brightwave Robotics", "company")
    assert _summary_of_acts(acts) == [
        ("inquire", "inquire", [brightwave]),
        # "Fairmont" is ambiguous between the lists; each writer means its own.
        (
            "inform",
            "inform",
            [
                brightwave,
                ("Fairmont", "Fairmont State University", "school"),
                ("indoors", "indoor", "loc_pref"),
            ],
        ),
        (
            "inform",
            "inform",
            [
                ("Fairmont", "Fairmont State College", "school"),
                ("outdoors", "outdoor", "loc_pref"),
            ],
        ),
        ("inquire", "inquire", [("Hollis and Ward", "Hollis & Ward", "company")]),
        ("negative", "disagree", []),
        ("unknown", "unknown", []),
        ("select", "offer", []),
        ("select", "offer", []),
    ]
    assert acts[6]["in_own_list"] is False
    assert acts[7]["in_own_list"] is True


def test_handmade_hf_evaluation() -> None:
    report = evaluate_mutualfriends(read_fixture(HANDMADE_HF))
    s = report.summary()
    assert (s["dialogues"], s["turns"], s["message_turns"], s["select_turns"]) == (2, 16, 11, 5)
    assert s["entity_mentions"] == 13
    assert s["mentions_per_dialogue"] == 6.5
    # Lena, Priya, Priya, Brightwave (agent 1's), Kestrel: Priya twice and Kestrel.
    assert s["selections_in_both_lists"] == pytest.approx(3 / 5)
    # Dialogue one ends on the same friend (reward 1), dialogue two does not (reward 0).
    assert (s["scored_dialogues"], s["rewarded_dialogues"], s["selection_agreement"]) == (
        2,
        1,
        1.0,
    )
    assert s["intents"]["select"] == 5
    assert s["coarse"]["offer"] == 5


# ---------------------------------------------------------------------------
# Hand-made dialogues, Cocoa layout
# ---------------------------------------------------------------------------


def test_handmade_cocoa_labels_go_into_event_metadata() -> None:
    raws = raw_records(HANDMADE_COCOA)
    before = copy.deepcopy(raws)
    first, second = (label(raw) for raw in raws)
    assert raws == before
    for raw, out in ((raws[0], first), (raws[1], second)):
        assert set(out) == set(raw)
        assert [{k: v for k, v in e.items() if k != "metadata"} for e in out["events"]] == raw[
            "events"
        ]
    meta = [e["metadata"] for e in first["events"]]
    assert _summary_of_acts(meta) == [
        ("greet", "greet", []),
        ("inquire", "inquire", [("philosphy", "Philosophy", "major")]),
        (
            "inform",
            "inform",
            [("Victor", "Victor Hale", "person"), ("Pinecrest", "Pinecrest Bank", "company")],
        ),
        ("select", "offer", []),
        ("select", "offer", []),
    ]
    victor = {"Name": "Victor Hale", "Company": "Pinecrest Bank", "Major": "Philosophy"}
    assert meta[3]["friend"] == victor and meta[3]["in_own_list"] is True
    meta = [e["metadata"] for e in second["events"]]
    assert _summary_of_acts(meta) == [
        (
            "inform",
            "inform",
            [
                ("outdoors", "outdoor", "loc_pref"),
                ("AIT", "Ashbury Institute of Technology", "school"),
            ],
        ),
        (
            "inform",
            "inform",
            [
                ("Ashbury", "Ashbury Institute of Technology", "school"),
                ("outdoor", "outdoor", "loc_pref"),
            ],
        ),
        ("select", "offer", []),
    ]
    # Agent 0's Ashbury friend prefers indoors: not the friend agent 1 selected.
    assert meta[2]["in_own_list"] is False
    json.dumps(first)


def test_handmade_cocoa_reader_and_evaluation() -> None:
    raws = raw_records(HANDMADE_COCOA)
    dialogue = dialogue_from_mutualfriends(raws[0])
    assert dialogue.outcome == {"reward": 1}
    assert dialogue.parties[1].kb[1].type_of("Major") == "major"  # type: ignore[attr-defined]
    s = evaluate_mutualfriends(dialogue_from_mutualfriends(r) for r in raws).summary()
    assert (s["dialogues"], s["select_turns"], s["selections_in_both_lists"]) == (2, 3, 2 / 3)
    # Dialogue two: reward 0 and only one agent selected.
    assert s["selection_agreement"] == 1.0


def test_both_layouts_give_the_same_acts() -> None:
    # The card's example rewritten as a Cocoa transcript parses the same way.
    (hf,) = raw_records(CARD)
    names = hf["scenario_attributes"]["name"]
    kinds = hf["scenario_attributes"]["value_type"]
    events = hf["events"]
    cocoa = {
        "uuid": hf["uuid"],
        "scenario": {
            "attributes": [{"name": n, "value_type": k} for n, k in zip(names, kinds)],
            "kbs": [[dict(zip(*friend)) for friend in kb] for kb in hf["scenario_kbs"]],
        },
        "outcome": {"reward": hf["outcome_reward"]},
        "events": [
            {
                "action": action,
                "agent": agent,
                "data": text
                if action == "message"
                else dict(zip(events["data_selects"]["attributes"][i], selected)),
            }
            for i, (action, agent, text, selected) in enumerate(
                zip(
                    events["actions"],
                    events["agents"],
                    events["data_messages"],
                    events["data_selects"]["values"],
                )
            )
        ],
    }
    ours = [e["metadata"] for e in label(cocoa)["events"]]
    assert ours == label(hf)["acts"]


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        pytest.param("Hi, how are you?", "greet", id="how-are-you"),
        pytest.param("I'm good, thanks! bye", "greet", id="thanks-bye"),
        pytest.param("How are you? Who do you have?", "inquire", id="then-a-real-question"),
        pytest.param("how are you related to them?", "inquire", id="not-small-talk"),
    ],
)
def test_small_talk_is_greet(text: str, intent: str) -> None:
    """Small talk is ``greet`` in every corpus: a small-talk sentence asks nothing."""
    view = MessageView(PARSER.tags(text), 0, 0)
    assert INTENT_RULES.decide(view) == intent
