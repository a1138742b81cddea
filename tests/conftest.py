"""Shared fixtures: where the corpora and the small fixtures live."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from corpus_fixtures import FIXTURES, CorpusFixtures

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("ACTPARSE_DATA", ROOT.parent / "shared" / "data")).resolve()


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The shared corpora; tests that need them skip with the reason when absent."""
    if not (DATA / "craigslist").is_dir():
        pytest.skip(f"corpora not found at {DATA} (set ACTPARSE_DATA to the shared data folder)")
    return DATA


@pytest.fixture(scope="session")
def fixtures() -> CorpusFixtures:
    """``fixtures / name``: the corpus excerpt ``name``, from its corpus' folder
    (tests/corpora/<corpus>/fixtures/); an unknown name raises FileNotFoundError."""
    return FIXTURES


@pytest.fixture
def tasks_of_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """Worker tasks of one record, so that ``--jobs 2`` (``jobs=2``) on an input of two
    records or more, run in this process, labels in worker processes: an input of one
    task is labelled without them."""
    monkeypatch.setattr("actparse.io.batch.TASK_SIZE", 1)


@pytest.fixture
def casino_with_a_miss(fixtures: CorpusFixtures, tmp_path: Path) -> Path:
    """The 20 CaSiNo fixtures, named as they are, with the first submitted deal giving
    everything to one side: a final split the parser misses, since the fixtures may all
    be read right."""
    records = json.loads((fixtures / "casino_20.json").read_text(encoding="utf-8"))
    submitted = next(log for r in records for log in r["chat_logs"] if log["text"] == "Submit-Deal")
    submitted["task_data"]["issue2youget"] = {"Food": "3", "Water": "3", "Firewood": "3"}
    submitted["task_data"]["issue2theyget"] = {"Food": "0", "Water": "0", "Firewood": "0"}
    path = tmp_path / "casino_20.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    return path
