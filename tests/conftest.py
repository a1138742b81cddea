"""Shared fixtures: where the corpora and the small fixtures live."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
DATA = Path(os.environ.get("ACTPARSE_DATA", ROOT.parent / "shared" / "data")).resolve()


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The shared corpora; tests that need them skip with the reason when absent."""
    if not (DATA / "craigslist").is_dir():
        pytest.skip(f"corpora not found at {DATA} (set ACTPARSE_DATA to the shared data folder)")
    return DATA


@pytest.fixture(scope="session")
def fixtures() -> Path:
    return FIXTURES
