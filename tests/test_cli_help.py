"""The help of every command: ``-h`` as well as ``--help``, examples, and no placeholder
of typer's (``<bool>``, ``{input}``, ``<list[Path]>``)."""

from __future__ import annotations

import pytest
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
