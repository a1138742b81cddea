"""Labelled Craigslist output keeps Cocoa's schema exactly: ``dialogue_acts`` is
``{intent, price}`` (the HuggingFace features) and event ``metadata`` is ``{intent,
price}`` (``{intent}`` for accept, reject and quit); what actparse adds is in one
top-level ``actparse`` object. The other corpora keep every input field as it was."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from corpus_fixtures import CorpusFixtures
from typer.testing import CliRunner

from actparse import label_batch, label_file, label_record
from actparse.cli import app
from actparse.io.records import read_records

runner = CliRunner()

HF = "craigslist_validation_20.jsonl"
COCOA = "craigslist_transcripts_20.json"


def _label(source: Path, out: Path, *options: str) -> list[dict[str, Any]]:
    result = runner.invoke(app, ["label", str(source), "-o", str(out), *options])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def _check_hf(record: dict[str, Any], coarse: bool) -> None:
    assert list(record["dialogue_acts"]) == ["intent", "price"]
    added = record["actparse"]
    assert list(added) == ["strategies", "no_act", *(["coarse"] if coarse else [])]
    assert all(len(values) == len(record["utterance"]) for values in added.values())


def _check_cocoa(record: dict[str, Any], coarse: bool) -> None:
    for event in record["events"]:
        meta = event["metadata"]
        if event["action"] in ("accept", "reject", "quit"):
            assert meta is None or list(meta) == ["intent"]
        else:
            assert meta is None or list(meta) == ["intent", "price"]
    added = record["actparse"]
    assert list(added) == ["strategies", "no_act", *(["coarse"] if coarse else [])]
    assert all(len(values) == len(record["events"]) for values in added.values())


@pytest.mark.usefixtures("tasks_of_one")
@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("coarse", [False, True], ids=["plain", "coarse"])
def test_label_keeps_cocoas_keys(
    fixtures: CorpusFixtures, tmp_path: Path, jobs: str, coarse: bool
) -> None:
    """The command line, whose HF lines are spliced (in workers with --jobs 2)."""
    options = ["--jobs", jobs, *(["--coarse"] if coarse else [])]
    hf = _label(fixtures / HF, tmp_path / "hf.jsonl", *options)
    cocoa = _label(fixtures / COCOA, tmp_path / "cocoa.jsonl", *options)
    assert len(hf) == len(cocoa) == 20
    for record in hf:
        _check_hf(record, coarse)
    for record in cocoa:
        _check_cocoa(record, coarse)


@pytest.mark.parametrize("coarse", [False, True], ids=["plain", "coarse"])
def test_library_output_keeps_cocoas_keys(fixtures: CorpusFixtures, coarse: bool) -> None:
    for record in label_file(fixtures / HF, coarse=coarse):
        _check_hf(record, coarse)
    for record in label_file(fixtures / COCOA, coarse=coarse):
        _check_cocoa(record, coarse)


def test_the_library_calls_give_the_coarse_acts_the_command_line_does(
    fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    out = tmp_path / "coarse.jsonl"
    done = CliRunner().invoke(app, ["label", str(fixtures / HF), "--coarse", "-o", str(out)])
    assert done.exit_code == 0, done.output
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    raws = [r.raw for r in read_records(fixtures / HF)]
    assert [label_record(raw, coarse=True) for raw in raws] == written
    batch = {name: [raw[name] for raw in raws] for name in raws[0]}
    columns = label_batch(batch, coarse=True)
    assert columns["actparse"] == [record["actparse"] for record in written]
    assert any(c for record in written for c in record["actparse"]["coarse"])


@pytest.mark.parametrize(
    "name",
    ["casino_20.json", "dealornodeal_val_20.txt", "mutualfriends_card_sample.jsonl"],
)
def test_other_corpora_keep_their_input_fields(fixtures: CorpusFixtures, name: str) -> None:
    """Only the new ``acts`` list is added; no input field changes (CaSiNo's
    ``chat_logs`` stays as it was)."""
    inputs = [r.raw for r in read_records(fixtures / name)]
    outputs = list(label_file(fixtures / name))
    assert len(inputs) == len(outputs) > 0
    for raw, out in zip(inputs, outputs):
        assert list(out) == [*raw, "acts"]
        assert {k: out[k] for k in raw} == raw


@pytest.mark.corpus
def test_a_labelled_test_split_has_the_published_features(data_dir: Path, tmp_path: Path) -> None:
    """The labelled test split loads with the same ``dialogue_acts`` features as the
    shipped validation split, and the two concatenate: the shipped rows get a null
    ``actparse``; without that column the features are the published ones exactly."""
    datasets = pytest.importorskip("datasets")
    out = tmp_path / "test.jsonl"
    source = data_dir / "craigslist" / "test.jsonl"
    result = runner.invoke(app, ["label", str(source), "-o", str(out)])
    assert result.exit_code == 0, result.output

    def load(path: Path) -> Any:
        return datasets.load_dataset(
            "json", data_files=str(path), split="train", cache_dir=str(tmp_path / "cache")
        )

    validation = load(data_dir / "craigslist" / "validation.jsonl")
    test = load(out)
    assert test.features["dialogue_acts"] == validation.features["dialogue_acts"]
    assert set(test.column_names) == {*validation.column_names, "actparse"}

    both = datasets.concatenate_datasets([validation, test])
    assert len(both) == len(validation) + len(test)
    assert both[0]["actparse"] is None and both[len(validation)]["actparse"] is not None

    published = datasets.concatenate_datasets([validation, test.remove_columns("actparse")])
    assert published.features == validation.features
