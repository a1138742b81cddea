"""The words a pattern cannot match without: what :func:`required_literals` finds, and
that the tag matcher built on it answers exactly as the rules do one by one."""

from __future__ import annotations

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from actparse.engine.prefilter import BOUNDARY, required_literals, strip_boundaries
from actparse.engine.rulefiles import shipped
from actparse.engine.tags import Rule, RuleSet, load_rules

SHIPPED = {
    name: load_rules(shipped(name, "tags.yaml"))
    for name in ("craigslist", "mutualfriends", "dealornodeal", "casino")
}
SHIPPED["strategies"] = load_rules(shipped("strategies.yaml"))
FLAGS = regex.VERSION0 | regex.ASCII


@pytest.mark.parametrize(
    ("pattern", "required"),
    [
        pytest.param("come down", (("come down",),), id="literal"),
        pytest.param(r"\bno deal\b", (("no deal",),), id="word-boundaries"),
        pytest.param(
            r"\bnot (going to )?work\b", (("work",), ("not ",)), id="optional-group-splits"
        ),
        pytest.param(
            r"(sounds|looks) (good|fine)",
            (
                ("looks", "sounds"),
                ("fine", "good"),
                ("looks fine", "looks good", "sounds fine", "sounds good"),
            ),
            id="alternations",
        ),
        pytest.param(r"\b(need|needs)\b", (("need",),), id="contained-strings-merge"),
        pytest.param(r"\band you\s*\?", (("and you",), ("?",)), id="punctuation-kept"),
        pytest.param(r"(ab)+c", (("ab",),), id="repeat-at-least-once"),
        pytest.param(r"(ab)*", (), id="repeat-maybe-never"),
        pytest.param(r"a|\w+", (), id="alternative-without-words"),
        pytest.param(r"\w+ [a-z]", (), id="classes"),
        pytest.param("(?i)hello", (), id="global-flag"),
        pytest.param("(?i:hello) there", (), id="scoped-flag"),
        pytest.param(r"(hello){e<=1}", (), id="regex-fuzzy-syntax"),
        pytest.param(r"[[:alpha:]]+ing", (), id="posix-class"),
        pytest.param(r"\p{Lu}ello", (), id="regex-only-escape"),
        pytest.param("", (), id="empty"),
    ],
)
def test_required_literals(pattern: str, required: tuple[tuple[str, ...], ...]) -> None:
    assert required_literals(pattern) == required


B = BOUNDARY


@pytest.mark.parametrize(
    ("pattern", "required"),
    [
        pytest.param(r"\bnot\b", ((f"{B}not{B}",),), id="a-word"),
        pytest.param(r"\bno deal", ((f"{B}no deal",),), id="left-only"),
        pytest.param(r"\b(he|she)\b", (("he",), (f"{B}he{B}", f"{B}she{B}")), id="alternatives"),
        pytest.param(r"\bi\b \bneed\b", ((f"{B}i need{B}",),), id="inner-marks-dropped"),
        pytest.param(r"\b\bok\b\b", ((f"{B}ok{B}",),), id="repeated-marks-once"),
        pytest.param(r"\b", (), id="nothing-but-a-boundary"),
        pytest.param(r"\Bing\b", ((f"ing{B}",),), id="non-boundary-is-no-mark"),
        pytest.param(f"{B}ok", (), id="a-pattern-holding-the-mark"),
    ],
)
def test_required_literals_with_bounds(pattern: str, required: tuple[tuple[str, ...], ...]) -> None:
    found = required_literals(pattern, bounds=True)
    assert found == required
    # Plain, they are what the analysis without bounds finds, up to order.
    assert {frozenset(g) for g in strip_boundaries(found)} <= {
        frozenset(g) for g in required_literals(pattern)
    } | {frozenset({"he", "she"})}


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="abhenotsw' ?.", max_size=20))
def test_a_bounded_word_stands_at_a_boundary_in_every_match(text: str) -> None:
    def _stands(core: str, left: bool, right: bool) -> bool:
        return bool(
            regex.search(
                (r"\b" if left else "") + regex.escape(core) + (r"\b" if right else ""),
                text,
                FLAGS,
            )
        )

    for pattern in (r"\bnot\b", r"\b(he|she)\b", r"\bno\b \?", r"\Bs\b", r"a\bw"):
        if regex.search(pattern, text, FLAGS):
            for need in required_literals(pattern, bounds=True):
                assert any(_stands(w.strip(B), w.startswith(B), w.endswith(B)) for w in need), (
                    pattern
                )


def test_case_folded_patterns_keep_ascii_words_only() -> None:
    assert required_literals("caf\u00e9 (now|then)", ascii_only=True) == (("now", "then"),)
    assert ("caf\u00e9 ",) in required_literals("caf\u00e9 (now|then)")


def _rule_by_rule(rules: RuleSet, tag: str, tokens: list[str], text: str) -> bool:
    return any(rule.matches(tokens, text) for rule in rules.by_tag[tag])


def _agrees(rules: RuleSet, text: str) -> None:
    tokens = text.split()
    wanted = list(rules.by_tag)
    expected = [tag for tag in wanted if _rule_by_rule(rules, tag, tokens, text)]
    assert rules.tags(wanted, tokens, text) == expected, text
    assert [t for t in wanted if rules.has(t, tokens, text)] == expected, text


@pytest.mark.parametrize("name", list(SHIPPED))
def test_matcher_agrees_with_the_rules_on_their_examples(name: str) -> None:
    rules = SHIPPED[name]
    for rule in rules.rules:
        for text in (*rule.examples, *rule.counterexamples):
            for variant in (text, text.lower(), text.upper()):
                _agrees(rules, variant)


def _pieces() -> list[str]:
    """Words of the shipped patterns' requirements, to build texts that come close."""
    words = {"?", ".", "!", ",", "you", "i", "we"}
    for rules in SHIPPED.values():
        for rule in rules.rules:
            if rule.match.startswith("text-"):
                for value in rule.values:
                    for need in required_literals(value):
                        words.update(need)
    return sorted(words)


#: Separators str.split() takes for whitespace and the rules' \s (ASCII) does not, or
#: none at all; and letters whose Unicode case folds onto ASCII ones (Kelvin sign, long
#: s, dotted capital I), which the rules' ASCII case folding must leave apart.
SEPARATORS = (" ", "", "\t", "\n", "\u00a0", "\u2028", "\x1c", "\u3000", "\x85")
LOOKALIKES = str.maketrans({"k": "\u212a", "s": "\u017f", "i": "\u0130"})


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(_pieces()), max_size=12),
    st.sampled_from(list(SHIPPED)),
    st.sampled_from(SEPARATORS),
)
def test_matcher_agrees_with_the_rules_on_near_misses(
    words: list[str], name: str, separator: str
) -> None:
    text = separator.join(words)
    for variant in (text, text.upper(), text.translate(LOOKALIKES), "", separator):
        _agrees(SHIPPED[name], variant)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="abcnotwrk ?.!{}", max_size=20))
def test_a_required_word_is_in_every_match(text: str) -> None:
    for pattern in (r"\bnot (going to )?work\b", r"(ab)+c", r"\ba[bc]*\b \?", "no{1,2}t"):
        needs = required_literals(pattern)
        if regex.search(pattern, text, FLAGS):
            assert all(any(word in text for word in need) for need in needs), pattern


@pytest.mark.parametrize("kind", ["text-search", "text-whole"])
@pytest.mark.parametrize(
    ("first", "second"),
    [
        pytest.param(r"(a)\1", r"(b)\1", id="numbered"),
        pytest.param(r"(?P<x>a)(?P=x)", r"(?P<x>b)(?P=x)", id="named"),
        pytest.param(r"(a)?(?(1)a|c)", r"(b)?(?(1)b|d)", id="conditional"),
    ],
)
def test_patterns_that_refer_to_their_groups_agree_too(kind: str, first: str, second: str) -> None:
    # Folded into one alternation, the second pattern's \1 would name the first one's group.
    rules = RuleSet(
        [
            Rule(name="first", tag="t", match=kind, values=(first,)),
            Rule(name="second", tag="t", match=kind, values=(second,)),
        ]
    )
    for text in ("aa", "bb", "ab", "c", "d", "x bb"):
        _agrees(rules, text)
