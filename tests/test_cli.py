"""The command line: label, eval and train-prices, as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from corpus_fixtures import FIXTURES, CorpusFixtures
from typer.testing import CliRunner

from actparse import cli
from actparse.cli import app
from actparse.reports import JSON_KEYS

runner = CliRunner()


def test_help_explains_each_command() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("label", "eval", "train-prices"):
        assert command in result.output


def test_label_without_input_shows_the_bundled_sample(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "stdin_is_data", lambda: False)  # as at a terminal
    result = runner.invoke(app, ["label"])
    assert result.exit_code == 0, result.output
    assert "init-price" in result.output and "counter-price" in result.output


def test_label_to_stdout_and_to_file(fixtures: CorpusFixtures, tmp_path: Path) -> None:
    source = fixtures / "craigslist_validation_20.jsonl"
    result = runner.invoke(app, ["label", str(source)])
    assert result.exit_code == 0
    lines = [line for line in result.stdout.splitlines() if line.startswith("{")]
    assert len(lines) == 20
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["label", str(source), "-o", str(out)])
    assert result.exit_code == 0
    assert [json.loads(x) for x in out.read_text().splitlines()] == [json.loads(x) for x in lines]
    assert not list(tmp_path.glob(".*part"))


def test_label_bad_input_fails_naming_the_line_and_leaves_no_file(tmp_path: Path) -> None:
    source = tmp_path / "bad.jsonl"
    source.write_text('{"utterance": []}\n{oops\n')
    out = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["label", str(source), "-o", str(out)])
    assert result.exit_code == 2
    assert "bad.jsonl:1" in result.output
    assert not out.exists() and not list(tmp_path.glob(".*part"))


def test_eval_json_has_the_documented_keys(fixtures: CorpusFixtures) -> None:
    result = runner.invoke(
        app, ["eval", str(fixtures / "craigslist_validation_20.jsonl"), "--json"]
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert tuple(sorted(doc)) == tuple(sorted(JSON_KEYS))
    assert doc["corpus"] == "craigslist" and doc["dialogues"] == 20
    assert doc["headline"]["figure"] == "message_joint_agreement"
    figures = doc["figures"]
    for key in (
        "turns",
        "message_turns",
        "intent_agreement",
        "price_agreement",
        "joint_agreement",
        "message_joint_agreement",
        "skip_agreement",
    ):
        assert key in figures
    for key in (
        "intent_agreement",
        "price_agreement",
        "joint_agreement",
        "message_joint_agreement",
        "skip_agreement",
    ):
        assert 0.0 <= figures[key] <= 1.0


def test_eval_report_and_min_agreement(fixtures: CorpusFixtures) -> None:
    source = str(fixtures / "craigslist_validation_20.jsonl")
    result = runner.invoke(app, ["eval", source])
    assert result.exit_code == 0 and "Agreement with the reference" in result.output
    assert runner.invoke(app, ["eval", source, "--min-agreement", "0.5"]).exit_code == 0
    failing = runner.invoke(app, ["eval", source, "--min-agreement", "1.0", "--json"])
    figures = json.loads(failing.stdout.splitlines()[0])["figures"]
    assert failing.exit_code == (1 if figures["message_joint_agreement"] < 1.0 else 0)


def test_eval_without_reference_acts_says_so(fixtures: CorpusFixtures) -> None:
    result = runner.invoke(app, ["eval", str(fixtures / "craigslist_transcripts_20.json")])
    assert result.exit_code == 2
    assert "no reference acts" in result.output


def test_train_prices(fixtures: CorpusFixtures, tmp_path: Path) -> None:
    out = tmp_path / "lex.json"
    result = runner.invoke(
        app, ["train-prices", str(fixtures / "craigslist_transcripts_20.json"), "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(out.read_text())
    assert doc["provenance"]["trained_on"][0]["file"] == "craigslist_transcripts_20.json"
    assert doc["left"] and doc["right"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(
            ["{empty}"], "no left or right price contexts learned from 0 messages", id="no-messages"
        ),
        pytest.param(
            ["{dealornodeal}"],
            "no left or right price contexts learned from",
            id="no-dollar-prices",
        ),
        pytest.param(
            ["{transcripts}", "--folds", "3"], "--folds needs --calibrate", id="folds-alone"
        ),
        pytest.param(
            ["{transcripts}", "--calibrate", "{transcripts}"],
            "no reference acts to calibrate on",
            id="calibrate-on-no-acts",
        ),
    ],
)
def test_train_prices_refuses_what_would_learn_nothing(
    args: list[str], message: str, fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    """A lexicon ``label --lexicon`` would refuse, or a calibration of nothing, is an error
    at training, and nothing is written."""
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    paths = {
        "empty": empty,
        "dealornodeal": fixtures / "dealornodeal_val_20.txt",
        "transcripts": fixtures / "craigslist_transcripts_20.json",
    }
    out = tmp_path / "lex.json"
    given = [a.format(**paths) for a in args]
    result = runner.invoke(app, ["train-prices", *given, "-o", str(out)])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert not out.exists()


def test_label_and_eval_mutualfriends(fixtures: CorpusFixtures) -> None:
    source = fixtures / "mutualfriends_card_sample.jsonl"
    result = runner.invoke(app, ["label", str(source)])
    assert result.exit_code == 0, result.output
    (record,) = [json.loads(x) for x in result.stdout.splitlines() if x.startswith("{")]
    acts = record["acts"]
    assert [a["coarse"] for a in acts] == ["greet", "inquire", "inform", "inform", "offer", "offer"]
    assert {e["value"] for e in acts[3]["entities"]} == {
        "Molycorp",
        "Salisbury State University",
        "Sacred Heart University",
    }
    assert acts[4]["in_own_list"] is True
    result = runner.invoke(app, ["eval", str(source), "--json", "--min-agreement", "1.0"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["figures"]["selection_agreement"] == 1.0


def test_version_is_printed() -> None:
    import actparse

    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"actparse {actparse.__version__}"


def test_jobs_default_to_the_cpus_this_process_may_use() -> None:
    import inspect
    import os

    default = inspect.signature(cli.label).parameters["jobs"].default
    expected = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert default == expected


def test_a_bug_traceback_prints_no_local_values(tmp_path: Path) -> None:
    """An unexpected error shows typer's traceback, but not the values it held (a whole
    record, a user's text)."""
    script = tmp_path / "bug.py"
    script.write_text(
        "import actparse.cli as cli\n"
        "def boom(*args, **kwargs):\n"
        "    held = 'PRIVATE' + ' RECORD'\n"
        "    raise RuntimeError('a bug')\n"
        "cli.label_path = boom\n"
        "cli.main()\n"
    )
    fixture = FIXTURES / "craigslist_validation_20.jsonl"
    result = subprocess.run(
        [sys.executable, str(script), "label", str(fixture), "-o", str(tmp_path / "o.jsonl")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode != 0
    assert "RuntimeError" in result.stderr
    assert "PRIVATE RECORD" not in result.stderr  # the value, never shown
