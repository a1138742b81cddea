"""The built wheel carries the rule files and the entry points."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_wheel_carries_rules_and_entry_points(tmp_path: Path) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "build",
            "--wheel",
            "--no-isolation",
            "--outdir",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("actparse-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    shipped = sorted(
        f"actparse/rules/{p.relative_to(ROOT / 'rules').as_posix()}"
        for p in (ROOT / "rules").rglob("*")
        if p.is_file()
    )
    assert "actparse/rules/craigslist/tags.yaml" in shipped
    assert "actparse/rules/craigslist/price_lexicon.json" in shipped
    assert [n for n in shipped if n not in names] == []
    assert "actparse/data/sample.jsonl" in names
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "actparse = actparse.cli:main" in text
    assert "[spacy_factories]" in text and "actparse_price_linker" in text


def test_python_m_actparse_runs() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "actparse", "--help"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0
    assert "label" in result.stdout


def test_spacy_finds_the_factories_through_entry_points() -> None:
    from importlib.metadata import entry_points

    names = {ep.name for ep in entry_points(group="spacy_factories")}
    if "actparse_tagger" not in names:
        pytest.skip("actparse is not installed (entry points come with the installed package)")
    # A fresh interpreter that never imports actparse itself.
    code = (
        "import spacy; nlp = spacy.blank('en'); "
        "nlp.add_pipe('actparse_price_linker'); nlp.add_pipe('actparse_tagger'); "
        "print(nlp('hello, how are you?')._.tags)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd="/"
    )
    assert "greeting" in result.stdout
