"""Property tests, one per reader: nesting depth, big integers and mixed line endings (issue 28).

Each reader (JSON lines, a JSON list, Parquet, a CSV turn table, Deal or No Deal text) gets
real records with values drawn around the bounds of :mod:`actparse.io.bounds` (nesting
from 0 to 100,000 deep, integers of 1 to 6,000 digits, ones too large for a float) and
lines ended by ``\\n`` or ``\\r\\n`` in any mix, with line breaks of every kind inside the
text. ``label --on-error keep`` must write one record (a turn table: one row) per input
record, and no command (``label`` in both modes, ``eval``, ``report``) may print a
traceback.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from corpus_fixtures import FIXTURES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from actparse.cli import app

runner = CliRunner()
EXAMPLES = settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
#: Depths around the bound (100) and far past what json reads (about 1,000).
DEPTHS = st.sampled_from([0, 1, 50, 98, 99, 100, 101, 500, 2000, 100_000])
#: Digits around a float's limit (309) and Python's integer limit (4,300).
DIGITS = st.sampled_from([1, 3, 309, 310, 400, 4300, 4301, 6000])
ENDINGS = st.lists(st.sampled_from(["\n", "\r\n"]), min_size=1, max_size=8)
#: Line breaks inside a text value (JSON escapes them; CSV quotes them).
BREAKS = st.sampled_from(["\n", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029"])


@st.composite
def extra(draw: st.DrawFn) -> str:
    """JSON text: an integer of some digits, nested some depth in lists."""
    depth, digits = draw(DEPTHS), draw(DIGITS)
    return "[" * depth + "9" * digits + "]" * depth


def _joined(lines: list[str], endings: list[str]) -> str:
    return "".join(line + endings[k % len(endings)] for k, line in enumerate(lines))


def _with_extra(record: str, value: str) -> str:
    return record.replace("{", '{"extra": ' + value + ", ", 1)


def _run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.output


def _check(path: Path, records: int, tmp_path: Path, *more: str) -> None:
    """Keep writes one record per input record; no command prints a traceback."""
    out = tmp_path / "out.jsonl"
    code, output = _run("label", str(path), "-o", str(out), "--on-error", "keep", *more)
    assert code in (0, 1), output
    # Lines end in "\n" only: U+2028 and the like stand in JSON strings as they are.
    assert len(out.read_text(encoding="utf-8").split("\n")[:-1]) == records
    assert _run("label", str(path), "-o", str(out), *more)[0] in (0, 2)
    for command in (["eval", str(path)], ["report", str(path), "-o", str(tmp_path / "r.html")]):
        assert _run(*command, *more)[0] in (0, 1, 2)


@EXAMPLES
@given(values=st.lists(extra(), min_size=1, max_size=3), endings=ENDINGS, text=BREAKS)
def test_json_lines(values: list[str], endings: list[str], text: str, tmp_path: Path) -> None:
    lines = (FIXTURES / "craigslist_validation_20.jsonl").read_text().splitlines()[:5]
    noted = json.dumps({**json.loads(lines.pop()), "note": f"a{text}b"})
    lines = [_with_extra(line, values[k % len(values)]) for k, line in enumerate(lines)]
    lines.append(noted)
    path = tmp_path / "t.jsonl"
    path.write_text(_joined(lines, endings), encoding="utf-8", newline="")
    _check(path, len(lines), tmp_path)


@EXAMPLES
@given(values=st.lists(extra(), min_size=1, max_size=3), endings=ENDINGS)
def test_json_list(values: list[str], endings: list[str], tmp_path: Path) -> None:
    data = json.loads((FIXTURES / "casino_20.json").read_text())[:3]
    # The first stays as it was: a list of nothing but errors has no format to tell.
    elements = [json.dumps(data[0])]
    elements += [
        _with_extra(json.dumps(r), values[k % len(values)]) for k, r in enumerate(data[1:])
    ]
    elements.append(values[0])  # an element that is not an object at all
    text = "[" + endings[0] + ("," + endings[-1]).join(elements) + endings[0] + "]" + endings[0]
    path = tmp_path / "t.json"
    path.write_text(text, encoding="utf-8", newline="")
    _check(path, len(elements), tmp_path)


@EXAMPLES
@given(depth=st.integers(0, 48), digits=st.integers(1, 76), text=BREAKS)
def test_parquet(depth: int, digits: int, text: str, tmp_path: Path) -> None:
    """Values up to what Parquet holds: pyarrow reads 100 schema levels (a list is two) and
    decimals of 76 digits."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    import decimal

    lines = (FIXTURES / "craigslist_validation_20.jsonl").read_text().splitlines()[:3]
    rows = [json.loads(line) for line in lines]
    nested: Any = 2**63 - 1
    for _ in range(depth):
        nested = [nested]
    for row in rows:
        row["extra"] = nested
        row["utterance"][0] += text
    table = pa.Table.from_pylist(rows)
    big = decimal.Decimal("9" * digits)
    table = table.append_column("big", pa.array([big] * 3, pa.decimal256(76, 0)))
    path = tmp_path / "t.parquet"
    pq.write_table(table, path)
    _check(path, 3, tmp_path)


@EXAMPLES
@given(values=st.lists(extra(), min_size=1, max_size=3), endings=ENDINGS, text=BREAKS)
def test_csv_turn_table(values: list[str], endings: list[str], text: str, tmp_path: Path) -> None:
    """The ``items`` cell is read as JSON: the drawn values go there, one per dialogue."""
    rows = []
    for d, value in enumerate(values):
        for k, speaker in enumerate(["buyer", "seller"]):
            cell = {"dialogue_id": f"d{d}", "speaker": speaker, "turn": k}
            cell["text"] = f"would you take ${40 + k}?{text}ok"
            cell["items"] = value if k == 0 else ""
            rows.append(cell)
    buffer = io.StringIO(newline="")
    writer = csv.DictWriter(buffer, list(rows[0]), lineterminator="\n", quoting=csv.QUOTE_ALL)
    writer.writeheader()
    writer.writerows(rows)
    lines = buffer.getvalue().split("\n")[:-1]  # a quoted text's own breaks stay inside
    path = tmp_path / "t.csv"
    path.write_text(_joined(lines, endings), encoding="utf-8", newline="")
    _check(path, len(rows), tmp_path)


@EXAMPLES
@given(digits=DIGITS, endings=ENDINGS, depth=DEPTHS)
def test_dealornodeal_text(digits: int, endings: list[str], depth: int, tmp_path: Path) -> None:
    """A count of many digits, brackets in an utterance, lines ended in any mix."""
    lines = (FIXTURES / "dealornodeal_val_20.txt").read_text().splitlines()[:4]
    lines[1] = lines[1].replace("<input> ", "<input> " + "9" * digits + " ", 1)
    lines[2] = lines[2].replace("YOU: ", "YOU: " + "[" * min(depth, 5000) + " ", 1)
    path = tmp_path / "t.txt"
    path.write_text(_joined(lines, endings), encoding="utf-8", newline="")
    _check(path, len(lines), tmp_path)
