"""Property tests of the readers, for every format: arbitrary bytes and mutated real
records (the corpus fixtures) never make reading raise, and keep mode never loses a
record: one output per piece of input, one piece per non-blank line of a line layout
(its lines cut where the reader cuts them)."""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path

import pytest
from corpus_fixtures import FIXTURES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from actparse import registry
from actparse.io.batch import iter_items, label_items
from actparse.io.lines import decoded_lines, split_json_lines, split_text_lines


def _lines(name: str, count: int) -> bytes:
    lines = (FIXTURES / name).read_bytes().splitlines(keepends=True)
    return b"".join(lines[:count])


def _elements(name: str, count: int) -> bytes:
    return json.dumps(json.loads((FIXTURES / name).read_text())[:count], indent=1).encode()


#: (format, a small real input in it).
BASES = {
    "hf": _lines("craigslist_validation_20.jsonl", 3),
    "cocoa": _elements("craigslist_transcripts_20.json", 2),
    "casino": _elements("casino_20.json", 2),
    "dealornodeal": _lines("dealornodeal_val_20.txt", 3),
    "mutualfriends": _lines("mutualfriends_handmade.jsonl", 2),
}
FORMATS = list(BASES)
EXAMPLES = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@st.composite
def mutated(draw: st.DrawFn, base: bytes) -> bytes:
    """``base`` with a few bytes deleted, inserted, replaced, or the end cut off."""
    data = bytearray(base)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        op = draw(st.sampled_from(["delete", "insert", "replace", "cut"]))
        if op == "delete":
            del data[at : at + draw(st.integers(1, 40))]
        elif op == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        elif op == "replace" and at < len(data):
            data[at] = draw(st.integers(0, 255))
        elif op == "cut":
            del data[at:]
    return bytes(data)


def _non_blank_lines(data: bytes, fmt: str) -> int:
    """Non-blank lines as the reader counts them: cut at the line ends of the layout that
    the first non-blank line tells (:mod:`actparse.io.lines`, tested in test_line_ends)."""
    lines = list(decoded_lines(io.BytesIO(data), "f"))
    first = next((x.text for x in lines if x.text is None or x.text.strip()), None)
    text = (first or "").lstrip()[:1] == registry.format_spec(fmt).text_marker
    split = split_text_lines if text else split_json_lines
    return sum(bool(x.error or (x.text or "").strip()) for x in split(iter(lines), "f"))


def _is_list_layout(data: bytes) -> bool:
    return data.removeprefix(b"\xef\xbb\xbf").decode("utf-8", "replace").lstrip().startswith("[")


def _check(path: Path, data: bytes, fmt: str) -> None:
    """Reading never raises; every piece becomes exactly one output record."""
    path.write_bytes(data)
    items = list(iter_items(path, fmt))
    outcomes = list(label_items(items, on_error="keep"))
    assert len(outcomes) == len(items)
    for outcome in outcomes:
        json.loads(outcome.line)  # each is one well-formed record
    if not path.name.endswith(".gz") and not _is_list_layout(data):
        assert len(items) == _non_blank_lines(data, fmt)


@pytest.mark.parametrize("fmt", FORMATS)
@EXAMPLES
@given(data=st.binary(max_size=400))
def test_arbitrary_bytes_never_raise_nor_lose_a_line(fmt: str, data: bytes, tmp_path: Path) -> None:
    _check(tmp_path / "input", data, fmt)


@pytest.mark.parametrize("fmt", FORMATS)
@EXAMPLES
@given(seed=st.data())
def test_mutated_records_never_raise_nor_lose_a_record(
    fmt: str, seed: st.DataObject, tmp_path: Path
) -> None:
    data = seed.draw(mutated(BASES[fmt]))
    _check(tmp_path / "input", data, fmt)


@pytest.mark.parametrize("fmt", FORMATS)
@EXAMPLES
@given(seed=st.data())
def test_mutated_gzip_never_raises(fmt: str, seed: st.DataObject, tmp_path: Path) -> None:
    data = seed.draw(mutated(gzip.compress(BASES[fmt], mtime=0)))
    _check(tmp_path / "input.gz", data, fmt)


@pytest.mark.parametrize("fmt", FORMATS)
@EXAMPLES
@given(seed=st.data())
def test_a_valid_list_loses_no_element(fmt: str, seed: st.DataObject, tmp_path: Path) -> None:
    """A JSON list of anything (objects of the fixture, nulls, numbers, lists) gives one
    output record per element."""
    records = [*json.loads(_elements("casino_20.json", 1)), None, 5, [1], "x"]
    values = seed.draw(st.lists(st.sampled_from(records), max_size=5))
    path = tmp_path / "input.json"
    path.write_text(json.dumps(values))
    items = list(iter_items(path, fmt))
    assert len(list(label_items(items, on_error="keep"))) == len(values)
