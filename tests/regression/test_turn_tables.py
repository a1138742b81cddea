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

#: Shared file -> (corpus, dialogues, turns, output formats checked): each dialogue
#: once. CSV on one file per corpus: both writers take the same rows, and labelling a
#: large file once more would only cost time.
SHARED = {
    "craigslist/validation.jsonl": ("craigslist", 357, 3305, (".parquet", ".csv")),
    "craigslist/test.jsonl": ("craigslist", 838, 7748, (".parquet",)),
    "craigslist/transcripts_extra.json": ("craigslist", 1154, 10580, (".parquet", ".csv")),
    "dealornodeal/val.txt": ("dealornodeal", 562, 3340, (".parquet", ".csv")),
    "dealornodeal/train.txt": ("dealornodeal", 5210, 31146, (".parquet",)),
    "casino/casino_valid.json": ("casino", 30, 402, (".parquet", ".csv")),
    "casino/casino_train.json": ("casino", 900, 12501, (".parquet",)),
    "mutualfriends/sample.jsonl": ("mutualfriends", 1, 6, (".parquet", ".csv")),
}


def _rows(frame: Any) -> list[dict[str, Any]]:
    plain = frame.astype(object).where(frame.notna(), None)
    return list(plain.to_dict("records"))


@pytest.mark.parametrize("name", sorted(SHARED))
def test_frame_parquet_and_csv_agree(data_dir: Path, tmp_path: Path, name: str) -> None:
    source = data_dir / name
    if not source.is_file():
        pytest.skip(f"{source} is not there")
    corpus, dialogues, turns, suffixes = SHARED[name]
    frame = actparse.to_frame(source, corpus=corpus)
    assert (frame["dialogue_id"].nunique(), len(frame)) == (dialogues, turns)
    rows = _rows(frame)
    for suffix in suffixes:
        out = tmp_path / f"turns{suffix}"
        result = CliRunner().invoke(app, ["label", str(source), "--per-turn", "-o", str(out)])
        assert result.exit_code == 0, result.output
        assert f"wrote {turns} turns of {dialogues} dialogues" in result.output
        assert list(read_turn_table(out)) == rows, suffix
