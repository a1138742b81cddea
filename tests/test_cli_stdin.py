"""``actparse label`` with no INPUT: standard input when it is a pipe or a file with
something in it (as ``jq`` reads it), the bundled sample at a terminal, on ``/dev/null``
or with no standard input at all, as CI runs the README's install command."""

from __future__ import annotations

import io
import json
import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest
from corpus_fixtures import FIXTURES
from typer.testing import CliRunner

from actparse import cli
from actparse.cli import app
from actparse.cli_run import stdin_is_data

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_SAYS = "Sample: sample.jsonl bundled with actparse"
runner = CliRunner()


# ---------------------------------------------------------------------------------------
# The one function that decides, for each kind of standard input
# ---------------------------------------------------------------------------------------


def _regular(tmp_path: Path, content: bytes, read_first: bool = False) -> IO[Any]:
    path = tmp_path / "stdin.txt"
    path.write_bytes(content)
    stream = path.open("rb")
    if read_first:
        stream.read()
    return stream


def _pipe(_tmp_path: Path) -> IO[Any]:
    read_end, write_end = os.pipe()
    os.close(write_end)  # even an empty pipe is data: the writer decides, not a peek
    return os.fdopen(read_end, "rb")


def _dev_null(_tmp_path: Path) -> IO[Any]:
    return os.fdopen(os.open(os.devnull, os.O_RDONLY), "rb")


def _terminal(_tmp_path: Path) -> IO[Any]:
    main, secondary = os.openpty()
    os.close(main)
    return os.fdopen(secondary, "rb")


def _socket(_tmp_path: Path) -> IO[Any]:
    one, other = socket.socketpair()
    other.close()
    return one.makefile("rb")


def _closed(_tmp_path: Path) -> IO[Any]:
    stream = io.TextIOWrapper(io.BytesIO(b"x"))
    stream.close()
    return stream


STDIN_KINDS = [
    pytest.param(_pipe, True, id="pipe"),
    pytest.param(lambda tmp: _regular(tmp, b"{}\n"), True, id="regular-file"),
    pytest.param(lambda tmp: _regular(tmp, b""), True, id="empty-file"),
    pytest.param(lambda tmp: _regular(tmp, b"{}\n", read_first=True), True, id="file-read-out"),
    pytest.param(_dev_null, False, id="dev-null"),
    pytest.param(_terminal, False, id="terminal"),
    pytest.param(_socket, False, id="socket"),
    pytest.param(lambda _tmp: io.TextIOWrapper(io.BytesIO(b"{}\n")), True, id="no-descriptor"),
    pytest.param(_closed, False, id="closed-stream"),
    pytest.param(lambda _tmp: None, False, id="no-stdin"),
]


@pytest.fixture
def opened() -> Iterator[list[IO[Any]]]:
    streams: list[IO[Any]] = []
    yield streams
    for stream in streams:
        stream.close()


@pytest.mark.parametrize(("make", "is_data"), STDIN_KINDS)
def test_stdin_is_data_by_its_kind(
    make: Any,
    is_data: bool,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    opened: list[IO[Any]],
) -> None:
    stream = make(tmp_path)
    if stream is not None:
        opened.append(stream)
    monkeypatch.setattr(sys, "stdin", stream)
    assert stdin_is_data() is is_data


# ---------------------------------------------------------------------------------------
# The command, in the test runner (a stream with no descriptor: data)
# ---------------------------------------------------------------------------------------


def test_label_without_input_reads_what_is_piped_in() -> None:
    text = (FIXTURES / "dealornodeal_val_20.txt").read_bytes()
    result = runner.invoke(app, ["label", "--format", "dealornodeal", "--jobs", "1"], input=text)
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(records) == 19 and all(r["acts"] for r in records)
    assert SAMPLE_SAYS not in result.output


def test_label_without_input_at_a_terminal_shows_the_sample(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(cli, "stdin_is_data", lambda: False)
    result = runner.invoke(app, ["label"], input=b"never read\n")
    assert result.exit_code == 0, result.output
    assert SAMPLE_SAYS in result.output


def test_dash_reads_standard_input_whatever_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "stdin_is_data", lambda: False)
    text = (FIXTURES / "dealornodeal_val_20.txt").read_bytes()
    result = runner.invoke(app, ["label", "-", "--jobs", "1"], input=text)
    assert result.exit_code == 0, result.output
    assert len(result.stdout.splitlines()) == 19


# ---------------------------------------------------------------------------------------
# The README's install command, as a shell runs it, with each kind of standard input
# ---------------------------------------------------------------------------------------


def _readme_label_command() -> str:
    """The last command of the README's install line (the part CI runs after ``pip``)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Two commands", 1)[1]
    first = re.search(r"^```sh\n(.*?)\n```", section, re.MULTILINE | re.DOTALL)
    assert first is not None
    command = first.group(1).split("&&")[-1].strip()
    assert command == "actparse label"
    return command


@pytest.fixture
def shell(tmp_path: Path) -> dict[str, str]:
    """An environment whose ``actparse`` is this tree's."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    command = bin_dir / "actparse"
    command.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m actparse "$@"\n')
    command.chmod(0o755)
    return {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(ROOT),
    }


def _dealornodeal_lines(count: int) -> bytes:
    shared = Path(os.environ.get("ACTPARSE_DATA", ROOT.parent / "shared" / "data"))
    source = shared / "dealornodeal" / "val.txt"
    if not source.is_file():
        source = FIXTURES / "dealornodeal_val_20.txt"
    return b"".join(source.read_bytes().splitlines(keepends=True)[:count])


def _run(command: str, env: dict[str, str], **stdin: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-euo", "pipefail", "-c", command],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
        **stdin,
    )


def _shows_the_sample(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode == 0, done.stderr
    assert SAMPLE_SAYS in done.stdout and "init-price" in done.stdout


def _labelled(done: subprocess.CompletedProcess[str], count: int) -> None:
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(records) == count and all(r["acts"] for r in records)
    assert SAMPLE_SAYS not in done.stdout


def test_the_readme_command_with_stdin_from_dev_null_shows_the_sample(
    shell: dict[str, str],
) -> None:
    _shows_the_sample(_run(_readme_label_command(), shell, stdin=subprocess.DEVNULL))


def test_the_readme_command_with_no_stdin_at_all_shows_the_sample(shell: dict[str, str]) -> None:
    _shows_the_sample(_run(_readme_label_command() + " <&-", shell, stdin=subprocess.DEVNULL))


def test_the_readme_command_with_an_empty_file_labels_nothing(
    shell: dict[str, str], tmp_path: Path
) -> None:
    """An empty file given with '<' is the input: no dialogue, not the sample in its place."""
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    with empty.open("rb") as stdin:
        done = _run(_readme_label_command(), shell, stdin=stdin)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "" and "labelled 0 dialogues to stdout" in done.stderr


@pytest.mark.parametrize("asked", [["-o", "out.jsonl"], ["--per-turn"]], ids=["output", "per-turn"])
def test_nothing_to_label_for_an_output_is_a_usage_error(
    asked: list[str], shell: dict[str, str], tmp_path: Path
) -> None:
    """The sample is a table for a terminal: asked for a file or a table, no INPUT and
    nothing on standard input is refused (exit 2), not the sample in the file's place."""
    command = " ".join(["cd", str(tmp_path), "&&", "actparse", "label", *asked])
    done = _run(command, shell, stdin=subprocess.DEVNULL)
    assert done.returncode == 2, done.stderr
    assert "nothing to label" in done.stderr and done.stdout == ""
    assert not (tmp_path / "out.jsonl").exists()


def test_the_readme_command_at_a_terminal_shows_the_sample(shell: dict[str, str]) -> None:
    main, secondary = os.openpty()
    try:
        _shows_the_sample(_run(_readme_label_command(), shell, stdin=secondary))
    finally:
        os.close(secondary)
        os.close(main)


def test_the_readme_command_reads_a_pipe(shell: dict[str, str]) -> None:
    _labelled(_run(_readme_label_command(), shell, input=_dealornodeal_lines(3).decode()), 3)


def test_the_readme_command_reads_a_regular_file(shell: dict[str, str], tmp_path: Path) -> None:
    lines = tmp_path / "val.txt"
    lines.write_bytes(_dealornodeal_lines(2))
    with lines.open("rb") as stdin:
        _labelled(_run(_readme_label_command(), shell, stdin=stdin), 2)


def test_cat_into_label_with_a_format_reads_every_line(shell: dict[str, str]) -> None:
    """The filed case: ``cat val.txt | actparse label --format dealornodeal``."""
    val = FIXTURES / "dealornodeal_val_20.txt"
    done = _run(f"cat '{val}' | actparse label --format dealornodeal", shell)
    _labelled(done, 19)
