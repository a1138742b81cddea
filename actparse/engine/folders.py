"""A corpus' rule folder, as its registry entry names it, and the tag rules in it.

The folder is named by ``Corpus.rules``: this is how a parser finds its files without naming where
they live."""

from __future__ import annotations

import functools
from importlib.resources.abc import Traversable

from actparse import registry
from actparse.engine.rulefiles import RuleError, display, is_shipped_folder, rule_folder
from actparse.engine.tags import RuleSet, load_rules

__all__ = ["TAGS_FILE", "corpus_file", "corpus_tag_rules", "source_of"]

#: A corpus' tag rules, in its rule folder.
TAGS_FILE = "tags.yaml"


def corpus_file(corpus: str, name: str) -> Traversable:
    """The file ``name`` in a corpus' rule folder (a :class:`RuleError` if it has none)."""
    folder = rule_folder(registry.get(corpus).rules)
    if folder is None:
        raise RuleError(f"the {corpus} corpus names no rule folder (Corpus.rules)")
    return folder.joinpath(name)


def source_of(corpus: str, name: str) -> str:
    """How errors name the file ``name`` of a corpus' rule folder."""
    return display(corpus_file(corpus, name))


def corpus_tag_rules(corpus: str) -> RuleSet:
    """The tag rules of a corpus, ``tags.yaml`` of its rule folder, loaded once.

    A :class:`RuleError` if the corpus names no folder."""
    spec = registry.get(corpus).rules
    if not spec:
        raise RuleError(f"the {corpus} corpus names no rule folder (Corpus.rules): no tag rules")
    return _tag_rules(spec)


@functools.cache
def _tag_rules(spec: str) -> RuleSet:
    if is_shipped_folder(spec):
        # actparse's own folder: the same once-per-process file every other caller loads.
        return load_rules(default=(spec, TAGS_FILE))
    folder = rule_folder(spec)
    assert folder is not None  # corpus_tag_rules asks only with a folder
    return load_rules(folder.joinpath(TAGS_FILE))
