"""The tag-rule files read with the Cocoa tokenizer: each rule matches its examples and none of its
counterexamples (tokens from the Cocoa tokenizer, the raw text for text rules)."""

from __future__ import annotations

import pytest

from actparse.rules import Rule, load_rules, rules_dir
from actparse.tokenizer import tokenize

# The tag-rule files read with the Cocoa tokenizer. Deal or No Deal and CaSiNo rules see
# the split parser's tokens; tests/test_dealornodeal.py and test_casino.py run theirs.
FILES = ["craigslist.yaml", "mutualfriends.yaml"]
CASES = [
    pytest.param(rule, text, expected, id=f"{name}:{rule.name}:{'+' if expected else '-'}{text}")
    for name in FILES
    for rule in load_rules(rules_dir().joinpath(name)).rules
    for expected, texts in ((True, rule.examples), (False, rule.counterexamples))
    for text in texts
]


def test_the_tag_rule_files_are_shipped() -> None:
    assert all(rules_dir().joinpath(name).is_file() for name in FILES)


@pytest.mark.parametrize(("rule", "text", "expected"), CASES)
def test_rule_examples(rule: Rule, text: str, expected: bool) -> None:
    assert rule.matches(tokenize(text), text) is expected


@pytest.mark.parametrize("name", FILES)
def test_every_rule_has_examples_and_counterexamples(name: str) -> None:
    for rule in load_rules(rules_dir().joinpath(name)).rules:
        assert rule.examples and rule.counterexamples, f"{name}: {rule.name}"
