"""``eval`` of actparse's own labelled output agrees with it in full, as a regression check
needs: prices with cents (the writer emits the double typed, the HF export stored float32)
and dialogues Cocoa's length rule skipped (a labelled transcript gives each of their events
``metadata: null``, which is a skip to score, not a missing reference)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from corpus_fixtures import FIXTURES
from typer.testing import CliRunner

from actparse.cli import app
from actparse.corpora.craigslist.evaluate import same_price
from actparse.corpora.craigslist.hf import float32
from actparse.models import Act, ReferenceAct

runner = CliRunner()

HF = "craigslist_validation_20.jsonl"
COCOA = "craigslist_transcripts_20.json"
#: Fixture dialogues: one with prices the reference parsed, one Cocoa's length rule skipped.
HF_PICK = (9, 2)
COCOA_PICK = (0, 5)
_WHOLE_DOLLARS = re.compile(r"\$(\d+)(?![\d.])")


def _cents(text: str) -> str:
    """``$3000`` becomes ``$2999.99``: a price a float32 does not hold exactly."""
    return _WHOLE_DOLLARS.sub(lambda m: f"${int(m.group(1)) - 1}.99", text)


def _hf_input(tmp_path: Path) -> Path:
    lines = (FIXTURES / HF).read_text(encoding="utf-8").splitlines()
    records = [json.loads(lines[k]) for k in HF_PICK]
    for record in records:
        record["utterance"] = [_cents(text) for text in record["utterance"]]
        del record["dialogue_acts"]  # labelled anew: ours become the reference
    path = tmp_path / "hf.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _cocoa_input(tmp_path: Path) -> Path:
    transcripts = json.loads((FIXTURES / COCOA).read_text(encoding="utf-8"))
    picked = [transcripts[k] for k in COCOA_PICK]
    for transcript in picked:
        for event in transcript["events"]:
            if event["action"] == "message":
                event["data"] = _cents(event["data"])
            elif event["action"] == "offer":
                event["data"]["price"] -= 0.01
    path = tmp_path / "transcripts.json"
    path.write_text(json.dumps(picked), encoding="utf-8")
    return path


def _label(source: Path, out: Path) -> Path:
    result = runner.invoke(app, ["label", str(source), "-o", str(out), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    return out


def _as_json_list(labelled: Path) -> Path:
    """Cocoa's own layout, a JSON list, of the JSON lines ``label`` writes."""
    lines = labelled.read_text(encoding="utf-8").splitlines()
    path = labelled.with_name("labelled_list.json")
    path.write_text(json.dumps([json.loads(line) for line in lines]), encoding="utf-8")
    return path


def _labelled(kind: str, tmp_path: Path) -> Path:
    if kind == "hf-parquet":
        pytest.importorskip("pyarrow", reason="Parquet output needs actparse[parquet]")
        return _label(_hf_input(tmp_path), tmp_path / "labelled.parquet")
    if kind == "hf-jsonl":
        return _label(_hf_input(tmp_path), tmp_path / "labelled.jsonl")
    labelled = _label(_cocoa_input(tmp_path), tmp_path / "labelled.jsonl")
    return labelled if kind == "cocoa-jsonl" else _as_json_list(labelled)


def _eval(path: Path, *options: str) -> dict[str, Any]:
    result = runner.invoke(app, ["eval", str(path), "--json", *options])
    assert result.exit_code == 0, result.output
    return dict(json.loads(result.stdout))


@pytest.mark.parametrize("kind", ["hf-jsonl", "hf-parquet", "cocoa-jsonl", "cocoa-list"])
def test_eval_of_our_own_output_agrees_in_full(kind: str, tmp_path: Path) -> None:
    labelled = _labelled(kind, tmp_path)
    found = _eval(labelled)
    figures = found["figures"]
    assert found["misses"] == [] and figures["skip_disagreements"] == []
    assert figures["price_agreement"] == figures["message_joint_agreement"] == 1.0
    # The skipped dialogue is counted as a skip both sides made, not left out or an error.
    assert found["dialogues"] == figures["scored_dialogues"] + 1
    assert figures["skip_agreement"] == 1.0
    _eval(labelled, "--min-agreement", "1")  # the regression check holds


def test_the_fixture_has_what_the_round_trip_tests(tmp_path: Path) -> None:
    """Prices with cents in the labels, and a transcript labelled as skipped."""
    hf = _label(_hf_input(tmp_path), tmp_path / "hf_out.jsonl").read_text(encoding="utf-8")
    prices = [p for line in hf.splitlines() for p in json.loads(line)["dialogue_acts"]["price"]]
    assert any(float32(p) != p for p in prices)
    cocoa = _label(_cocoa_input(tmp_path), tmp_path / "cocoa_out.jsonl").read_text()
    events = [json.loads(line)["events"] for line in cocoa.splitlines()]
    assert any(all(e["metadata"] is None for e in evs) for evs in events)
    offers = [e["metadata"] for evs in events for e in evs if e["action"] == "offer"]
    assert [float32(m["price"]) != m["price"] for m in offers if m] == [True]


# -- the price comparison, each side as an input kind has it ---------------------------------

PRICE_CASES = {
    # (ours, the reference's, equal)
    "hf-export-float32": (79.99, 79.98999786376953, True),
    "double-as-typed": (79.99, 79.99, True),
    "large-double": (2399.99, 2399.99, True),
    "large-float32": (2399.99, float32(2399.99), True),
    "whole": (250.0, 250.0, True),
    "a-cent-apart": (79.99, 79.98, False),
    "a-cent-apart-float32": (79.99, float32(79.98), False),
    "no-price-either": (None, None, True),
    "zero-is-no-price": (0.0, None, True),
    "only-ours": (79.99, None, False),
    "only-the-reference": (None, 79.99, False),
}


@pytest.mark.parametrize("case", list(PRICE_CASES), ids=list(PRICE_CASES))
def test_prices_are_equal_as_the_float32_the_export_stores(case: str) -> None:
    ours, theirs, equal = PRICE_CASES[case]
    act = Act(0, 0, "counter-price", price=ours)
    assert same_price(act, ReferenceAct("counter-price", theirs)) is equal


# -- a Cocoa file: skipped dialogues, and no reference at all --------------------------------


def _transcripts(tmp_path: Path, metadata: list[str]) -> Path:
    """Three transcripts: each ``labelled`` (an act on every event), ``skipped`` (null on
    every event) or ``none`` (no metadata, as transcripts are collected)."""
    transcripts = json.loads((FIXTURES / COCOA).read_text(encoding="utf-8"))[:3]
    for transcript, how in zip(transcripts, metadata, strict=True):
        for event in transcript["events"]:
            if how != "none":
                event["metadata"] = {"intent": "unknown"} if how == "labelled" else None
    path = tmp_path / "refs.json"
    path.write_text(json.dumps(transcripts), encoding="utf-8")
    return path


REFERENCE_CASES = {
    # (each transcript's metadata, the exit status, what stderr says)
    "as-collected": (["none"] * 3, 2, "refs.json:1: no reference acts"),
    "all-skipped": (["skipped"] * 3, 2, "nothing to score: none of its 3 dialogues"),
    "one-unlabelled": (["labelled", "none", "skipped"], 2, "refs.json:2: no reference acts"),
    "one-skipped": (["labelled", "skipped", "labelled"], 0, ""),
}


@pytest.mark.parametrize("case", list(REFERENCE_CASES), ids=list(REFERENCE_CASES))
def test_a_skipped_transcript_is_scored_and_a_missing_reference_is_an_error(
    case: str, tmp_path: Path
) -> None:
    metadata, status, says = REFERENCE_CASES[case]
    result = runner.invoke(app, ["eval", str(_transcripts(tmp_path, metadata)), "--json"])
    assert result.exit_code == status, result.output
    assert says in result.stderr and "Traceback" not in result.output
    if status == 0:
        found = json.loads(result.stdout)
        assert (found["dialogues"], found["figures"]["scored_dialogues"]) == (3, 2)
