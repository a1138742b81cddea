"""Patterns taken apart (:mod:`actparse.engine.patternparts`): every part-wise answer is
the whole pattern's."""

from __future__ import annotations

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from actparse.engine.patternparts import OrderedSearch, ordered_search, top_alternatives
from actparse.engine.rulefiles import shipped
from actparse.engine.tagmatch import BASE_FLAGS
from actparse.engine.tags import load_rules

STRATEGIES = load_rules(shipped("strategies.yaml"))


@pytest.mark.parametrize(
    ("pattern", "alternatives"),
    [
        pytest.param(r"\bok\b|\bfine\b", [r"\bok\b", r"\bfine\b"], id="two-at-the-top"),
        pytest.param(r"a(b|c)d", [r"a(b|c)d"], id="a-bar-in-a-group-is-no-cut"),
        pytest.param(r"a|(b|c)", ["a", "(b|c)"], id="groups-kept-whole"),
        pytest.param(r"[|]x|y", ["[|]x", "y"], id="a-bar-in-a-class-is-no-cut"),
        pytest.param(r"[]|]x|y", ["[]|]x", "y"], id="a-leading-bracket-is-a-member"),
        pytest.param(r"\|x|y", [r"\|x", "y"], id="an-escaped-bar-is-no-cut"),
        pytest.param(r"(a)\1|b", [r"(a)\1|b"], id="a-back-reference-keeps-it-whole"),
        pytest.param(r"(?i)a|b", [r"(?i)a|b"], id="a-global-flag-keeps-it-whole"),
        pytest.param(r"^a|b$", ["^a", "b$"], id="anchors-stay-with-their-alternative"),
        pytest.param("(?x: a # no ) here\n| b)", ["(?x: a # no ) here\n| b)"], id="verbose"),
        pytest.param(r"(?#a|b)c|d", [r"(?#a|b)c|d"], id="a-comment-keeps-it-whole"),
        pytest.param("plain", ["plain"], id="no-alternative"),
    ],
)
def test_top_alternatives(pattern: str, alternatives: list[str]) -> None:
    assert top_alternatives(pattern) == alternatives


@pytest.mark.parametrize(
    "pattern",
    [
        pytest.param(r"(?>.*?a)(?>.*?b)", id="no-start-anchor"),
        pytest.param(r"^(?>a)(?>.*?b)", id="a-group-without-lazy-any"),
        pytest.param(r"^(?>.*?(a))(?>.*?\1)", id="a-reference-across-parts"),
        pytest.param(r"^(?>.*?a", id="unclosed"),
        pytest.param(r"^a.*?b", id="no-atomic-group"),
        # The lazy ".*?" is the first alternative's only: "b" must match where it starts.
        pytest.param(r"^(?>.*?a|b)c", id="a-bar-in-a-part"),
        pytest.param(r"^(?>.*?a)(?>.*?b)c|d", id="a-bar-at-the-top"),
        pytest.param(r"^(?>.*?(?x: a # ) )(?>.*?b)", id="verbose"),
    ],
)
def test_only_words_in_order_are_chained(pattern: str) -> None:
    assert ordered_search(pattern, BASE_FLAGS) is None


def test_the_parts_and_the_tail() -> None:
    chain = ordered_search(r"^(?>.*?\bwhat\b)(?>.*?\byou\b).*\?", BASE_FLAGS)
    assert chain is not None
    assert [p.pattern for p in chain.parts] == [r"\bwhat\b", r"\byou\b"]
    assert chain.tail is not None and chain.tail.pattern == r".*\?"
    assert chain.search("so what do you need?")
    assert not chain.search("so what do you need")
    assert not chain.search("you know what?")  # "you" must come after "what"
    # "." does not cross a line break, so "you" on the next line is out of reach.
    assert not chain.search("what\ndo you need?")
    assert chain.search("what do you\nneed?") is False  # nor the question mark


#: Every shipped pattern that is searched as a chain.
CHAINS = [
    p
    for _tag, m in STRATEGIES._matchers
    for _needs, _case, p, _exact in m.guarded
    if isinstance(p, OrderedSearch)
]

WORDS = ["i", "we", "need", "because", "for", "my", "kids", "what", "you", "your", "is"]
WORDS += ["they", "eat", "camping", "fun", "near", "the", "lake", "water", "would", "be"]
WORDS += ["willing", "to", "hope", "well", "do", "want", "?", "how", "about", "trip", "so"]


def test_the_strategy_rules_have_chains() -> None:
    assert len(CHAINS) >= 10


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(WORDS), max_size=14),
    st.sampled_from([" ", "\n", " \n ", "\r", "\u2028", ", "]),
    st.sampled_from(range(len(CHAINS))),
)
def test_a_chain_answers_as_its_pattern(words: list[str], sep: str, k: int) -> None:
    chain = CHAINS[k]
    for text in (sep.join(words), " ".join(words) + sep + " ".join(reversed(words))):
        assert chain.search(text) == bool(chain.pattern.search(text)), (text, chain)


#: Pieces of pattern for chains made at random: words, boundaries, lookarounds, bars,
#: groups, anchors and quantifiers.
ATOMS = ["a", "b", "ab", r"\b", r"\B", "(?<=a)", "(?<!b)", "(?=b)", "|", "(a|b)", "$", r"\Z"]
ATOMS += ["a+?", "b*", "[ab]", "(?i:A)", r"\s", "^", "(?>a|ab)", "b{1,2}", "."]


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(ATOMS), min_size=1, max_size=4), min_size=1, max_size=3),
    st.lists(st.sampled_from(ATOMS), max_size=3),
    st.lists(st.text(alphabet="abAB \n\r.", max_size=12), min_size=1, max_size=8),
)
def test_any_chain_answers_as_its_pattern(
    parts: list[list[str]], tail: list[str], texts: list[str]
) -> None:
    pattern = "^" + "".join("(?>.*?" + "".join(p) + ")" for p in parts) + "".join(tail)
    chain = ordered_search(pattern, BASE_FLAGS)
    if chain is None:  # not a chain it can search apart (or no pattern at all)
        return
    for text in texts:
        assert chain.search(text) == bool(chain.pattern.search(text)), (pattern, text)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(ATOMS), max_size=4), min_size=1, max_size=4),
    st.lists(st.text(alphabet="abAB \n.", max_size=12), min_size=1, max_size=8),
)
def test_alternatives_apart_answer_as_the_whole(
    alternatives: list[list[str]], texts: list[str]
) -> None:
    pattern = "|".join("".join(a) for a in alternatives)
    pieces = top_alternatives(pattern)
    if len(pieces) == 1:
        return
    whole = regex.compile(pattern, BASE_FLAGS)
    apart = [regex.compile(p, BASE_FLAGS) for p in pieces]
    for text in texts:
        expected = bool(whole.search(text))
        assert any(p.search(text) for p in apart) == expected, (pattern, pieces, text)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=14), st.sampled_from([" ", "\n", ", "]))
def test_strategies_as_rule_by_rule(words: list[str], sep: str) -> None:
    # Alternatives apart and chains give each label exactly when one of its rules holds.
    text = " " + sep.join(words)
    expected = [
        tag
        for tag in STRATEGIES.by_tag
        if any(rule.matches((), text) for rule in STRATEGIES.by_tag[tag])
    ]
    assert STRATEGIES.tags(tuple(STRATEGIES.by_tag), (), text) == expected


def test_a_chain_takes_a_timeout() -> None:
    # Long texts are searched under a time limit (engine/guard.py), part by part too.
    chain = ordered_search(r"^(?>.*?a)(?>.*?b)", BASE_FLAGS)
    assert chain is not None
    text = "x " * 600 + "a b"
    assert chain.search(text, timeout=2.0) is chain.search(text) is True
    assert chain.search(text[::-1], timeout=2.0) is False
