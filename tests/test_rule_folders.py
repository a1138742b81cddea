"""A plug-in's rule folder (``Corpus.rules``) is read exactly like a built-in's: its tag
rules, its split lexicon (``splits.yaml``) and its strategy item words
(``strategies.yaml``). The corpora here are registered at run time with a folder on disk.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import actparse
from actparse import registry
from actparse.corpora.casino.core import CasinoParser
from actparse.corpora.splits.lexicon import CORPUS_FILE, load_split_lexicon
from actparse.engine.folders import corpus_file, corpus_tag_rules
from actparse.engine.rulefiles import RuleError, shipped
from actparse.engine.strategies import (
    StrategyTagger,
    corpus_classes,
    default_tagger,
    load_strategy_rules,
)

#: A split corpus of its own: CaSiNo's parser and tag rules, with items of its own.
SPLITS = """\
description: A plug-in's items.
items:
  - name: rope
    words: [rope, ropes]
  - name: tent
    words: [tent, tents]
  - name: lamp
    words: [lamp, lamps, "oil lamp"]
"""


def _corpus(name: str, rules: str) -> registry.Corpus:
    return registry.Corpus(
        name=name,
        title=name.title(),
        formats=(),
        parser="actparse.corpora.casino.core:CasinoParser",
        evaluator="actparse.corpora.casino.core:evaluate_casino",
        headline="agreement",
        rules=rules,
    )


@pytest.fixture
def folderless() -> Iterator[registry.Corpus]:
    try:
        yield actparse.register(_corpus("folderless", ""))
    finally:
        registry.unregister("folderless")


def test_a_corpus_without_a_rule_folder_is_a_rule_error(folderless: registry.Corpus) -> None:
    with pytest.raises(RuleError, match="folderless corpus names no rule folder"):
        corpus_file("folderless", "tags.yaml")
    with pytest.raises(RuleError, match="folderless corpus names no rule folder"):
        corpus_tag_rules("folderless")


@pytest.fixture
def plugged(tmp_path: Path) -> Iterator[Path]:
    """A corpus ``plugged`` whose rule folder is ``tmp_path`` (an absolute path), holding
    CaSiNo's tag rules and coarse map, and a ``splits.yaml`` and a ``strategies.yaml`` of
    its own."""
    for name in ("tags.yaml", "coarse.yaml"):
        (tmp_path / name).write_text(shipped("casino", name).read_text("utf-8"), "utf-8")
    (tmp_path / CORPUS_FILE).write_text(SPLITS, encoding="utf-8")
    (tmp_path / "strategies.yaml").write_text(STRATEGIES, encoding="utf-8")
    try:
        actparse.register(_corpus("plugged", str(tmp_path)))
        yield tmp_path
    finally:
        registry.unregister("plugged")


#: Its item words for the strategy rules: the shared ``item`` class gets them.
STRATEGIES = """\
description: A plug-in's item words.
classes:
  item: [rope, ropes, gizmo]
"""
#: Small talk about the outdoors, unless it names an item.
WEATHER = "the weather is lovely for the gizmo"


class PluggedParser(CasinoParser):
    corpus = "plugged"


def test_a_plugins_split_lexicon_is_read_from_its_rule_folder(plugged: Path) -> None:
    lexicon = load_split_lexicon("plugged")
    assert lexicon.corpus == "plugged" and lexicon.items == ("rope", "tent", "lamp")
    assert lexicon.item_words["oil lamp"] == 2
    assert str(plugged / CORPUS_FILE) in lexicon.source
    assert load_split_lexicon("plugged") is lexicon
    assert PluggedParser().lexicon is lexicon


def test_a_plugins_split_lexicon_follows_its_folder_when_registered_again(
    plugged: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    assert load_split_lexicon("plugged").items == ("rope", "tent", "lamp")
    other = tmp_path_factory.mktemp("other")
    (other / CORPUS_FILE).write_text(SPLITS.replace("rope", "cord"), encoding="utf-8")
    actparse.register(_corpus("plugged", str(other)), replace=True)
    assert load_split_lexicon("plugged").items == ("cord", "tent", "lamp")


def test_a_shared_lexicon_given_alone_takes_the_plugins_own_part(plugged: Path) -> None:
    lexicon = load_split_lexicon("plugged", shipped("splits", "lexicon.yaml"))
    assert lexicon == load_split_lexicon("plugged") and lexicon is not load_split_lexicon("plugged")


def test_a_split_corpus_without_splits_yaml_is_a_rule_error_naming_its_folder(
    plugged: Path,
) -> None:
    (plugged / CORPUS_FILE).unlink()
    with pytest.raises(RuleError, match="no split lexicon") as caught:
        load_split_lexicon("plugged")
    assert str(plugged) in str(caught.value)
    with pytest.raises(RuleError, match="no split lexicon"):
        PluggedParser()


def test_a_plugins_item_words_reach_every_tagger_after_the_builtins(plugged: Path) -> None:
    items = corpus_classes()["item"]
    # The built-in corpora's words first (casino, then dealornodeal), the plug-in's last:
    # corpora in the order of their names.
    assert items[:2] == ("food", "foods") and items[-3:] == ("rope", "ropes", "gizmo")
    assert items.index("book") < items.index("rope")
    # Every tagger: the built-in corpora's default one and the plug-in's own.
    assert default_tagger().tag(WEATHER) == ("non-strategic",)
    assert PluggedParser().strategies.tag(WEATHER) == ("non-strategic",)
    assert StrategyTagger().tag(WEATHER) == ("non-strategic",)
    assert load_strategy_rules() is default_tagger().rules
    assert registry.shipped_parser("casino").strategies.tag(WEATHER) == ("non-strategic",)


def test_registering_a_corpus_leaves_no_stale_tagger(tmp_path: Path) -> None:
    before = default_tagger()
    assert before.tag(WEATHER) == ("small-talk",)
    assert "gizmo" not in corpus_classes()["item"]
    (tmp_path / "strategies.yaml").write_text(STRATEGIES, encoding="utf-8")
    try:
        actparse.register(_corpus("plugged", str(tmp_path)))
        assert default_tagger() is not before
        assert default_tagger().tag(WEATHER) == ("non-strategic",)
        # A tagger built before keeps the words it was built with.
        assert before.tag(WEATHER) == ("small-talk",)
    finally:
        registry.unregister("plugged")
    assert default_tagger() is before and "gizmo" not in corpus_classes()["item"]


def test_a_plugins_bad_strategies_yaml_names_its_file(tmp_path: Path) -> None:
    (tmp_path / "strategies.yaml").write_text("classes: [rope]\n", encoding="utf-8")
    try:
        actparse.register(_corpus("plugged", str(tmp_path)))
        with pytest.raises(RuleError, match=f"{tmp_path}/strategies.yaml:1: 'classes'"):
            default_tagger()
    finally:
        registry.unregister("plugged")
