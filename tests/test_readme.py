"""The README's ecosystem sections run as written: every ``python`` block of a section
in one namespace, in order, and every ``sh`` block in bash, in a scratch folder.

A section listed in :data:`TESTED` must have code, and its code must run with no name
it does not define. The shell blocks find ``dialogues.jsonl`` (Craigslist records,
HuggingFace layout: the validation fixture) and ``actparse`` (this tree) in place.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"

#: The README sections (``## heading``) whose code blocks the tests run.
TESTED = ("spaCy", "The shell")

_BLOCK = re.compile(r"^```(\w+)\n(.*?)^```", re.M | re.S)


def _section(heading: str) -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, f"README has no section '## {heading}'"
    return match.group(1)


def _blocks(heading: str, language: str) -> list[str]:
    return [code for lang, code in _BLOCK.findall(_section(heading)) if lang == language]


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with the README's input file and an ``actparse`` command of this tree."""
    shutil.copy(FIXTURES / "craigslist_validation_20.jsonl", tmp_path / "dialogues.jsonl")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    command = bin_dir / "actparse"
    command.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m actparse "$@"\n')
    command.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("heading", TESTED)
def test_each_tested_section_has_code(heading: str) -> None:
    assert _blocks(heading, "python") or _blocks(heading, "sh")


@pytest.mark.parametrize("heading", TESTED)
def test_python_blocks_run(heading: str, scratch: Path) -> None:
    namespace: dict[str, object] = {"__name__": "__readme__"}
    for code in _blocks(heading, "python"):
        exec(compile(code, f"README.md ## {heading}", "exec"), namespace)


@pytest.mark.parametrize("heading", TESTED)
def test_shell_blocks_run(heading: str, scratch: Path) -> None:
    for code in _blocks(heading, "sh"):
        result = subprocess.run(
            ["bash", "-e", "-c", code], capture_output=True, text=True, cwd=scratch
        )
        assert result.returncode == 0, f"{code}\n{result.stderr}"


def test_the_shell_section_does_what_it_says(scratch: Path) -> None:
    (code,) = _blocks("The shell", "sh")
    result = subprocess.run(["bash", "-e", "-c", code], capture_output=True, text=True)
    assert result.stdout.startswith("actparse ")
    assert "'figure': 'message_joint_agreement'" in result.stdout
    assert "at or above the floor" in result.stdout
    labelled = (scratch / "labelled.jsonl").read_text().splitlines()
    assert len(labelled) == 20
    assert (scratch / "first.jsonl").read_text().splitlines() == labelled[:1]
