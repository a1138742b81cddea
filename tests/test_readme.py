"""The README's Python examples run: every ```python block under the sections named in
:data:`SECTIONS` (a ``###`` or ``##`` heading), the blocks of a section in order in one
fresh namespace, in a scratch folder, with ``$ACTPARSE_DATA`` pointing at the shared
corpora. A name a block uses without defining it fails here, as it would for a reader."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"

#: The README sections whose examples are run, and what each needs installed.
SECTIONS = {
    "pandas": ("pandas",),
    "datasets": ("datasets",),
    "Dask": ("dask.dataframe", "distributed"),
}

_HEADING = re.compile(r"^(#{2,3}) (.+?)\s*$")
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def python_blocks(text: str) -> dict[str, list[str]]:
    """The ```python blocks of each ``##``/``###`` section, by heading."""
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
        sections[heading] = _BLOCK.findall("".join(lines))
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
