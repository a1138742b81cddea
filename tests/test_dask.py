"""The README's Dask recipe (partitions of records, each labelled by ``to_frame`` with the
record before it and its first record's position) gives the rows ``actparse label
--per-turn`` writes, on a small in-process cluster. The README's own example runs in
``tests/test_readme.py``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from corpus_fixtures import CorpusFixtures
from typer.testing import CliRunner

import actparse
from actparse.cli import app
from actparse.io.turn_files import read_turn_table

dask = pytest.importorskip("dask", reason="the Dask recipe needs dask (actparse[dask])")
dd = pytest.importorskip("dask.dataframe", reason="the Dask recipe needs dask.dataframe")
distributed = pytest.importorskip("distributed", reason="the recipe runs on distributed")


def dask_turns(path: Path, size: int, workers: int = 1, processes: bool = False) -> Any:
    """The README's recipe: ``size`` records per partition, on ``workers`` threads of this
    process or, with ``processes``, worker processes."""
    records = list(actparse.read_records(path))
    parts = [
        dask.delayed(actparse.to_frame)(
            records[i : i + size], after=records[i - 1] if i else None, start=i
        )
        for i in range(0, len(records), size)
    ]
    with (
        dask.config.set({"dataframe.convert-string": False}),
        # Port 0, a free one: None still serves HTTP on 8787, which another test worker's
        # cluster may hold.
        distributed.LocalCluster(
            n_workers=workers, processes=processes, dashboard_address=":0"
        ) as cluster,
        distributed.Client(cluster),
    ):
        return dd.from_delayed(parts, meta=actparse.to_frame([])).compute()


def _rows(frame: Any) -> list[dict[str, Any]]:
    plain = frame.astype(object).where(frame.notna(), None)
    return list(plain.to_dict("records"))


@pytest.mark.parametrize(
    "name", ["dealornodeal_val_20.txt", "casino_20.json", "craigslist_validation_20.jsonl"]
)
def test_the_cluster_gives_the_rows_of_the_command_line(
    fixtures: CorpusFixtures, tmp_path: Path, name: str
) -> None:
    source = fixtures / name
    out = tmp_path / "turns.parquet"
    result = CliRunner().invoke(app, ["label", str(source), "--per-turn", "-o", str(out)])
    assert result.exit_code == 0, result.output
    # Two records per partition: Deal or No Deal's pairs of views straddle partitions.
    turns = dask_turns(source, size=2)
    assert _rows(turns) == list(read_turn_table(out))
    assert list(turns.dtypes) == list(actparse.to_frame([]).dtypes)


@pytest.mark.slow
def test_worker_processes_give_the_same_rows(fixtures: CorpusFixtures) -> None:
    """A real cluster sends the records to other processes: they must survive pickling
    (a thread cluster never pickles them)."""
    source = fixtures / "dealornodeal_val_20.txt"
    turns = dask_turns(source, size=3, workers=2, processes=True)
    assert _rows(turns.reset_index(drop=True)) == _rows(actparse.to_frame(source))
