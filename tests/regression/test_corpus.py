"""Regression over the full shared corpora (skipped with the reason when absent)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from corpus_fixtures import CorpusFixtures

from actparse.api import label_file
from actparse.corpora.craigslist.evaluate import evaluate
from actparse.io.records import read_records

pytestmark = [pytest.mark.corpus, pytest.mark.slow]

# Floors only go up.
MESSAGE_JOINT_FLOOR = 1.0
FIXTURE_MESSAGE_JOINT_FLOOR = 0.98


def test_validation_agreement(data_dir: Path) -> None:
    figures = evaluate(read_records(data_dir / "craigslist" / "validation.jsonl")).summary()
    assert figures["skip_agreement"] == 1.0
    assert figures["message_joint_agreement"] >= MESSAGE_JOINT_FLOOR, figures


def test_fixture_agreement(fixtures: CorpusFixtures) -> None:
    figures = evaluate(read_records(fixtures / "craigslist_validation_20.jsonl")).summary()
    assert figures["skip_agreement"] == 1.0
    assert figures["message_joint_agreement"] >= FIXTURE_MESSAGE_JOINT_FLOOR, figures


@pytest.mark.parametrize(("name", "count"), [("test.jsonl", 838), ("transcripts_extra.json", 1154)])
def test_labels_every_dialogue(data_dir: Path, name: str, count: int) -> None:
    outputs = list(label_file(data_dir / "craigslist" / name))
    assert len(outputs) == count
    json.dumps(outputs)  # JSON-serializable throughout
