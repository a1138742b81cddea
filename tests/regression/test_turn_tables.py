"""Every shared corpus file: ``to_frame`` and ``actparse label --per-turn`` give the same
rows, and the Parquet and CSV files read back equal to them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import actparse
from actparse.cli import app
from actparse.io.turn_files import read_turn_table

pytestmark = [pytest.mark.corpus, pytest.mark.slow]
pd = pytest.importorskip("pandas", reason="to_frame needs pandas (actparse[pandas])")
pytest.importorskip("pyarrow", reason="Parquet needs pyarrow (actparse[parquet])")

#: Shared file -> (corpus, dialogues, turns): each dialogue once. Every corpus and
#: layout, and the test split (no reference acts at all).
SHARED = {
    "craigslist/validation.jsonl": ("craigslist", 357, 3305),
    "craigslist/test.jsonl": ("craigslist", 838, 7748),
    "craigslist/transcripts_extra.json": ("craigslist", 1154, 10580),
    "dealornodeal/val.txt": ("dealornodeal", 562, 3340),
    "casino/casino_valid.json": ("casino", 30, 402),
    "mutualfriends/sample.jsonl": ("mutualfriends", 1, 6),
    # 15 dialogues, one of them without a single event (so without a row).
    "mutualfriends/transcripts_sample.json": ("mutualfriends", 14, 102),
}


#: The large train files, left out: they add a minute and nothing new (checked by hand
#: to give the same rows: 5,210 dialogues and 31,146 turns from Deal or No Deal's 10,093
#: lines, CaSiNo's 900 dialogues 12,501 turns).
LARGE = {"dealornodeal/train.txt", "casino/casino_train.json"}
#: Shared files that are not corpora.
NOT_CORPORA = {"craigslist/cocoa_price_lexicon.json"}


def test_every_shared_file_is_checked_or_named(data_dir: Path) -> None:
    """A corpus file added to the shared data is compared too, or named here as left out."""
    files = {p.relative_to(data_dir).as_posix() for p in data_dir.rglob("*") if p.is_file()}
    assert files - NOT_CORPORA - LARGE == set(SHARED)


def _rows(frame: Any) -> list[dict[str, Any]]:
    plain = frame.astype(object).where(frame.notna(), None)
    return list(plain.to_dict("records"))


@pytest.mark.parametrize("name", sorted(SHARED))
def test_frame_parquet_and_csv_agree(data_dir: Path, tmp_path: Path, name: str) -> None:
    source = data_dir / name
    if not source.is_file():
        pytest.skip(f"{source} is not there")
    corpus, dialogues, turns = SHARED[name]
    frame = actparse.to_frame(source, corpus=corpus)
    assert (frame["dialogue_id"].nunique(), len(frame)) == (dialogues, turns)
    rows = _rows(frame)
    for suffix in (".parquet", ".csv"):
        out = tmp_path / f"turns{suffix}"
        result = CliRunner().invoke(app, ["label", str(source), "--per-turn", "-o", str(out)])
        assert result.exit_code == 0, result.output
        assert f"wrote {turns} turns of {dialogues} dialogue" in result.output
        assert list(read_turn_table(out)) == rows, suffix
