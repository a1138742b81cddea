"""Every detector against every record actparse reads: exactly one format claims each.

Detection asks every format (:func:`actparse.registry.detect`); a record two formats
claim would be refused as ambiguous, so none of the shipped corpora's may be.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from corpus_fixtures import FIXTURES

from actparse import registry
from actparse.io.records import Record, read_records

#: Files of the shared data folder that hold no dialogues.
NOT_DIALOGUES = {"cocoa_price_lexicon.json"}
FIXTURE_FILES = [p for p in FIXTURES.paths() if p.suffix in {".json", ".jsonl", ".txt"}]


def _one_claimant_each(records: list[Record]) -> None:
    assert records
    for record in records:
        claimed = [n for n, f in registry.formats().items() if f.detect(record.raw)]
        # Where a narrower format is declared, it alone is left.
        assert registry.claimants(record.raw) == (record.format,), (record.where, claimed)


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda p: p.name)
def test_every_fixture_record_is_claimed_by_one_format(path: Path) -> None:
    _one_claimant_each(list(read_records(path)))


@pytest.mark.corpus
def test_every_shared_corpus_record_is_claimed_by_one_format(data_dir: Path) -> None:
    files = sorted(p for p in data_dir.glob("*/*") if p.is_file() and p.name not in NOT_DIALOGUES)
    assert files
    for path in files:
        _one_claimant_each(list(read_records(path)))
