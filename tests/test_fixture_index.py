"""The fixtures' index, tests/fixtures/README.md, names every corpus fixture by its path
(with its source and licence), and names no file that is not there."""

from __future__ import annotations

import re
from pathlib import Path

from corpus_fixtures import FIXTURES

ROOT = Path(__file__).resolve().parent.parent
INDEX = ROOT / "tests" / "fixtures" / "README.md"


def test_the_index_names_every_fixture_by_its_path() -> None:
    named = set(re.findall(r"`(tests/corpora/[^`<]+)`", INDEX.read_text(encoding="utf-8")))
    files = {p.relative_to(ROOT).as_posix() for p in FIXTURES.paths()}
    assert files
    assert named == files
