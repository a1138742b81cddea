"""Every shipped tag-rule file (``rules/<corpus>/tags.yaml``, the corpus' rule folder in
the registry): each rule matches its examples and none of its counterexamples, seen the
way its parser sees a message."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from actparse import registry
from actparse.corpora.chat.items import message_tokens
from actparse.corpora.splits.lexicon import load_split_lexicon
from actparse.corpora.splits.tokens import tokenize as split_tokenize
from actparse.engine.rulefiles import shipped
from actparse.engine.tags import Rule, load_rules
from actparse.engine.tokenizer import tokenize

TAGS = "tags.yaml"


def _cocoa_view(text: str) -> tuple[list[str], str]:
    # Craigslist and MutualFriends: Cocoa's tokens, and the raw text for text rules.
    return tokenize(text), text


def _split_view(corpus: str) -> Callable[[str], tuple[list[str], str]]:
    # Deal or No Deal and CaSiNo: the split parser's tokens, text rules on their join.
    lexicon = load_split_lexicon(corpus)

    def view(text: str) -> tuple[list[str], str]:
        tokens = split_tokenize(text, lexicon)
        return tokens, " ".join(tokens)

    return view


def _chat_view(text: str) -> tuple[list[str], str]:
    # The chat corpus: the split tokenizer with the shared lexicon, text rules on the join.
    tokens = list(message_tokens(text))
    return tokens, " ".join(tokens)


VIEWS: dict[str, Callable[[str], tuple[list[str], str]]] = {
    "craigslist": _cocoa_view,
    "mutualfriends": _cocoa_view,
    "dealornodeal": _split_view("dealornodeal"),
    "casino": _split_view("casino"),
    "chat": _chat_view,
}
CASES = [
    pytest.param(name, rule, text, expected, id=f"{name}:{rule.name}:{'+-'[not expected]}{text}")
    for name in VIEWS
    for rule in load_rules(shipped(name, TAGS)).rules
    for expected, texts in ((True, rule.examples), (False, rule.counterexamples))
    for text in texts
]


def test_the_tag_rule_files_are_shipped() -> None:
    assert all(shipped(name, TAGS).is_file() for name in VIEWS)
    assert {c.rules for c in registry.corpora() if c.rules} == set(VIEWS)


@pytest.mark.parametrize(("name", "rule", "text", "expected"), CASES)
def test_rule_examples(name: str, rule: Rule, text: str, expected: bool) -> None:
    tokens, raw = VIEWS[name](text)
    assert rule.matches(tokens, raw) is expected


@pytest.mark.parametrize("name", list(VIEWS))
def test_every_rule_has_examples_and_counterexamples(name: str) -> None:
    for rule in load_rules(shipped(name, TAGS)).rules:
        assert rule.examples and rule.counterexamples, f"{name}: {rule.name}"
