"""MutualFriends: reading files, and malformed records that say what is wrong."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from mutualfriends_support import (
    CARD,
    FORMAT,
    HANDMADE_COCOA,
    label,
    raw_records,
)

from actparse.corpora.mutualfriends.reader import dialogue_from_mutualfriends
from actparse.io.records import InputError, read_records

# ---------------------------------------------------------------------------
# Reading files and malformed records
# ---------------------------------------------------------------------------


def test_read_records_positions(tmp_path: Path) -> None:
    (raw,) = raw_records(CARD)
    lines = tmp_path / "mf.jsonl"
    lines.write_text("\n" + json.dumps(raw) + "\n\n" + json.dumps(raw) + "\n")
    assert [record.line for record in read_records(lines, FORMAT)] == [2, 4]
    assert [record.line for record in read_records(HANDMADE_COCOA, FORMAT)] == [1, 2]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('{"uuid": 1}\n{"uuid": \n', r"mf\.txt:2: not valid JSON"),
        ("[1, 2]\n", r"mf\.txt:1: dialogue 1: expected a JSON object, got a number"),
        ('[{"uuid": 1}, \n', r"mf\.txt:2: not valid JSON"),
        ('"text"\n', r"mf\.txt:1: expected a JSON object, got a string"),
    ],
)
def test_read_records_errors_name_file_and_position(
    tmp_path: Path, body: str, message: str
) -> None:
    path = tmp_path / "mf.txt"
    path.write_text(body)
    with pytest.raises(InputError, match=message):
        list(read_records(path, FORMAT))


def _card() -> dict[str, Any]:
    return copy.deepcopy(raw_records(CARD)[0])


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
        (lambda: {"uuid": "x"}, InputError, "not a MutualFriends record"),
        (lambda: _drop("events"), InputError, "'events'"),
        (lambda: _drop("events.data_messages"), InputError, "'events.data_messages'"),
        (lambda: _drop("events.data_selects.values"), InputError, "'events.data_selects.values'"),
        (
            lambda: {**_card(), "scenario_kbs": _card()["scenario_kbs"][:1]},
            InputError,
            "scenario_kbs must hold 2 knowledge bases, got 1",
        ),
        (
            lambda: {
                **_card(),
                "events": {**_card()["events"], "agents": [1, 1, 0]},
            },
            InputError,
            "events.actions has 6 entries but events.agents has 3",
        ),
        (
            lambda: {
                **_card(),
                "events": {**_card()["events"], "actions": ["message"] * 5 + ["offer"]},
            },
            InputError,
            "event 5: unknown action 'offer'",
        ),
        (
            lambda: {
                **_card(),
                "events": {**_card()["events"], "agents": [1, 1, 0, 0, 1, 2]},
            },
            InputError,
            r"events.agents\[5\] must be agent 0 or 1, got 2",
        ),
        (
            lambda: {**_card(), "scenario_kbs": [[[["School"], ["A", "B"]]], []]},
            InputError,
            r"scenario_kbs\[0\]\[0\] has 1 attribute names but 2 values",
        ),
        (
            lambda: {**_card(), "outcome_reward": "yes"},
            InputError,
            "outcome reward must be a number",
        ),
        (
            lambda: {"scenario": {"kbs": [[], []]}, "events": [{"action": "select", "agent": 0}]},
            InputError,
            "event 0: a select needs the friend",
        ),
        (
            lambda: {"scenario": {"kbs": [[], [1]]}, "events": []},
            InputError,
            r"scenario.kbs\[1\]\[0\] must be a JSON object",
        ),
        (
            lambda: {"scenario": {"kbs": [[], []]}, "events": [{"agent": 0, "data": "hi"}]},
            InputError,
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
    assert label(raw)["acts"] == label(_card())["acts"]
