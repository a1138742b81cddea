"""Turn tables in: rows grouped into dialogues on every path, and bad input named.

Each bad input of issue 27 is a test in stop mode (the run fails, naming the file and
the line, and leaves no output) and in keep mode (every input row reaches the output,
the rows of a dialogue that cannot be labelled each with an ``actparse_error``), for
CSV, JSON lines and Parquet tables written here. The acts themselves are the parser's
business (tests/corpora/chat/test_parser*.py): only the shape of the output is checked.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import actparse
from actparse.cli import app
from actparse.corpora.chat.rows import group_rows
from actparse.errors import InputError
from actparse.io.records import read_records
from actparse.io.turn_files import read_turn_table, write_turn_table
from actparse.io.turns import column_names, iter_turn_rows

runner = CliRunner()
KINDS = ("csv", "jsonl", "parquet")
COLUMNS = ("dialogue_id", "speaker", "text", "turn")


def _write(path: Path, rows: Sequence[dict[str, Any]]) -> Path:
    """A table of ``rows`` in the format its name says."""
    if path.suffix == ".csv":
        names = list(dict.fromkeys(k for row in rows for k in row))
        with open(path, "w", newline="", encoding="utf-8") as fh:
            writer = csv.DictWriter(fh, names)
            writer.writeheader()
            writer.writerows(rows)
    elif path.suffix == ".parquet":
        pa = pytest.importorskip("pyarrow")
        import pyarrow.parquet as pq

        pq.write_table(
            pa.Table.from_pylist([{k: str(v) for k, v in r.items()} for r in rows]), path
        )
    else:
        path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def _line(kind: str, index: int) -> int:
    """The line (Parquet: row) of the row at ``index``: a CSV's header is line 1."""
    return index + 2 if kind == "csv" else index + 1


def _rows(*dialogues: tuple[str, Sequence[str]], **context: Any) -> list[dict[str, Any]]:
    rows = []
    for ident, speakers in dialogues:
        for k, speaker in enumerate(speakers, 1):
            rows.append({"dialogue_id": ident, "speaker": speaker, "text": f"turn {k}", "turn": k})
    for index, values in context.items():
        rows[int(index.lstrip("r"))].update(values)
    return rows


def _label(path: Path, out: Path, *more: str) -> Any:
    return runner.invoke(app, ["label", str(path), "-o", str(out), *more])


def _output(out: Path) -> list[dict[str, Any]]:
    if out.suffix == ".parquet":
        import pyarrow.parquet as pq

        return list(pq.read_table(out).to_pylist())
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def _stop_and_keep(path: Path, tmp_path: Path, message: str, bad: Sequence[int]) -> None:
    """Stop mode fails with ``message``, keep mode writes every row (``bad`` with errors)."""
    out = tmp_path / "out.jsonl"
    result = _label(path, out, "--jobs", "1")
    assert result.exit_code == 2, result.output
    assert message in result.output.replace("\n", " ")
    assert not out.exists()
    for jobs in ("1", "2"):
        for name in ("kept.jsonl", "kept.parquet"):
            kept = tmp_path / name
            result = _label(path, kept, "--on-error", "keep", "--jobs", jobs)
            assert result.exit_code == 0, result.output
            rows = _output(kept)
            assert len(rows) == len(_input_rows(path))
            errors = [k for k, row in enumerate(rows) if row.get("actparse_error")]
            assert errors == list(bad), rows
            assert all(message in rows[k]["actparse_error"] for k in bad)
            assert all(row.get("actparse") for k, row in enumerate(rows) if k not in bad)


def _input_rows(path: Path) -> list[Any]:
    if path.suffix == ".csv":
        with open(path, newline="", encoding="utf-8") as fh:
            return list(csv.DictReader(fh))
    return _output(path)


@pytest.mark.parametrize("kind", KINDS)
def test_a_four_column_table_labels_each_row(kind: str, tmp_path: Path) -> None:
    path = _write(tmp_path / f"t.{kind}", _rows(("a", "xyx"), ("b", "xy")))
    out = tmp_path / "out.jsonl"
    result = _label(path, out)
    assert result.exit_code == 0, result.output
    assert "labelled 2 dialogues (5 rows)" in result.output
    rows = _output(out)
    assert [r["dialogue_id"] for r in rows] == ["a", "a", "a", "b", "b"]
    assert all(set(r["actparse"]) >= {"intent", "coarse", "price", "split"} for r in rows)


@pytest.mark.parametrize("kind", ("csv", "jsonl"))
def test_missing_text_column_names_it(kind: str, tmp_path: Path) -> None:
    rows = [{k: v for k, v in r.items() if k != "text"} for r in _rows(("a", "xy"))]
    path = _write(tmp_path / f"t.{kind}", rows)
    for mode in ("stop", "keep"):
        result = _label(path, tmp_path / "out.jsonl", "--on-error", mode)
        assert result.exit_code == 2
        said = result.output.replace("\n", " ")
        assert f"{path}:{_line(kind, 0)}: cannot tell the format" in said
        assert "dialogue_id, speaker (or agent) and text" in said and "no text" in said
        assert not (tmp_path / "out.jsonl").exists()


@pytest.mark.parametrize("kind", ("csv", "jsonl"))
def test_missing_dialogue_id_column_names_it(kind: str, tmp_path: Path) -> None:
    rows = [{k: v for k, v in r.items() if k != "dialogue_id"} for r in _rows(("a", "xy"))]
    path = _write(tmp_path / f"t.{kind}", rows)
    for mode in ("stop", "keep"):
        result = _label(path, tmp_path / "out.jsonl", "--on-error", mode)
        assert result.exit_code == 2
        said = result.output.replace("\n", " ")
        assert (
            f"{path}:{_line(kind, 0)}: cannot tell the format" in said and "no dialogue_id" in said
        )


@pytest.mark.usefixtures("tasks_of_one")
@pytest.mark.parametrize("kind", KINDS)
def test_items_that_do_not_parse(kind: str, tmp_path: Path) -> None:
    rows = _rows(("a", "xy"), ("b", "xyx"), r3={"items": "book=1"}, r4={"items": "book:three"})
    for row in rows:
        row.setdefault("items", "")
    path = _write(tmp_path / f"t.{kind}", rows)
    _stop_and_keep(
        path, tmp_path, f"{path}:{_line(kind, 4)}: items: expected name=count", [2, 3, 4]
    )


@pytest.mark.usefixtures("tasks_of_one")
@pytest.mark.parametrize("kind", KINDS)
def test_a_listing_price_that_is_no_number(kind: str, tmp_path: Path) -> None:
    rows = _rows(("a", "xy"), ("b", "xy"), r1={"listing_price": "cheap"})
    for row in rows:
        row.setdefault("listing_price", "120")
    path = _write(tmp_path / f"t.{kind}", rows)
    message = f"{path}:{_line(kind, 1)}: listing_price must be a number, got 'cheap'"
    _stop_and_keep(path, tmp_path, message, [0, 1])


@pytest.mark.usefixtures("tasks_of_one")
@pytest.mark.parametrize("kind", KINDS)
def test_rows_of_a_dialogue_not_adjacent(kind: str, tmp_path: Path) -> None:
    path = _write(tmp_path / f"t.{kind}", _rows(("a", "xy"), ("b", "xy"), ("a", "yx")))
    message = (
        f"{path}:{_line(kind, 4)}: rows of dialogue 'a' are not adjacent: its rows began at "
        f"line {_line(kind, 0)}"
    )
    _stop_and_keep(path, tmp_path, message, [4, 5])


@pytest.mark.usefixtures("tasks_of_one")
def test_a_bad_turn_number_names_its_line(tmp_path: Path) -> None:
    rows = _rows(("a", "xy"), ("b", "x"), r1={"turn": "second"})
    path = _write(tmp_path / "t.csv", rows)
    _stop_and_keep(path, tmp_path, f"{path}:3: turn must be a number, got 'second'", [0, 1])


def test_conflicting_items_name_both_rows() -> None:
    rows = _rows(("a", "xyx"), r0={"items": "hat=1"}, r2={"items": '{"hat": 2}'})
    with pytest.raises(InputError, match=r"t.csv:4: items .* differs from 'hat=1' at t.csv:2"):
        group_rows(rows, ["t.csv:2", "t.csv:3", "t.csv:4"])
    # What to do, in words (it said "give a dialogue one items").
    with pytest.raises(InputError, match=r"\(a dialogue has one items value: give it on one row"):
        group_rows(rows, ["t.csv:2", "t.csv:3", "t.csv:4"])
    same = _rows(("a", "xy"), r0={"items": "hat=1"}, r1={"items": '{"hat": 1}'})
    assert group_rows(same)["items"] == "hat=1"


@pytest.mark.parametrize("kind", KINDS)
def test_one_speaker_and_three_speakers_label(kind: str, tmp_path: Path) -> None:
    path = _write(tmp_path / f"t.{kind}", _rows(("solo", "xxx"), ("trio", "xyzxy")))
    out = tmp_path / "out.jsonl"
    result = _label(path, out)
    assert result.exit_code == 0, result.output
    rows = _output(out)
    assert len(rows) == 8 and all("actparse" in r and "actparse_error" not in r for r in rows)
    table = tmp_path / "table.csv"
    assert runner.invoke(app, ["label", str(path), "--per-turn", "-o", str(table)]).exit_code == 0
    agents = [r["agent"] for r in read_turn_table(table)]
    assert agents == [0, 0, 0, 0, 1, 2, 0, 1]


def test_a_line_not_json_in_a_dialogue_is_one_error_record(tmp_path: Path) -> None:
    lines = [json.dumps(r) for r in _rows(("a", "xyx"), ("b", "xy"))]
    lines.insert(2, "{not json")
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.jsonl"
    result = _label(path, out, "--on-error", "keep")
    assert result.exit_code == 0, result.output
    rows = _output(out)
    assert len(rows) == 6
    assert [r.get("actparse_input") for r in rows].count("{not json\n") == 1
    assert sum("actparse" in r for r in rows) == 5
    assert _label(path, tmp_path / "o2.jsonl").exit_code == 2


def test_records_mode_refuses_a_csv_output(tmp_path: Path) -> None:
    path = _write(tmp_path / "t.csv", _rows(("a", "xy")))
    result = _label(path, tmp_path / "out.csv")
    assert result.exit_code == 2
    assert "not CSV" in result.output and "--per-turn" in result.output
    assert not (tmp_path / "out.csv").exists()


@pytest.mark.parametrize("out_kind", KINDS)
def test_per_turn_keeps_the_input_columns_and_reads_back_the_same(
    out_kind: str, tmp_path: Path
) -> None:
    rows = _rows(("a", "xyx"), ("b", "xy"), r0={"items": "book=3;hat=1"}, r3={"items": "ball=2"})
    for row in rows:
        row.setdefault("items", "")
        row["note"] = f"n{row['turn']}"
    path = _write(tmp_path / "t.csv", rows)
    first, second = tmp_path / f"o1.{out_kind}", tmp_path / f"o2.{out_kind}"
    for source, target in ((path, first), (first, second)):
        result = runner.invoke(app, ["label", str(source), "--per-turn", "-o", str(target)])
        assert result.exit_code == 0, result.output
    one, two = list(read_turn_table(first)), list(read_turn_table(second))
    assert list(one[0]) == [*column_names(), "speaker", "items", "note"]
    assert [r["speaker"] for r in one] == ["x", "y", "x", "x", "y"]
    assert one[0]["items"] == "book=3;hat=1"
    acts = ("dialogue_id", "turn", "agent", "intent", "coarse", "price", "split", "strategies")
    assert [[r[c] for c in acts] for r in one] == [[r[c] for c in acts] for r in two]


def test_a_later_row_with_a_column_the_table_lacks_is_an_error(tmp_path: Path) -> None:
    rows = _rows(("a", "xy"), ("b", "xy"), r3={"mood": "glad"})
    path = _write(tmp_path / "t.jsonl", rows)
    for name in ("o.csv", "o.parquet"):
        result = runner.invoke(app, ["label", str(path), "--per-turn", "-o", str(tmp_path / name)])
        assert result.exit_code == 2
        assert "dialogue b, turn 1: input column 'mood'" in result.output.replace("\n", " ")


def test_every_path_groups_rows(tmp_path: Path) -> None:
    rows = _rows(("a", "xyx"), ("b", "xy"))
    path = _write(tmp_path / "t.csv", rows)
    records = list(read_records(path))
    assert [(r.raw["id"], r.line, len(r.raw["turns"])) for r in records] == [
        ("a", 2, 3),
        ("b", 5, 2),
    ]
    in_memory = list(iter_turn_rows(rows))
    assert [r["dialogue_id"] for r in in_memory] == ["a"] * 3 + ["b"] * 2
    assert in_memory[0]["speaker"] == "x" and in_memory[0]["turn"] == 0
    assert len(list(actparse.api.label_file(path))) == 5
    frame = pytest.importorskip("pandas") and actparse.to_frame(path)
    assert list(frame.columns)[-1] == "speaker" and len(frame) == 5
    with pytest.raises(InputError, match=r"<records>:3: rows of dialogue 'a' are not adjacent"):
        list(iter_turn_rows(_rows(("a", "x"), ("b", "x"), ("a", "y"))))


def test_to_frame_of_nested_dialogues_keeps_their_turn_fields() -> None:
    pytest.importorskip("pandas")
    record = {"id": "n", "turns": [{"speaker": "ann", "text": "hi", "mood": "glad"}]}
    frame = actparse.to_frame([record])
    assert frame.loc[0, "mood"] == "glad" and frame.loc[0, "speaker"] == "ann"


def test_write_turn_table_with_no_rows_has_the_columns(tmp_path: Path) -> None:
    out = tmp_path / "empty.csv"
    assert write_turn_table([], out) == 0
    assert out.read_text().strip() == ",".join(column_names())


_DEEP = "[" * 150 + "]" * 150
_LONG = "9" * 5000


@pytest.mark.parametrize(
    ("field", "text", "message"),
    [
        ("items", '{"hat": ' + _DEEP + "}", r"items: nested more than 100 deep"),
        ("items", '{"hat": ' + _LONG + "}", r"items: holds an integer of more than 4,300"),
        ("roles", '{"a": ' + _DEEP + "}", r"roles: nested more than 100 deep"),
        ("roles", '{"a": ' + _LONG + "}", r"roles: holds an integer of more than 4,300"),
        ("roles", "{a: buyer}", r"roles must map speakers to roles, got '\{a: buyer\}'"),
    ],
)
def test_json_text_in_a_cell_is_read_within_the_bounds(field: str, text: str, message: str) -> None:
    from actparse.corpora.chat.reader import dialogue_from_record

    record = {"turns": [{"speaker": "a", "text": "hi"}, {"speaker": "b", "text": "hi"}]}
    with pytest.raises(InputError, match=message):
        dialogue_from_record({**record, field: text})


def test_speakers_are_the_recorded_names_else_the_agent_numbers() -> None:
    import dataclasses

    from actparse.corpora.chat.reader import dialogue_from_record, speakers

    turns = [{"speaker": "ann", "text": "hi"}, {"speaker": "bob", "text": "hi"}]
    dialogue = dialogue_from_record({"turns": turns})
    assert speakers(dialogue) == ["ann", "bob"]
    assert speakers(dataclasses.replace(dialogue, outcome=None)) == ["0", "1"]
    one = dialogue_from_record({"turns": turns[:1]})
    assert speakers(dataclasses.replace(one, outcome=None)) == ["0"]


def test_own_dialogues_with_items_follow_the_deal() -> None:
    # The chat corpus runs the shared deal tracker: each move is in the actparse field,
    # and the per-turn table says what became of each proposal.
    import actparse

    record = {
        "id": "a",
        "items": "book=3;hat=1",
        "turns": [
            {"speaker": "ann", "text": "I'd like the books, you can have the hat."},
            {"speaker": "bob", "text": "Deal."},
        ],
    }
    turns = actparse.label_record(record)["turns"]
    assert [t["actparse"]["deal"] for t in turns] == [
        {"move": "propose", "proposal": 0, "standing": 0},
        {"move": "agree", "proposal": 0, "standing": 0},
    ]
    rows = list(actparse.iter_turn_rows([record]))
    assert [r["proposal_status"] for r in rows] == ["agreed", None]
