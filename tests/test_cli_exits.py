"""Exit statuses a script can read: one table for every command (0 done, 1 the result
fails what was asked, 2 trouble), in the code, the help and the README alike."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import typer
from corpus_fixtures import CorpusFixtures
from typer.testing import CliRunner

from actparse.cli import app
from actparse.cli_exits import EXIT_STATUSES, FAILED, OK, TROUBLE, exit_table

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()
COMMANDS = ["label", "eval", "report", "train-prices"]


def test_the_statuses_are_diffs_and_greps() -> None:
    assert (OK, FAILED, TROUBLE) == (0, 1, 2)
    shown = [row.status for row in EXIT_STATUSES]
    assert shown == ["0", "1", "2", "130, 143, 129", "141"]


def _page(name: str) -> str:
    return (ROOT / "docs" / name).read_text(encoding="utf-8")


def test_the_documented_table_is_the_one_in_the_code() -> None:
    section = _page("large-inputs.md").split("## Exit statuses", 1)[1].split("\n## ", 1)[0]
    assert exit_table() in section


def test_no_page_says_any_longer_that_errors_exit_with_1() -> None:
    pages = [(ROOT / "README.md").read_text(encoding="utf-8")]
    pages += [p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs").rglob("*.md"))]
    for text in pages:
        assert not re.search(r"(?:errors?|stop)\b[^.]*exit(?:s)? (?:with )?status 1\b", text)
    assert "`--min-agreement X` exits with status 1" in _page("getting-started.md")


@pytest.mark.parametrize("command", [None, *COMMANDS], ids=["top-level", *COMMANDS])
def test_every_help_shows_its_exit_statuses(command: str | None) -> None:
    args = [*([command] if command else []), "--help"]
    result = runner.invoke(app, args, prog_name="actparse", env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "Exit status" in result.output
    for row in EXIT_STATUSES:
        if row.applies_to(command):
            assert re.search(rf"^\s*{re.escape(row.status)}\s", result.output, re.MULTILINE)
    has_one = re.search(r"^\s*1\s+the run finished", result.output, re.MULTILINE) is not None
    assert has_one == (command in (None, "label", "eval"))


# ---------------------------------------------------------------------------------------
# Each status, for each command where it applies
# ---------------------------------------------------------------------------------------


def _bad_jsonl(tmp_path: Path, lines: int = 3) -> Path:
    path = tmp_path / "bad.jsonl"
    path.write_text("".join('{"utterance": [' + str(n) + "]}\n" for n in range(lines)))
    return path


def _broken_yaml(tmp_path: Path) -> Path:
    path = tmp_path / "broken.yaml"
    path.write_text("rules: [")
    return path


CRAIGSLIST = "craigslist_validation_20.jsonl"
TRANSCRIPTS = "craigslist_transcripts_20.json"

#: (arguments with {craigslist}, {transcripts} (the fixtures) and {tmp} placeholders, the
#: status).
STATUS_CASES = [
    pytest.param(["label", "{craigslist}", "-o", "{tmp}/o.jsonl"], 0, id="label-done"),
    pytest.param(["label", "--jobs", "0", "x.jsonl"], 2, id="label-usage-error"),
    pytest.param(["label", "{tmp}/missing.jsonl"], 2, id="label-unreadable-input"),
    pytest.param(["label", "{bad}", "-o", "{tmp}/o.jsonl"], 2, id="label-bad-record-stop"),
    pytest.param(["label", "{craigslist}", "--rules", "{yaml}"], 2, id="label-rule-file-error"),
    pytest.param(["label", "{craigslist}", "-o", "{tmp}"], 2, id="label-bad-output"),
    pytest.param(["eval", "{craigslist}", "--min-agreement", "0.1"], 0, id="eval-holds"),
    pytest.param(
        ["eval", "{craigslist}", "--min-agreement", "99.9"],
        2,
        id="eval-floor-out-of-range",
    ),
    pytest.param(["eval", "{transcripts}"], 2, id="eval-nothing-to-score"),
    pytest.param(["eval", "{bad}"], 2, id="eval-invalid-input"),
    pytest.param(["eval", "{craigslist}", "--rules", "{yaml}"], 2, id="eval-rule-file"),
    pytest.param(["eval"], 2, id="eval-missing-input"),
    pytest.param(["report", "{craigslist}"], 2, id="report-missing-output"),
    pytest.param(
        ["report", "{tmp}/missing.jsonl", "-o", "{tmp}/r.html"], 2, id="report-unreadable"
    ),
    pytest.param(["train-prices", "{transcripts}", "-o", "{tmp}/lex.json"], 0, id="train-done"),
    pytest.param(["train-prices", "{tmp}/missing.json", "-o", "{tmp}/l.json"], 2, id="train-usage"),
    pytest.param(
        ["train-prices", "{transcripts}", "-o", "{transcripts}"],
        2,
        id="train-output-is-input",
    ),
    pytest.param(["no-such-command"], 2, id="top-level-usage-error"),
]


@pytest.mark.parametrize(("args", "status"), STATUS_CASES)
def test_each_command_exits_with_the_status_of_the_table(
    args: list[str], status: int, fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    places = {
        "craigslist": fixtures / CRAIGSLIST,
        "transcripts": fixtures / TRANSCRIPTS,
        "tmp": tmp_path,
        "bad": _bad_jsonl(tmp_path),
        "yaml": _broken_yaml(tmp_path),
    }
    result = runner.invoke(app, [a.format(**places) for a in args])
    assert result.exit_code == status, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    if status == TROUBLE:
        assert "Traceback" not in result.output


def test_eval_below_the_floor_exits_1_after_printing_its_figures(
    fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    records = [json.loads(line) for line in (fixtures / CRAIGSLIST).read_text().splitlines()]
    records[0]["dialogue_acts"]["intent"][0] = "insist"  # a reference we disagree with
    source = tmp_path / "changed.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records))
    result = runner.invoke(app, ["eval", str(source), "--json", "--min-agreement", "1.0"])
    assert result.exit_code == 1, result.output
    assert json.loads(result.stdout)["headline"]["value"] < 1.0
    assert "is below --min-agreement 1.0" in result.stderr
    at_it = runner.invoke(app, ["eval", str(fixtures / CRAIGSLIST), "--min-agreement", "1.0"])
    assert at_it.exit_code == 0  # the fixture agrees throughout: at the floor holds


def test_label_keep_with_every_record_bad_exits_1_and_writes_every_record(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out.jsonl"
    source = _bad_jsonl(tmp_path, lines=4)
    result = runner.invoke(app, ["label", str(source), "-o", str(out), "--on-error", "keep"])
    assert result.exit_code == 1, result.output
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(written) == 4 and all("actparse_error" in r for r in written)
    assert "4 of 4 records could not be labelled" in result.stderr
    assert "no record could be labelled" in result.stderr


def test_label_keep_with_one_good_record_exits_0(fixtures: CorpusFixtures, tmp_path: Path) -> None:
    source = tmp_path / "mixed.jsonl"
    good = (fixtures / CRAIGSLIST).read_text().splitlines()[0]
    source.write_text(good + "\n{oops\n")
    result = runner.invoke(app, ["label", str(source), "--on-error", "keep"])
    assert result.exit_code == 0, result.output
    assert "1 of 2 records could not be labelled" in result.stderr
    # The summary line says how many were labelled, not every record written.
    assert "labelled 1 of 2 dialogues to stdout" in result.stderr


def test_label_keep_of_an_empty_input_exits_0(tmp_path: Path) -> None:
    """Nothing to label is not a failure to label: no record failed."""
    source = tmp_path / "empty.jsonl"
    source.write_text("")
    result = runner.invoke(app, ["label", str(source), "--on-error", "keep", "-f", "hf"])
    assert result.exit_code == 0, result.output


def test_a_bug_exits_2_not_1(tmp_path: Path) -> None:
    """Python's status for an uncaught exception is 1, which says "below the floor" here."""
    import subprocess
    import sys

    script = tmp_path / "bug.py"
    script.write_text(
        "import actparse.cli as cli\n"
        "def boom(*args, **kwargs):\n"
        "    raise RuntimeError('a bug')\n"
        "cli.evaluate_path = boom\n"
        "cli.main()\n"
    )
    done = subprocess.run(
        [sys.executable, str(script), "eval", "x.jsonl"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert "RuntimeError" in done.stderr


@pytest.mark.parametrize("command", COMMANDS)
def test_each_commands_exit_table_names_only_its_own_options(command: str) -> None:
    """eval's, report's and train-prices' tables said "a bad record with --on-error stop", an
    option only label has; another command's option is named with that command."""
    params = typer.main.get_group(app).commands[command].params
    own = {flag for param in params for flag in param.opts}
    for before, flag in re.findall(r"(\S*) ?(--[a-z][a-z-]*)", exit_table(command)):
        assert flag in own or before.strip("`") in COMMANDS, f"{command}: {flag}"
