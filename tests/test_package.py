"""The built wheel carries the rule files, the entry points, the type marker and the
licence; the public names are listed and typed for a user's type checker."""

from __future__ import annotations

import os
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
    assert "actparse/rules/casino/strategy_lexicon.json" in shipped
    assert [n for n in shipped if n not in names] == []
    assert "actparse/data/sample.jsonl" in names
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "actparse = actparse.cli:main" in text
    assert "[spacy_factories]" in text and "actparse_price_linker" in text
    assert "[spacy_tokenizers]" in text and "actparse.CocoaTokenizer.v1" in text
    assert "actparse/py.typed" in names  # PEP 561
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("METADATA")))
    assert b"Classifier: Typing :: Typed" in metadata
    assert b"Classifier: License :: OSI Approved :: MIT License" in metadata
    assert b"Project-URL: " in metadata


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


def test_all_lists_every_public_name() -> None:
    import inspect

    import actparse

    for name in actparse.__all__:
        assert getattr(actparse, name) is not None
    # The names the issue asked for, and every class or function the package namespace
    # holds that is not a submodule.
    asked = {"ItemSplit", "EntityMention", "parser_for", "load_act_space", "blank_pipeline"}
    asked |= {"CraigslistParser", "DealOrNoDealParser", "CasinoParser", "MutualFriendsParser"}
    assert asked <= set(actparse.__all__)
    public = {
        name
        for name, value in vars(actparse).items()
        if not name.startswith("_")
        and not inspect.ismodule(value)
        and name != "TYPE_CHECKING"
        and name != "Any"
    }
    assert public <= set(actparse.__all__)


def test_help_of_act_is_readable() -> None:
    import pydoc

    import actparse

    text = pydoc.render_doc(actparse.Act, renderer=pydoc.plaintext)
    assert "ForwardRef" not in text and "Alias for field number" not in text
    assert "coarse: str | None = None" in text
    assert "The act in the shared coarse act space" in text


USER_FILE = """\
import actparse

acts = actparse.parse_dialogue({"utterance": ["hi"], "agent_turn": [0]})
reveal_type(acts[0].split)
reveal_type(actparse.blank_pipeline)
wrong: int = acts[0].intent
"""


@pytest.mark.slow
def test_mypy_strict_sees_the_types_of_a_user_file(tmp_path: Path) -> None:
    """A user's code, type-checked with --strict, sees actparse's types through its
    py.typed marker (without it every name would be Any and the misuse pass)."""
    user = tmp_path / "user.py"
    user.write_text(USER_FILE)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--cache-dir",
            str(tmp_path / "cache"),
            "user.py",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    out = result.stdout
    assert 'Revealed type is "actparse.models.ItemSplit | None"' in out, out
    assert "-> spacy.language.Language" in out
    assert (
        'user.py:6: error: Incompatible types in assignment (expression has type "str | None"'
        in out
    )
    assert "py.typed" not in out and result.returncode == 1
