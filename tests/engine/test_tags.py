"""The Craigslist rule file covers Cocoa's tags; bad rule files fail naming the file and
the line. (Every rule's examples run in test_rule_files.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest
import regex

from actparse.corpora.craigslist.parser import load_tag_rules
from actparse.engine.rulefiles import RuleError, shipped
from actparse.engine.tagmatch import literal_alternatives
from actparse.engine.tags import load_rules
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
        pytest.param(
            "rules:\n  - name: r1\n    tag: t\n    match: any-token\n    values: [a]\n"
            "    unless: [b]\n",
            "bad.yaml:2: rule 'r1': 'unless' needs a text rule, not any-token",
            id="unless-on-a-token-rule",
        ),
        pytest.param(
            "rules:\n  - name: r1\n    tag: t\n    match: text-search\n    values: [a]\n"
            "    unless: ['(']\n",
            "bad.yaml:2: rule 'r1': bad regular expression",
            id="bad-unless-regex",
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


@pytest.mark.parametrize(
    ("body", "message"),
    [
        pytest.param(
            "rules:\n  - name: x\n    tag: [open\n    match: any-token\n",
            "bad.yaml:4: not valid YAML: expected ',' or ']', but got ':' at column 10 "
            "(while parsing a flow sequence at line 3, column 10)",
            id="unclosed-flow",
        ),
        pytest.param(
            "a: b\n  c: d\n",
            "bad.yaml:2: not valid YAML: mapping values are not allowed here at column 4",
            id="no-context",
        ),
        pytest.param(
            "rules: []\nx: a\x07b\n",
            "bad.yaml:2: not valid YAML: character #x0007: special characters are not allowed",
            id="control-character",
        ),
    ],
)
def test_invalid_yaml_is_one_line_naming_the_file(tmp_path: Path, body: str, message: str) -> None:
    """PyYAML's own text spans lines and names the file "<unicode string>"."""
    path = _write(tmp_path, body)
    with pytest.raises(RuleError) as info:
        load_rules(path)
    assert str(info.value) == f"{path.parent}/{message}"


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
        pytest.param("packages?", ("package", "packages"), id="optional"),
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


@pytest.mark.parametrize(
    ("pattern", "words"),
    [
        pytest.param(r"\b(fair|even)\b", ("fair", "even"), id="words"),
        pytest.param(r"\b(?:can't|won't)\b", ("can't", "won't"), id="inner-apostrophe"),
        pytest.param(r"\bfair(ly)?\b", ("fair", "fairly"), id="an-optional-part"),
        pytest.param(r"\bfair(ly)+\b", None, id="a-repeat"),
        pytest.param(r"\b(you too|hope)\b", ("you too", "hope"), id="with-whitespace"),
        pytest.param(r"\bfair", None, id="one-boundary"),
        pytest.param(r"(fair|even)", None, id="no-boundary"),
        pytest.param(r"\b\b", None, id="nothing-between"),
    ],
)
def test_words_between_boundaries(pattern: str, words: tuple[str, ...] | None) -> None:
    assert literal_alternatives(pattern, words=True) == words


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


UNLESS_RULES = """
classes:
  item: [food, water]
rules:
  - name: fun
    tag: chat
    match: text-search
    values: ['\\b(fun|great)\\b', 'so nice']
    unless: ['\\b(need|{item})\\b', '^\\W*ok']
  - name: hello
    tag: chat
    match: text-search
    values: ['\\bhello\\b']
  - name: free
    tag: free
    match: text-whole
    values: ['.*\\bfree\\b.*']
    unless: ['\\d']
"""


@pytest.mark.parametrize(
    ("text", "tags"),
    [
        pytest.param("camping is fun", ["chat"], id="a-value-alone"),
        pytest.param("fun but i need water", [], id="an-unless-word"),
        pytest.param("we have food, great", [], id="an-unless-class-word"),
        pytest.param("ok, so nice", [], id="an-unless-pattern-with-no-word"),
        pytest.param("hello, i need water", ["chat"], id="another-rule-of-the-tag-holds"),
        pytest.param("fun and hello but i need it", ["chat"], id="the-other-rule-still-counts"),
        pytest.param("it is free", ["free"], id="whole-text-rule"),
        pytest.param("free for 2", [], id="whole-text-rule-unless"),
        pytest.param("needless to say, fun", ["chat"], id="unless-is-a-search-with-boundaries"),
    ],
)
def test_unless_keeps_a_rule_from_holding(tmp_path: Path, text: str, tags: list[str]) -> None:
    rules = load_rules(_write(tmp_path, UNLESS_RULES))
    assert rules.tags(["chat", "free"], text.split(), text) == tags
    # The same, rule by rule.
    by_rule = [
        t for t in ("chat", "free") if any(r.matches(text.split(), text) for r in rules.by_tag[t])
    ]
    assert by_rule == tags


@pytest.mark.parametrize(
    "text",
    ["great!", "great", "so great!", "great!\n", "Great!", "great, thanks.", "deal", "a deal", ""],
)
def test_whole_text_rules_guarded_by_their_words_agree_with_a_match(text: str) -> None:
    # A whole-text value is searched anchored at the start, and only where its words are.
    agree = RULES.by_tag["agree"]
    expected = any(rule.matches(text.split(), text) for rule in agree)
    assert RULES.has("agree", text.split(), text) == expected
