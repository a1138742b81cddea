"""The public API: a small explicit surface of frozen results."""

from __future__ import annotations

import dataclasses
import json

import pytest
from corpus_fixtures import CorpusFixtures

import actparse


def _records(fixtures: CorpusFixtures) -> list[dict]:  # type: ignore[type-arg]
    lines = (fixtures / "craigslist_validation_20.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def test_all_is_explicit_and_importable() -> None:
    for name in actparse.__all__:
        assert hasattr(actparse, name), name


def test_acts_are_frozen(fixtures: CorpusFixtures) -> None:
    act = actparse.parse_dialogue(_records(fixtures)[0])[0]
    assert (act.turn, act.agent, act.intent, act.price) == (0, 0, "intro", None)
    with pytest.raises(AttributeError):
        act.intent = "x"  # type: ignore[misc]
    assert act._replace(intent="agree").intent == "agree"
    assert act.intent == "intro"


def test_label_record_fills_acts_without_touching_input(fixtures: CorpusFixtures) -> None:
    record = _records(fixtures)[0]
    before = json.dumps(record)
    out = actparse.label_record(record)
    assert json.dumps(record) == before
    assert out["dialogue_acts"]["intent"][0] == "intro"


def test_label_batch_matches_label_record(fixtures: CorpusFixtures) -> None:
    records = _records(fixtures)[:5]
    batch = {key: [r[key] for r in records] for key in records[0]}
    out = actparse.label_batch(batch)
    assert list(out) == ["dialogue_acts", "actparse"]
    for field in out:
        assert out[field] == [actparse.label_record(r)[field] for r in records]


def test_price_mentions_keep_surface_and_value(fixtures: CorpusFixtures) -> None:
    acts = actparse.parse_dialogue(_records(fixtures)[0])
    mention = next(m for a in acts for m in a.mentions)
    assert mention.surface == "$243" and mention.value == 243.0


def test_a_parser_of_another_corpus_is_refused_by_name(fixtures: CorpusFixtures) -> None:
    """The mix-up is named, not a coarse map's missing intents."""
    record = _records(fixtures)[0]
    with pytest.raises(actparse.ActparseError, match=r"a dealornodeal parser .* craigslist"):
        actparse.parse_dialogue(record, actparse.DealOrNoDealParser())
    assert len(actparse.parse_dialogue(record, actparse.CraigslistParser())) == len(
        actparse.parse_dialogue(record)
    )


@pytest.mark.parametrize(
    ("corpus_file", "field"),
    [
        pytest.param("craigslist_validation_20.jsonl", "actparse", id="craigslist-actparse"),
        pytest.param("casino_20.json", "acts", id="casino-acts"),
    ],
)
def test_a_field_of_the_inputs_own_is_never_overwritten(
    fixtures: CorpusFixtures, corpus_file: str, field: str
) -> None:
    """Where actparse writes a field the input already has, the input's own data is an
    error naming the field; a record actparse labelled before is labelled again."""
    record = next(iter(actparse.read_records(fixtures / corpus_file)))
    labelled = actparse.label_record(record.raw)
    assert actparse.label_record(labelled) == labelled
    with pytest.raises(actparse.InputError, match=f"field '{field}' is the input's own"):
        actparse.label_record({**record.raw, field: "my own annotation"})


TWO_PARTY_FILES = {
    "craigslist": "craigslist_validation_20.jsonl",
    "dealornodeal": "dealornodeal_val_20.txt",
    "casino": "casino_20.json",
}


def _with_agent(dialogue: actparse.Dialogue, agent: int) -> actparse.Dialogue:
    """The dialogue with its second turn rebuilt by hand as agent ``agent``'s."""
    turn = dialogue.turns[1]
    hand_built = actparse.Turn(turn.index, agent, turn.action, turn.text)
    return dataclasses.replace(dialogue, turns=(dialogue.turns[0], hand_built, *dialogue.turns[2:]))


@pytest.mark.parametrize("agent", [2, -1], ids=lambda a: f"agent-{a}")
@pytest.mark.parametrize("corpus", list(TWO_PARTY_FILES))
def test_a_two_party_parser_refuses_a_hand_built_turn_of_a_third_agent(
    fixtures: CorpusFixtures, corpus: str, agent: int
) -> None:
    """Readers refuse such a record; a hand-built turn reached the parser, which indexed
    its parties by the agent and failed with an IndexError (or labelled it silently)."""
    dialogue = next(iter(actparse.read_records(fixtures / TWO_PARTY_FILES[corpus]))).dialogue()
    assert dialogue.corpus == corpus
    bad = _with_agent(dialogue, agent)
    expected = f"turn 1: agent {agent}; the {corpus} corpus takes agents 0 and 1"
    with pytest.raises(actparse.InputError, match=expected):
        actparse.parse_dialogue(bad)
    with pytest.raises(actparse.InputError, match=expected):
        actparse.parser_for(corpus).parse_many([dialogue, bad])  # type: ignore[attr-defined]
    for fine in (0, 1):
        acts = actparse.parse_dialogue(_with_agent(dialogue, fine))
        assert len(acts) == len(dialogue.turns) and acts[1].agent == fine
