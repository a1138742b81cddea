"""The deal on the table in the per-turn table: each message's move, the proposal it
concerns and the one the deal stands on, what became of each proposal, and why a split's
parse is unsure. Every corpus has the columns (null without a deal), so tables of two
corpora concatenate, in every format the table is written in."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest
from corpus_fixtures import CorpusFixtures
from deal_dialogues import CASINO_DEAL, DOND_DEAL, write_casino, write_dond
from typer.testing import CliRunner

from actparse import iter_turn_rows
from actparse.cli import app
from actparse.io import turn_files
from actparse.io.turn_files import arrow_schema, read_turn_table, write_turn_table
from actparse.io.turns import column_names

runner = CliRunner()

DEAL_COLUMNS = ("deal_move", "deal_proposal", "deal_standing", "proposal_status", "split_uncertain")


def _column(path: Path, name: str) -> list[Any]:
    return [row[name] for row in iter_turn_rows(path)]


def _expected(deal: list[tuple[Any, ...]], name: str) -> list[Any]:
    return [turn[DEAL_COLUMNS.index(name)] for turn in deal]


@pytest.fixture(params=["dealornodeal", "casino"])
def made_up(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, list[tuple[Any, ...]]]:
    """A made-up dialogue of the corpus and each turn's expected deal columns."""
    if request.param == "dealornodeal":
        return write_dond(tmp_path), DOND_DEAL
    return write_casino(tmp_path), CASINO_DEAL


def test_the_deal_columns_follow_the_act_columns() -> None:
    names = column_names()
    assert names[names.index("no_act") + 1 :] == DEAL_COLUMNS


@pytest.mark.parametrize("column", DEAL_COLUMNS)
def test_each_deal_column(made_up: tuple[Path, list[tuple[Any, ...]]], column: str) -> None:
    # deal_standing: null after a refusal that put nothing back, the deal before after
    # one that did; proposal_status: only on a turn that proposes, the status its
    # proposal ended the dialogue with.
    path, deal = made_up
    assert _column(path, column) == _expected(deal, column)


def test_the_fixtures_statuses_are_the_trackers(fixtures: CorpusFixtures) -> None:
    from actparse import track_deals
    from actparse.engine.pipeline import pipeline
    from actparse.io.records import read_records

    for name in ("dealornodeal_val_20.txt", "casino_20.json"):
        rows = list(iter_turn_rows(fixtures / name))
        statuses = [r["proposal_status"] for r in rows if r["deal_move"] == "propose"]
        assert statuses and all(statuses)
        assert all(r["proposal_status"] is None for r in rows if r["deal_move"] != "propose")
        tracked = []
        seen = set()
        for record in read_records(fixtures / name):
            dialogue = record.dialogue()
            acts = pipeline(dialogue.corpus).parse(dialogue)
            key = tuple(t.text for t in dialogue.turns)
            if key in seen:  # Deal or No Deal's other view: not in the table
                continue
            seen.add(key)
            proposals = track_deals(acts).proposals
            tracked += [
                proposals[a.turn].status for a in acts if a.deal and a.deal.move == "propose"
            ]
        assert statuses == tracked, name


@pytest.mark.parametrize(
    "name", ["craigslist_validation_20.jsonl", "mutualfriends_card_sample.jsonl"]
)
def test_a_corpus_without_deals_has_the_columns_null(fixtures: CorpusFixtures, name: str) -> None:
    rows = list(iter_turn_rows(fixtures / name))
    assert rows and all(tuple(row) == column_names() for row in rows)
    for column in DEAL_COLUMNS[:-1]:
        assert all(row[column] is None for row in rows), column
    assert all(row["split_uncertain"] == [] for row in rows)


@pytest.mark.parametrize("suffix", [".parquet", ".csv", ".jsonl"])
def test_the_deal_columns_read_back_as_written(
    made_up: tuple[Path, list[tuple[Any, ...]]], tmp_path: Path, suffix: str
) -> None:
    path, _ = made_up
    rows = list(iter_turn_rows(path))
    out = tmp_path / f"t{suffix}"
    write_turn_table(rows, out)
    assert list(read_turn_table(out)) == rows


def test_csv_writes_split_uncertain_as_strategies_are(tmp_path: Path) -> None:
    out = tmp_path / "t.csv"
    assert runner.invoke(app, ["label", str(write_dond(tmp_path)), "--per-turn", "-o", str(out)])
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0].endswith(
        ",deal_move,deal_proposal,deal_standing,proposal_status,split_uncertain"
    )
    assert lines[1].endswith(',"[""non-strategic""]",,propose,0,0,refused,[]')
    assert lines[2].endswith(",refuse,0,,,[]")  # no deal standing: an empty field
    assert lines[5].endswith(',propose,4,4,refused,"[""item-assumed""]"')


def test_parquet_keeps_its_schema_when_the_first_batch_has_no_deal(
    fixtures: CorpusFixtures, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    # Batches of 4 rows: the Craigslist rows first, all of their deal columns null.
    monkeypatch.setattr(turn_files, "BATCH_ROWS", 4)
    rows = list(iter_turn_rows(fixtures / "craigslist_validation_20.jsonl"))[:8]
    rows += list(iter_turn_rows(write_dond(tmp_path)))
    out = tmp_path / "t.parquet"
    assert write_turn_table(rows, out) == len(rows)
    schema = pq.read_schema(out)
    assert schema.equals(arrow_schema())
    assert str(schema.field("deal_proposal").type) == "int64"
    assert str(schema.field("split_uncertain").type) == "list<element: string>"
    assert list(read_turn_table(out)) == rows


def test_tables_of_two_corpora_concatenate(fixtures: CorpusFixtures, tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    import actparse

    dond = actparse.to_frame(write_dond(tmp_path))
    craigslist = actparse.to_frame(fixtures / "craigslist_validation_20.jsonl")
    casino = actparse.to_frame(write_casino(tmp_path))
    assert list(dond.columns) == list(craigslist.columns) == list(casino.columns)
    both = pd.concat([dond, craigslist, casino], ignore_index=True)
    assert list(both.columns) == list(column_names())
    assert list(both.dtypes) == list(dond.dtypes) == list(craigslist.dtypes)
    assert str(both.dtypes["deal_proposal"]) == "Int64"  # nulls keep it whole numbers
    deal = both[both["corpus"] != "craigslist"]
    assert deal["deal_move"].notna().sum() == 8 + 4
    assert both[both["corpus"] == "craigslist"]["deal_move"].isna().all()
    assert list(both["deal_proposal"].dropna())[:3] == [0, 0, 2]


def test_parquet_tables_of_two_corpora_have_one_schema(
    fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    pa = pytest.importorskip("pyarrow")
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    write_turn_table(iter_turn_rows(write_casino(tmp_path)), a)
    write_turn_table(iter_turn_rows(fixtures / "mutualfriends_card_sample.jsonl"), b)
    assert pq.read_schema(a).equals(pq.read_schema(b))
    assert pa.concat_tables([pq.read_table(a), pq.read_table(b)]).num_rows == 8 + 6


def test_turn_features_type_the_deal_columns() -> None:
    datasets = pytest.importorskip("datasets")
    import actparse

    row = actparse.turn_features(nested=False)
    assert row["deal_move"] == datasets.Value("string")
    assert row["deal_standing"] == datasets.Value("int64")
    assert row["split_uncertain"] == row["strategies"]


def test_an_input_column_named_like_a_deal_column_is_refused(tmp_path: Path) -> None:
    table = tmp_path / "t.csv"
    table.write_text("dialogue_id,speaker,text,deal_move\nd,a,hi,mine\n", encoding="utf-8")
    result = runner.invoke(app, ["label", str(table), "--per-turn", "-o", str(tmp_path / "o.csv")])
    assert result.exit_code == 2
    assert "t.csv:2: the input's column deal_move would be replaced" in result.output


def test_a_table_written_before_the_deal_columns_labels_again(tmp_path: Path) -> None:
    # Its act columns are actparse's earlier reading, though it lacks the deal's.
    table = tmp_path / "t.csv"
    table.write_text("dialogue_id,speaker,text\nd,a,i offer $20\nd,b,ok\n", encoding="utf-8")
    first = tmp_path / "o1.csv"
    assert runner.invoke(app, ["label", str(table), "--per-turn", "-o", str(first)]).exit_code == 0
    old = tmp_path / "old.csv"
    with first.open(encoding="utf-8", newline="") as src, old.open("w", newline="") as dst:
        rows = list(csv.reader(src))
        kept = [k for k, name in enumerate(rows[0]) if name not in DEAL_COLUMNS]
        csv.writer(dst).writerows([row[k] for k in kept] for row in rows)
    assert "speaker" in rows[0] and len(kept) == len(rows[0]) - len(DEAL_COLUMNS)
    again = tmp_path / "o2.csv"
    result = runner.invoke(app, ["label", str(old), "--per-turn", "-o", str(again)])
    assert result.exit_code == 0, result.output
    assert again.read_bytes() == first.read_bytes()


def test_turns_batch_gives_the_deal_columns(tmp_path: Path) -> None:
    import actparse

    raw = [r.raw for r in actparse.read_records(write_casino(tmp_path))]
    batch = {key: [record[key] for record in raw] for key in raw[0]}
    (turns,) = actparse.turns_batch(batch, indices=[0])["turns"]
    got = [tuple(row[c] for c in DEAL_COLUMNS) for row in turns]
    assert got == CASINO_DEAL
