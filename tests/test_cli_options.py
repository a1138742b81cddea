"""The command line as people expect one: an error for nothing to score or the wrong
corpus, summaries that speak of the corpus at hand, shell completion, the Python
options (--rules, --strategies, --acts), counts out of range, and --jobs under a CPU mask."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from corpus_fixtures import CorpusFixtures
from typer.testing import CliRunner

import actparse
from actparse.cli import app
from actparse.engine.rulefiles import shipped
from actparse.reports import WORST_KEY

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def _hf_records(fixtures: CorpusFixtures) -> list[dict[str, Any]]:
    lines = (fixtures / "craigslist_validation_20.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def _write_jsonl(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def _one_line_error(result: Any) -> str:
    """The error a run ended with: exit status 2, one line, no traceback."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return str(lines[0])


# --- eval ---------------------------------------------------------------------------


def test_eval_with_nothing_to_score_is_an_error(fixtures: CorpusFixtures, tmp_path: Path) -> None:
    # As in the test split: every reference intent empty, so the reference skipped them.
    records = _hf_records(fixtures)[:4]
    for r in records:
        n = len(r["dialogue_acts"]["intent"])
        r["dialogue_acts"] = {"intent": [""] * n, "price": [-1.0] * n}
    path = _write_jsonl(tmp_path / "unscored.jsonl", records)
    for extra in ([], ["--json"]):
        error = _one_line_error(runner.invoke(app, ["eval", str(path), *extra]))
        assert "nothing to score: none of its 4 dialogues" in error
        assert "message_joint_agreement" in error


@pytest.mark.corpus
def test_eval_of_the_test_split_is_an_error(data_dir: Path) -> None:
    result = runner.invoke(app, ["eval", str(data_dir / "craigslist" / "test.jsonl")])
    assert "nothing to score" in _one_line_error(result)
    assert "100" not in result.stdout


def test_eval_of_other_corpora_with_nothing_to_score(
    fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    # Deal or No Deal dialogues that ended without agreement: no final split to compare.
    lines = (fixtures / "dealornodeal_val_20.txt").read_text().splitlines()
    disagreed = [line for line in lines if "<disagree>" in line or "<no_agreement>" in line]
    assert disagreed
    path = tmp_path / "disagreed.txt"
    path.write_text("\n".join(disagreed) + "\n")
    assert "final_split_accuracy" in _one_line_error(runner.invoke(app, ["eval", str(path)]))


def test_a_wrong_corpus_is_a_one_line_error(fixtures: CorpusFixtures) -> None:
    source = str(fixtures / "craigslist_validation_20.jsonl")
    for corpus in ("casino", "dealornodeal", "mutualfriends"):
        error = _one_line_error(runner.invoke(app, ["eval", source, "--corpus", corpus]))
        assert "the records are CraigslistBargains (format hf)" in error


#: Integer options given a count that would mean something odd, and the option named in the
#: usage error: a negative --worst sliced from the end (all but the last N dialogues).
COUNT_CASES = {
    "eval-worst-negative": (["eval", "{hf}", "--worst", "-1"], "--worst"),
    "label-jobs-zero": (["label", "{hf}", "--jobs", "0"], "--jobs"),
    "label-jobs-negative": (["label", "{hf}", "--jobs", "-1"], "--jobs"),
    "eval-max-line-bytes-zero": (["eval", "{hf}", "--max-line-bytes", "0"], "--max-line-bytes"),
    "train-folds-negative": (
        ["train-prices", "{cocoa}", "-o", "{out}", "--folds", "-1"],
        "--folds",
    ),
    "train-min-support-zero": (
        ["train-prices", "{cocoa}", "-o", "{out}", "--min-support", "0"],
        "--min-support",
    ),
}


@pytest.mark.parametrize("case", list(COUNT_CASES), ids=list(COUNT_CASES))
def test_a_count_out_of_range_is_a_usage_error(
    case: str, fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    args, option = COUNT_CASES[case]
    places = {
        "hf": fixtures / "craigslist_validation_20.jsonl",
        "cocoa": fixtures / "craigslist_transcripts_20.json",
        "out": tmp_path / "lexicon.json",
    }
    result = runner.invoke(app, [a.format(**places) for a in args])
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '{option}'" in result.output
    assert not (tmp_path / "lexicon.json").exists()


def test_worst_0_shows_the_tables_only(casino_with_a_miss: Path) -> None:
    path = str(casino_with_a_miss)
    shown = {n: runner.invoke(app, ["eval", path, "--worst", n]) for n in ("0", "1")}
    assert all(r.exit_code == 0 for r in shown.values())
    # A turn of the worst dialogue, not its name: a long temporary path wraps the name.
    assert "[accept-deal]" in shown["1"].stdout
    assert "[accept-deal]" not in shown["0"].stdout


@pytest.mark.parametrize("n", [0, 1, 3], ids=lambda n: f"worst-{n}")
def test_worst_with_json_adds_the_worst_dialogues_under_one_key(
    fixtures: CorpusFixtures, tmp_path: Path, n: int
) -> None:
    """--worst was ignored with --json. It now adds the key ``worst``, the N worst
    dialogues as fields; every other key is as without --worst, which has no such key."""
    records = _hf_records(fixtures)[:6]
    for k, record in enumerate(records):
        # The first k+1 reference intents "offer": a dialogue more wrong than the one before.
        intents = record["dialogue_acts"]["intent"]
        intents[: k + 1] = ["offer"] * len(intents[: k + 1])
    path = tmp_path / "wrong.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    plain = runner.invoke(app, ["eval", str(path), "--json"])
    worst = runner.invoke(app, ["eval", str(path), "--json", "--worst", str(n)])
    assert plain.exit_code == worst.exit_code == 0, worst.output
    doc = json.loads(worst.stdout)
    listed = doc.pop(WORST_KEY)
    assert WORST_KEY not in json.loads(plain.stdout)
    assert json.dumps(doc, sort_keys=True) + "\n" == plain.stdout
    assert len(doc["misses"]) > 3 and listed == doc["misses"][:n]
    for entry in listed:
        assert entry["where"].startswith(f"{path}:") and entry["summary"]
        assert entry["turns"] and all(t["reference"] != t["ours"] for t in entry["turns"])
        assert all({"turn", "agent", "text"} <= set(t) for t in entry["turns"])


# --- label --------------------------------------------------------------------------


def test_the_summary_speaks_of_the_corpus_at_hand(fixtures: CorpusFixtures, tmp_path: Path) -> None:
    casino = runner.invoke(
        app, ["label", str(fixtures / "casino_20.json"), "-o", str(tmp_path / "c.jsonl")]
    )
    assert casino.exit_code == 0, casino.output
    assert "labelled 20 dialogues" in casino.stderr and "Cocoa" not in casino.stderr
    craigslist = runner.invoke(
        app,
        ["label", str(fixtures / "craigslist_validation_20.jsonl"), "-o", str(tmp_path / "x")],
    )
    assert "skipped by Cocoa's length rule" in craigslist.stderr  # the fixture has short ones


@pytest.mark.parametrize(
    ("fixture", "args", "said"),
    [
        pytest.param(
            "dealornodeal_val_20.txt",
            ["--jobs", "1"],
            "labelled 19 records (each one side's view of a dialogue) to stdout",
            id="dealornodeal",
        ),
        pytest.param(
            "dealornodeal_val_20.txt",
            ["--jobs", "2"],
            "labelled 19 records (each one side's view of a dialogue) to stdout",
            id="dealornodeal-two-jobs",
        ),
        pytest.param("casino_20.json", ["--jobs", "1"], "labelled 20 dialogues to", id="casino"),
        pytest.param(
            "craigslist_validation_20.jsonl", ["--jobs", "1"], "labelled 20 dialogues to", id="hf"
        ),
    ],
)
@pytest.mark.usefixtures("tasks_of_one")
def test_the_summary_counts_a_corpus_of_two_views_in_records(
    fixtures: CorpusFixtures, fixture: str, args: list[str], said: str
) -> None:
    """Deal or No Deal lists each dialogue once from each side: label counted every
    record a dialogue (1087 of val.txt's 562). Its records are called records."""
    result = runner.invoke(app, ["label", str(fixtures / fixture), *args])
    assert result.exit_code == 0, result.output
    assert said in result.stderr


def test_label_batch_without_batched_says_so(fixtures: CorpusFixtures) -> None:
    datasets = pytest.importorskip("datasets")
    records = _hf_records(fixtures)[:2]
    with pytest.raises(actparse.InputError, match=r"batched=True"):
        datasets.Dataset.from_list(records).map(actparse.label_batch)
    with pytest.raises(actparse.InputError, match=r"batched=True"):
        actparse.label_batch(records[0])


def _label(args: list[str]) -> list[dict[str, Any]]:
    result = runner.invoke(app, ["label", *args])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_rules_option_replaces_the_corpus_rules(fixtures: CorpusFixtures, tmp_path: Path) -> None:
    rules = yaml.safe_load(shipped("craigslist", "tags.yaml").read_text(encoding="utf-8"))
    # The tag stays (the parser asks for it) but its rules match nothing.
    for rule in rules["rules"]:
        if rule["tag"] == "question":
            rule["values"] = ["no message has this word"]
    path = tmp_path / "no-questions.yaml"
    path.write_text(yaml.safe_dump(rules))
    source = str(fixtures / "craigslist_validation_20.jsonl")
    shipped_intents = [i for r in _label([source]) for i in r["dialogue_acts"]["intent"]]
    mine = [i for r in _label([source, "--rules", str(path)]) for i in r["dialogue_acts"]["intent"]]
    assert "inquiry" in shipped_intents and "inquiry" not in mine
    # A file without a tag the parser asks for is refused, naming it.
    rules["rules"] = [r for r in rules["rules"] if r["tag"] != "question"]
    path.write_text(yaml.safe_dump(rules))
    refused = runner.invoke(app, ["label", source, "--rules", str(path)])
    assert refused.exit_code == 2 and "Traceback" not in refused.output
    assert refused.stderr.startswith(f"error: {path}: ")
    broken = tmp_path / "broken.yaml"
    broken.write_text("rules: [")
    failed = runner.invoke(app, ["eval", source, "--rules", str(broken)])
    assert failed.exit_code == 2 and "Traceback" not in failed.output
    assert failed.stderr.startswith(f"error: {broken}:1: not valid YAML")


def test_acts_option_replaces_the_act_space(fixtures: CorpusFixtures, tmp_path: Path) -> None:
    # An act file may still map a corpus' intents itself (under each act, a list per
    # corpus): that map, not the corpus folder's, gives the coarse acts.
    space = yaml.safe_load(shipped("acts.yaml").read_text(encoding="utf-8"))
    folder = yaml.safe_load(shipped("casino", "coarse.yaml").read_text(encoding="utf-8"))
    for act in space["acts"]:
        act["casino"] = folder["coarse"].get(act["name"], [])
        if act["name"] == "greet":
            act["name"] = "salute"
    path = tmp_path / "acts.yaml"
    path.write_text(yaml.safe_dump(space))
    source = str(fixtures / "casino_20.json")
    coarse = {a.get("coarse") for r in _label([source, "--acts", str(path)]) for a in r["acts"]}
    assert "salute" in coarse and "greet" not in coarse


def test_acts_option_checks_each_corpus_map_against_its_inventory(
    fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    # An inventory alone: the corpus' own map must name only its acts.
    space = yaml.safe_load(shipped("acts.yaml").read_text(encoding="utf-8"))
    space["acts"] = [a for a in space["acts"] if a["name"] != "greet"]
    path = tmp_path / "acts.yaml"
    path.write_text(yaml.safe_dump(space))
    result = runner.invoke(app, ["label", str(fixtures / "casino_20.json"), "--acts", str(path)])
    assert result.exit_code != 0
    assert "rules/casino/coarse.yaml" in result.output and "'greet'" in result.output


def _strategy_rules(tmp_path: Path, keep: str) -> Path:
    """The shipped strategy rules with only the rules of the label ``keep``."""
    rules = yaml.safe_load(shipped("strategies.yaml").read_text(encoding="utf-8"))
    rules["rules"] = [r for r in rules["rules"] if r["tag"] == keep]
    path = tmp_path / f"only-{keep}.yaml"
    path.write_text(yaml.safe_dump(rules))
    return path


@pytest.mark.parametrize("source", ["dealornodeal_val_20.txt", "craigslist_validation_20.jsonl"])
def test_strategies_option_replaces_the_strategy_rules(
    fixtures: CorpusFixtures, tmp_path: Path, source: str
) -> None:
    path = _strategy_rules(tmp_path, "self-need")
    shipped_labels = _strategy_labels(_label([str(fixtures / source)]))
    mine = _strategy_labels(_label([str(fixtures / source), "--strategies", str(path)]))
    assert {"self-need", "non-strategic"} < shipped_labels
    assert len(shipped_labels) > 2
    assert mine == {"self-need", "non-strategic"}


def _strategy_labels(records: list[dict[str, Any]]) -> set[str]:
    if "acts" in records[0]:
        return {s for r in records for a in r["acts"] for s in a.get("strategies", [])}
    return {s for r in records for t in r["actparse"]["strategies"] for s in t}


def test_strategies_option_keeps_the_casino_lexicon(
    fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    # The user's rules replace the shipped ones; CaSiNo's learned lexicon still counts.
    from actparse.engine.strategies import StrategyTagger, load_strategy_rules
    from actparse.engine.strategy_lexicon import load_strategy_lexicon

    path = _strategy_rules(tmp_path, "small-talk")
    lexicon = load_strategy_lexicon(shipped("casino", "strategy_lexicon.json"))
    tag = StrategyTagger(load_strategy_rules(path), lexicon=lexicon).tag
    source = fixtures / "casino_20.json"
    records = _label([str(source), "--strategies", str(path)])
    for raw, record in zip(json.loads(source.read_text(encoding="utf-8")), records):
        texts = [log["text"] for log in raw["chat_logs"]]
        for text, act in zip(texts, record["acts"]):
            if "strategies" in act:
                assert act["strategies"] == list(tag(text)), text


def test_eval_scores_the_strategies_option(fixtures: CorpusFixtures, tmp_path: Path) -> None:
    path = _strategy_rules(tmp_path, "vouch-fair")
    source = str(fixtures / "casino_20.json")

    def scores(*extra: str) -> dict[str, Any]:
        result = runner.invoke(app, ["eval", source, "--json", *extra])
        assert result.exit_code == 0, result.output
        return dict(json.loads(result.stdout)["figures"]["strategies"])

    shipped_scores, mine = scores(), scores("--strategies", str(path))
    assert mine["vouch-fair"]["f1"] > 0
    assert mine != shipped_scores  # the other labels' rules are gone


def test_a_strategy_rule_with_another_label_names_its_file_and_line(
    fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    path = tmp_path / "strategies.yaml"
    path.write_text(
        "rules:\n  - name: greeting\n    tag: greet\n    match: text-search\n    values: [hello]\n"
    )
    source = str(fixtures / "casino_20.json")
    error = _one_line_error(runner.invoke(app, ["label", source, "--strategies", str(path)]))
    assert f"{path}:2: rule 'greeting' sets 'greet', which is no strategy label" in error


def test_the_rules_help_reads_whole_at_any_width() -> None:
    """The help is Markdown: a bare <corpus> was dropped as an HTML tag ("rules//tags.yaml"),
    and a path longer than the help column was cut with an ellipsis at 80 columns."""
    for command in ("label", "eval"):
        for width in ("80", "200"):
            result = runner.invoke(app, [command, "--help"], env={"COLUMNS": width})
            assert result.exit_code == 0, result.output
            assert "…" not in result.output, (command, width)
            # The help column's text, its lines joined, without the box drawing.
            words = " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.output).split())
            assert "the tags.yaml of its rules folder, or MutualFriends' rules file" in words


def test_rules_on_standard_input_need_a_format(tmp_path: Path) -> None:
    rules = str(shipped("craigslist", "tags.yaml"))
    error = _one_line_error(runner.invoke(app, ["label", "-", "--rules", rules], input=""))
    assert "--format" in error


# --- the shell ----------------------------------------------------------------------


def test_shell_completion_is_offered() -> None:
    assert "--install-completion" in runner.invoke(app, ["--help"]).output
    shown = subprocess.run(
        [sys.executable, "-m", "actparse", "--show-completion", "bash"],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert shown.returncode == 0, shown.stderr  # a failure says why
    script = shown.stdout
    assert "_ACTPARSE_COMPLETE=complete_bash" in script and script.rstrip().endswith("actparse")
    completed = subprocess.run(
        [sys.executable, "-m", "actparse"],
        capture_output=True,
        text=True,
        check=True,
        env={
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "_ACTPARSE_COMPLETE": "complete_bash",
            "COMP_WORDS": "actparse label --for",
            "COMP_CWORD": "2",
        },
    )
    assert completed.stdout.split() == ["--format"]


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no CPU masks here")
def test_jobs_default_follows_the_cpu_mask() -> None:
    code = (
        "import os; os.sched_setaffinity(0, {min(os.sched_getaffinity(0))}); "
        "import inspect, actparse.cli as cli; "
        "print(inspect.signature(cli.label).parameters['jobs'].default)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert result.stdout.strip() == "1"
