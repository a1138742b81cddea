"""MutualFriends: entity linking and intents on small scenarios (golden tables)."""

from __future__ import annotations

import pytest
from mutualfriends_support import (
    CARD,
    HANDMADE_COCOA,
    HANDMADE_HF,
    PARSER,
    raw_records,
)

from actparse.corpora.mutualfriends.parser import INTENTS, MutualFriendsParser
from actparse.corpora.mutualfriends.reader import Friend, dialogue_from_mutualfriends
from actparse.engine.acts import load_act_space
from actparse.models import Dialogue, Party, Turn

SPACE = load_act_space()

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
        for raw in raw_records(path):
            for act in PARSER.parse(dialogue_from_mutualfriends(raw)):
                assert act.intent in INTENTS
                assert act.coarse == SPACE.coarse("mutualfriends", act.intent)
