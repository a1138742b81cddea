"""A plug-in's rule folder (``Corpus.rules``) is read exactly like a built-in's: its tag
rules, its split lexicon (``splits.yaml``) and its strategy item words
(``strategies.yaml``). The corpora here are registered at run time with a folder on disk.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import actparse
from actparse import registry
from actparse.engine.folders import corpus_file, corpus_tag_rules
from actparse.engine.rulefiles import RuleError


def _corpus(name: str, rules: str) -> registry.Corpus:
    return registry.Corpus(
        name=name,
        title=name.title(),
        formats=(),
        parser="actparse.corpora.casino.parser:CasinoParser",
        evaluator="actparse.corpora.casino.evaluate:evaluate",
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
