"""What a turn table's rows and a nested record's context must be, and how they come back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from corpus_fixtures import CorpusFixtures
from typer.testing import CliRunner

from actparse.cli import app
from actparse.corpora.chat.reader import parse_price
from actparse.errors import InputError
from actparse.io.turn_files import read_turn_table

runner = CliRunner()


@pytest.mark.parametrize(
    ("text", "price"),
    [
        pytest.param("1200", 1200.0, id="digits"),
        pytest.param("1,200", 1200.0, id="thousands-commas"),
        pytest.param("$1,200.50", 1200.5, id="dollar-and-cents"),
        pytest.param("€ 950", 950.0, id="euro-sign"),
        pytest.param("-0", 0.0, id="minus-zero-is-zero"),
    ],
)
def test_a_price_as_text(text: str, price: float) -> None:
    assert parse_price(text) == price


_UNCLEAR = "must be a number"
_NEGATIVE = "must be a finite number from 0"


@pytest.mark.parametrize(
    ("text", "error"),
    [
        pytest.param("€1.200,50", _UNCLEAR, id="decimal-comma"),
        pytest.param("1,5", _UNCLEAR, id="comma-as-decimal"),
        pytest.param("1.200.000", _UNCLEAR, id="dots-between-thousands"),
        pytest.param("£1,2,3", _UNCLEAR, id="odd-commas"),
        pytest.param("cheap", _UNCLEAR, id="a-word"),
        # It was "must be a number ... no decimal comma", which -5 is and has none of.
        pytest.param("-5", _NEGATIVE, id="negative"),
        pytest.param("-$1,200.50", _NEGATIVE, id="negative-with-sign"),
        pytest.param("$-5", _NEGATIVE, id="negative-after-sign"),
        pytest.param("- 5", _NEGATIVE, id="negative-spaced"),
    ],
)
def test_a_price_text_that_is_unclear_or_below_zero_is_refused(text: str, error: str) -> None:
    # Read silently, "1.200,50" would be 1.2005 and change every act of the dialogue.
    with pytest.raises(InputError, match=error):
        parse_price(text)


def _label(path: Path, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["label", str(path), *args])
    return result.exit_code, result.output


def test_an_empty_dialogue_id_is_an_error_naming_its_line(tmp_path: Path) -> None:
    table = tmp_path / "t.csv"
    table.write_text("dialogue_id,speaker,text\nd,a,hi\n,b,hello\n", encoding="utf-8")
    code, output = _label(table)
    assert code == 2 and "t.csv:3: the row's dialogue_id is empty" in output


def test_a_turn_given_twice_in_a_dialogue_is_an_error(tmp_path: Path) -> None:
    table = tmp_path / "t.csv"
    table.write_text("dialogue_id,speaker,text,turn\nd,a,hi,1\nd,b,hello,1\n", encoding="utf-8")
    code, output = _label(table)
    assert code == 2 and "t.csv:3: turn '1' is given twice" in output and "t.csv:2" in output


@pytest.mark.parametrize(
    ("turns", "texts"),
    [
        pytest.param(("1701234567890123457", "1701234567890123456"), ["yo", "hi"], id="ns-apart"),
        pytest.param(("1701234567890123600", "1701234567890123456"), ["yo", "hi"], id="ns-order"),
        pytest.param(("2.5", "2"), ["yo", "hi"], id="a-fraction-and-digits"),
    ],
)
def test_turns_past_a_floats_precision_keep_their_order(
    turns: tuple[str, str], texts: list[str], tmp_path: Path
) -> None:
    # As floats, two nanosecond timestamps a step apart were one turn "given twice".
    table = tmp_path / "t.csv"
    table.write_text(
        f"dialogue_id,speaker,text,turn\nd,a,hi,{turns[0]}\nd,b,yo,{turns[1]}\n", encoding="utf-8"
    )
    out = tmp_path / "o.csv"
    code, output = _label(table, "--per-turn", "-o", str(out))
    assert code == 0, output
    assert [r["text"] for r in read_turn_table(out)] == texts


def test_the_per_turn_table_of_nested_records_labels_again_the_same(tmp_path: Path) -> None:
    nested = tmp_path / "n.jsonl"
    records = [
        {
            "id": "n1",
            "items": {"hat": 1, "book": 2},
            "turns": [
                {"speaker": "a", "text": "I take the hat, you get the books"},
                {"speaker": "b", "text": "no"},
            ],
        },
        {
            "id": "n2",
            "listing_price": "$40",
            "roles": {"s": "seller"},
            "turns": [
                {"speaker": "s", "text": "It is $40"},
                {"speaker": "b", "text": "would you take 30?"},
            ],
        },
    ]
    nested.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    first, second = tmp_path / "t1.csv", tmp_path / "t2.csv"
    assert _label(nested, "--per-turn", "-o", str(first))[0] == 0
    assert _label(first, "--per-turn", "-o", str(second))[0] == 0
    acts = ("intent", "coarse", "price", "split", "role")
    once, twice = list(read_turn_table(first)), list(read_turn_table(second))
    assert [{k: r[k] for k in acts} for r in once] == [{k: r[k] for k in acts} for r in twice]
    assert once[0]["split"] is not None  # the items came along
    assert once[3]["price"] == 30.0 and once[2]["role"] == "seller"


def test_an_input_column_named_like_an_act_column_is_refused_not_replaced(
    tmp_path: Path,
) -> None:
    table = tmp_path / "t.csv"
    table.write_text("dialogue_id,speaker,text,price\nd,a,hi,999\nd,b,ok,5\n", encoding="utf-8")
    code, output = _label(table, "--per-turn", "-o", str(tmp_path / "o.csv"))
    assert code == 2 and "t.csv:2: the input's column price would be replaced" in output
    assert "column of that name in the per-turn table: rename it to keep it" in output
    assert not (tmp_path / "o.csv").exists()
    # Labelled records keep it: the act goes in a field of actparse's own.
    code, output = _label(table)
    assert code == 0 and '"price": "999"' in output


def test_two_input_columns_named_like_act_columns_are_named_together(tmp_path: Path) -> None:
    """The message said "rename them to keep them" of one column; it counts them now."""
    table = tmp_path / "t.csv"
    table.write_text("dialogue_id,speaker,text,price,intent\nd,a,hi,9,x\n", encoding="utf-8")
    code, output = _label(table, "--per-turn", "-o", str(tmp_path / "o.csv"))
    assert code == 2
    assert "the input's columns intent, price would be replaced by actparse's columns" in output
    assert "of those names in the per-turn table: rename them to keep them" in output


@pytest.mark.parametrize(
    "name",
    [
        pytest.param("salt, pepper", id="comma"),
        pytest.param("x=y", id="equals"),
        pytest.param("a;b", id="semicolon"),
        pytest.param("{hat", id="a-brace-first"),
    ],
)
def test_items_named_with_the_texts_separators_label_again_the_same(
    name: str, tmp_path: Path
) -> None:
    # Written as name=count text, 'salt, pepper=2' read back as no items, an error.
    nested = tmp_path / "n.jsonl"
    record = {"id": "d", "items": {name: 2, "book": 1}, "turns": [{"speaker": "a", "text": "hi"}]}
    nested.write_text(json.dumps(record) + "\n", encoding="utf-8")
    first, second = tmp_path / "o1.csv", tmp_path / "o2.csv"
    assert _label(nested, "--per-turn", "-o", str(first))[0] == 0
    code, output = _label(first, "--per-turn", "-o", str(second))
    assert code == 0, output
    assert first.read_bytes() == second.read_bytes()


def test_a_table_actparse_wrote_labels_again_as_it_is(tmp_path: Path) -> None:
    table = tmp_path / "t.csv"
    table.write_text("dialogue_id,speaker,text\nd,a,i offer $20\nd,b,ok\n", encoding="utf-8")
    first, second = tmp_path / "o1.csv", tmp_path / "o2.csv"
    assert _label(table, "--per-turn", "-o", str(first))[0] == 0
    assert _label(first, "--per-turn", "-o", str(second))[0] == 0
    assert first.read_bytes() == second.read_bytes()


@pytest.mark.parametrize(
    ("name", "content", "agents"),
    [
        pytest.param(
            "t.csv", "dialogue_id,agent,text\nd,bob,hi\nd,ann,$5?\n", ["bob", "ann"], id="names"
        ),
        pytest.param(
            "t.csv",
            "dialogue_id,agent,text\nd,1,hi\nd,0,$5?\nd,2,ok\n",
            ["1", "0", "2"],
            id="numbers-renumbered",
        ),
        pytest.param(
            "t.jsonl",
            '{"id": "d", "turns": [{"agent": "bob", "text": "hi"}, '
            '{"agent": "ann", "text": "$5?"}]}\n',
            ["bob", "ann"],
            id="nested",
        ),
    ],
)
def test_speakers_named_in_an_agent_column_are_kept_as_speaker(
    name: str, content: str, agents: list[str], tmp_path: Path
) -> None:
    # The table's agent numbers replaced them: "bob" and "ann" were lost, agent 1 became 0.
    table = tmp_path / name
    table.write_text(content, encoding="utf-8")
    first, second = tmp_path / "o1.csv", tmp_path / "o2.csv"
    assert _label(table, "--per-turn", "-o", str(first))[0] == 0
    rows = list(read_turn_table(first))
    assert [str(r["speaker"]) for r in rows] == agents
    assert [r["agent"] for r in rows] == list(range(len(agents)))
    assert _label(first, "--per-turn", "-o", str(second))[0] == 0
    assert first.read_bytes() == second.read_bytes()


def test_the_kept_speaker_is_text_whatever_each_dialogues_agents_are(tmp_path: Path) -> None:
    """Names in one dialogue and numbers in the next: the speaker column is text in both,
    so a Parquet table holds them (it was refused: 'Expected bytes, got a int')."""
    pytest.importorskip("pyarrow", reason="Parquet output needs actparse[parquet]")
    nested = tmp_path / "mixed.jsonl"
    nested.write_text(
        '{"id": "d1", "turns": [{"agent": "bob", "text": "hi"}, {"agent": "ann", "text": "$5?"}]}\n'
        '{"id": "d2", "turns": [{"agent": 0, "text": "hi"}, {"agent": 1.0, "text": "$5?"}]}\n',
        encoding="utf-8",
    )
    out = tmp_path / "turns.parquet"
    assert _label(nested, "--per-turn", "-o", str(out))[0] == 0
    assert [r["speaker"] for r in read_turn_table(out)] == ["bob", "ann", "0", "1"]


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        pytest.param({"speaker": ["x"]}, "a speaker is a name or an agent number", id="speaker"),
        pytest.param({"text": 5}, "text must be a string, got a number", id="text"),
        pytest.param({"action": 5}, "action must be a string, got a number", id="action"),
    ],
)
def test_a_rows_wrong_field_names_that_row(
    bad: dict[str, object], message: str, tmp_path: Path
) -> None:
    # It named the dialogue's first row and the turn's place once sorted ("t.jsonl:1:
    # turns[1]"), which is the second row in the file: the bad row is the third.
    rows = [
        {"dialogue_id": "d", "speaker": "a", "text": "hi", "turn": 3},
        {"dialogue_id": "d", "speaker": "b", "text": "yo", "turn": 1},
        {"dialogue_id": "d", "speaker": "a", "text": "ok", "turn": 2, **bad},
    ]
    table = tmp_path / "t.jsonl"
    table.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    code, output = _label(table)
    assert code == 2 and f"t.jsonl:3: {message}" in " ".join(output.split())


def test_a_csv_row_is_named_by_the_line_it_begins_on(tmp_path: Path) -> None:
    # Blank lines (which csv skips) and a quoted line break come before the bad row.
    table = tmp_path / "t.csv"
    table.write_text(
        'dialogue_id,speaker,text,listing_price\n\nd,a,"two\nlines",10\n\n\nd,b,x,cheap\n',
        encoding="utf-8",
    )
    code, output = _label(table)
    assert code == 2 and "t.csv:7: listing_price must be a number" in output


def test_a_parquet_tables_own_types_reach_the_per_turn_csv_as_text(tmp_path: Path) -> None:
    import datetime

    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    table = tmp_path / "t.parquet"
    when = [datetime.datetime(2024, 1, 1, 12), datetime.datetime(2024, 1, 1, 13)]
    pq.write_table(
        pa.table(
            {
                "dialogue_id": ["d", "d"],
                "speaker": ["a", "b"],
                "text": ["hi $5", "ok"],
                "when": when,
                "blob": [b"\x00\x01", b"x"],
            }
        ),
        table,
    )
    out = tmp_path / "o.csv"
    assert _label(table, "--per-turn", "-o", str(out))[0] == 0
    rows = list(read_turn_table(out))
    assert [r["when"] for r in rows] == ["2024-01-01T12:00:00", "2024-01-01T13:00:00"]
    assert rows[0]["blob"] == "AAE="  # base64


def test_an_item_named_twice_in_two_cases_is_an_error() -> None:
    from actparse.corpora.chat.reader import parse_items

    with pytest.raises(InputError, match="item 'book' is given twice"):
        parse_items("Book=1;book=2")


def test_speakers_written_as_whole_floats_are_agent_numbers() -> None:
    import actparse

    # pandas writes an integer column with a gap as floats.
    record = {"turns": [{"agent": 0.0, "text": "hi"}, {"agent": 1.0, "text": "hello"}]}
    turns = actparse.label_record(record)["turns"]
    assert [t["actparse"]["coarse"] for t in turns] == ["greet", "greet"]


def test_a_role_of_a_speaker_written_as_a_whole_float_is_that_agents(tmp_path: Path) -> None:
    # The role was looked up under '0.0', "no speaker of the dialogue" (agent 0 speaks).
    table = tmp_path / "t.jsonl"
    rows = [
        {"dialogue_id": "d", "agent": 0.0, "text": "hi", "role": "buyer"},
        {"dialogue_id": "d", "agent": 1.0, "text": "hello", "role": "seller"},
    ]
    table.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    code, output = _label(table, "--per-turn", "-o", "-")
    lines = [json.loads(line) for line in output.splitlines() if line.startswith("{")]
    assert code == 0 and [r["role"] for r in lines] == ["buyer", "seller"]


@pytest.mark.usefixtures("tasks_of_one")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_csv_row_with_more_cells_than_the_header_is_kept_as_its_row(
    tmp_path: Path, jobs: str
) -> None:
    table = tmp_path / "t.csv"
    table.write_text(
        "dialogue_id,speaker,text\nd1,a,hi\nd1,b,hello\nd2,a,x,extra,cells\nd3,a,yo\nd3,b,sup\n",
        encoding="utf-8",
    )
    out = tmp_path / "o.jsonl"
    code, output = _label(table, "--on-error", "keep", "--jobs", jobs, "-o", str(out))
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert code == 0 and len(rows) == 5  # one output row per input row
    assert rows[2]["actparse_error"].endswith("t.csv:4: 5 fields, and the header names 3")
    assert rows[2]["actparse_input"] == ["extra", "cells"] and rows[2]["text"] == "x"
    assert all("actparse" in r for k, r in enumerate(rows) if k != 2)
    code, output = _label(table)
    assert code == 2 and "t.csv:4: 5 fields" in output


def test_a_csv_table_piped_in_is_read_as_a_csv_file(tmp_path: Path) -> None:
    table = tmp_path / "t.csv"
    table.write_text("dialogue_id,speaker,text\nd,a,hi\n", encoding="utf-8")
    piped = runner.invoke(app, ["label", "-"], input=table.read_bytes())
    assert piped.exit_code == 0, piped.output
    assert piped.stdout == runner.invoke(app, ["label", str(table)]).stdout


def test_a_csv_table_in_a_file_of_another_name_is_told_where_csv_is_read(tmp_path: Path) -> None:
    table = tmp_path / "t.txt"
    table.write_text("dialogue_id,speaker,text\nd,a,hi\n", encoding="utf-8")
    result = runner.invoke(app, ["label", str(table)])
    assert result.exit_code == 2
    assert result.output.endswith(
        "t.txt:1: cannot tell the format: this looks like a CSV table, which actparse reads "
        "from a file named .csv (or .csv.gz) or from standard input\n"
    )


@pytest.mark.usefixtures("tasks_of_one")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_bad_row_inside_a_dialogue_spoils_the_dialogue_not_its_order(
    tmp_path: Path, jobs: str
) -> None:
    # Labelled without its bad row, the dialogue would lose a turn without a word.
    table = tmp_path / "t.csv"
    table.write_text(
        "dialogue_id,speaker,text\nd1,a,hi\nd1,b,hello,extra\nd1,a,how are you\nd2,a,yo\n",
        encoding="utf-8",
    )
    out = tmp_path / "o.jsonl"
    code, output = _label(table, "--on-error", "keep", "--jobs", jobs, "-o", str(out))
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert code == 0 and [r["text"] for r in rows] == ["hi", "hello", "how are you", "yo"]
    assert all("t.csv:3: 4 fields" in r["actparse_error"] for r in rows[:3])
    assert "actparse" in rows[3] and "1 of 2 dialogues" in output


def test_report_of_a_table_scored_on_prices_only_is_written(tmp_path: Path) -> None:
    # Its headline (coarse agreement) counts nothing: no figure, not an error.
    pytest.importorskip("plotly")
    table = tmp_path / "prices.csv"
    table.write_text(
        "dialogue_id,speaker,text,reference_price\nd,ann,i can pay 50,50\n", encoding="utf-8"
    )
    result = runner.invoke(app, ["report", str(table), "-o", str(tmp_path / "r.html")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "r.html").stat().st_size > 0


def test_report_stops_on_a_reference_it_cannot_read_as_eval_does(tmp_path: Path) -> None:
    # Only "nothing to score" is a report without figures; a bad reference is an error.
    pytest.importorskip("plotly")
    table = tmp_path / "soon.csv"
    table.write_text(
        "dialogue_id,speaker,text,reference_price\nd,ann,i can pay 50,soon\n", encoding="utf-8"
    )
    for command in (["eval", str(table)], ["report", str(table), "-o", str(tmp_path / "r.html")]):
        result = runner.invoke(app, command)
        assert result.exit_code == 2 and "reference_price must be a number" in result.output


@pytest.mark.parametrize(
    ("name", "title"),
    [
        pytest.param("dealornodeal_val_20.txt", "Deal or No Deal", id="dealornodeal"),
        pytest.param("casino_20.json", "CaSiNo", id="casino"),
        pytest.param("craigslist_validation_20.jsonl", "Craigslist", id="craigslist"),
    ],
)
def test_another_corpus_turn_table_is_refused_unless_its_corpus_is_chat(
    fixtures: CorpusFixtures, tmp_path: Path, name: str, title: str
) -> None:
    """A corpus' per-turn table, labelled again, was read as chat without a word: its
    corpus column changed to chat and its acts with it (no items, no listing)."""
    table = tmp_path / "turns.csv"
    assert runner.invoke(app, ["label", str(fixtures / name), "--per-turn", "-o", str(table)])
    again = runner.invoke(app, ["label", str(table), "--per-turn", "-o", str(tmp_path / "o.csv")])
    assert again.exit_code == 2
    assert f"{table}:2: this row is from a {title}" in again.stderr
    # The corpus is named once, not as "CraigslistBargains's".
    assert "none of that corpus' own inputs" in again.stderr
    assert "s's" not in again.stderr
    assert "set the corpus column to 'chat'" in again.stderr
    lines = table.read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines[0].startswith("corpus,")
    # So set, the rows are the user's own dialogues, as the message says.
    rows = [lines[0], *("chat," + line.split(",", 1)[1] for line in lines[1:])]
    table.write_text("".join(rows), encoding="utf-8")
    dropped = runner.invoke(app, ["label", str(table), "--per-turn", "-o", str(tmp_path / "o.csv")])
    assert dropped.exit_code == 0, dropped.output
    assert (tmp_path / "o.csv").read_text(encoding="utf-8").splitlines()[1].startswith("chat,")
