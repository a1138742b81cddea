"""Every shared corpus file: a dialogue's ``dialogue_id`` is unique in its table and the
same whichever path made the table: ``to_frame``, ``actparse label --per-turn``,
``Dataset.map(turns_batch, with_indices=True)`` at any batch size and with two
processes, and the README's Dask recipe.

``turns_batch`` labels every input row, both views of a Deal or No Deal dialogue
included, while the table keeps one view: the ids are compared on the dialogues both
have. A dialogue is told by its turns' writers and texts.
"""

from __future__ import annotations

import functools
import importlib.util
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import actparse
from actparse.cli import app
from actparse.io.turn_files import read_turn_table

pytestmark = [pytest.mark.corpus, pytest.mark.slow]
pytest.importorskip("pandas", reason="to_frame needs pandas (actparse[pandas])")
pytest.importorskip("pyarrow", reason="Parquet needs pyarrow (actparse[parquet])")

_spec = importlib.util.spec_from_file_location(
    "_turn_tables", Path(__file__).with_name("test_turn_tables.py")
)
assert _spec is not None and _spec.loader is not None
_turn_tables = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_turn_tables)
#: Shared file -> (corpus, dialogues with turns, turns), and the two large train files.
SHARED: dict[str, tuple[str, int, int]] = _turn_tables.SHARED
LARGE: set[str] = _turn_tables.LARGE
FILES = sorted({*SHARED, *LARGE})
#: Batch sizes for Dataset.map: one row, one that splits Deal or No Deal's pairs of
#: views, the size of the report, and more than most files hold.
BATCH_SIZES = (1, 7, 100, 1000)
#: Records per Dask partition (odd, so that pairs of views straddle partitions).
PARTITION = 151

Dialogues = dict[str, tuple[tuple[int, str], ...]]


def _source(data_dir: Path, name: str) -> Path:
    source = data_dir / name
    if not source.is_file():
        pytest.skip(f"{source} is not there")
    return source


def _dialogues(rows: Iterable[dict[str, Any]]) -> Dialogues:
    """Each id's dialogue (its writers and texts), checking that an id's rows are one
    run: an id that came back after another would be two dialogues under one id."""
    found: dict[str, list[tuple[int, str]]] = {}
    last = None
    for row in rows:
        ident = row["dialogue_id"]
        if ident != last:
            assert ident not in found, f"dialogue_id {ident!r} given to two dialogues"
            found[ident] = []
            last = ident
        found[ident].append((int(row["agent"]), str(row["text"])))
    return {ident: tuple(turns) for ident, turns in found.items()}


@functools.cache
def _table(source: Path) -> Dialogues:
    frame = actparse.to_frame(source)
    return _dialogues(frame[["dialogue_id", "agent", "text"]].to_dict("records"))


@pytest.mark.parametrize("name", FILES)
def test_to_frame_and_the_command_line_give_the_same_unique_ids(
    data_dir: Path, tmp_path: Path, name: str
) -> None:
    source = _source(data_dir, name)
    table = _table(source)
    if name in SHARED:
        assert len(table) == SHARED[name][1]
    out = tmp_path / "turns.parquet"
    result = CliRunner().invoke(app, ["label", str(source), "--per-turn", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert _dialogues(read_turn_table(out)) == table
    if name == "mutualfriends/transcripts_sample.json":
        said = " ".join(result.output.split())
        assert "wrote 102 turns of 14 dialogues (1 dialogue has no turns, so no rows)" in said


def _records(source: Path) -> list[dict[str, Any]]:
    return [r.raw for r in actparse.read_records(source)]


def _batched_turns(records: list[dict[str, Any]], size: int) -> Iterator[dict[str, Any]]:
    """``turns_batch`` called as ``Dataset.map(batched=True, with_indices=True)`` calls it,
    for inputs one Arrow table cannot hold (Cocoa transcripts mix text and objects in
    ``data``)."""
    for start in range(0, len(records), size):
        chunk = records[start : start + size]
        fields = list(dict.fromkeys(f for r in chunk for f in r))
        batch = {f: [r.get(f) for r in chunk] for f in fields}
        indices = list(range(start, start + len(chunk)))
        for turns in actparse.turns_batch(batch, indices)["turns"]:
            yield from turns


def _mapped_turns(records: list[dict[str, Any]], size: int, num_proc: int | None) -> list[Any]:
    datasets = pytest.importorskip("datasets", reason="needs datasets (actparse[test])")
    datasets.disable_progress_bars()
    dataset = datasets.Dataset.from_list(records)
    mapped = dataset.map(
        actparse.turns_batch,
        batched=True,
        batch_size=size,
        with_indices=True,
        features=actparse.turn_features(dataset.features),
        num_proc=num_proc,
        load_from_cache_file=False,
    )
    return [turn for turns in mapped["turns"] for turn in turns]


def _loads_as_a_dataset(name: str) -> bool:
    """Cocoa transcripts (a JSON list of events whose ``data`` mixes text and objects)
    do not load as a ``datasets.Dataset``; every other shared file does."""
    return not name.startswith(("craigslist/transcripts", "mutualfriends/transcripts"))


def _assert_same_ids(batch: Dialogues, table: Dialogues, name: str) -> None:
    """Every dialogue of the table has its id in the batch output, with the same turns;
    the batch output has every input row, so for a corpus of two views it has more."""
    assert {ident: batch.get(ident) for ident in table} == table
    if name.startswith("dealornodeal/"):
        assert len(batch) > len(table)
    else:
        assert len(batch) == len(table)


@pytest.mark.parametrize("name", FILES)
def test_turns_batch_with_indices_gives_the_tables_ids(data_dir: Path, name: str) -> None:
    source = _source(data_dir, name)
    table = _table(source)
    records = _records(source)
    # The large files at one batch size: the others add time and nothing new.
    sizes = (1000,) if name in LARGE else BATCH_SIZES
    for size in sizes:
        if _loads_as_a_dataset(name):
            turns = _mapped_turns(records, size, None)
        else:
            turns = list(_batched_turns(records, size))
        _assert_same_ids(_dialogues(turns), table, name)
    if _loads_as_a_dataset(name) and name not in LARGE:
        turns = _mapped_turns(records, 100, 2)
        _assert_same_ids(_dialogues(turns), table, name)


def test_the_reported_case_loads_and_keeps_838_ids(data_dir: Path, tmp_path: Path) -> None:
    """As reported: the Craigslist test split loaded by datasets' JSON loader, 100 rows a
    batch (it gave ``batch:1`` to ``batch:100`` again in every batch: 100 ids)."""
    datasets = pytest.importorskip("datasets", reason="needs datasets (actparse[test])")
    datasets.disable_progress_bars()
    source = _source(data_dir, "craigslist/test.jsonl")
    ds = datasets.load_dataset(
        "json", data_files=str(source), split="train", cache_dir=str(tmp_path)
    )
    mapped = ds.map(
        actparse.turns_batch,
        batched=True,
        batch_size=100,
        with_indices=True,
        features=actparse.turn_features(ds.features),
    )
    ids = {r["turns"][0]["dialogue_id"] for r in mapped if r["turns"]}
    assert len(ids) == 838
    assert _dialogues(t for r in mapped for t in r["turns"]) == _table(source)


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    """One small in-process cluster for every file (starting one takes a second)."""
    pytest.importorskip("dask.dataframe", reason="the Dask recipe needs dask (actparse[dask])")
    distributed = pytest.importorskip("distributed", reason="the recipe runs on distributed")
    import dask

    with (
        dask.config.set({"dataframe.convert-string": False}),
        # Port 0, a free one: None still serves HTTP on 8787, which another test worker's
        # cluster may hold.
        distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=":0") as local,
        distributed.Client(local),
    ):
        yield


@pytest.mark.parametrize("name", sorted(SHARED))
def test_the_dask_recipe_gives_the_tables_ids(data_dir: Path, cluster: None, name: str) -> None:
    """The README's recipe: partitions of records, each with the record before it and
    the position of its first record (the large files left out: the same code, longer)."""
    import dask
    import dask.dataframe as dd

    source = _source(data_dir, name)
    records = list(actparse.read_records(source))
    parts = [
        dask.delayed(actparse.to_frame)(
            records[i : i + PARTITION], after=records[i - 1] if i else None, start=i
        )
        for i in range(0, len(records), PARTITION)
    ]
    turns = dd.from_delayed(parts, meta=actparse.to_frame([])).compute()
    rows = turns[["dialogue_id", "agent", "text"]].to_dict("records")
    assert _dialogues(rows) == _table(source)
