"""The library calls refuse input of the wrong shape with :class:`InputError` in words,
never a builtin ``TypeError``/``ValueError``/``IndexError``, and ``label_record``'s
output shares nothing with its input."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from corpus_fixtures import CorpusFixtures

from actparse import InputError, label_batch, label_record, parse_dialogue

NOT_RECORDS = [
    pytest.param(None, "got null", id="None"),
    pytest.param([], "got a list", id="empty-list"),
    pytest.param("s", "got a string", id="string"),
    pytest.param(5, "got a number", id="int"),
    pytest.param(2.5, "got a number", id="float"),
    pytest.param(b"{}", "got bytes", id="bytes"),
]


@pytest.fixture
def hf_record(fixtures: CorpusFixtures) -> dict[str, Any]:
    with (fixtures / "craigslist_validation_20.jsonl").open() as fh:
        record: dict[str, Any] = json.loads(fh.readline())
    return record


@pytest.mark.parametrize(("value", "found"), NOT_RECORDS)
def test_parse_dialogue_refuses_what_is_not_a_record(value: Any, found: str) -> None:
    with pytest.raises(InputError, match=f"expected a record .*{found}"):
        parse_dialogue(value)


@pytest.mark.parametrize(("value", "found"), NOT_RECORDS)
def test_label_record_refuses_what_is_not_a_record(value: Any, found: str) -> None:
    with pytest.raises(InputError, match=f"expected a record .*{found}"):
        label_record(value)


def test_a_record_of_no_known_corpus_is_said_so() -> None:
    with pytest.raises(InputError, match="cannot tell which corpus"):
        parse_dialogue({"what": "ever"})


@pytest.mark.parametrize(
    ("make", "message"),
    [
        pytest.param(
            lambda r: {**{k: [v] for k, v in r.items()}, "utterance": []},
            r"columns differ in length \(.*utterance has 0.*\)",
            id="one-column-shorter",
        ),
        pytest.param(
            lambda r: {k: [v, v] if k == "agent_turn" else [v] for k, v in r.items()},
            r"columns differ in length \(.*agent_turn has 2.*\)",
            id="one-column-longer",
        ),
        pytest.param(lambda r: None, "takes an object of columns .*got null", id="None"),
        pytest.param(lambda r: [r], "takes an object of columns .*got a list", id="list-of-rows"),
        pytest.param(
            lambda r: {**{k: [v] for k, v in r.items()}, "utterance": "text"},
            r"column 'utterance' must be a list of values, got a string",
            id="column-is-a-string",
        ),
        pytest.param(
            lambda r: {**{k: [v] for k, v in r.items()}, "agent_turn": 5},
            r"column 'agent_turn' must be a list of values, got a number",
            id="column-is-a-number",
        ),
    ],
)
def test_label_batch_refuses_columns_of_the_wrong_shape(
    make: Any, message: str, hf_record: dict[str, Any]
) -> None:
    with pytest.raises(InputError, match=message):
        label_batch(make(hf_record))


def test_label_batch_names_the_row_of_a_bad_record(hf_record: dict[str, Any]) -> None:
    batch = {k: [v, v] for k, v in hf_record.items()}
    batch["agent_info"] = [hf_record["agent_info"], []]
    with pytest.raises(InputError, match=r"<batch>:2: a field holds a list where an object"):
        label_batch(batch)


def test_an_empty_batch_labels_nothing() -> None:
    assert label_batch({}) == {}


def test_label_record_returns_an_independent_copy(hf_record: dict[str, Any]) -> None:
    before = copy.deepcopy(hf_record)
    out = label_record(hf_record)

    def containers(value: Any) -> list[int]:
        if isinstance(value, dict):
            return [id(value), *(i for v in value.values() for i in containers(v))]
        if isinstance(value, list):
            return [id(value), *(i for v in value for i in containers(v))]
        return []

    assert not set(containers(out)) & set(containers(hf_record))
    out["items"]["Title"][0] = "changed"
    out["agent_info"]["Role"].append("third")
    assert hf_record == before
