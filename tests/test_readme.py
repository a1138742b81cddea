"""The examples of the README and of the documentation site run.

Every ```python block of ``README.md`` and of every ``docs/**/*.md`` page runs: the
blocks of a page in order, in one fresh namespace per page, in a scratch folder, with
``$ACTPARSE_DATA`` pointing at the shared corpora. A name a block uses without defining
it fails here, as it would for a reader. A page whose blocks import a module that is not
installed (an extra: ``datasets``, ``dask``, ...), or that needs one of :data:`NEEDS`, is
skipped with the reason.

Two conventions, written out for authors in ``docs/contributing.md``:

- a ```text block right after a ```python block (nothing but blank lines between) is
  what that block prints; it is compared with ``doctest``'s rules (``...`` matches
  anything, runs of whitespace compare equal);
- a ```python block right after a ``<!-- no-run -->`` line is shown, not run (for
  examples that need files a reader has and the tests do not).

The ```sh block of the README's "The shell" runs in bash, in a scratch folder holding
the ``dialogues.jsonl`` it names (the Craigslist validation fixture) and an
``actparse`` command of this tree; so does the ```sh block of "pandas" in
``docs/integrations.md``.
"""

from __future__ import annotations

import ast
import contextlib
import doctest
import io
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from corpus_fixtures import FIXTURES

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = [README, *sorted(DOCS.rglob("*.md"))]

#: What a page's examples need that they do not import themselves (an extra behind an
#: actparse call), by the page's path from the repository root.
NEEDS: dict[str, tuple[str, ...]] = {
    "docs/index.md": ("plotly",),
    "docs/integrations.md": ("pandas",),
}

_HEADING = re.compile(r"^(#{1,3}) (.+?)\s*$")
_FENCE = re.compile(
    r"^(?P<norun><!-- no-run -->\n)?```(?P<lang>[\w-]*)[^\n]*\n(?P<code>.*?)^```[ \t]*\n"
    r"(?:(?:[ \t]*\n)*```text[ \t]*\n(?P<out>.*?)^```[ \t]*$)?",
    re.MULTILINE | re.DOTALL,
)
_SH_BLOCK = re.compile(r"^```sh\n(.*?)^```", re.MULTILINE | re.DOTALL)
_CHECKER = doctest.OutputChecker()
_OPTIONS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@dataclass(frozen=True)
class Example:
    """One ```python block: its code, first line in the page, and shown output."""

    code: str
    line: int
    output: str | None
    run: bool


def examples(text: str) -> list[Example]:
    """The ```python blocks of a page, in order."""
    found = []
    for match in _FENCE.finditer(text):
        if match.group("lang") != "python":
            continue
        line = text.count("\n", 0, match.start("code")) + 1
        found.append(
            Example(match.group("code"), line, match.group("out"), not match.group("norun"))
        )
    return found


def sections(text: str, block: re.Pattern[str] = _SH_BLOCK) -> dict[str, list[str]]:
    """The blocks ``block`` finds in each ``#``-``###`` section, by heading."""
    chunks: dict[str, list[str]] = {}
    current = ""
    for line in text.splitlines(keepends=True):
        heading = _HEADING.match(line)
        if heading:
            current = heading.group(2)
            continue
        chunks.setdefault(current, []).append(line)
    return {heading: block.findall("".join(lines)) for heading, lines in chunks.items()}


def imported_modules(code: str) -> set[str]:
    """The modules a block imports, as ``import`` names them (``dask.dataframe``)."""
    names = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def _name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def test_the_readme_and_the_pages_have_examples() -> None:
    assert len(examples(README.read_text(encoding="utf-8"))) >= 2
    assert sum(len(examples(p.read_text(encoding="utf-8"))) for p in PAGES) >= 10


def _runs(page: Path) -> bool:
    return any(e.run for e in examples(page.read_text(encoding="utf-8")))


#: The pages with a block to run (a page without one is no test, rather than a skip).
RUNNABLE = [page for page in PAGES if _runs(page)]


@pytest.mark.parametrize("page", RUNNABLE, ids=_name)
def test_page_examples_run(
    page: Path, data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocks = [e for e in examples(page.read_text(encoding="utf-8")) if e.run]
    needed = set(NEEDS.get(_name(page), ()))
    for example in blocks:
        needed |= imported_modules(example.code)
    for module in sorted(needed):
        if module.split(".")[0] not in sys.stdlib_module_names:
            pytest.importorskip(module, reason=f"{_name(page)}'s examples need {module}")
    monkeypatch.setenv("ACTPARSE_DATA", str(data_dir))
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "hf-cache"))
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": f"docs_{page.stem}"}
    for example in blocks:
        where = f"{_name(page)}, line {example.line}"
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile("\n" * (example.line - 1) + example.code, _name(page), "exec"), namespace)
        if example.output is not None:
            got = printed.getvalue()
            assert _CHECKER.check_output(example.output, got, _OPTIONS), (
                f"{where}: printed\n{got}\nwhere the page shows\n{example.output}"
            )


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
    (code,) = sections(README.read_text(encoding="utf-8"))["The shell"]
    result = subprocess.run(["bash", "-e", "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, f"{code}\n{result.stderr}"
    assert result.stdout.startswith("actparse ")
    assert "'figure': 'message_joint_agreement'" in result.stdout
    assert "at or above the floor" in result.stdout
    labelled = (shell / "labelled.jsonl").read_text().splitlines()
    assert len(labelled) == 20
    assert (shell / "first.jsonl").read_text().splitlines() == labelled[:1]


def test_the_pandas_sections_commands_write_the_tables_it_names(
    shell: Path, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ```sh block of "pandas" in integrations.md writes turns.parquet and
    turns.csv from the corpora under ``$ACTPARSE_DATA``."""
    pytest.importorskip("pyarrow", reason="the Parquet example needs pyarrow")
    from actparse.io.turn_files import read_turn_table

    page = DOCS / "integrations.md"
    (code,) = sections(page.read_text(encoding="utf-8"))["pandas"]
    assert "$ACTPARSE_DATA/" in code
    monkeypatch.setenv("ACTPARSE_DATA", str(data_dir))
    result = subprocess.run(["bash", "-e", "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, f"{code}\n{result.stderr}"
    assert "wrote 3340 turns of 562 dialogues" in result.stderr
    assert "wrote 3305 turns of 357 dialogues" in result.stderr
    assert sum(1 for _ in read_turn_table(shell / "turns.parquet")) == 3340
    assert sum(1 for _ in read_turn_table(shell / "turns.csv")) == 3305
