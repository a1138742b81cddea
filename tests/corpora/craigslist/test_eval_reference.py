"""eval's reference (issue 28): a reference eval cannot read is an error naming the record,
never a silent disagreement or "no reference acts"; ``datasets.map(label_batch)`` names
the dataset's row.

Each malformed reference is checked in eval (which scores it) and in label (whose reader
is the same: in keep mode the record is kept with its error, and the others labelled)."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from corpus_fixtures import FIXTURES, CorpusFixtures

import actparse
from actparse.errors import InputError
from actparse.io.batch import TASK_SIZE

HF = "craigslist_validation_20.jsonl"
COCOA = "craigslist_transcripts_20.json"
BAD = 2  # the record spoiled, 1-based: its line in JSON lines, its place in a JSON list


def actparse_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """The command as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "actparse", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def _hf_records() -> list[dict[str, Any]]:
    text = (FIXTURES / HF).read_text(encoding="utf-8")
    # A record whose reference has acts (eval scores it).
    return [json.loads(line) for line in text.splitlines()][:3]


def _set(field: str, k: int, value: Any) -> Callable[[dict[str, Any]], None]:
    def spoil(record: dict[str, Any]) -> None:
        record["dialogue_acts"][field][k] = value

    return spoil


def _drop_last_intent(record: dict[str, Any]) -> None:
    record["dialogue_acts"]["intent"].pop()


def _extra_price(record: dict[str, Any]) -> None:
    record["dialogue_acts"]["price"].append(-1.0)


def _acts_not_an_object(record: dict[str, Any]) -> None:
    record["dialogue_acts"] = [["greet"], [-1.0]]


def _intents_not_a_list(record: dict[str, Any]) -> None:
    record["dialogue_acts"]["intent"] = "init-price"


#: Spoiled HF references, and what the error says (after "file:2: ").
HF_CASES: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "nan-price": (_set("price", 1, float("nan")), r"dialogue_acts.price\[1\] must be a finite"),
    "infinite-price": (_set("price", 1, float("inf")), r"dialogue_acts.price\[1\] must be a fin"),
    "text-price": (_set("price", 1, "12"), r"dialogue_acts.price\[1\] must be a number, got a"),
    "true-price": (_set("price", 1, True), r"dialogue_acts.price\[1\] must be a number"),
    "huge-price": (_set("price", 1, 10**400), r"dialogue_acts.price\[1\]: 401-digit number"),
    "list-intent": (_set("intent", 0, ["greet"]), r"dialogue_acts.intent\[0\] must be an intent"),
    "null-intent": (_set("intent", 0, None), r"dialogue_acts.intent\[0\] must be an intent"),
    "number-intent": (_set("intent", 0, 3), r"dialogue_acts.intent\[0\] must be an intent"),
    "short-intents": (_drop_last_intent, r"dialogue_acts has \d+ intents and \d+ prices for"),
    "long-prices": (_extra_price, r"dialogue_acts has \d+ intents and \d+ prices for"),
    "acts-a-list": (_acts_not_an_object, r"dialogue_acts must be an object, got a list"),
    "intents-text": (_intents_not_a_list, r"dialogue_acts.intent must be a list, got a string"),
}


def _write_hf(path: Path, spoil: Callable[[dict[str, Any]], None]) -> Path:
    records = _hf_records()
    spoil(records[BAD - 1])
    # allow_nan: NaN and Infinity as Python's json writes them (and reads them back).
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.mark.parametrize("case", list(HF_CASES), ids=list(HF_CASES))
def test_eval_refuses_a_malformed_hf_reference_naming_the_record(case: str, tmp_path: Path) -> None:
    spoil, says = HF_CASES[case]
    path = _write_hf(tmp_path / "refs.jsonl", spoil)
    result = actparse_cli("eval", str(path))
    assert result.returncode == 2, result.stdout
    assert f"refs.jsonl:{BAD}: " in result.stderr
    assert re.search(says, result.stderr), result.stderr
    assert "no reference acts" not in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("case", ["nan-price", "list-intent", "short-intents"])
def test_label_keeps_a_record_with_a_malformed_reference_in_keep_mode(
    case: str, jobs: str, tmp_path: Path
) -> None:
    path = _write_hf(tmp_path / "refs.jsonl", HF_CASES[case][0])
    # Good records after it, more than one task's: an input of one task is labelled
    # without workers.
    with path.open("a", encoding="utf-8") as fh:
        fh.write((FIXTURES / HF).read_text(encoding="utf-8") * (TASK_SIZE // 20 + 1))
    out = tmp_path / "out.jsonl"
    result = actparse_cli("label", str(path), "-o", str(out), "--on-error", "keep", "-j", jobs)
    assert "Traceback" not in result.stderr
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == len(path.read_text().splitlines()) > TASK_SIZE
    assert f"refs.jsonl:{BAD}: dialogue_acts" in lines[BAD - 1]["actparse_error"]
    assert all("actparse_error" not in r for k, r in enumerate(lines) if k != BAD - 1)


@pytest.mark.parametrize("case", ["nan-price", "list-intent", "short-intents"])
def test_label_stops_at_a_malformed_reference_naming_the_record(case: str, tmp_path: Path) -> None:
    path = _write_hf(tmp_path / "refs.jsonl", HF_CASES[case][0])
    result = actparse_cli("label", str(path), "-o", str(tmp_path / "out.jsonl"))
    assert result.returncode == 2
    assert f"refs.jsonl:{BAD}: dialogue_acts" in result.stderr


def test_a_record_without_reference_acts_is_still_said_to_have_none(tmp_path: Path) -> None:
    records = _hf_records()
    del records[BAD - 1]["dialogue_acts"]
    path = tmp_path / "refs.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    result = actparse_cli("eval", str(path))
    assert result.returncode == 2
    assert f"refs.jsonl:{BAD}: no reference acts" in result.stderr


def test_the_test_split_layout_still_labels_and_evaluates(tmp_path: Path) -> None:
    """Intents all '' (the test split's acts): no reference to score, not an error."""
    records = _hf_records()
    for record in records:
        n = len(record["utterance"])
        record["dialogue_acts"] = {"intent": [""] * n, "price": [-1.0] * n}
    path = tmp_path / "test.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert actparse_cli("label", str(path), "-o", str(tmp_path / "o.jsonl")).returncode == 0
    result = actparse_cli("eval", str(path))
    assert result.returncode == 2 and "nothing to score" in result.stderr  # as before


# -- Cocoa transcripts: the reference is each event's metadata ------------------------------


def _message_event(record: dict[str, Any]) -> dict[str, Any]:
    return next(e for e in record["events"] if e["action"] == "message")


COCOA_CASES: dict[str, tuple[Any, str]] = {
    "list-intent": ({"intent": ["greet"], "price": None}, r"metadata.intent must be an intent"),
    "nan-price": ({"intent": "init-price", "price": float("nan")}, r"metadata.price must be a f"),
    "text-price": ({"intent": "init-price", "price": "abc"}, r"metadata.price must be a number"),
    "not-an-object": (["greet"], r"metadata must be an object, got a list"),
}


@pytest.mark.parametrize("case", list(COCOA_CASES), ids=list(COCOA_CASES))
def test_eval_refuses_malformed_cocoa_metadata_naming_the_record(
    case: str, fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    records = json.loads((fixtures / COCOA).read_text(encoding="utf-8"))[:3]
    for record in records:  # a reference to score in every record
        for event in record["events"]:
            event["metadata"] = {"intent": "unknown", "price": None}
    meta, says = COCOA_CASES[case]
    _message_event(records[BAD - 1])["metadata"] = meta
    path = tmp_path / "refs.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    result = actparse_cli("eval", str(path))
    assert result.returncode == 2, result.stdout
    assert f"refs.json:{BAD}: event " in result.stderr
    assert re.search(says, result.stderr), result.stderr
    assert "Traceback" not in result.stderr


# -- MutualFriends: the reference is the outcome's reward ----------------------------------


@pytest.mark.parametrize("reward", [0.5, float("nan"), 2, -1, 10**400], ids=str)
def test_a_reward_other_than_0_or_1_is_an_error(reward: Any, tmp_path: Path) -> None:
    line = (FIXTURES / "mutualfriends_card_sample.jsonl").read_text().splitlines()[0]
    record = json.loads(line)
    record["outcome_reward"] = reward
    path = tmp_path / "mf.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    result = actparse_cli("eval", str(path))
    assert result.returncode == 2
    assert "mf.jsonl:1: " in result.stderr and "reward must be 0 or 1" in result.stderr
    assert "Traceback" not in result.stderr


# -- datasets.map names the dataset's row --------------------------------------------------

ROW = 25


def _batch(rows: list[dict[str, Any]]) -> dict[str, list[Any]]:
    return {name: [r[name] for r in rows] for name in rows[0]}


def _thirty_rows() -> list[dict[str, Any]]:
    text = (FIXTURES / HF).read_text(encoding="utf-8")
    rows = [json.loads(line) for line in text.splitlines()]
    rows = [copy.deepcopy(r) for r in (rows * 2)[:30]]
    rows[ROW]["dialogue_acts"]["price"][0] = float("nan")
    return rows


@pytest.mark.parametrize("function", [actparse.label_batch, actparse.turns_batch])
def test_a_batch_error_names_the_dataset_row_given_the_indices(function: Any) -> None:
    rows = _thirty_rows()
    batch = _batch(rows[19:30])  # the rows Dataset.map(batch_size=19) gives second
    with pytest.raises(InputError, match=rf"^<dataset index>:{ROW}: dialogue_acts.price\[0\]"):
        function(batch, list(range(19, 30)))


def test_without_indices_label_batch_names_the_place_in_the_batch() -> None:
    batch = _batch(_thirty_rows()[19:30])
    with pytest.raises(InputError, match=rf"^<batch>:{ROW - 19 + 1}: "):
        actparse.label_batch(batch)


def test_datasets_map_names_the_row() -> None:
    datasets = pytest.importorskip("datasets", reason="needs the datasets package")
    datasets.disable_progress_bars()
    dataset = datasets.Dataset.from_list(_thirty_rows())
    for function in (actparse.label_batch, actparse.turns_batch):
        with pytest.raises(InputError, match=rf"<dataset index>:{ROW}: "):
            dataset.map(function, batched=True, batch_size=19, with_indices=True)
    good = datasets.Dataset.from_list(_thirty_rows()[:20])
    mapped = good.map(actparse.label_batch, batched=True, with_indices=True)
    assert mapped["dialogue_acts"] == good.map(actparse.label_batch, batched=True)["dialogue_acts"]


def test_label_batch_still_takes_a_parser_second() -> None:
    rows = _thirty_rows()[:2]
    parser = actparse.parser_for("craigslist")
    assert actparse.label_batch(_batch(rows), parser) == actparse.label_batch(_batch(rows))
    assert actparse.label_batch(_batch(rows), None, parser) == actparse.label_batch(_batch(rows))


def test_label_batch_refuses_indices_of_another_length() -> None:
    with pytest.raises(InputError, match="label_batch: 1 indices for a batch of 2 rows"):
        actparse.label_batch(_batch(_thirty_rows()[:2]), [0])
