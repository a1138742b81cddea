"""The help of every command: ``-h`` as well as ``--help``, examples, and no placeholder
of typer's (``<bool>``, ``{input}``, ``<list[Path]>``)."""

from __future__ import annotations

import re

import pytest
import typer
from typer.testing import CliRunner

from actparse.cli import app

runner = CliRunner()

COMMANDS = [
    pytest.param([], id="top-level"),
    pytest.param(["label"], id="label"),
    pytest.param(["eval"], id="eval"),
    pytest.param(["report"], id="report"),
    pytest.param(["train-prices"], id="train-prices"),
]

#: What typer writes where a plain help has a name or nothing.
PLACEHOLDERS = ["<bool>", "{", "<list["]


def _help(command: list[str], flag: str = "--help", width: int = 100) -> str:
    result = runner.invoke(app, [*command, flag], prog_name="actparse", env={"COLUMNS": str(width)})
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("command", COMMANDS)
def test_dash_h_is_the_help(command: list[str]) -> None:
    assert _help(command, "-h") == _help(command, "--help")
    assert "Usage: actparse" in _help(command, "-h")


@pytest.mark.parametrize("width", [80, 200], ids=["80-columns", "200-columns"])
@pytest.mark.parametrize("command", COMMANDS)
def test_no_help_shows_a_placeholder(command: list[str], width: int) -> None:
    text = _help(command, width=width)
    for placeholder in PLACEHOLDERS:
        assert placeholder not in text, f"{placeholder!r} in the help of {command}:\n{text}"


@pytest.mark.parametrize("command", COMMANDS)
def test_every_help_has_examples_of_its_command(command: list[str]) -> None:
    text = _help(command, width=200)
    assert "Examples" in text
    assert f"actparse {command[0]} " in text if command else "actparse label" in text


@pytest.mark.parametrize(
    ("command", "usage"),
    [
        (["label"], "actparse label [OPTIONS] [INPUT]"),
        (["eval"], "actparse eval [OPTIONS] INPUT"),
        (["report"], "actparse report [OPTIONS] INPUTS..."),
        (["train-prices"], "actparse train-prices [OPTIONS] INPUTS..."),
    ],
    ids=["label", "eval", "report", "train-prices"],
)
def test_the_usage_line_names_arguments_as_click_does(command: list[str], usage: str) -> None:
    assert usage in _help(command, width=200)


def test_a_flag_shows_no_type_and_a_file_list_its_kind() -> None:
    text = _help(["train-prices"], width=200)
    assert "INPUTS...      <file>" in text
    label = _help(["label"], width=200).splitlines()
    flag_line = next(line for line in label if "--coarse" in line)
    assert "<" not in flag_line


def test_a_missing_argument_is_named_in_capitals() -> None:
    result = runner.invoke(app, ["eval"])
    assert result.exit_code == 2
    assert "Missing argument 'INPUT'" in result.output


#: The commands an option's help may name before another command's option ("eval --json").
COMMAND_NAMES = ("label", "eval", "report", "train-prices")


@pytest.mark.parametrize("name", COMMAND_NAMES)
def test_an_option_help_names_only_options_its_command_has(name: str) -> None:
    """eval's, report's and train-prices' --max-line-bytes spoke of --on-error keep, an
    option only label has; an option of another command is named with that command."""
    sub = typer.main.get_group(app).commands[name]
    own = {flag for param in sub.params for flag in param.opts}
    for param in sub.params:
        text = getattr(param, "help", None) or ""
        for before, flag in re.findall(r"(\S*) ?(--[a-z][a-z-]*)", text):
            assert flag in own or before in COMMAND_NAMES, f"{name} {param.opts[0]}: {flag}"


def test_the_strategies_help_points_where_the_strategy_rules_are_described() -> None:
    """It said "see the README", which says nothing of strategy rules."""
    for name in ("label", "eval"):
        sub = typer.main.get_group(app).commands[name]
        (text,) = [getattr(p, "help", "") for p in sub.params if "--strategies" in p.opts]
        assert "README" not in text
        assert "see Negotiation strategies in the documentation" in text


def test_the_jobs_default_is_said_in_words_not_as_this_machines_count() -> None:
    """The generated command-line page showed '[default: 2]', the CPUs of the machine that
    built it, as if it were everyone's default."""
    lines = _help(["label"], width=200).splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith("│ --jobs"))
    end = next(k for k in range(start + 1, len(lines)) if lines[k].startswith("│ --"))
    # The cell's lines, borders out: rich wraps the help and puts the default on its own line.
    row = " ".join(" ".join(lines[start:end]).replace("│", " ").split())
    assert "default: the CPUs this process may use" in row
    assert "[default:" not in row
