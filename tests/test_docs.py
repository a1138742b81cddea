"""The documentation's generated pages (docs/hooks/generate.py) are read from the rule
files when the site is built: a rule's changed example shows up on the next build.
The strict build itself runs in CI (.ci/run: mkdocs build --strict)."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_generate", ROOT / "docs/hooks/generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_changed_strategy_example_shows_on_the_next_build(tmp_path: Path) -> None:
    hook = _hook()
    copy = tmp_path / "strategies.yaml"
    shutil.copy(ROOT / "rules/strategies.yaml", copy)
    assert "fresh example 4711" not in hook.strategies_markdown(copy)
    text = copy.read_text(encoding="utf-8")
    old = 'examples: ["Hey, how are you today?",'
    assert old in text
    copy.write_text(text.replace(old, 'examples: ["how are you, fresh example 4711",'), "utf-8")
    assert "`how are you, fresh example 4711`" in hook.strategies_markdown(copy)


def test_a_changed_act_or_tag_example_shows_on_the_next_build(tmp_path: Path) -> None:
    hook = _hook()
    rules = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", rules)
    before = hook.acts_markdown(rules)
    assert "Opening, greeting or small talk" in before and "`intro`" in before
    acts = rules / "acts.yaml"
    acts.write_text(
        acts.read_text("utf-8").replace("Opening, greeting", "Hello-definition 4711"), "utf-8"
    )
    tags = rules / "craigslist/tags.yaml"
    tags.write_text(
        tags.read_text("utf-8").replace('"is it still available?"', '"tag example 4711?"'),
        "utf-8",
    )
    after = hook.acts_markdown(rules)
    assert "Hello-definition 4711" in after
    assert "`tag example 4711?`" in after


def test_every_strategy_label_has_a_definition() -> None:
    from actparse.engine.strategies import LABELS

    page = _hook().strategies_markdown()
    for label in LABELS:
        assert f"## {label} {{#{label}}}\n\n\n" not in page, label


def test_the_cli_page_has_every_command_and_the_exit_table() -> None:
    page = _hook().cli_markdown()
    for command in ("label", "eval", "report", "train-prices"):
        assert f"## {command}\n" in page
    assert "| exit status | meaning |" in page


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs", reason="the docs extra (pip install '.[docs]') is not installed")
    pytest.importorskip("mkdocstrings", reason="the docs extra is not installed")
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    config = load_config(str(ROOT / "mkdocs.yml"), site_dir=str(tmp_path / "site"), strict=True)
    build(config)
    assert (tmp_path / "site/acts/index.html").is_file()
