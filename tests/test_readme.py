"""The README's examples run: every ```python block under the sections named in
:data:`SECTIONS` (a ``###`` or ``##`` heading), the blocks of a section in order in one
fresh namespace, in a scratch folder, with ``$ACTPARSE_DATA`` pointing at the shared
corpora. A name a block uses without defining it fails here, as it would for a reader.
The ```sh blocks of "The shell" run in bash, in a scratch folder holding the
``dialogues.jsonl`` they name (the Craigslist validation fixture) and an ``actparse``
command of this tree."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from corpus_fixtures import FIXTURES

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

#: The README sections whose examples are run, and what each needs installed.
SECTIONS = {
    "The API in five lines": (),
    "pandas": ("pandas",),
    "datasets": ("datasets",),
    "Dask": ("dask.dataframe", "distributed"),
    "spaCy": ("spacy",),
    "A report to look at": ("plotly",),
    "Negotiation strategies": (),
}

_HEADING = re.compile(r"^(#{2,3}) (.+?)\s*$")
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)
_SH_BLOCK = re.compile(r"^```sh\n(.*?)^```", re.MULTILINE | re.DOTALL)


def python_blocks(text: str, block: re.Pattern[str] = _BLOCK) -> dict[str, list[str]]:
    """The ```python blocks (or those ``block`` finds) of each ``##``/``###`` section,
    by heading."""
    sections: dict[str, list[str]] = {}
    current = ""
    chunks: dict[str, list[str]] = {}
    for line in text.splitlines(keepends=True):
        heading = _HEADING.match(line)
        if heading:
            current = heading.group(2)
            continue
        chunks.setdefault(current, []).append(line)
    for heading, lines in chunks.items():
        sections[heading] = block.findall("".join(lines))
    return sections


def test_each_section_has_examples() -> None:
    blocks = python_blocks(README.read_text(encoding="utf-8"))
    for section in SECTIONS:
        assert blocks.get(section), f"README: no ```python example under '{section}'"


@pytest.mark.parametrize("section", sorted(SECTIONS))
def test_readme_examples_run(
    section: str, data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for module in SECTIONS[section]:
        pytest.importorskip(module, reason=f"the README's {section} examples need {module}")
    monkeypatch.setenv("ACTPARSE_DATA", str(data_dir))
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "hf-cache"))
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": f"readme_{section.lower()}"}
    for number, code in enumerate(python_blocks(README.read_text(encoding="utf-8"))[section], 1):
        exec(compile(code, f"README.md ({section}, example {number})", "exec"), namespace)


@pytest.fixture
def shell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with the shell section's input file and an ``actparse`` of this tree."""
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


def test_the_shell_section_runs_and_does_what_it_says(shell: Path) -> None:
    (code,) = python_blocks(README.read_text(encoding="utf-8"), _SH_BLOCK)["The shell"]
    result = subprocess.run(["bash", "-e", "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, f"{code}\n{result.stderr}"
    assert result.stdout.startswith("actparse ")
    assert "'figure': 'message_joint_agreement'" in result.stdout
    assert "at or above the floor" in result.stdout
    labelled = (shell / "labelled.jsonl").read_text().splitlines()
    assert len(labelled) == 20
    assert (shell / "first.jsonl").read_text().splitlines() == labelled[:1]


def test_the_pandas_sections_commands_write_the_tables_it_names(
    shell: Path, data_dir: Path
) -> None:
    """The ```sh block of "pandas" writes turns.parquet and turns.csv; its paths are
    relative to a checkout beside shared/, so they are pointed at ``$ACTPARSE_DATA``."""
    pytest.importorskip("pyarrow", reason="the README's Parquet example needs pyarrow")
    from actparse.io.turn_files import read_turn_table

    (code,) = python_blocks(README.read_text(encoding="utf-8"), _SH_BLOCK)["pandas"]
    assert "../shared/data/" in code
    code = code.replace("../shared/data/", f"{data_dir}/")
    result = subprocess.run(["bash", "-e", "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, f"{code}\n{result.stderr}"
    assert "wrote 3340 turns of 562 dialogues" in result.stderr
    assert "wrote 3305 turns of 357 dialogues" in result.stderr
    assert sum(1 for _ in read_turn_table(shell / "turns.parquet")) == 3340
    assert sum(1 for _ in read_turn_table(shell / "turns.csv")) == 3305
