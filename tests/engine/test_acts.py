"""The shared coarse act space: one definition per act, every native intent mapped once."""

from __future__ import annotations

from pathlib import Path

import pytest
from corpus_fixtures import CorpusFixtures

from actparse import parse_dialogue, registry
from actparse.corpora.craigslist.parser import INTENTS
from actparse.engine.acts import load_act_space
from actparse.engine.rulefiles import RuleError

SPACE = load_act_space()


def test_every_act_has_a_definition() -> None:
    assert all(act.definition for act in SPACE.acts)
    assert len(set(SPACE.names)) == len(SPACE.names)


def test_every_craigslist_intent_maps_to_one_coarse_act() -> None:
    assert SPACE.native("craigslist") == set(INTENTS)
    assert SPACE.coarse("craigslist", "counter-price") == "propose"
    assert SPACE.coarse("craigslist", "vague-price") == "press"
    assert SPACE.coarse("craigslist", None) is None


def test_every_corpus_has_an_unknown_act() -> None:
    for corpus in registry.names():
        assert SPACE.coarse(corpus, "unknown") == "unknown"


def test_unmapped_intent_is_an_error() -> None:
    with pytest.raises(KeyError, match="no coarse act for craigslist intent 'haggle'"):
        SPACE.coarse("craigslist", "haggle")


def test_craigslist_acts_carry_the_mapped_coarse_act(fixtures: CorpusFixtures) -> None:
    import json

    for line in (fixtures / "craigslist_validation_20.jsonl").read_text().splitlines():
        for act in parse_dialogue(json.loads(line)):
            assert act.coarse == SPACE.coarse("craigslist", act.intent)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        pytest.param(
            "acts:\n  - name: a\n    definition: x\n    craigslist: [intro]\n"
            "  - name: b\n    definition: y\n    craigslist: [intro]\n",
            r"acts\.yaml:5: act 'b': craigslist intent 'intro'",
            id="intent-mapped-twice",
        ),
        # The second act of a name was accepted, and could never be reached.
        pytest.param(
            "acts:\n  - name: a\n    definition: x\n  - name: b\n    definition: y\n"
            "  - name: a\n    definition: z\n",
            r"acts\.yaml:6: act 'a' is already in the inventory",
            id="act-named-twice",
        ),
    ],
)
def test_an_inventory_names_each_act_and_intent_once(
    tmp_path: Path, body: str, message: str
) -> None:
    path = tmp_path / "acts.yaml"
    path.write_text(body)
    with pytest.raises(RuleError, match=message):
        load_act_space(path)
