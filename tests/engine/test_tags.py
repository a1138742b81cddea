"""The Craigslist rule file covers Cocoa's tags; bad rule files fail naming the file and
the line. (Every rule's examples run in test_rule_files.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest
import regex

from actparse.corpora.craigslist.parser import load_tag_rules
from actparse.engine.rulefiles import RuleError, shipped
from actparse.engine.tags import literal_alternatives, load_rules
from actparse.engine.tokenizer import tokenize

RULES = load_tag_rules()


def test_cocoa_tags_are_all_covered() -> None:
    assert set(RULES.by_tag) == {"question", "greeting", "negative", "vague-price", "agree"}


def test_shipped_rule_files_are_found() -> None:
    assert shipped("craigslist", "tags.yaml").is_file()
    assert shipped("craigslist", "price_lexicon.json").is_file()


def _write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "bad.yaml"
    path.write_text(body, encoding="utf-8")
    return path


GOOD_RULE = "  - name: r1\n    tag: t\n    match: any-token\n    values: [a]\n"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        pytest.param(
            "rules:\n" + GOOD_RULE + "  - name: r2\n    tag: t\n    match: any-token\n"
            "    values: [b]\n    exampels: [b]\n",
            "bad.yaml:6: rule 'r2': unknown key(s) ['exampels']",
            id="unknown-key",
        ),
        pytest.param(
            "rules:\n  - name: r1\n    tag: t\n    values: [a]\n",
            "bad.yaml:2: rule 'r1': missing key(s) ['match']",
            id="missing-key",
        ),
        pytest.param(
            "rules:\n  - name: r1\n    tag: t\n    match: fuzzy\n    values: [a]\n",
            "unknown match kind 'fuzzy'",
            id="unknown-match",
        ),
        pytest.param(
            "rules:\n  - name: r1\n    tag: t\n    match: text-search\n    values: ['(']\n",
            "bad.yaml:2: rule 'r1': bad regular expression",
            id="bad-regex",
        ),
        pytest.param(
            "rules:\n" + GOOD_RULE + GOOD_RULE, "bad.yaml:6: rule 'r1': duplicate", id="dup"
        ),
        pytest.param("rules: [\n", "bad.yaml:2: not valid YAML", id="bad-yaml"),
        pytest.param("- a\n", "expected a mapping with a 'rules' list", id="not-a-mapping"),
        pytest.param(
            "rules:\n  - name: r1\n    tag: t\n    match: any-token\n    values: 3\n",
            "'values' must be a string or a list of strings",
            id="values-type",
        ),
    ],
)
def test_bad_rule_files_name_file_and_line(tmp_path: Path, body: str, message: str) -> None:
    with pytest.raises(RuleError, match=None) as info:
        load_rules(_write(tmp_path, body))
    assert message in str(info.value)


def test_yaml_is_loaded_safely(tmp_path: Path) -> None:
    body = "rules:\n  - !!python/object/apply:os.system ['echo unsafe']\n"
    with pytest.raises(RuleError, match="not valid YAML"):
        load_rules(_write(tmp_path, body))


@pytest.mark.parametrize(
    ("pattern", "literals"),
    [
        pytest.param("come down", ("come down",), id="literal"),
        pytest.param("go (lower|higher)", ("go lower", "go higher"), id="alternation"),
        pytest.param("(?:a|b)c", ("ac", "bc"), id="non-capturing"),
        pytest.param(r"a\.b", ("a.b",), id="escaped-dot"),
        pytest.param("a+", None, id="repeat"),
        pytest.param("[ab]", ("a", "b"), id="class-of-literals"),
        pytest.param("[a-z]", None, id="class-range"),
        pytest.param("[^a]", None, id="negated-class"),
        pytest.param("^great$", None, id="anchors"),
        pytest.param("(?i)x", None, id="global-flag"),
        pytest.param("(?i:x)y", None, id="scoped-flag"),
        pytest.param("", None, id="empty"),
    ],
)
def test_literal_alternatives(pattern: str, literals: tuple[str, ...] | None) -> None:
    assert literal_alternatives(pattern) == literals


def test_literal_fast_path_matches_like_the_regex() -> None:
    rule = RULES["vague-price-go-further"]
    for text in ["could you go lower", "Go lower", "go  lower", "go lowered", "ago higher"]:
        expected = regex.search(rule.values[0], text) is not None
        assert RULES.has("vague-price", tokenize(text), text) is expected, text
    greet = RULES["greeting-phrase"]
    for text in ["HOW ARE YOU", "how are  you", "I'm interested in it", "\u212aelvin interested"]:
        expected = any(
            regex.search(v, text, regex.IGNORECASE | regex.ASCII | regex.VERSION0)
            for v in greet.values
        )
        assert greet.matches([], text) is expected
