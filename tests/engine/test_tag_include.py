"""Shared tag-rule files: ``include`` takes the rules of ``rules/tags/`` before a file's own."""

from __future__ import annotations

from pathlib import Path

import pytest

from actparse.engine.rulefiles import RuleError, shipped
from actparse.engine.tags import load_rules, shared_tag_files

OWN_RULE = """\
  - name: hello-word
    tag: greeting
    match: any-token
    values: [hello]
    examples: ["hello"]
    counterexamples: ["yellow"]
"""


def _file(tmp_path: Path, include: str, rule: str = OWN_RULE) -> Path:
    path = tmp_path / "tags.yaml"
    path.write_text(f"description: mine\ninclude: {include}\nrules:\n{rule}", encoding="utf-8")
    return path


def test_the_shared_files_are_shipped() -> None:
    assert shared_tag_files() == ["acceptance", "assent", "negotiation"]


@pytest.mark.parametrize(
    ("corpus", "shared"),
    [
        ("dealornodeal", {"acceptance", "negotiation", "assent"}),
        ("chat", {"acceptance", "negotiation", "assent"}),
        ("casino", {"acceptance", "assent"}),
    ],
    ids=["dealornodeal", "chat", "casino"],
)
def test_a_corpus_takes_the_rules_it_includes(corpus: str, shared: set[str]) -> None:
    rules = load_rules(shipped(corpus, "tags.yaml"))
    homes = {r.source.rsplit(":", 1)[0] for r in rules.rules}
    assert homes == {f"rules/{corpus}/tags.yaml"} | {f"rules/tags/{n}.yaml" for n in shared}
    assert rules["acceptance-phrase"].source.startswith("rules/tags/acceptance.yaml:")


def test_included_rules_come_first_and_match(tmp_path: Path) -> None:
    rules = load_rules(_file(tmp_path, "[acceptance]"))
    assert [r.name for r in rules.rules] == ["acceptance-phrase", "hello-word"]
    assert rules.has("agree", ["i", "can", "work", "with", "that"], "i can work with that")


@pytest.mark.parametrize(
    ("include", "rule", "message"),
    [
        ("[nowhere]", OWN_RULE, "'include': no shared tag-rule file 'nowhere'; one of"),
        ("[../casino/tags]", OWN_RULE, "no shared tag-rule file '../casino/tags'"),
        ("[acceptance, acceptance]", OWN_RULE, "'include' names 'acceptance' twice"),
        ("acceptance", OWN_RULE, "'include' must be a list of words"),
        (
            "[acceptance]",
            OWN_RULE.replace("hello-word", "acceptance-phrase"),
            "duplicate rule name (also in rules/tags/acceptance.yaml:",
        ),
    ],
    ids=["unknown", "a-path", "twice", "not-a-list", "own-rule-of-an-included-name"],
)
def test_a_bad_include_names_the_file_and_line(
    tmp_path: Path, include: str, rule: str, message: str
) -> None:
    path = _file(tmp_path, include, rule)
    with pytest.raises(RuleError, match=r"tags\.yaml:\d+: ") as err:
        load_rules(path)
    assert message in str(err.value)
