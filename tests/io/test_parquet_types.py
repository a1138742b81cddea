"""Parquet columns of every Arrow type a Parquet file holds, through ``label`` (issue 28).

A valid record (a Craigslist HF row, a chat turn table) with an extra column of each
type: ``.parquet`` output keeps each column and its values as they were; ``.jsonl``
output writes each by the rule of :mod:`actparse.io.arrow_values`; keep mode writes every
row and stop mode labels the file, with ``--jobs 1`` and ``2``. A value Python cannot
hold (a timestamp past the year 9999) costs its row only.
"""

from __future__ import annotations

import datetime
import decimal
import json
from pathlib import Path
from typing import Any

import pytest
from corpus_fixtures import FIXTURES
from typer.testing import CliRunner

from actparse.cli import app

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
runner = CliRunner()
ROWS = 5
WHEN = datetime.datetime(2020, 1, 2, 3, 4, 5, 6)


def _columns() -> dict[str, tuple[Any, Any, Any]]:
    """Name: (Arrow type, the value of every row, what JSON output holds)."""
    paris = datetime.timezone(datetime.timedelta(hours=1))
    day = datetime.date(2020, 1, 2)
    span = datetime.timedelta(days=1, seconds=3723, microseconds=500000)
    big = decimal.Decimal("12345678901234567890123456789.123456789")
    return {
        "timestamp": (pa.timestamp("us"), WHEN, "2020-01-02T03:04:05.000006"),
        "timestamp_tz": (
            pa.timestamp("s", tz="+01:00"),
            datetime.datetime(2020, 1, 2, 3, 4, 5, tzinfo=paris),
            "2020-01-02T03:04:05+01:00",
        ),
        "timestamp_ns": (pa.timestamp("ns"), 1_577_934_245_000_000_001, None),
        "date32": (pa.date32(), day, "2020-01-02"),
        "date64": (pa.date64(), day, "2020-01-02"),
        "time64": (pa.time64("us"), datetime.time(3, 4, 5, 6), "03:04:05.000006"),
        "time32": (pa.time32("s"), datetime.time(3, 4, 5), "03:04:05"),
        "duration": (pa.duration("us"), span, "P1DT1H2M3.5S"),
        "duration_negative": (pa.duration("s"), -datetime.timedelta(seconds=5), "-P0DT0H0M5S"),
        "binary": (pa.binary(), b"\x00\xff", "AP8="),
        "large_binary": (pa.large_binary(), b"abc", "YWJj"),
        "fixed_binary": (pa.binary(2), b"\x01\x02", "AQI="),
        "decimal128": (pa.decimal128(10, 2), decimal.Decimal("1.50"), "1.50"),
        "decimal256": (pa.decimal256(60, 9), big, str(big)),
        "decimal_exponent": (pa.decimal128(38, 0), decimal.Decimal("1E+30"), "1" + "0" * 30),
        "list_of_timestamps": (pa.list_(pa.timestamp("ms")), [WHEN.replace(microsecond=0)], None),
        "struct_of_binary": (
            pa.struct([("b", pa.binary()), ("d", pa.decimal128(5, 1))]),
            {"b": b"\x00", "d": decimal.Decimal("2.5")},
            {"b": "AA==", "d": "2.5"},
        ),
        "map": (pa.map_(pa.string(), pa.date32()), [("k", day)], [["k", "2020-01-02"]]),
        "map_binary_keys": (pa.map_(pa.binary(), pa.int64()), [(b"k", 1)], [["aw==", 1]]),
        "float_nan": (pa.float64(), float("nan"), None),
        "float_inf": (pa.float64(), float("inf"), float("inf")),
        "float16": (pa.float16(), None, None),
        "uint64": (pa.uint64(), 2**64 - 1, 2**64 - 1),
    }


def _table(rows: list[dict[str, Any]]) -> Any:
    table = pa.Table.from_pylist(rows)
    for name, (kind, value, _json) in _columns().items():
        table = table.append_column(name, pa.array([value] * table.num_rows, kind))
    dictionary = pa.array(["a", "b", "a", "b", "a"][: table.num_rows]).dictionary_encode()
    return table.append_column("dictionary", dictionary)


def _hf_rows() -> list[dict[str, Any]]:
    lines = (FIXTURES / "craigslist_validation_20.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines[:ROWS]]


def _label(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["label", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    return result.exit_code, result.output


MODES = [
    pytest.param(mode, jobs, id=f"{mode}-jobs{jobs}")
    for mode in ("keep", "stop")
    for jobs in ("1", "2")
]


@pytest.mark.usefixtures("tasks_of_one")
@pytest.mark.parametrize(("mode", "jobs"), MODES)
def test_every_arrow_type_is_carried_to_a_parquet_output(
    mode: str, jobs: str, tmp_path: Path
) -> None:
    path, out = tmp_path / "in.parquet", tmp_path / "out.parquet"
    pq.write_table(_table(_hf_rows()), path)
    table = pq.read_table(path)  # as Parquet holds it (a timestamp in s is stored in ms)
    code, output = _label(str(path), "-o", str(out), "--on-error", mode, "--jobs", jobs)
    assert code == 0, output
    written = pq.read_table(out)
    assert written.num_rows == ROWS
    if mode == "keep":
        assert written.column("actparse_error").null_count == ROWS
    for name in [*_columns(), "dictionary"]:
        assert written.schema.field(name).type == table.schema.field(name).type, name
        if name == "float_nan":  # NaN equals nothing, itself included
            assert all(v != v for v in written.column(name).to_pylist())
        else:
            assert written.column(name).equals(table.column(name)), name
    assert all(row["intent"] for row in written.column("dialogue_acts").to_pylist())


@pytest.mark.usefixtures("tasks_of_one")
@pytest.mark.parametrize(("mode", "jobs"), MODES)
def test_every_arrow_type_is_written_to_json_by_its_rule(
    mode: str, jobs: str, tmp_path: Path
) -> None:
    path, out = tmp_path / "in.parquet", tmp_path / "out.jsonl"
    pq.write_table(_table(_hf_rows()), path)
    code, output = _label(str(path), "-o", str(out), "--on-error", mode, "--jobs", jobs)
    assert code == 0, output
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == ROWS and not any("actparse_error" in r for r in records)
    first = records[0]
    for name, (_kind, _value, expected) in _columns().items():
        if expected is not None:
            assert first[name] == expected, name
    assert first["timestamp_ns"] == "2020-01-02T03:04:05.000000001"
    assert first["list_of_timestamps"] == ["2020-01-02T03:04:05"]
    assert first["float_nan"] != first["float_nan"]  # NaN, written as NaN
    assert [r["dictionary"] for r in records] == ["a", "b", "a", "b", "a"]


@pytest.mark.usefixtures("tasks_of_one")
def test_a_chat_turn_table_keeps_its_typed_columns(tmp_path: Path) -> None:
    rows = [
        {"dialogue_id": d, "speaker": s, "text": t, "turn": k}
        for d in ("a", "b")
        for k, (s, t) in enumerate([("buyer", "hi, would you take $40?"), ("seller", "no, $50")])
    ]
    path = tmp_path / "in.parquet"
    pq.write_table(_table(rows[:4]), path)
    table = pq.read_table(path)
    for jobs in ("1", "2"):
        out = tmp_path / "out.parquet"
        assert _label(str(path), "-o", str(out), "--on-error", "keep", "--jobs", jobs)[0] == 0
        written = pq.read_table(out)
        assert written.num_rows == 4 and written.column("actparse_error").null_count == 4
        assert written.column("timestamp").equals(table.column("timestamp"))
        assert written.column("binary").equals(table.column("binary"))


def _out_of_range(tmp_path: Path) -> Path:
    """The HF rows with a timestamp column whose third value is past the year 9999."""
    table = pa.Table.from_pylist(_hf_rows())
    millis = [0, 0, 2**62, 0, 0]  # 2**62 ms: far past the year 9999 datetime stops at
    table = table.append_column("when", pa.array(millis, pa.timestamp("ms")))
    path = tmp_path / "in.parquet"
    pq.write_table(table, path)
    return path


@pytest.mark.usefixtures("tasks_of_one")
@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_keep_a_value_python_cannot_hold_costs_its_row_only(
    jobs: str, suffix: str, tmp_path: Path
) -> None:
    path, out = _out_of_range(tmp_path), tmp_path / f"out{suffix}"
    code, output = _label(str(path), "-o", str(out), "--on-error", "keep", "--jobs", jobs)
    assert code == 0, output
    if suffix == ".jsonl":
        records = [json.loads(line) for line in out.read_text().splitlines()]
    else:
        records = pq.read_table(out).to_pylist()
    errors = [r.get("actparse_error") for r in records]
    assert len(records) == ROWS and sum(e is not None for e in errors) == 1
    assert str(errors[2]).startswith(f"{path}:3: column 'when'")


@pytest.mark.usefixtures("tasks_of_one")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_stop_a_value_python_cannot_hold_names_file_row_and_column(
    jobs: str, tmp_path: Path
) -> None:
    path, out = _out_of_range(tmp_path), tmp_path / "out.jsonl"
    code, output = _label(str(path), "-o", str(out), "--jobs", jobs)
    assert code == 2
    assert f"error: {path}:3: column 'when'" in " ".join(output.split())
    assert not out.exists()


def test_eval_reads_a_parquet_file_with_typed_columns(tmp_path: Path) -> None:
    path = tmp_path / "in.parquet"
    pq.write_table(_table(_hf_rows()), path)
    result = runner.invoke(app, ["eval", str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["corpus"] == "craigslist"


@pytest.mark.parametrize("mode", ["keep", "stop"])
def test_a_parquet_file_naming_a_column_twice_stops_the_run(mode: str, tmp_path: Path) -> None:
    # A row keeps one field per name: the first 'text' column was lost without a word.
    columns = [pa.array(["d1", "d1"]), pa.array(["ann", "bob"]), pa.array(["hi", "$5?"])]
    table = pa.Table.from_arrays(
        [*columns, pa.array(["x", "y"])], names=["dialogue_id", "speaker", "text", "text"]
    )
    path = tmp_path / "in.parquet"
    pq.write_table(table, path)
    code, output = _label(str(path), "--on-error", mode, "-o", str(tmp_path / "out.jsonl"))
    assert code == 2 and "the column 'text' is named twice" in " ".join(output.split())
