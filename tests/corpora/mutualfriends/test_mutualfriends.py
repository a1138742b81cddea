"""MutualFriends: readers, entity linking, acts, labelling and evaluation.

Golden tests on the dataset card's example (tests/fixtures/mutualfriends_card_sample.jsonl)
and on hand-made dialogues in both layouts; every rule of rules/mutualfriends.yaml runs
its examples and counterexamples.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from actparse.acts import load_act_space
from actparse.models import Dialogue, Party, Turn
from actparse.mutualfriends import (
    INTENTS,
    EntityMention,
    Friend,
    MutualFriendsParser,
    default_parser,
    dialogue_from_mutualfriends,
    evaluate_mutualfriends,
    iter_records,
    label_mutualfriends,
    load_mutualfriends_rules,
)
from actparse.readers import InputError
from actparse.rules import RuleError, load_rules, rules_dir

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CARD = FIXTURES / "mutualfriends_card_sample.jsonl"
HANDMADE_HF = FIXTURES / "mutualfriends_handmade.jsonl"
HANDMADE_COCOA = FIXTURES / "mutualfriends_handmade_cocoa.json"
SPACE = load_act_space()


def _records(path: Path) -> list[dict[str, Any]]:
    return [raw for _, raw in iter_records(path)]


def _entities(entities: list[dict[str, str]]) -> list[tuple[str, str, str]]:
    return [(e["surface"], e["value"], e["type"]) for e in entities]


def _summary_of_acts(acts: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(a["intent"], a["coarse"], _entities(a["entities"])) for a in acts]


# ---------------------------------------------------------------------------
# The rule file
# ---------------------------------------------------------------------------

RULES = load_mutualfriends_rules()


def test_rule_file_is_shipped_and_defines_every_tag() -> None:
    assert rules_dir().joinpath("mutualfriends.yaml").is_file()
    assert set(RULES.by_tag) == {
        "question",
        "greeting",
        "negative",
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
    (raw,) = _records(CARD)
    labelled = label_mutualfriends(raw)
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
    (raw,) = _records(CARD)
    before = copy.deepcopy(raw)
    labelled = label_mutualfriends(raw)
    assert raw == before  # the input is not modified
    assert set(labelled) == set(raw) | {"acts"}
    assert all(labelled[k] == raw[k] for k in raw)
    assert len(labelled["acts"]) == len(raw["events"]["actions"])
    json.dumps(labelled)


def test_card_sample_acts_and_offsets() -> None:
    (raw,) = _records(CARD)
    dialogue = dialogue_from_mutualfriends(raw)
    pairs = default_parser().parse_with_entities(dialogue)
    acts = [act for act, _ in pairs]
    assert acts == default_parser().parse(dialogue)
    assert [a.tags for a in acts[:4]] == [(), ("company",), ("loc_pref",), ("company", "school")]
    assert [(a.turn, a.agent) for a in acts] == [(0, 1), (1, 1), (2, 0), (3, 0), (4, 1), (5, 0)]
    text = dialogue.turns[3].text
    for mention in pairs[3][1]:
        assert text[mention.start : mention.end] == mention.surface
    assert pairs[3][1][2] == EntityMention(
        "Sacred Heart", "Sacred Heart University", "school", 68, 80
    )


def test_card_sample_reader() -> None:
    (raw,) = _records(CARD)
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
    report = evaluate_mutualfriends(_records(CARD))
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
    raw = _records(HANDMADE_HF)[0]
    acts = label_mutualfriends(raw)["acts"]
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
    raw = _records(HANDMADE_HF)[1]
    acts = label_mutualfriends(raw)["acts"]
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
    report = evaluate_mutualfriends(_records(HANDMADE_HF))
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
    raws = _records(HANDMADE_COCOA)
    before = copy.deepcopy(raws)
    first, second = (label_mutualfriends(raw) for raw in raws)
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
    raws = _records(HANDMADE_COCOA)
    dialogue = dialogue_from_mutualfriends(raws[0])
    assert dialogue.outcome == {"reward": 1}
    assert dialogue.parties[1].kb[1].type_of("Major") == "major"  # type: ignore[attr-defined]
    s = evaluate_mutualfriends(dialogue_from_mutualfriends(r) for r in raws).summary()
    assert (s["dialogues"], s["select_turns"], s["selections_in_both_lists"]) == (2, 3, 2 / 3)
    # Dialogue two: reward 0 and only one agent selected.
    assert s["selection_agreement"] == 1.0


def test_both_layouts_give_the_same_acts() -> None:
    # The card's example rewritten as a Cocoa transcript parses the same way.
    (hf,) = _records(CARD)
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
    ours = [e["metadata"] for e in label_mutualfriends(cocoa)["events"]]
    assert ours == label_mutualfriends(hf)["acts"]


# ---------------------------------------------------------------------------
# Entity linking and intents on small scenarios
# ---------------------------------------------------------------------------

KB0 = (
    {"School": "Salisbury State University", "Company": "Molycorp", "Time": "morning"},
    {"School": "National Technological University", "Company": "Leonard Green & Partners"},
    {"School": "Fairmont State College", "Company": "Next", "Time": "evening"},
)
KB1 = (
    {"School": "Fairmont State University", "Company": "Tully's Coffee"},
    {"School": "University of South Carolina - Aiken", "Company": "Data Resources Inc."},
)


def _parse(*messages: tuple[int, str]) -> list[tuple[str, list[tuple[str, str]]]]:
    turns = tuple(Turn(i, agent, "message", text) for i, (agent, text) in enumerate(messages))
    kbs = (Party(kb=KB0), Party(kb=KB1))
    dialogue = Dialogue(turns, kbs, corpus="mutualfriends")
    return [
        (act.intent or "", [(m.surface, m.value) for m in mentions])
        for act, mentions in MutualFriendsParser().parse_with_entities(dialogue)
    ]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        pytest.param("SALISBURY!", [("SALISBURY", "Salisbury State University")], id="case"),
        pytest.param(
            "salisbury st.", [("salisbury st", "Salisbury State University")], id="abbreviation"
        ),
        pytest.param("state university", [], id="generic-words-alone"),
        pytest.param("the university", [], id="generic-and-connector"),
        pytest.param(
            "national technological",
            [("national technological", "National Technological University")],
            id="opening-words",
        ),
        pytest.param("NTU", [("NTU", "National Technological University")], id="acronym"),
        pytest.param(
            "Ihave one at molycrop", [("molycrop", "Molycorp")], id="typo-and-run-together"
        ),
        pytest.param("I have one at Moly", [], id="short-fragment"),
        pytest.param("tullys", [("tullys", "Tully's Coffee")], id="apostrophe"),
        pytest.param("Tully\u2019s", [("Tully\u2019s", "Tully's Coffee")], id="curly-apostrophe"),
        pytest.param(
            "leonard green and partners",
            [("leonard green and partners", "Leonard Green & Partners")],
            id="ampersand",
        ),
        pytest.param(
            "university of south carolina aiken",
            [("university of south carolina aiken", "University of South Carolina - Aiken")],
            id="dash-dropped",
        ),
        pytest.param("Aiken", [("Aiken", "University of South Carolina - Aiken")], id="last-word"),
        pytest.param("data resources", [("data resources", "Data Resources Inc.")], id="inc"),
        pytest.param("mornings", [("mornings", "morning")], id="plural"),
        pytest.param("good morning", [], id="greeting-phrase"),
        pytest.param("what next", [], id="function-word-value-lowercase"),
        pytest.param("Next", [("Next", "Next")], id="function-word-value-as-written"),
        # Agent 0 writes: "Fairmont" is the Fairmont in its own list.
        pytest.param("Fairmont", [("Fairmont", "Fairmont State College")], id="writer-list"),
    ],
)
def test_linking(text: str, found: list[tuple[str, str]]) -> None:
    assert _parse((0, text))[0][1] == found


def test_a_partial_name_of_two_values_goes_to_the_writers_own() -> None:
    # "Fairmont State" is a partial name of a value in each list.
    assert _parse((0, "Fairmont State"))[0][1] == [("Fairmont State", "Fairmont State College")]
    assert _parse((1, "Fairmont State"))[0][1] == [("Fairmont State", "Fairmont State University")]


def test_ambiguity_without_any_preference_links_nothing() -> None:
    kb = ({"School": "Fairmont State College"}, {"School": "Fairmont State University"})
    turns = (Turn(0, 0, "message", "Fairmont"), Turn(1, 1, "message", "Fairmont"))
    dialogue = Dialogue(turns, (Party(kb=kb), Party(kb=())), corpus="mutualfriends")
    assert [m for _, m in MutualFriendsParser().parse_with_entities(dialogue)] == [(), ()]
    # Once a value is named in full, a later partial name goes to it.
    turns = (
        Turn(0, 1, "message", "Fairmont State University?"),
        Turn(1, 1, "message", "Fairmont"),
    )
    dialogue = Dialogue(turns, (Party(kb=kb), Party(kb=())), corpus="mutualfriends")
    mentions = [m for _, m in MutualFriendsParser().parse_with_entities(dialogue)]
    assert [x.value for x in mentions[1]] == ["Fairmont State University"]


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("Do you know anyone at Molycorp?", "inquire"),
        ("Hi, do you know anyone at Molycorp", "inquire"),
        ("I have two at Molycorp. Do you?", "inquire"),
        ("Molycorp", "inform"),
        ("I don't know anyone at Molycorp", "negative"),
        ("dont have Molycorp", "negative"),
        ("not Salisbury", "negative"),
        ("no I have one at Molycorp", "inform"),
        ("No, but one at Molycorp", "inform"),
        ("none at Molycorp, two at Salisbury", "inform"),
        ("nope", "negative"),
        ("Hello!", "greet"),
        ("Hi. All of mine prefer mornings.", "inform"),
        ("ok", "unknown"),
        ("", "unknown"),
    ],
)
def test_intents(text: str, intent: str) -> None:
    assert _parse((0, text))[0][0] == intent


def test_negated_values_are_noted_on_an_inform() -> None:
    turns = (Turn(0, 0, "message", "none at Molycorp, two at Salisbury"),)
    dialogue = Dialogue(turns, (Party(kb=KB0), Party(kb=KB1)), corpus="mutualfriends")
    (parsed,) = MutualFriendsParser().analyse(dialogue)
    assert [m.value for m in parsed.entities] == ["Molycorp", "Salisbury State University"]
    assert [m.value for m in parsed.negated] == ["Molycorp"]
    assert parsed.act.note == "mentions-a-value; negated: Molycorp"


def test_plain_dict_friends_get_types_from_attribute_names() -> None:
    assert _parse((0, "mornings"))[0][1] == [("mornings", "morning")]
    turns = (Turn(0, 0, "message", "Molycorp"),)
    dialogue = Dialogue(turns, (Party(kb=KB0), Party(kb=KB1)), corpus="mutualfriends")
    ((act, (mention,)),) = MutualFriendsParser().parse_with_entities(dialogue)
    assert (mention.type, act.tags) == ("company", ("company",))
    friend = Friend({"Location Preference": "indoor"})
    assert friend.type_of("Location Preference") == "location_preference"
    assert friend == {"Location Preference": "indoor"}


def test_every_act_uses_a_native_intent_and_its_coarse_act() -> None:
    assert SPACE.native("mutualfriends") == set(INTENTS)
    for path in (CARD, HANDMADE_HF, HANDMADE_COCOA):
        for raw in _records(path):
            for act in default_parser().parse(dialogue_from_mutualfriends(raw)):
                assert act.intent in INTENTS
                assert act.coarse == SPACE.coarse("mutualfriends", act.intent)


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
    assert str(miss) == (
        "wrong: reward 1, but agent 0 selected Salisbury State University and agent 1 "
        "Fairmont State College"
    )


def test_empty_evaluation_is_all_zero() -> None:
    s = evaluate_mutualfriends([]).summary()
    assert s["dialogues"] == 0 and s["selection_agreement"] == 0.0


def test_evaluation_refuses_another_parser() -> None:
    with pytest.raises(TypeError, match="needs a MutualFriendsParser"):
        evaluate_mutualfriends([], parser=object())


# ---------------------------------------------------------------------------
# Reading files and malformed records
# ---------------------------------------------------------------------------


def test_iter_records_positions(tmp_path: Path) -> None:
    (raw,) = _records(CARD)
    lines = tmp_path / "mf.jsonl"
    lines.write_text("\n" + json.dumps(raw) + "\n\n" + json.dumps(raw) + "\n")
    assert [pos for pos, _ in iter_records(lines)] == [2, 4]
    assert [pos for pos, _ in iter_records(HANDMADE_COCOA)] == [1, 2]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('{"uuid": 1}\n{"uuid": \n', r"mf\.txt:2: not valid JSON"),
        ("[1, 2]\n", r"mf\.txt: dialogue 1: expected a JSON object"),
        ("[1, \n", r"mf\.txt:2: not valid JSON"),
        ('"text"\n', r"mf\.txt:1: expected a JSON object, got str"),
    ],
)
def test_iter_records_errors_name_file_and_position(
    tmp_path: Path, body: str, message: str
) -> None:
    path = tmp_path / "mf.txt"
    path.write_text(body)
    with pytest.raises(InputError, match=message):
        list(iter_records(path))


def _card() -> dict[str, Any]:
    return copy.deepcopy(_records(CARD)[0])


def _drop(path: str) -> dict[str, Any]:
    raw = _card()
    *parents, last = path.split(".")
    node = raw
    for key in parents:
        node = node[key]
    del node[last]
    return raw


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda: {"uuid": "x"}, ValueError, "not a MutualFriends record"),
        (lambda: _drop("events"), KeyError, "'events'"),
        (lambda: _drop("events.data_messages"), KeyError, "'events.data_messages'"),
        (lambda: _drop("events.data_selects.values"), KeyError, "'events.data_selects.values'"),
        (
            lambda: {**_card(), "scenario_kbs": _card()["scenario_kbs"][:1]},
            ValueError,
            "scenario_kbs must hold 2 knowledge bases, got 1",
        ),
        (
            lambda: {
                **_card(),
                "events": {**_card()["events"], "agents": [1, 1, 0]},
            },
            ValueError,
            "events.actions has 6 entries but events.agents has 3",
        ),
        (
            lambda: {
                **_card(),
                "events": {**_card()["events"], "actions": ["message"] * 5 + ["offer"]},
            },
            ValueError,
            "event 5: unknown action 'offer'",
        ),
        (
            lambda: {
                **_card(),
                "events": {**_card()["events"], "agents": [1, 1, 0, 0, 1, 2]},
            },
            ValueError,
            r"events.agents\[5\] must be agent 0 or 1, got 2",
        ),
        (
            lambda: {**_card(), "scenario_kbs": [[[["School"], ["A", "B"]]], []]},
            ValueError,
            r"scenario_kbs\[0\]\[0\] has 1 attribute names but 2 values",
        ),
        (
            lambda: {**_card(), "outcome_reward": "yes"},
            TypeError,
            "outcome reward must be a number",
        ),
        (
            lambda: {"scenario": {"kbs": [[], []]}, "events": [{"action": "select", "agent": 0}]},
            ValueError,
            "event 0: a select needs the friend",
        ),
        (
            lambda: {"scenario": {"kbs": [[], [1]]}, "events": []},
            TypeError,
            r"scenario.kbs\[1\]\[0\] must be a JSON object",
        ),
        (
            lambda: {"scenario": {"kbs": [[], []]}, "events": [{"agent": 0, "data": "hi"}]},
            KeyError,
            r"'events\[0\].action'",
        ),
    ],
)
def test_malformed_records_say_what_is_wrong(make: Any, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        dialogue_from_mutualfriends(make())


def test_hf_select_columns_may_be_rows() -> None:
    raw = _card()
    selects = raw["events"]["data_selects"]
    raw["events"]["data_selects"] = [
        {"attributes": a, "values": v} for a, v in zip(selects["attributes"], selects["values"])
    ]
    assert label_mutualfriends(raw)["acts"] == label_mutualfriends(_card())["acts"]
