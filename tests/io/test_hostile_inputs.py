"""Hostile input at the reader level, for every corpus and layout (issue 13).

``--on-error keep``: exactly one output record per input record (line, list element),
the broken ones as error records naming the file, exit status 0 (1 when every record is
broken) and the count printed. ``--on-error stop``: exit status 2, the message names the
file and the line, and no output file (nor its temporary) is left. Standard input
(``-``) reads like a file.
"""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import Result
from hostile_cases import FIXTURES, Case, all_cases
from typer.testing import CliRunner

from actparse.cli import app

runner = CliRunner()
CASES = [pytest.param(case, id=f"{corpus}-{case.id}") for corpus, case in all_cases()]


def _write(tmp_path: Path, case: Case) -> Path:
    path = tmp_path / case.name
    path.write_bytes(case.content)
    return path


def _label(*args: str, stdin: bytes | None = None) -> tuple[int, str]:
    """Exit status, and what was printed (stdout and stderr)."""
    result = _invoke(*args, stdin=stdin)
    return result.exit_code, result.output


def _invoke(*args: str, stdin: bytes | None = None) -> Result:
    result = runner.invoke(app, ["label", *args, "--jobs", "1"], input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def _format_args(case: Case) -> list[str]:
    return [] if case.fmt == "auto" else ["--format", case.fmt]


@pytest.mark.parametrize("case", CASES)
def test_keep_writes_one_record_per_input_record(case: Case, tmp_path: Path) -> None:
    path = _write(tmp_path, case)
    out = tmp_path / "out.jsonl"
    code, output = _label(str(path), "-o", str(out), "--on-error", "keep", *_format_args(case))
    assert code == (1 if case.errors == case.records > 0 else 0), output
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(records) == case.records
    errors = [r["actparse_error"] for r in records if "actparse_error" in r]
    assert len(errors) == case.errors, errors
    assert all(e.startswith(f"{path}:") for e in errors), errors
    if case.errors:
        assert f"{case.errors} of {case.records} records could not be labelled" in output
    if case.first_error is not None:
        assert re.match(rf"{re.escape(str(path))}:{case.first_error}[:;]", errors[0]), errors[0]


@pytest.mark.parametrize("case", [c for c in CASES if c.values[0].errors])
def test_stop_names_file_and_line_and_leaves_nothing(case: Case, tmp_path: Path) -> None:
    path = _write(tmp_path, case)
    out = tmp_path / "out.jsonl"
    code, output = _label(str(path), "-o", str(out), *_format_args(case))
    assert code == 2, output
    message = " ".join(output.split())  # the console wraps long messages
    expected = case.first_error if case.first_error is not None else r"\d+"
    assert re.search(rf"error: {re.escape(str(path))}:{expected}[:;]", message), message
    assert sorted(p.name for p in tmp_path.iterdir()) == [case.name]


@pytest.mark.parametrize(
    "case",
    [c for c in CASES if "lone-surrogate" in c.id],
)
def test_lone_surrogate_is_written_escaped_and_reads_back(case: Case, tmp_path: Path) -> None:
    path = _write(tmp_path, case)
    out = tmp_path / "out.jsonl"
    assert _label(str(path), "-o", str(out))[0] == 0
    text = out.read_text(encoding="utf-8")  # valid UTF-8: the surrogate is an escape
    assert "\\ud800" in text
    assert "\ud800" in json.dumps(
        [json.loads(line) for line in text.splitlines()], ensure_ascii=False
    )


def test_error_record_with_a_lone_surrogate_is_written(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text('{"utterance": ["\\ud800"], "agent_turn": [0], "items": 5}\n')
    out = tmp_path / "out.jsonl"
    assert _label(str(path), "-o", str(out), "--on-error", "keep")[0] == 1  # its one record is bad
    (record,) = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert record["utterance"] == ["\ud800"] and "actparse_error" in record


# ---------------------------------------------------------------------------------------
# Standard input
# ---------------------------------------------------------------------------------------

STDIN_FIXTURES = [
    pytest.param("craigslist_validation_20.jsonl", 20, id="hf"),
    pytest.param("craigslist_transcripts_20.json", 20, id="cocoa"),
    pytest.param("casino_20.json", 20, id="casino"),
    pytest.param("dealornodeal_val_20.txt", 19, id="dealornodeal"),
    pytest.param("mutualfriends_handmade.jsonl", 2, id="mutualfriends"),
]


@pytest.mark.parametrize(("name", "count"), STDIN_FIXTURES)
def test_dash_reads_standard_input_for_every_format(name: str, count: int) -> None:
    result = _invoke("-", "--on-error", "keep", stdin=(FIXTURES / name).read_bytes())
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == count
    assert not any("actparse_error" in json.loads(line) for line in lines)


def test_eval_reads_standard_input() -> None:
    text = (FIXTURES / "dealornodeal_val_20.txt").read_bytes()
    result = runner.invoke(app, ["eval", "-", "--json"], input=text)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["corpus"] == "dealornodeal"


def test_gzip_on_standard_input_is_told_by_its_magic_bytes() -> None:
    data = gzip.compress((FIXTURES / "craigslist_validation_20.jsonl").read_bytes())
    result = _invoke("-", stdin=data)
    assert result.exit_code == 0, result.output
    assert len(result.stdout.splitlines()) == 20


def test_errors_on_standard_input_name_it() -> None:
    code, output = _label("-", "--on-error", "keep", stdin=b'{"utterance": []}\n\xff\n')
    assert code == 1  # no record could be labelled; both are still written
    assert "<stdin>:2: not valid UTF-8" in output


@pytest.mark.parametrize("target", ["-", "/dev/stdin"])
def test_a_real_pipe_loses_nothing(target: str, tmp_path: Path) -> None:
    """A pipe cannot be read twice: the format is told from lines held back, not by
    reading the start again (which lost the first records of /dev/stdin)."""
    data = (FIXTURES / "craigslist_validation_20.jsonl").read_bytes() * 3
    done = subprocess.run(
        [sys.executable, "-m", "actparse", "label", target, "--on-error", "keep", "--jobs", "1"],
        input=data,
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert len(done.stdout.splitlines()) == 60


# ---------------------------------------------------------------------------------------
# Parquet output in keep mode
# ---------------------------------------------------------------------------------------


def test_parquet_keep_takes_its_schema_from_labelled_records(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    lines = (FIXTURES / "craigslist_validation_20.jsonl").read_text().splitlines()[:2]
    good = json.loads(lines[0])
    bad = [
        "{broken",  # first: the schema must not come from it
        json.dumps({**good, "utterance": [5, *good["utterance"][1:]]}),
        json.dumps({**good, "utterance": "ab", "agent_turn": [0, 1]}),
        json.dumps({**good, "utterance": ["\ud800", *good["utterance"][1:]]}),
    ]
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join([bad[0], *lines, *bad[1:]]) + "\n")
    out = tmp_path / "out.parquet"
    code, output = _label(str(path), "-o", str(out), "--on-error", "keep")
    assert code == 0, output
    rows = pq.read_table(out).to_pylist()
    assert len(rows) == 6
    assert [r["actparse_error"] is None for r in rows] == [False, True, True, False, False, False]
    assert rows[1]["utterance"] == good["utterance"] and rows[1]["dialogue_acts"]["intent"]
    assert rows[0]["actparse_input"] == "{broken\n"
    # Fields that are what was wrong are kept as they were, as JSON text.
    assert json.loads(rows[4]["actparse_input"])["utterance"] == "ab"
    assert json.loads(rows[5]["actparse_input"])["utterance"][0] == "\ud800"
    assert "cannot be written to Parquet" in rows[5]["actparse_error"]
    assert "4 of 6 records could not be labelled" in output


def test_parquet_keep_keeps_the_error_column_when_the_first_batch_is_clean(
    tmp_path: Path,
) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "t.jsonl"
    path.write_text((FIXTURES / "craigslist_validation_20.jsonl").read_text())
    out = tmp_path / "out.parquet"
    assert _label(str(path), "-o", str(out), "--on-error", "keep")[0] == 0
    table = pq.read_table(out)
    assert {"actparse_error", "actparse_input"} <= set(table.schema.names)
    assert table.num_rows == 20 and table.column("actparse_error").null_count == 20


def test_parquet_stop_names_the_record_that_cannot_be_written(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow.parquet")
    lines = (FIXTURES / "craigslist_validation_20.jsonl").read_text().splitlines()[:2]
    bad = json.loads(lines[1])
    bad["utterance"][0] = "\ud800"
    path = tmp_path / "t.jsonl"
    path.write_text(f"{lines[0]}\n{json.dumps(bad)}\n")
    out = tmp_path / "out.parquet"
    code, output = _label(str(path), "-o", str(out))
    assert code == 2
    assert "output record 2 cannot be written to Parquet" in " ".join(output.split())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.jsonl"]


HUGE = "99999999999999999999"  # past a 64-bit integer


@pytest.mark.parametrize("per_turn", [[], ["--per-turn"]], ids=["records", "per-turn"])
@pytest.mark.parametrize(
    ("name", "content", "where"),
    [
        pytest.param(
            "t.csv",
            f"dialogue_id,speaker,text,items\nd1,ann,I want the books,book={HUGE}\nd1,bob,ok,\n",
            "t.csv:2: items.book",
            id="chat-items",
        ),
        pytest.param(
            "t.txt",
            f"<input> {HUGE} 1 1 1 1 1 </input> <dialogue> YOU: hi <eos> THEM: <selection> "
            "</dialogue> <output> <disagree> <disagree> <disagree> <disagree> <disagree> "
            "<disagree> </output> <partner_input> 1 1 1 1 1 1 </partner_input>\n",
            "t.txt:1: input count of book",
            id="dealornodeal-input",
        ),
    ],
)
def test_an_item_count_past_64_bits_is_an_error_naming_its_line(
    name: str, content: str, where: str, per_turn: list[str], tmp_path: Path
) -> None:
    # It was read, then a Parquet output stopped on it with a traceback (per-turn) or
    # "Expected bytes, got a 'dict' object" (records).
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    code, output = _label(str(path), *per_turn, "-o", str(tmp_path / "out.parquet"))
    assert code == 2 and f"{where} must be at most" in " ".join(output.split())
