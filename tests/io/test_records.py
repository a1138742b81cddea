"""Readers and writers: both formats, detection, errors that name file and line, and
output that keeps every input field and round-trips."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from corpus_fixtures import FIXTURES, CorpusFixtures
from hypothesis import given, settings
from hypothesis import strategies as st

from actparse.api import label_file, label_record
from actparse.io.batch import iter_items, label_items
from actparse.io.records import InputError, detect_format, read_records
from actparse.io.spans import json_object_spans
from actparse.models import SKIPPED


def test_detect_format(fixtures: CorpusFixtures) -> None:
    assert detect_format(fixtures / "craigslist_validation_20.jsonl") == "hf"
    assert detect_format(fixtures / "craigslist_transcripts_20.json") == "cocoa"


def test_hf_reader_recovers_actions_from_shipped_acts(fixtures: CorpusFixtures) -> None:
    record = next(read_records(fixtures / "craigslist_validation_20.jsonl"))
    d = record.dialogue()
    assert record.where.endswith("craigslist_validation_20.jsonl:1")
    assert [t.action for t in d.turns][-2:] == ["offer", "accept"]
    assert d.turns[-2].offer_price == 243.0
    assert d.parties[0].role == "buyer" and d.parties[1].listing.price == 265.0
    assert d.reference is not None and d.reference[0].intent == "intro"


def test_hf_reader_without_acts_leaves_non_message_actions_unknown(tmp_path: Path) -> None:
    raw = json.loads((FIXTURES / "craigslist_validation_20.jsonl").read_text().splitlines()[0])
    raw["dialogue_acts"] = {"intent": [""] * 10, "price": [-1.0] * 10}
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(raw) + "\n")
    d = next(read_records(path)).dialogue()
    assert [t.action for t in d.turns][-2:] == [None, None]


def test_cocoa_reader(fixtures: CorpusFixtures) -> None:
    records = list(read_records(fixtures / "craigslist_transcripts_20.json"))
    assert len(records) == 20
    d = records[0].dialogue()
    assert d.id and d.reference is None
    assert {t.action for t in d.turns} <= {"message", "offer", "accept", "reject", "quit"}
    offers = [t for t in d.turns if t.action == "offer"]
    assert offers and offers[0].offer_price == 132.0


@pytest.mark.parametrize(
    ("content", "message"),
    [
        pytest.param('{"utterance": []}\n{broken\n', "x.jsonl:2: not valid JSON", id="broken-line"),
        pytest.param("[1, 2]\n", "x.jsonl:1: cannot tell the format", id="list-of-numbers"),
        pytest.param('{"a": 1}\n', "x.jsonl:1: cannot tell the format", id="unknown-fields"),
        pytest.param("hello\n", "x.jsonl:1: cannot tell the format", id="plain-text"),
        pytest.param('"text"\n', "x.jsonl:1: cannot tell the format", id="json-string"),
    ],
)
def test_bad_input_names_file_and_line(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text(content)
    with pytest.raises(InputError) as info:
        list(read_records(path))
    assert message in str(info.value)


def test_forced_format_names_the_bad_dialogue(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text("[1, 2]\n")
    with pytest.raises(
        InputError, match=r"x\.json:1: dialogue 1: expected a JSON object, got a number"
    ):
        list(read_records(path, "cocoa"))


def test_missing_field_is_named(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text(json.dumps({"agent_turn": [0], "items": {}, "agent_info": {}}) + "\n")
    with pytest.raises(InputError, match=r"x\.jsonl:1: missing field 'utterance'"):
        next(read_records(path)).dialogue()


def test_utterance_must_be_text(tmp_path: Path) -> None:
    raw = json.loads((FIXTURES / "craigslist_validation_20.jsonl").read_text().splitlines()[0])
    raw["utterance"][1] = 42
    path = tmp_path / "x.jsonl"
    path.write_text(json.dumps(raw) + "\n")
    with pytest.raises(InputError, match=r"x\.jsonl:1: utterance 1 must be a string"):
        next(read_records(path)).dialogue()


def test_hf_output_keeps_fields_and_round_trips(fixtures: CorpusFixtures, tmp_path: Path) -> None:
    source = fixtures / "craigslist_validation_20.jsonl"
    inputs = [json.loads(line) for line in source.read_text().splitlines()]
    outputs = list(label_file(source))
    assert len(outputs) == len(inputs)
    for raw, out in zip(inputs, outputs):
        assert {k: v for k, v in out.items() if k not in ("dialogue_acts", "actparse")} == {
            k: v for k, v in raw.items() if k != "dialogue_acts"
        }
        acts, added = out["dialogue_acts"], out["actparse"]
        assert list(acts) == ["intent", "price"]  # the published schema, nothing more
        assert list(added) == ["strategies", "no_act"]
        assert (
            len(acts["intent"])
            == len(acts["price"])
            == len(added["strategies"])
            == len(added["no_act"])
            == len(raw["utterance"])
        )
        # Every message has a strategy label (non-strategic when no other fits).
        assert all(labels for labels, text in zip(added["strategies"], raw["utterance"]) if text)
        assert all(isinstance(p, float) and (p > 0 or p == -1.0) for p in acts["price"])
    path = tmp_path / "out.jsonl"
    path.write_text("".join(json.dumps(o) + "\n" for o in outputs))
    again = list(label_file(path))
    assert again == outputs  # labelling our own output changes nothing


def test_cocoa_output_gets_event_metadata(fixtures: CorpusFixtures) -> None:
    outputs = list(label_file(fixtures / "craigslist_transcripts_20.json"))
    assert len(outputs) == 20
    parsed = [o for o in outputs if o["events"][0]["metadata"] is not None]
    assert parsed, "some fixture dialogues are long enough to be parsed"
    for out in parsed:
        added = out["actparse"]
        assert list(added) == ["strategies", "no_act"]
        assert added["no_act"] == [None] * len(out["events"])
        for event, strategies in zip(out["events"], added["strategies"]):
            meta = event["metadata"]
            if event["action"] in ("accept", "reject", "quit"):
                assert meta == {"intent": event["action"]}  # Cocoa's metadata exactly
            else:
                assert list(meta) == ["intent", "price"]
            assert bool(strategies) == (event["action"] == "message")
    skipped = [o for o in outputs if o["events"][0]["metadata"] is None]
    assert skipped, "some fixture dialogues are short enough to be skipped"
    for out in skipped:
        assert all(e["metadata"] is None for e in out["events"])
        assert out["actparse"]["no_act"] == [SKIPPED] * len(out["events"])


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(st.text(), json_values, max_size=6),
    st.sampled_from([(",", ":"), (", ", ": "), (" ,\t", " :\n")]),
    st.booleans(),
)
def test_json_object_spans_reads_what_json_loads_reads(
    fields: dict[str, object], separators: tuple[str, str], ascii_only: bool
) -> None:
    text = " " + json.dumps(fields, separators=separators, ensure_ascii=ascii_only) + "\r\n"
    found = json_object_spans(text)
    assert found is not None
    read, spans = found
    assert read == json.loads(text)
    assert {key: json.loads(text[start:end]) for key, (start, end) in spans.items()} == read


@pytest.mark.parametrize(
    "text",
    ['{"a": 1, "a": 2}', '{"a": 1} x', "[1]", '{"a" 1}', '{"a": 1,}', "{1: 2}", "", '{"a": ]'],
    ids=[
        "duplicate-key",
        "trailing-data",
        "not-an-object",
        "no-colon",
        "trailing-comma",
        "number-key",
        "empty",
        "bad-value",
    ],
)
def test_json_object_spans_leaves_irregular_lines_to_json_loads(text: str) -> None:
    assert json_object_spans(text) is None


def test_hf_output_line_changes_only_the_acts(fixtures: CorpusFixtures, tmp_path: Path) -> None:
    # Unusual spacing and escapes in the input survive labelling character for character.
    record = json.loads((fixtures / "craigslist_validation_20.jsonl").read_text().splitlines()[0])
    record["utterance"][0] = 'caf\u00e9 \u2014 "quoted"'
    line = json.dumps(record, separators=(" ,", " : "), ensure_ascii=True)
    source = tmp_path / "in.jsonl"
    source.write_text(line + "\n")
    (out,) = [o.line for o in label_items(iter_items(source))]
    head, _, _ = line.partition('"dialogue_acts" : ')
    tail = line[line.index(' ,"items" : ') : -1]  # the fields after the acts, no brace
    assert out.startswith(head + '"dialogue_acts" : {"intent": ')
    # actparse's own field is added before the closing brace.
    added = json.dumps(label_record(record)["actparse"], ensure_ascii=False)
    assert out.endswith(f'{tail}, "actparse": {added}}}')
    assert json.loads(out)["dialogue_acts"]["intent"] == record["dialogue_acts"]["intent"]
    # Labelled again, the line's fields (actparse's too) are replaced where they are.
    source.write_text(out + "\n")
    (again,) = [o.line for o in label_items(iter_items(source))]
    assert again == out
