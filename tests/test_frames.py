"""``actparse.to_frame``: the per-turn table as a pandas DataFrame with the same columns
and dtypes for every corpus, and the rows ``--per-turn`` writes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from corpus_fixtures import CorpusFixtures

import actparse
from actparse.io.turn_files import read_turn_table
from actparse.io.turns import column_names

pd = pytest.importorskip("pandas", reason="to_frame needs pandas (actparse[pandas])")

FIXTURES = (
    "craigslist_validation_20.jsonl",
    "craigslist_transcripts_20.json",
    "dealornodeal_val_20.txt",
    "casino_20.json",
    "mutualfriends_card_sample.jsonl",
)


def frame_rows(frame: Any) -> list[dict[str, Any]]:
    """A frame's rows as plain values (pandas' NA as None), to compare with table rows."""
    plain = frame.astype(object).where(frame.notna(), None)
    return [
        {k: (int(v) if isinstance(v, int) else v) for k, v in row.items()}
        for row in plain.to_dict("records")
    ]


def test_the_dtypes_are_the_same_for_every_corpus(fixtures: CorpusFixtures) -> None:
    empty = actparse.to_frame([])
    assert tuple(empty.columns) == column_names() and len(empty) == 0
    expected = list(empty.dtypes)
    for name in FIXTURES:
        frame = actparse.to_frame(fixtures / name)
        assert list(frame.dtypes) == expected, name
    assert str(frame.dtypes["turn"]) == "int64" and str(frame.dtypes["price"]) == "Float64"
    assert isinstance(frame.dtypes["intent"], pd.StringDtype)


@pytest.mark.parametrize("name", FIXTURES)
def test_to_frame_has_the_rows_of_the_table(fixtures: CorpusFixtures, name: str) -> None:
    frame = actparse.to_frame(fixtures / name)
    assert frame_rows(frame) == list(actparse.iter_turn_rows(fixtures / name))


def test_to_frame_takes_records_and_a_corpus(fixtures: CorpusFixtures) -> None:
    records = [r.raw for r in actparse.read_records(fixtures / "casino_20.json")]
    frame = actparse.to_frame(records, corpus="casino")
    assert frame["dialogue_id"].nunique() == 20
    # CaSiNo has no roles or prices: null, typed.
    assert frame["role"].isna().all() and frame["price"].isna().all()
    with pytest.raises(actparse.InputError, match="a CaSiNo record, not CraigslistBargains"):
        actparse.to_frame(records, corpus="craigslist")


def test_the_frame_is_what_the_cli_writes(fixtures: CorpusFixtures, tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    source = fixtures / "dealornodeal_val_20.txt"
    out = tmp_path / "turns.parquet"
    done = subprocess.run(
        [sys.executable, "-m", "actparse", "label", str(source), "--per-turn", "-o", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    frame = actparse.to_frame(source)
    assert list(read_turn_table(out)) == frame_rows(frame)
    assert pd.read_parquet(out)["text"].tolist() == frame["text"].tolist()


def test_without_pandas_the_error_says_how_to_install_it(fixtures: CorpusFixtures) -> None:
    code = (
        "import sys; sys.modules['pandas'] = None\n"
        "import actparse\n"
        "try:\n"
        f"    actparse.to_frame({str(fixtures / 'casino_20.json')!r})\n"
        "except ImportError as err:\n"
        "    print(err)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "to_frame needs pandas: pip install 'actparse[pandas]'"
