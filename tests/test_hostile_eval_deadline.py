"""Issue 28: every command that labels bounds each record as ``label`` does.

Before: ``--rules`` with a rule ``^(a|a)*$`` and a 41-character message: ``label`` gave
the record up at :data:`~actparse.io.deadline.RECORD_DEADLINE` (an error record), while
``eval`` was still running after 60 s; ``report`` and ``train-prices --calibrate`` label
in loops of their own too. Now each record they label has the same deadline
(:mod:`actparse.io.timed`); past it the command stops with exit status 2 and
``error: FILE:LINE: labelling took longer than ... s (the per-record deadline)``, as
``label --on-error stop`` does (these commands have no keep mode: a record they cannot
label stops them, as any bad record does). The deadline is set short here.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml
from corpus_fixtures import CorpusFixtures
from typer.testing import CliRunner

from actparse import registry
from actparse.cli import app
from actparse.corpora.craigslist import calibrate
from actparse.corpora.craigslist.parser import CraigslistParser
from actparse.corpora.dealornodeal.core import DealOrNoDealParser
from actparse.io import deadline
from actparse.io.records import read_records
from actparse.io.timed import each_in_time
from actparse.reports import evaluate_records

runner = CliRunner()
LIMIT = 0.5
SLACK = 3.0
#: 40 letters and one that is not: ^(a|a)*$ tries 2**40 ways before it fails.
CATASTROPHIC = "a" * 40 + "b"
HANG = "hang here"
TIMED_OUT = f"labelling took longer than {LIMIT:g} s (the per-record deadline)"


@pytest.fixture(autouse=True)
def short_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deadline, "RECORD_DEADLINE", LIMIT)
    monkeypatch.setattr(deadline, "BATCH_DEADLINE", LIMIT / 3)


def _spin() -> None:
    while True:
        pass


@pytest.fixture
def hanging(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shipped parsers, except that a message saying :data:`HANG` never ends."""

    def hang_on(cls: type, name: str) -> None:
        original = getattr(cls, name)

        def patched(self: Any, dialogue: Any, *args: Any) -> Any:
            if any(t.text == HANG for t in dialogue.turns):
                _spin()
            return original(self, dialogue, *args)

        monkeypatch.setattr(cls, name, patched)

    hang_on(DealOrNoDealParser, "_acts")
    hang_on(CraigslistParser, "parse")
    tokenize = calibrate.tokenize

    def slow_tokenize(text: str) -> Any:
        if text == HANG:
            _spin()
        return tokenize(text)

    monkeypatch.setattr(calibrate, "tokenize", slow_tokenize)


def _dond(fixtures: CorpusFixtures, tmp_path: Path, message: str, at: int = 3) -> Path:
    lines = (fixtures / "dealornodeal_val_20.txt").read_text(encoding="utf-8").splitlines()
    start = lines[at].index("<dialogue>") + len("<dialogue>")
    end = lines[at].index("<eos>", start)
    lines[at] = f"{lines[at][:start]} YOU: {message} {lines[at][end:]}"
    path = tmp_path / "dond.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _craigslist(fixtures: CorpusFixtures, tmp_path: Path, at: int = 3) -> Path:
    lines = (fixtures / "craigslist_validation_20.jsonl").read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[at])
    record["utterance"][0] = HANG
    lines[at] = json.dumps(record)
    path = tmp_path / "cl.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _catastrophic_rules(tmp_path: Path) -> Path:
    """Deal or No Deal's tag rules with ``^(a|a)*$`` first."""
    shipped = Path(__file__).parents[1] / "rules" / "dealornodeal" / "tags.yaml"
    rules = yaml.safe_load(shipped.read_text(encoding="utf-8"))
    rules["rules"].insert(
        0, {"name": "catastrophic", "tag": "agree", "match": "text-search", "values": ["^(a|a)*$"]}
    )
    path = tmp_path / "rules.yaml"
    path.write_text(yaml.safe_dump(rules), encoding="utf-8")
    return path


def _run(*args: str) -> tuple[int, str, float]:
    start = time.perf_counter()
    result = runner.invoke(app, list(args))
    took = time.perf_counter() - start
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, " ".join(result.output.split()), took


def test_eval_bounds_a_catastrophic_user_rule(fixtures: CorpusFixtures, tmp_path: Path) -> None:
    path = _dond(fixtures, tmp_path, CATASTROPHIC)
    code, output, took = _run("eval", str(path), "--rules", str(_catastrophic_rules(tmp_path)))
    assert code == 2, output
    assert f"error: {path}:4: {TIMED_OUT}" in output
    assert took < LIMIT + SLACK


@pytest.mark.usefixtures("tasks_of_one")
@pytest.mark.parametrize("mode", ["keep", "stop"])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_label_gives_the_same_record_the_same_bound(
    mode: str, jobs: str, fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    path = _dond(fixtures, tmp_path, CATASTROPHIC)
    rules = _catastrophic_rules(tmp_path)
    out = tmp_path / "out.jsonl"
    args = ["label", str(path), "--rules", str(rules), "-o", str(out), "--on-error", mode]
    code, output, took = _run(*args, "--jobs", jobs)
    if mode == "stop":
        assert code == 2 and f"error: {path}:4: {TIMED_OUT}" in output, output
    else:
        assert code == 0, output
        records = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
        assert records[3]["actparse_error"] == f"{path}:4: {TIMED_OUT}"
    assert took < LIMIT + SLACK + 2  # two workers start too


@pytest.mark.usefixtures("hanging")
@pytest.mark.parametrize("corpus", ["craigslist", "dealornodeal"])
def test_eval_bounds_every_record(corpus: str, fixtures: CorpusFixtures, tmp_path: Path) -> None:
    path = (
        _craigslist(fixtures, tmp_path)
        if corpus == "craigslist"
        else _dond(fixtures, tmp_path, HANG)
    )
    code, output, took = _run("eval", str(path))
    assert code == 2, output
    assert f"error: {path}:4: {TIMED_OUT}" in output
    assert took < LIMIT + SLACK


@pytest.mark.usefixtures("hanging")
@pytest.mark.parametrize("corpus", ["craigslist", "dealornodeal"])
def test_report_bounds_every_record(corpus: str, fixtures: CorpusFixtures, tmp_path: Path) -> None:
    pytest.importorskip("plotly")
    path = (
        _craigslist(fixtures, tmp_path)
        if corpus == "craigslist"
        else _dond(fixtures, tmp_path, HANG)
    )
    out = tmp_path / "report.html"
    code, output, took = _run("report", str(path), "-o", str(out))
    assert code == 2, output
    assert f"error: {path}:4: {TIMED_OUT}" in output
    assert not out.exists()
    assert took < 2 * LIMIT + SLACK  # evaluated, or else labelled for the browser: once


@pytest.mark.usefixtures("hanging")
@pytest.mark.parametrize("folds", ["0", "2"])
def test_train_prices_calibrate_bounds_every_record(
    folds: str, fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    path = _craigslist(fixtures, tmp_path, at=5)  # a dialogue the reference parsed
    transcripts = fixtures / "craigslist_transcripts_20.json"
    out = tmp_path / "lexicon.json"
    args = ["train-prices", str(transcripts), "--calibrate", str(path), "-o", str(out)]
    code, output, took = _run(*args, "--folds", folds)
    assert code == 2, output
    assert f"error: {path}:6: {TIMED_OUT}" in output
    assert not out.exists()
    assert took < LIMIT + SLACK


def test_the_library_names_a_bare_dialogue(hanging: None, fixtures: CorpusFixtures) -> None:
    """From Python, a bare dialogue past its deadline is named by its id."""
    dialogues = [r.dialogue() for r in read_records(fixtures / "dealornodeal_val_20.txt")]
    hung = dialogues[1]
    turns = (replace(hung.turns[0], text=HANG), *hung.turns[1:])
    dialogues[1] = replace(hung, turns=turns, id="d-2")
    evaluator = registry.resolve(registry.get("dealornodeal").evaluator)
    with (
        pytest.raises(deadline.RecordTimedOut, match=re.escape(f"d-2: {TIMED_OUT}")),
        each_in_time(dialogues) as timed,
    ):
        evaluator(timed, registry.shipped_parser("dealornodeal"))


def test_records_within_the_deadline_are_scored_as_before(fixtures: CorpusFixtures) -> None:
    records = list(read_records(fixtures / "dealornodeal_val_20.txt"))
    report = evaluate_records(records, "f")
    assert report.scored_items() > 0


def test_label_per_turn_bounds_a_catastrophic_user_rule(
    fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    """``label --per-turn`` labels in a loop of its own too (one process, stop mode only)."""
    path = _dond(fixtures, tmp_path, CATASTROPHIC)
    rules = _catastrophic_rules(tmp_path)
    out = tmp_path / "table.csv"
    code, output, took = _run(
        "label", str(path), "--rules", str(rules), "--per-turn", "-o", str(out)
    )
    assert code == 2, output
    assert f"error: {path}:4: {TIMED_OUT}" in output
    assert not out.exists()
    assert took < LIMIT + SLACK
