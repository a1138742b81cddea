"""Batch labelling: bad input with nothing lost, parallel order, workers only for an input
of more than one task, gzip, Parquet and datasets.map giving the same acts as the JSON
lines path."""

from __future__ import annotations

import gzip
import json
from multiprocessing.context import BaseContext
from pathlib import Path
from typing import Any

import pytest
from corpus_fixtures import CorpusFixtures
from typer.testing import CliRunner

from actparse import label_batch
from actparse.cli import app
from actparse.corpora.craigslist.parser import default_parser
from actparse.io.batch import TASK_SIZE, iter_items, label_items, label_path
from actparse.io.memory import GC_THRESHOLD, fewer_collections, freed_memory_release
from actparse.io.records import InputError, read_records

runner = CliRunner()


def _lines(fixtures: CorpusFixtures) -> list[str]:
    return (fixtures / "craigslist_validation_20.jsonl").read_text().splitlines()


@pytest.fixture
def bad_file(fixtures: CorpusFixtures, tmp_path: Path) -> Path:
    lines = _lines(fixtures)
    no_utterance = json.loads(lines[0])
    del no_utterance["utterance"]
    huge = json.loads(lines[1])
    huge["utterance"][0] = "so " * 350_000 + "would you take $100?"  # about 1 MB
    path = tmp_path / "bad.jsonl"
    path.write_text(
        "\n".join([lines[0], "{not json", json.dumps(no_utterance), json.dumps(huge), lines[2]])
        + "\n"
    )
    return path


def test_keep_writes_every_record_and_counts_the_bad_ones(bad_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["label", str(bad_file), "-o", str(out), "--on-error", "keep"])
    assert result.exit_code == 0, result.output
    records = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(records) == 5
    errors = [r.get("actparse_error") for r in records]
    assert errors[0] is None and errors[3] is None and errors[4] is None
    assert errors[1].startswith(f"{bad_file}:2: not valid JSON")
    assert records[1]["actparse_input"] == "{not json\n"
    assert errors[2] == f"{bad_file}:3: missing field 'utterance'"
    assert "turn" not in records[2] and "dialogue_acts" in records[2]  # kept unchanged
    assert "2 of 5 records could not be labelled" in result.output


def test_stop_names_the_line_and_leaves_no_file(bad_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["label", str(bad_file), "-o", str(out)])
    assert result.exit_code == 2
    assert f"{bad_file}:2: not valid JSON" in result.output
    assert not out.exists()
    assert not list(tmp_path.glob(".*part"))


def test_a_bad_record_leaves_its_batch_neighbours_as_they_were(
    bad_file: Path, fixtures: CorpusFixtures
) -> None:
    # The bad records make their batch fall back to labelling record by record.
    kept = [o.line for o in label_items(iter_items(bad_file), on_error="keep")]
    clean = [o.line for o in label_items(iter_items(fixtures / "craigslist_validation_20.jsonl"))]
    assert kept[0] == clean[0] and kept[4] == clean[2]


def test_parse_many_gives_what_parse_gives(fixtures: CorpusFixtures) -> None:
    parser = default_parser()
    dialogues = [r.dialogue() for r in read_records(fixtures / "craigslist_validation_20.jsonl")]
    assert parser.parse_many(dialogues) == [parser.parse(d) for d in dialogues]


@pytest.mark.usefixtures("tasks_of_one")
def test_parallel_output_keeps_input_order(fixtures: CorpusFixtures) -> None:
    source = fixtures / "craigslist_validation_20.jsonl"
    one = [o.line for o in label_items(iter_items(source), jobs=1)]
    two = [o.line for o in label_items(iter_items(source), jobs=2)]
    assert one == two and len(one) == 20


def _pools_started(monkeypatch: pytest.MonkeyPatch, *, refused: bool = False) -> list[int]:
    """The worker counts of the pools started from now on (``refused``: none may start)."""
    started: list[int] = []
    start = BaseContext.Pool

    def counted(self: BaseContext, processes: int, *args: Any, **kwargs: Any) -> Any:
        if refused:
            raise AssertionError("a worker pool was started")
        started.append(processes)
        return start(self, processes, *args, **kwargs)

    monkeypatch.setattr(BaseContext, "Pool", counted)
    return started


def _labelled(source: Path, out: Path, jobs: int) -> bytes:
    label_path(source, out, jobs=jobs, on_error="keep")
    return out.read_bytes()


@pytest.mark.parametrize("empty", [False, True], ids=["bad-records", "empty"])
def test_an_input_of_one_task_is_labelled_without_workers(
    empty: bool, bad_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "empty.jsonl" if empty else bad_file
    if empty:
        source.write_text("")
    one = _labelled(source, tmp_path / "one.jsonl", jobs=1)
    _pools_started(monkeypatch, refused=True)
    assert _labelled(source, tmp_path / "two.jsonl", jobs=2) == one


def _hf_lines(fixtures: CorpusFixtures, count: int) -> list[str]:
    """``count`` Craigslist HF lines (the fixture's, repeated): their new acts are spliced in."""
    lines = _lines(fixtures)
    return (lines * (count // len(lines) + 1))[:count]


@pytest.fixture(scope="module")
def two_tasks(fixtures: CorpusFixtures, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One task of HF lines, then a line not JSON: the second task, an error record."""
    path = tmp_path_factory.mktemp("tasks") / "two-tasks.jsonl"
    path.write_text("\n".join([*_hf_lines(fixtures, TASK_SIZE), "{not json"]) + "\n")
    return path


@pytest.fixture(scope="module")
def two_tasks_in_one_process(two_tasks: Path) -> bytes:
    return _labelled(two_tasks, two_tasks.with_name("one.jsonl"), jobs=1)


def test_an_input_of_more_than_one_task_is_labelled_by_workers(
    two_tasks: Path,
    two_tasks_in_one_process: bytes,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started = _pools_started(monkeypatch)
    assert _labelled(two_tasks, tmp_path / "two.jsonl", jobs=2) == two_tasks_in_one_process
    assert started == [2]


def test_an_input_of_exactly_one_task_is_labelled_without_workers(
    fixtures: CorpusFixtures,
    two_tasks_in_one_process: bytes,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    one_task = tmp_path / "one-task.jsonl"
    one_task.write_text("\n".join(_hf_lines(fixtures, TASK_SIZE)) + "\n")
    _pools_started(monkeypatch, refused=True)
    labelled = _labelled(one_task, tmp_path / "two.jsonl", jobs=2)
    # The same records, labelled as the first task of the two above.
    assert labelled == b"".join(two_tasks_in_one_process.splitlines(keepends=True)[:TASK_SIZE])


def test_gzip_in_and_out(fixtures: CorpusFixtures, tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl.gz"
    source.write_bytes(gzip.compress((fixtures / "craigslist_validation_20.jsonl").read_bytes()))
    out = tmp_path / "out.jsonl.gz"
    result = runner.invoke(app, ["label", str(source), "-o", str(out), "-j", "1"])
    assert result.exit_code == 0, result.output
    plain = runner.invoke(app, ["label", str(fixtures / "craigslist_validation_20.jsonl")])
    got = gzip.decompress(out.read_bytes()).decode().splitlines()
    assert got == [line for line in plain.stdout.splitlines() if line.startswith("{")]


def _acts_of_json_path(
    fixtures: CorpusFixtures, field: str = "dialogue_acts"
) -> list[dict[str, list[object]]]:
    return [
        json.loads(o.line)[field]
        for o in label_items(iter_items(fixtures / "craigslist_validation_20.jsonl"))
    ]


def test_parquet_gives_the_same_acts(fixtures: CorpusFixtures, tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    rows = [json.loads(line) for line in _lines(fixtures)]
    table = pa.Table.from_pylist(rows)
    source = tmp_path / "in.parquet"
    pq.write_table(table, source)
    out = tmp_path / "out.parquet"
    result = runner.invoke(app, ["label", str(source), "-o", str(out)])
    assert result.exit_code == 0, result.output
    labelled = pq.read_table(out)
    # The HF column layout is kept as it was, dialogue_acts included; actparse's own
    # lists come in one new column.
    assert labelled.schema.remove(labelled.schema.get_field_index("actparse")) == table.schema
    added = labelled.schema.field("actparse").type
    assert [added.field(k).name for k in range(added.num_fields)] == ["strategies", "no_act"]
    assert labelled.column("dialogue_acts").to_pylist() == _acts_of_json_path(fixtures)
    assert labelled.column("actparse").to_pylist() == _acts_of_json_path(fixtures, "actparse")


def test_datasets_map_gives_the_same_acts(fixtures: CorpusFixtures) -> None:
    datasets = pytest.importorskip("datasets")
    rows = [json.loads(line) for line in _lines(fixtures)]
    dataset = datasets.Dataset.from_list(rows)
    mapped = dataset.map(label_batch, batched=True, num_proc=2)
    assert mapped["dialogue_acts"] == _acts_of_json_path(fixtures)
    assert mapped["actparse"] == _acts_of_json_path(fixtures, "actparse")


def test_label_batch_says_when_the_columns_are_not_hf_craigslist(fixtures: CorpusFixtures) -> None:
    transcript = json.loads((fixtures / "craigslist_transcripts_20.json").read_text())[0]
    columns = {name: [value] for name, value in transcript.items()}
    with pytest.raises(InputError, match=r"keeps its acts in one column \(hf\), not cocoa"):
        label_batch(columns)


def test_fewer_collections_while_labelling_and_the_threshold_put_back() -> None:
    import gc

    old = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        with fewer_collections():
            assert gc.get_threshold() == (GC_THRESHOLD, 10, 10)
        assert gc.get_threshold() == (700, 10, 10)
        gc.set_threshold(GC_THRESHOLD * 2, 5, 5)  # a caller's higher threshold is kept
        with fewer_collections():
            assert gc.get_threshold() == (GC_THRESHOLD * 2, 5, 5)
        gc.set_threshold(700, 10, 10)
        with pytest.raises(RuntimeError), fewer_collections():
            raise RuntimeError  # put back on an error too
        assert gc.get_threshold() == (700, 10, 10)
    finally:
        gc.set_threshold(*old)


def test_the_parent_can_hand_freed_memory_back() -> None:
    # glibc's malloc_trim where there is one (it returns 1 when it released memory, 0
    # when there was none to release), a no-op returning None elsewhere.
    import ctypes

    release = freed_memory_release()
    try:
        has_trim = hasattr(ctypes.CDLL(None), "malloc_trim")
    except (OSError, TypeError):
        has_trim = False
    garbage = [bytearray(1 << 16) for _ in range(256)]  # 16 MB, then freed
    del garbage
    first, second = release(), release()
    if has_trim:
        assert first in (0, 1) and second in (0, 1)
    else:
        assert first is None and second is None


def test_parquet_types_a_column_empty_in_the_first_batch_from_later_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A first batch whose turns have no strategy labels (empty or skipped messages) gave
    # Arrow's null type inside the lists, and every later label made the run fail.
    pq = pytest.importorskip("pyarrow.parquet")
    from actparse.io import parquet

    monkeypatch.setattr(parquet, "BATCH_ROWS", 2)
    rows = [
        {"dialogue_acts": {"intent": [""], "strategies": [[]]}, "acts": [{"split": None}]},
        {"dialogue_acts": {"intent": [""], "strategies": [[]]}, "acts": [{"split": None}]},
        {"dialogue_acts": {"intent": ["x"], "strategies": [["small-talk"]]}, "acts": []},
    ]
    out = tmp_path / "out.parquet"
    with parquet.ParquetSink(out) as sink:
        for row in rows:
            sink.write(json.dumps(row))
    assert pq.read_table(out).to_pylist()[2]["dialogue_acts"] == rows[2]["dialogue_acts"]


@pytest.mark.parametrize("keep", [True, False], ids=["keep", "stop"])
def test_parquet_never_drops_a_field_first_seen_after_the_first_batch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, keep: bool
) -> None:
    # The schema is fixed by the first batch; Arrow dropped, without a word, a key it had
    # no place for (an act's optional split_uncertain first met in a later batch).
    pq = pytest.importorskip("pyarrow.parquet")
    from actparse.io import parquet

    monkeypatch.setattr(parquet, "BATCH_ROWS", 1)
    later = {"id": 2, "acts": [{"turn": 0, "split_uncertain": ["count-assumed"]}]}
    rows = [{"id": 1, "acts": [{"turn": 0}]}, later, {"id": 3, "acts": [{"turn": 0}]}]
    out = tmp_path / "out.parquet"
    if not keep:
        lost = r"record 2 has a field 'acts\[\]\.split_uncertain'"
        with pytest.raises(InputError, match=lost), parquet.ParquetSink(out) as sink:
            for row in rows:
                sink.write(json.dumps(row))
        return
    with parquet.ParquetSink(out, keep_errors=True) as sink:
        for row in rows:
            sink.write(json.dumps(row))
    written = pq.read_table(out).to_pylist()
    assert [r["id"] for r in written] == [1, None, 3] and sink.unwritable == 1
    assert json.loads(written[1]["actparse_input"]) == later  # kept whole, as text


@pytest.mark.parametrize("name", ["craigslist_validation_20.jsonl", "casino_20.json"])
def test_labelled_parquet_goes_through_eval_and_report(
    fixtures: CorpusFixtures, tmp_path: Path, name: str
) -> None:
    # label writes Parquet; eval and report read records through read_records, which
    # had taken the file for text ("cannot tell the format", or "not valid UTF-8").
    pytest.importorskip("pyarrow")
    out = tmp_path / "labelled.parquet"
    assert runner.invoke(app, ["label", str(fixtures / name), "-o", str(out)]).exit_code == 0
    figures = [
        json.loads(runner.invoke(app, ["eval", str(path), "--json"]).output)["figures"]
        for path in (fixtures / name, out)
    ]
    assert figures[0] == figures[1]
    records = list(read_records(out))
    assert [r.line for r in records] == list(range(1, len(records) + 1))
    assert records[0].where == f"{out}:1"
