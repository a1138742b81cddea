"""The per-turn table: one row per turn with the same typed columns for every corpus,
each dialogue once, written by ``actparse label --per-turn`` as Parquet, CSV or JSON
lines that read back as the rows :func:`iter_turn_rows` made."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from corpus_fixtures import CorpusFixtures
from typer.testing import CliRunner

from actparse import iter_turn_rows, read_records
from actparse.cli import app
from actparse.io.records import InputError
from actparse.io.turn_files import read_turn_table, write_turn_table
from actparse.io.turns import COLUMNS, column_names

runner = CliRunner()

#: Every fixture of a corpus, with the dialogues and turns it holds.
FIXTURES = {
    "craigslist_validation_20.jsonl": ("craigslist", 20, 178),
    "craigslist_transcripts_20.json": ("craigslist", 20, 206),
    "dealornodeal_val_20.txt": ("dealornodeal", 10, 58),
    "casino_20.json": ("casino", 20, 280),
    "mutualfriends_card_sample.jsonl": ("mutualfriends", 1, 6),
    "mutualfriends_handmade_cocoa.json": ("mutualfriends", 2, None),
}


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_every_corpus_gives_the_same_columns(fixtures: CorpusFixtures, name: str) -> None:
    corpus, dialogues, turns = FIXTURES[name]
    rows = list(iter_turn_rows(fixtures / name))
    assert rows and all(tuple(row) == column_names() for row in rows)
    assert {row["corpus"] for row in rows} == {corpus}
    assert len({row["dialogue_id"] for row in rows}) == dialogues
    if turns is not None:
        assert len(rows) == turns
    for row in rows:
        assert isinstance(row["text"], str) and isinstance(row["entities"], list)
        assert row["intent"] != "" and row["role"] != ""  # a missing name is null
        assert row["price"] is None or isinstance(row["price"], float)


def test_each_column_holds_what_its_corpus_has(fixtures: CorpusFixtures) -> None:
    craigslist = list(iter_turn_rows(fixtures / "craigslist_transcripts_20.json"))
    assert {r["role"] for r in craigslist} == {"buyer", "seller"}
    assert any(r["price"] for r in craigslist) and not any(r["split"] for r in craigslist)
    assert craigslist[0]["dialogue_id"].startswith("C_")  # the transcript's uuid
    # Offers get their act, except in the dialogues Cocoa's length rule skips (null).
    offers = [(r["intent"], r["coarse"]) for r in craigslist if r["action"] == "offer"]
    assert set(offers) == {("offer", "offer"), (None, None)}

    hf = list(iter_turn_rows(fixtures / "craigslist_validation_20.jsonl"))
    # The HF export has no id: the record's position among the file's records, from 0.
    assert hf[0]["dialogue_id"] == "0"
    assert hf[-1]["dialogue_id"] == "19"

    dond = list(iter_turn_rows(fixtures / "dealornodeal_val_20.txt"))
    proposal = next(r for r in dond if r["split"])
    assert proposal["split"] == [
        {"item": "book", "agent_0": 1, "agent_1": 0},
        {"item": "hat", "agent_0": 0, "agent_1": 3},
        {"item": "ball", "agent_0": 2, "agent_1": 0},
    ]
    assert all(r["role"] is None and r["price"] is None for r in dond)

    friends = list(iter_turn_rows(fixtures / "mutualfriends_card_sample.jsonl"))
    assert {"surface": "Molycorp", "value": "Molycorp", "type": "company"} in friends[1]["entities"]


def test_deal_or_no_deal_dialogues_appear_once(fixtures: CorpusFixtures) -> None:
    # Line 1 is one side only; lines 2-19 are nine dialogues, each from both sides. The
    # id is the position of the view tabled (the second takes up a position too).
    rows = list(iter_turn_rows(fixtures / "dealornodeal_val_20.txt"))
    ids = list(dict.fromkeys(r["dialogue_id"] for r in rows))
    assert ids == [str(n) for n in (0, 1, *range(3, 19, 2))]


def test_a_partition_starting_with_a_second_view_is_told_by_after(fixtures: CorpusFixtures) -> None:
    records = list(read_records(fixtures / "dealornodeal_val_20.txt"))
    whole = list(iter_turn_rows(records))
    # Line 3 is the second view of line 2: a partition starting there needs line 2.
    head, tail = records[:2], records[2:]
    split = [*iter_turn_rows(head), *iter_turn_rows(tail, after=records[1], start=2)]
    assert split == whole
    naive = [*iter_turn_rows(head), *iter_turn_rows(tail, start=2)]
    assert len(naive) > len(whole)  # without it line 3 is tabled again
    # Without start the partition's ids count from 0 again, repeating the head's.
    unplaced = [*iter_turn_rows(head), *iter_turn_rows(tail, after=records[1])]
    assert len({r["dialogue_id"] for r in unplaced}) < len({r["dialogue_id"] for r in whole})


def test_the_second_view_is_told_whichever_comes_first(fixtures: CorpusFixtures) -> None:
    records = list(read_records(fixtures / "dealornodeal_val_20.txt"))
    swapped = [records[2], records[1]]
    rows = list(iter_turn_rows(swapped))
    assert {r["dialogue_id"] for r in rows} == {"0"}


def test_records_given_in_memory_get_their_position_as_id(fixtures: CorpusFixtures) -> None:
    raws = [r.raw for r in read_records(fixtures / "craigslist_validation_20.jsonl")][:3]
    ids = list(dict.fromkeys(r["dialogue_id"] for r in iter_turn_rows(raws)))
    assert ids == ["0", "1", "2"]
    # A partition of a larger input: start is its first record's position in the whole.
    later = list(dict.fromkeys(r["dialogue_id"] for r in iter_turn_rows(raws, start=40)))
    assert later == ["40", "41", "42"]


def test_a_record_of_another_corpus_is_named(fixtures: CorpusFixtures) -> None:
    with pytest.raises(InputError, match=r"casino_20.json:1: a CaSiNo record, not Deal or No"):
        list(iter_turn_rows(fixtures / "casino_20.json", corpus="dealornodeal"))
    with pytest.raises(InputError, match=r"<records>:1: expected a record"):
        list(iter_turn_rows([["not", "a", "record"]]))  # type: ignore[list-item]


@pytest.mark.parametrize("suffix", [".parquet", ".csv", ".csv.gz", ".jsonl", ".jsonl.gz"])
@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_files_read_back_as_the_rows(
    fixtures: CorpusFixtures, tmp_path: Path, name: str, suffix: str
) -> None:
    rows = list(iter_turn_rows(fixtures / name))
    out = tmp_path / f"turns{suffix}"
    assert write_turn_table(iter(rows), out) == len(rows)
    assert list(read_turn_table(out)) == rows


def test_csv_keeps_awkward_text_and_tells_null_from_empty(tmp_path: Path) -> None:
    row: dict[str, Any] = {c.name: None for c in COLUMNS}
    row.update(corpus="x", dialogue_id="d,1", turn=0, agent=1, text='a "b",\r\nc\n', entities=[])
    row["strategies"] = row["split_uncertain"] = []  # a list column is never null, like entities
    empty = {**row, "text": "", "price": 0.1 + 0.2, "split": []}
    out = tmp_path / "t.csv"
    write_turn_table([row, empty], out)
    assert list(read_turn_table(out)) == [row, empty]


def test_parquet_has_the_fixed_schema_whatever_the_corpus(
    fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    schemas = set()
    for name in FIXTURES:
        out = tmp_path / f"{name}.parquet"
        write_turn_table(iter_turn_rows(fixtures / name), out)
        schemas.add(pq.read_schema(out).to_string())
    assert len(schemas) == 1
    schema = pq.read_schema(out)
    assert str(schema.field("split").type) == (
        "list<element: struct<item: string, agent_0: int64, agent_1: int64>>"
    )
    assert str(schema.field("price").type) == "double"


@pytest.mark.parametrize("suffix", [".parquet", ".csv", ".jsonl"])
def test_cli_per_turn_writes_the_table(
    fixtures: CorpusFixtures, tmp_path: Path, suffix: str
) -> None:
    source = fixtures / "dealornodeal_val_20.txt"
    out = tmp_path / f"turns{suffix}"
    result = runner.invoke(app, ["label", str(source), "--per-turn", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "wrote 58 turns of 10 dialogues" in result.output
    assert list(read_turn_table(out)) == list(iter_turn_rows(source))


@pytest.mark.parametrize(
    ("option", "reason"),
    [
        (["--on-error", "keep"], "has no row for an unreadable record"),
        (["--coarse"], "always has a 'coarse' column"),
        (["--jobs", "2"], "is written by one process"),
    ],
    ids=["keep", "coarse", "jobs"],
)
def test_cli_per_turn_refuses_options_it_cannot_honour(
    fixtures: CorpusFixtures, tmp_path: Path, option: list[str], reason: str
) -> None:
    """An option --per-turn would ignore is an error naming it and its reason alone (the
    --coarse refusal had also given keep's), and no file is written."""
    source = fixtures / "dealornodeal_val_20.txt"
    out = tmp_path / "turns.csv"
    result = runner.invoke(app, ["label", str(source), "--per-turn", "-o", str(out), *option])
    assert result.exit_code == 2
    message = " ".join(result.output.split())
    refused = " ".join(option)
    assert message == f"error: --per-turn cannot be used with {refused}: the table {reason}"
    assert not out.exists()


def test_cli_per_turn_takes_the_default_jobs_and_jobs_1(
    fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    """Only a --jobs the user gives is refused: the default (the CPUs, 2 or more on most
    machines) and --jobs 1 ask for nothing the table cannot do."""
    source = fixtures / "dealornodeal_val_20.txt"
    for option in ([], ["--jobs", "1"]):
        out = tmp_path / "turns.csv"
        result = runner.invoke(app, ["label", str(source), "--per-turn", "-o", str(out), *option])
        assert result.exit_code == 0, result.output


def test_cli_per_turn_to_stdout_is_json_lines(fixtures: CorpusFixtures) -> None:
    source = fixtures / "mutualfriends_card_sample.jsonl"
    result = runner.invoke(app, ["label", str(source), "--per-turn"])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stdout.splitlines() if line.startswith("{")]
    assert len(lines) == 6


def test_cli_per_turn_bad_record_stops_and_leaves_no_file(tmp_path: Path) -> None:
    source = tmp_path / "bad.jsonl"
    source.write_text('{"agent_turn": [0], "items": {}}\n')
    out = tmp_path / "turns.parquet"
    result = runner.invoke(app, ["label", str(source), "--per-turn", "-o", str(out)])
    assert result.exit_code == 2
    assert "bad.jsonl:1: missing field" in result.output
    assert not out.exists() and not list(tmp_path.glob(".*.part"))


def _with_lone_surrogate(fixtures: CorpusFixtures, tmp_path: Path) -> Path:
    line = (fixtures / "craigslist_validation_20.jsonl").read_text().splitlines()[0]
    record = json.loads(line)
    record["utterance"][1] = "good \ud800 day\x00"
    source = tmp_path / "odd.jsonl"
    source.write_text(json.dumps(record) + "\n")
    return source


def test_json_lines_keep_a_lone_surrogate(fixtures: CorpusFixtures, tmp_path: Path) -> None:
    source = _with_lone_surrogate(fixtures, tmp_path)
    out = tmp_path / "turns.jsonl"
    assert runner.invoke(app, ["label", str(source), "--per-turn", "-o", str(out)]).exit_code == 0
    assert list(read_turn_table(out)) == list(iter_turn_rows(source))


@pytest.mark.parametrize("suffix,what", [(".csv", "CSV"), (".parquet", "Parquet")])
def test_a_row_a_format_cannot_hold_is_named(
    fixtures: CorpusFixtures, tmp_path: Path, suffix: str, what: str
) -> None:
    source = _with_lone_surrogate(fixtures, tmp_path)
    out = tmp_path / f"turns{suffix}"
    result = runner.invoke(app, ["label", str(source), "--per-turn", "-o", str(out)])
    assert result.exit_code == 2
    assert f"dialogue 0, turn 1: cannot be written to {what}: contains" in (result.output)
    assert not out.exists() and not list(tmp_path.glob(".*.part"))


def test_a_parquet_input_gives_the_rows_of_its_json_lines(
    fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    pytest.importorskip("pyarrow")
    source = fixtures / "craigslist_validation_20.jsonl"
    as_parquet = tmp_path / "craigslist_validation_20.parquet"
    assert runner.invoke(app, ["label", str(source), "-o", str(as_parquet)]).exit_code == 0
    # Ids included: a Parquet row's position is its row, as a JSON line's is its record.
    assert list(iter_turn_rows(as_parquet)) == list(iter_turn_rows(source))


def test_a_blank_line_is_no_record_so_takes_no_position(
    fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    lines = (fixtures / "craigslist_validation_20.jsonl").read_text().splitlines()[:2]
    source = tmp_path / "gappy.jsonl"
    source.write_text(f"\n{lines[0]}\n\n\n{lines[1]}\n")
    ids = list(dict.fromkeys(r["dialogue_id"] for r in iter_turn_rows(source)))
    assert ids == ["0", "1"]


def test_a_repeated_dialogue_id_is_refused_naming_both_records(
    fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    """Two records with the same own id would be one dialogue to every groupby."""
    records = json.loads((fixtures / "casino_20.json").read_text())
    source = tmp_path / "twice.json"
    source.write_text(json.dumps([records[0], records[1], records[0]]))
    ident = str(records[0]["dialogue_id"])
    with pytest.raises(InputError) as refused:
        list(iter_turn_rows(source))
    assert str(refused.value).startswith(
        f"{source}:3: dialogue id {ident!r} was given already, to the dialogue at {source}:1"
    )
    assert "give each dialogue an id of its own" in str(refused.value)
    # An own id may also repeat the position another record gets as its id.
    own_two = [
        {**records[0], "dialogue_id": 2},
        *(r.raw for r in read_records(fixtures / "craigslist_validation_20.jsonl")),
    ][:3]
    with pytest.raises(InputError, match=r"^<records>:3: dialogue id '2' was given already"):
        list(iter_turn_rows(own_two))
    result = runner.invoke(app, ["label", str(source), "--per-turn", "-o", str(tmp_path / "t.csv")])
    assert result.exit_code == 2
    assert f"twice.json:3: dialogue id {ident!r} was given already" in " ".join(
        result.output.split()
    )
    assert not (tmp_path / "t.csv").exists()


def test_cli_per_turn_says_which_dialogues_have_no_rows(
    fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    """A dialogue without a turn has no row; the count of dialogues is of those with rows,
    so the summary names the others rather than leaving them out without a word."""
    records = json.loads((fixtures / "casino_20.json").read_text())
    empty = [{**r, "dialogue_id": f"empty-{n}", "chat_logs": []} for n, r in enumerate(records[:2])]
    out = tmp_path / "turns.csv"
    for given, said in [
        ([records[0], empty[0]], "(1 dialogue has no turns, so no rows)"),
        ([empty[0], records[0], empty[1]], "(2 dialogues have no turns, so no rows)"),
    ]:
        source = tmp_path / "some_empty.json"
        source.write_text(json.dumps(given))
        result = runner.invoke(app, ["label", str(source), "--per-turn", "-o", str(out)])
        assert result.exit_code == 0, result.output
        turns = len(records[0]["chat_logs"])
        assert f"wrote {turns} turns of 1 dialogue {said}" in " ".join(result.output.split())
    result = runner.invoke(app, ["label", str(fixtures / "casino_20.json"), "--per-turn"])
    assert "wrote 280 turns of 20 dialogues\n" in result.output  # none without: as it was
