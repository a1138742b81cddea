"""``actparse label --coarse``: Craigslist output gets the coarse acts in its ``actparse``
field, and nothing else changes (``dialogue_acts`` and event ``metadata`` keep Cocoa's
schema); without it the output is what it always was."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from corpus_fixtures import CorpusFixtures
from typer.testing import CliRunner

from actparse import iter_turn_rows, label_file
from actparse.cli import app

runner = CliRunner()


def _label(source: Path, out: Path, *options: str) -> list[str]:
    result = runner.invoke(app, ["label", str(source), "-o", str(out), *options])
    assert result.exit_code == 0, result.output
    return out.read_text(encoding="utf-8").splitlines()


def _coarse_by_dialogue(source: Path) -> list[list[str | None]]:
    by_id: dict[str, list[str | None]] = {}
    for row in iter_turn_rows(source):
        by_id.setdefault(row["dialogue_id"], []).append(row["coarse"])
    return list(by_id.values())


@pytest.mark.usefixtures("tasks_of_one")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_hf_gets_a_coarse_list_in_actparse_and_nothing_else(
    fixtures: CorpusFixtures, tmp_path: Path, jobs: str
) -> None:
    source = fixtures / "craigslist_validation_20.jsonl"
    plain = _label(source, tmp_path / "plain.jsonl", "--jobs", jobs)
    coarse = _label(source, tmp_path / "coarse.jsonl", "--coarse", "--jobs", jobs)
    expected = _coarse_by_dialogue(source)
    assert len(plain) == len(coarse) == len(expected) == 20
    for without, with_, acts in zip(plain, coarse, expected):
        record = json.loads(with_)
        assert list(record["dialogue_acts"]) == ["intent", "price"]
        assert list(record["actparse"]) == ["strategies", "no_act", "coarse"]
        assert record["actparse"]["coarse"] == acts
        # Byte for byte: the line is the plain one with the coarse list added.
        added = f', "coarse": {json.dumps(acts, ensure_ascii=False)}'
        assert with_.replace(added, "", 1) == without
    assert not any('"coarse"' in line for line in plain)


def test_without_coarse_the_output_is_the_library_output(
    fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    for name in ("craigslist_validation_20.jsonl", "craigslist_transcripts_20.json"):
        lines = _label(fixtures / name, tmp_path / "out.jsonl")
        # (An HF line keeps its input's characters outside dialogue_acts: compare values.)
        assert [json.loads(line) for line in lines] == list(label_file(fixtures / name))


def _strip_coarse(record: dict[str, Any]) -> dict[str, Any]:
    record["actparse"].pop("coarse")
    return record


def test_cocoa_gets_coarse_in_actparse_not_in_metadata(
    fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    source = fixtures / "craigslist_transcripts_20.json"
    plain = _label(source, tmp_path / "plain.jsonl")
    coarse = _label(source, tmp_path / "coarse.jsonl", "--coarse")
    expected = _coarse_by_dialogue(source)
    for without, with_, acts in zip(plain, coarse, expected):
        record = json.loads(with_)
        assert record["actparse"]["coarse"] == acts
        for m in (e["metadata"] for e in record["events"]):
            assert m is None or list(m) in (["intent", "price"], ["intent"])
        assert json.dumps(_strip_coarse(record), ensure_ascii=False) == without


def test_formats_that_have_the_coarse_act_are_unchanged(
    fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    for name in ("casino_20.json", "dealornodeal_val_20.txt", "mutualfriends_card_sample.jsonl"):
        plain = _label(fixtures / name, tmp_path / "plain.jsonl")
        assert _label(fixtures / name, tmp_path / "coarse.jsonl", "--coarse") == plain


def test_parquet_output_of_a_parquet_input_gets_the_coarse_list(
    fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    source = fixtures / "craigslist_validation_20.jsonl"
    as_parquet = tmp_path / "in.parquet"
    assert runner.invoke(app, ["label", str(source), "-o", str(as_parquet)]).exit_code == 0
    out = tmp_path / "out.parquet"
    result = runner.invoke(app, ["label", str(as_parquet), "--coarse", "-o", str(out)])
    assert result.exit_code == 0, result.output
    rows = pq.read_table(out).to_pylist()
    assert [r["actparse"]["coarse"] for r in rows] == _coarse_by_dialogue(source)
    assert all(set(r["dialogue_acts"]) == {"intent", "price"} for r in rows)
    kept = pq.read_table(as_parquet).to_pylist()
    assert [r["dialogue_acts"]["intent"] for r in rows] == [
        r["dialogue_acts"]["intent"] for r in kept
    ]
