"""The deal in labelled records: Deal or No Deal and CaSiNo records keep every input field
and get their acts in ``acts``, each message's deal move and each split's doubts there
(``Act.to_dict``), and a labelled file labels again to the same file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from deal_dialogues import CASINO_DEAL, DOND_DEAL, casino_record, write_casino, write_dond
from typer.testing import CliRunner

from actparse import DealMove, label_record, parse_dialogue, read_records
from actparse.cli import app

runner = CliRunner()


def _label(source: Path, output: Path) -> list[dict[str, Any]]:
    result = runner.invoke(app, ["label", str(source), "-o", str(output)])
    assert result.exit_code == 0, result.output
    if output.suffix == ".parquet":
        pq = pytest.importorskip("pyarrow.parquet")
        return list(pq.read_table(output).to_pylist())
    return [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(params=["dealornodeal", "casino"])
def made_up(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, list[tuple[Any, ...]]]:
    if request.param == "dealornodeal":
        return write_dond(tmp_path), DOND_DEAL
    return write_casino(tmp_path), CASINO_DEAL


def test_each_message_act_has_its_deal_move(
    made_up: tuple[Path, list[tuple[Any, ...]]], tmp_path: Path
) -> None:
    source, deal = made_up
    (record,) = _label(source, tmp_path / "out.jsonl")
    moves = [act.get("deal") for act in record["acts"]]
    expected = [
        None if move is None else {"move": move, "proposal": proposal, "standing": standing}
        for move, proposal, standing, _, _ in deal
    ]
    assert moves == expected


def test_a_split_says_what_its_parse_assumed(
    made_up: tuple[Path, list[tuple[Any, ...]]], tmp_path: Path
) -> None:
    source, deal = made_up
    (record,) = _label(source, tmp_path / "out.jsonl")
    # Written only where there is a doubt, as the other evidence fields are.
    assert [act.get("split_uncertain", []) for act in record["acts"]] == [d[4] for d in deal]
    assert all("split" in act for act in record["acts"] if "split_uncertain" in act)


def test_casino_records_keep_every_input_field(tmp_path: Path) -> None:
    (record,) = _label(write_casino(tmp_path), tmp_path / "out.jsonl")
    assert {k: v for k, v in record.items() if k != "acts"} == casino_record()


def test_dealornodeal_records_keep_the_input_schema(tmp_path: Path) -> None:
    source = write_dond(tmp_path)
    (raw,) = [r.raw for r in read_records(source)]
    (record,) = _label(source, tmp_path / "out.jsonl")
    assert list(record) == [*raw, "acts"]
    assert {k: v for k, v in record.items() if k != "acts"} == raw


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_a_labelled_file_labels_again_the_same(
    made_up: tuple[Path, list[tuple[Any, ...]]], tmp_path: Path, suffix: str
) -> None:
    source, _ = made_up
    first = _label(source, tmp_path / f"once{suffix}")
    second = _label(tmp_path / f"once{suffix}", tmp_path / f"twice{suffix}")
    assert second == first
    if suffix == ".jsonl":
        assert (tmp_path / "once.jsonl").read_bytes() == (tmp_path / "twice.jsonl").read_bytes()


def test_to_dict_round_trips_the_deal_and_the_doubts() -> None:
    # The JSON view gives back the same DealMove and the same reasons.
    for act in parse_dialogue(casino_record()):
        view = json.loads(json.dumps(act.to_dict()))
        assert (DealMove(**view["deal"]) if "deal" in view else None) == act.deal
        uncertain = () if act.split is None else act.split.uncertain
        assert tuple(view.get("split_uncertain", ())) == uncertain
    labelled = label_record(casino_record())
    again = label_record(labelled)
    assert again == labelled
