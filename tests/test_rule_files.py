"""Every shipped tag-rule file: each rule matches its examples and none of its
counterexamples, seen the way its parser sees a message."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from actparse.rules import Rule, load_rules, rules_dir
from actparse.splits import load_split_lexicon
from actparse.splits import tokenize as split_tokenize
from actparse.tokenizer import tokenize


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


VIEWS: dict[str, Callable[[str], tuple[list[str], str]]] = {
    "craigslist.yaml": _cocoa_view,
    "mutualfriends.yaml": _cocoa_view,
    "dealornodeal.yaml": _split_view("dealornodeal"),
    "casino.yaml": _split_view("casino"),
}
CASES = [
    pytest.param(name, rule, text, expected, id=f"{name}:{rule.name}:{'+-'[not expected]}{text}")
    for name in VIEWS
    for rule in load_rules(rules_dir().joinpath(name)).rules
    for expected, texts in ((True, rule.examples), (False, rule.counterexamples))
    for text in texts
]


def test_the_tag_rule_files_are_shipped() -> None:
    assert all(rules_dir().joinpath(name).is_file() for name in VIEWS)


@pytest.mark.parametrize(("name", "rule", "text", "expected"), CASES)
def test_rule_examples(name: str, rule: Rule, text: str, expected: bool) -> None:
    tokens, raw = VIEWS[name](text)
    assert rule.matches(tokens, raw) is expected


@pytest.mark.parametrize("name", list(VIEWS))
def test_every_rule_has_examples_and_counterexamples(name: str) -> None:
    for rule in load_rules(rules_dir().joinpath(name)).rules:
        assert rule.examples and rule.counterexamples, f"{name}: {rule.name}"
