"""A file's format is told by its suffix in any case: ``O3.JSONL.GZ`` is gzip, ``o4.Parquet``
Parquet, ``t.CSV`` a CSV table, as their lower-case spellings are.

Told by a case-sensitive suffix, each was written (or read) in another format than its name
says, with exit status 0: ``-o O3.JSONL.GZ`` wrote plain JSON lines, ``-o o4.Parquet`` and
``--per-turn -o o5.CSV`` JSON lines, and a ``.CSV`` or ``.JSONL.GZ`` input was read as
JSON lines (an error on its first line)."""

from __future__ import annotations

import gzip
from collections.abc import Callable
from pathlib import Path

import pytest
from corpus_fixtures import CorpusFixtures
from typer.testing import CliRunner

from actparse.cli import app
from actparse.io.suffixes import has_suffix
from actparse.io.turn_files import read_turn_table
from actparse.io.turns import column_names

runner = CliRunner()
SOURCE_NAME = "craigslist_validation_20.jsonl"
TABLE = "dialogue_id,speaker,text\nd1,A,Hi I want 2 books\nd1,B,ok deal\nd2,A,how about $5?\n"


def _gzip(data: bytes) -> bool:
    return data.startswith(b"\x1f\x8b")


def _parquet(data: bytes) -> bool:
    return data.startswith(b"PAR1")


def _csv_table(data: bytes) -> bool:
    return data.decode().startswith(",".join(column_names()))


def _csv_table_gzip(data: bytes) -> bool:
    return _gzip(data) and _csv_table(gzip.decompress(data))


#: An output name, the options before -o, and what the file written must be.
OUTPUTS = {
    "jsonl-gz-upper": ("O3.JSONL.GZ", [], _gzip),
    "jsonl-Gz-mixed": ("o3.jsonl.Gz", [], _gzip),
    "parquet-mixed": ("o4.Parquet", [], _parquet),
    "per-turn-csv-upper": ("o5.CSV", ["--per-turn"], _csv_table),
    "per-turn-csv-gz-upper": ("o5.CSV.GZ", ["--per-turn"], _csv_table_gzip),
    "per-turn-parquet-upper": ("o6.PARQUET", ["--per-turn"], _parquet),
}


@pytest.mark.parametrize(("name", "options", "written_as"), OUTPUTS.values(), ids=list(OUTPUTS))
def test_an_output_is_written_in_the_format_its_name_says_in_any_case(
    name: str,
    options: list[str],
    written_as: Callable[[bytes], bool],
    fixtures: CorpusFixtures,
    tmp_path: Path,
) -> None:
    if "parquet" in name.lower():
        pytest.importorskip("pyarrow")
    out = tmp_path / name
    result = runner.invoke(app, ["label", str(fixtures / SOURCE_NAME), *options, "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert written_as(out.read_bytes())


def test_a_gz_output_in_capitals_keeps_its_name_without_gz_in_the_header(
    fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    """gzip cuts '.gz' off the name it keeps, not '.GZ': 'gunzip -N' would restore
    ``O3.JSONL.GZ``, a name that says gzip for a file that is not."""
    out = tmp_path / "O3.JSONL.GZ"
    result = runner.invoke(app, ["label", str(fixtures / SOURCE_NAME), "-o", str(out)])
    assert result.exit_code == 0, result.output
    header = out.read_bytes()[:64]
    assert header[10 : header.index(b"\0", 10)] == b"O3.JSONL"


def test_labelled_records_to_a_csv_name_in_capitals_are_refused(
    fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    out = tmp_path / "out.CSV"
    result = runner.invoke(app, ["label", str(fixtures / SOURCE_NAME), "-o", str(out)])
    assert result.exit_code == 2
    assert "out.CSV: labelled records are written as JSON lines or Parquet" in result.output
    assert not out.exists()


def _as_csv(tmp_path: Path, fixtures: CorpusFixtures, name: str) -> Path:
    path = tmp_path / name
    path.write_text(TABLE)
    return path


def _as_csv_gzip(tmp_path: Path, fixtures: CorpusFixtures, name: str) -> Path:
    path = tmp_path / name
    path.write_bytes(gzip.compress(TABLE.encode()))
    return path


def _as_gzip(tmp_path: Path, fixtures: CorpusFixtures, name: str) -> Path:
    path = tmp_path / name
    path.write_bytes(gzip.compress((fixtures / SOURCE_NAME).read_bytes()))
    return path


def _as_parquet(tmp_path: Path, fixtures: CorpusFixtures, name: str) -> Path:
    pytest.importorskip("pyarrow")
    path = tmp_path / name
    made = runner.invoke(app, ["label", str(fixtures / SOURCE_NAME), "-o", str(path)])
    assert made.exit_code == 0, made.output
    return path


#: An input written under a name in capitals and under its lower-case name.
INPUTS = {
    "csv-upper": (_as_csv, "IN.CSV"),
    "csv-gz-mixed": (_as_csv_gzip, "in.Csv.Gz"),
    "jsonl-gz-upper": (_as_gzip, "IN.JSONL.GZ"),
    "parquet-upper": (_as_parquet, "IN.PARQUET"),
}


@pytest.mark.parametrize(("make", "name"), INPUTS.values(), ids=list(INPUTS))
def test_an_input_is_read_as_its_lower_case_name_is(
    make: Callable[[Path, CorpusFixtures, str], Path],
    name: str,
    fixtures: CorpusFixtures,
    tmp_path: Path,
) -> None:
    made = [make(tmp_path, fixtures, n) for n in (name, name.lower())]
    upper, lower = (runner.invoke(app, ["label", str(path)]) for path in made)
    assert lower.exit_code == 0, lower.output
    assert upper.exit_code == 0, upper.output
    assert upper.stdout == lower.stdout


@pytest.mark.parametrize(
    ("make", "name"),
    [
        pytest.param(_as_gzip, "in.jsonl", id="jsonl"),
        pytest.param(_as_csv_gzip, "in.csv", id="csv"),
    ],
)
def test_a_compressed_file_without_gz_in_its_name_is_read_by_its_bytes(
    make: Callable[[Path, CorpusFixtures, str], Path],
    name: str,
    fixtures: CorpusFixtures,
    tmp_path: Path,
) -> None:
    """Gzip compressed in place, under its old name: it read as text no format claimed
    ("cannot tell the format: this looks like a CSV table")."""
    compressed = make(tmp_path, fixtures, name)
    plain = tmp_path / f"plain-{name}"
    plain.write_bytes(gzip.decompress(compressed.read_bytes()))
    got, expected = (runner.invoke(app, ["label", str(p)]) for p in (compressed, plain))
    assert expected.exit_code == 0, expected.output
    assert got.exit_code == 0, got.output
    assert got.stdout == expected.stdout


def test_a_per_turn_table_reads_back_under_a_name_in_capitals(
    fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    source = str(fixtures / SOURCE_NAME)
    tables = [tmp_path / name for name in ("T.CSV.GZ", "t.csv")]
    for table in tables:
        result = runner.invoke(app, ["label", source, "--per-turn", "-o", str(table)])
        assert result.exit_code == 0, result.output
    upper, lower = (list(read_turn_table(table)) for table in tables)
    assert upper == lower and len(upper) > 0


@pytest.mark.parametrize(
    ("name", "suffixes", "expected"),
    [
        ("O3.JSONL.GZ", (".gz",), True),
        ("t.Csv.gz", (".csv", ".csv.gz"), True),
        ("o4.Parquet", (".parquet",), True),
        ("gz", (".gz",), False),
        ("notes.csv.txt", (".csv", ".csv.gz"), False),
    ],
    ids=["upper", "mixed-two-suffixes", "mixed", "bare-word", "suffix-inside"],
)
def test_has_suffix(name: str, suffixes: tuple[str, ...], expected: bool) -> None:
    assert has_suffix(name, *suffixes) is expected
    assert has_suffix(Path(name), *suffixes) is expected
