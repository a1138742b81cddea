"""Tests for actparse.engine.tokenizer, Stanford Cocoa's tokenizer without NLTK.

Every expected value below was produced by the real pipeline it reimplements: NLTK
3.2.4's untrained ``PunktSentenceTokenizer`` plus its "improved" Treebank word
tokenizer, with Python 2 regex semantics, followed by Cocoa's ``stick_dollar_sign``.
These tests never import NLTK.
"""

from __future__ import annotations

import ast
import doctest
import time
from pathlib import Path
from types import ModuleType

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from actparse.engine import sentences, tokenizer
from actparse.engine.tokenizer import (
    is_number_token,
    split_sentences,
    stick_dollar_sign,
    tokenize,
    word_tokenize,
)

# (id, utterance, Cocoa's tokens)
TOKENIZE_CASES = [
    ("contraction-cant", "I can't do that", ["i", "ca", "n't", "do", "that"]),
    ("contraction-im", "i'm selling it", ["i", "'m", "selling", "it"]),
    ("contraction-gonna", "we're gonna need it", ["we", "'re", "gon", "na", "need", "it"]),
    ("contraction-cannot", "i cannot go lower", ["i", "can", "not", "go", "lower"]),
    ("contraction-wanna", "i wanna go", ["i", "wan", "na", "go"]),
    (
        "contraction-gimme-lemme",
        "gimme a sec, lemme check",
        ["gim", "me", "a", "sec", ",", "lem", "me", "check"],
    ),
    ("contraction-tis", "'tis fine", ["'t", "is", "fine"]),
    (
        "clitics",
        "i'd say you'll like it, they've got it",
        ["i", "'d", "say", "you", "'ll", "like", "it", ",", "they", "'ve", "got", "it"],
    ),
    ("dollar-before", "$100", ["$100"]),
    ("dollar-after", "i'll pay 100$", ["i", "'ll", "pay", "100$"]),
    ("dollar-spaced-thousands", "how about $ 1,000?", ["how", "about", "$1,000", "?"]),
    ("dollar-cents-final-period", "i can do $1,500.00.", ["i", "can", "do", "$1,500.00", "."]),
    ("dollar-alone", "the $ sign", ["the", "$", "sign"]),
    ("dollar-then-number-then-dollar", "5 $ $ 5", ["5$", "$5"]),
    ("number-k", "it's 1.5k", ["it", "'s", "1.5k"]),
    ("number-decimal", "10.5 or 7,5", ["10.5", "or", "7,5"]),
    ("dots-two", "hi..there", ["hi", "...", "there"]),
    ("dots-four", "ok.... fine", ["ok", "...", "fine"]),
    (
        "dots-ellipsis-midsentence",
        "well... i don't know",
        ["well", "...", "i", "do", "n't", "know"],
    ),
    ("slashes-and-gt", "a\\b>c/d", ["a", "b", "c", "d"]),
    ("sentence-final-period", "it is there. i think", ["it", "is", "there", ".", "i", "think"]),
    ("period-inside-token", "see you there.bye", ["see", "you", "there.bye"]),
    (
        "number-period-then-lowercase",
        "i paid 5. then i left",
        ["i", "paid", "5.", "then", "i", "left"],
    ),
    ("number-period-then-number", "i paid 5. 10 more", ["i", "paid", "5", ".", "10", "more"]),
    (
        "word-period-then-number",
        "it's in good shape. 200 is my price",
        ["it", "'s", "in", "good", "shape", ".", "200", "is", "my", "price"],
    ),
    ("initial", "j. smith is here", ["j.", "smith", "is", "here"]),
    ("abbreviation-splits-untrained", "mr. smith", ["mr", ".", "smith"]),
    ("eg", "e.g. this one", ["e.g", ".", "this", "one"]),
    ("question-exclamation", "really?! no way!", ["really", "?", "!", "no", "way", "!"]),
    ("two-questions", "what? why?", ["what", "?", "why", "?"]),
    ("double-quotes", '"hello" he said', ["``", "hello", "''", "he", "said"]),
    ("double-quotes-inner", 'he said "no way" ok', ["he", "said", "``", "no", "way", "''", "ok"]),
    ("unicode-double-quotes", "“nice” bike", ["“", "nice", "”", "bike"]),
    ("unicode-apostrophe", "it\u2019s fine", ["it", "\u2019", "s", "fine"]),
    ("guillemets", "«bonjour»", ["«", "bonjour", "»"]),
    ("quote-my", "'my bike'", ["'my", "bike", "'"]),
    ("quote-95", "back in '95", ["back", "in", "'95"]),
    ("asterisks", "*word*", ["*word*"]),
    ("parentheses", "(firm) price", ["(", "firm", ")", "price"]),
    ("brackets-braces", "[obo] {new}", ["[", "obo", "]", "{", "new", "}"]),
    ("realign-closing-paren", "(it works.) great.", ["(", "it", "works", ".", ")", "great", "."]),
    ("double-dash", "ok -- fine", ["ok", "--", "fine"]),
    (
        "symbols",
        "50% off & more; email me@x.com #1",
        ["50", "%", "off", "&", "more", ";", "email", "me", "@", "x.com", "#", "1"],
    ),
    ("colon-comma", "price: 100, ok 1,000", ["price", ":", "100", ",", "ok", "1,000"]),
    ("trailing-comma", "yes,", ["yes", ","]),
    ("newlines", "ok.\n\nnext line.\nthird", ["ok", ".", "next", "line", ".", "third"]),
    ("uppercase", "I'M HERE!", ["i", "'m", "here", "!"]),
    ("non-breaking-space-dollar", "100\xa0$", ["100$"]),
    ("unicode-letters", "café, naïve", ["café", ",", "naïve"]),
    ("empty", "", []),
    ("whitespace-only", "   \n\t ", []),
    ("single-period", ".", ["."]),
    ("lone-quote", "'", ["'"]),
]


@pytest.mark.parametrize(
    ("text", "expected"),
    [(text, expected) for _, text, expected in TOKENIZE_CASES],
    ids=[case_id for case_id, _, _ in TOKENIZE_CASES],
)
def test_tokenize_matches_cocoa(text: str, expected: list[str]) -> None:
    assert tokenize(text) == expected


# (id, text, sentences from the untrained Punkt).  Not lowercased: the uppercase
# rules ("J. Bach") only show on raw text.
SENTENCE_CASES = [
    (
        "initial-before-capital",
        "J. Bach was here. Then he left.",
        ["J. Bach was here.", "Then he left."],
    ),
    ("number-before-capital", "I paid 5. Then I left", ["I paid 5.", "Then I left"]),
    ("number-before-lowercase", "I paid 5. then I left", ["I paid 5. then I left"]),
    ("realign", "(Sent1.) Sent2.", ["(Sent1.)", "Sent2."]),
    ("punctuation-after-bang", "hi!(yes) ok", ["hi!", "(yes) ok"]),
    ("ellipsis", "wait... what", ["wait... what"]),
    ("spaced-ellipsis", "wait . . . what", ["wait .", ".", ".", "what"]),
    ("trailing-space", "one. two.  ", ["one.", "two."]),
    ("quote-after-period", 'he said "stop." then left', ['he said "stop."', "then left"]),
    ("newline-break", "first.\nsecond", ["first.", "second"]),
    ("empty", "", []),
    ("whitespace", " \t\n", []),
]


@pytest.mark.parametrize(
    ("text", "expected"),
    [(text, expected) for _, text, expected in SENTENCE_CASES],
    ids=[case_id for case_id, _, _ in SENTENCE_CASES],
)
def test_split_sentences(text: str, expected: list[str]) -> None:
    assert split_sentences(text) == expected


def test_word_tokenize_is_sentences_then_treebank() -> None:
    # No lowercasing, dot or slash normalisation, nor dollar sticking here.
    assert word_tokenize("It costs $5. Then..ok/no") == [
        "It",
        "costs",
        "$",
        "5",
        ".",
        "Then..ok/no",
    ]


# (tokens, Cocoa's stick_dollar_sign(tokens))
DOLLAR_CASES = [
    (["$", "100"], ["$100"]),
    (["100", "$"], ["100$"]),
    (["$"], ["$"]),
    (["$", "a"], ["$", "a"]),
    (["$", "5", "$"], ["$5$"]),
    (["5", "$", "$"], ["5$", "$"]),
    (["$", "$", "5"], ["$", "$5"]),
    ([".5", "$"], [".5$"]),
    ([], []),
    (["a", "$", ","], ["a", "$,"]),
]


@pytest.mark.parametrize(
    ("tokens", "expected"),
    DOLLAR_CASES,
    ids=[" ".join(tokens) or "empty" for tokens, _ in DOLLAR_CASES],
)
def test_stick_dollar_sign(tokens: list[str], expected: list[str]) -> None:
    original = list(tokens)
    assert stick_dollar_sign(tokens) == expected
    assert tokens == original  # the input list is left alone


def test_stick_dollar_sign_looks_at_the_previous_input_token() -> None:
    # Cocoa checks tokens[i - 1], not the last output token: "5" was merged into
    # "$5", yet the next "$" still sticks to it.
    assert stick_dollar_sign(["$", "5", "$"]) == ["$5$"]
    # ...and "5$" is a number token, but the "$" before the second "$" is not.
    assert stick_dollar_sign(["5", "$", "$"]) == ["5$", "$"]


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("100", True),
        ("1,000", True),
        (".5", True),
        (",", True),
        ("1.5k", True),
        ("5$", True),
        ("$5", False),
        ("a1", False),
        ("-5", False),
        ("", False),
    ],
)
def test_is_number_token(token: str, expected: bool) -> None:
    assert is_number_token(token) is expected


def test_whitespace_class_is_exactly_str_isspace() -> None:
    # NLTK's re.UNICODE patterns use Python's notion of whitespace, which the
    # regex module's \s does not share (U+001C..U+001F); the module spells it out.
    every_char = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000)
    expected = [c for c in every_char if c.isspace()]
    assert regex.findall(sentences._SPACE, every_char) == expected


def test_python2_ascii_semantics() -> None:
    # Python 2's non-Unicode \\b: "é" is no word character, so the "cannot" after
    # it is a word of its own for the contraction rules.
    assert tokenize("écannot") == ["é", "can", "not"]
    # Non-Unicode \\d: an Arabic-Indic digit after a comma is no digit for
    # "([:,])([^\\d])", so the comma is split off, unlike before an ASCII digit.
    assert tokenize("1,٣") == ["1", ",", "٣"]
    assert tokenize("1,3") == ["1,3"]
    # Punkt's numeric test is ASCII too: "٣." is not a number, so it is a break.
    assert split_sentences("٣. x") == ["٣.", "x"]
    assert split_sentences("3. x") == ["3. x"]


def test_long_inputs_take_linear_time() -> None:
    # Punkt's own period-context regex backtracks quadratically on these.
    texts = ["a" * 50_000 + ".", "a." * 25_000, "5." + " " * 50_000 + "b", "x" * 50_000 + "?y"]
    start = time.perf_counter()
    for text in texts:
        tokenize(text)
    assert time.perf_counter() - start < 5.0


def test_docstring_examples() -> None:
    assert doctest.testmod(tokenizer).failed == 0


@pytest.mark.parametrize("module", [tokenizer, sentences], ids=["tokenizer", "sentences"])
def test_module_imports_only_regex(module: ModuleType) -> None:
    assert module.__file__ is not None
    source = Path(module.__file__).read_text(encoding="utf-8")
    imported: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
    # The standard library's itertools, regex, and our own: never NLTK.
    allowed = {
        "__future__",
        "itertools",
        "regex",
        "actparse.engine.guard",
        "actparse.engine.sentences",
    }
    assert imported <= allowed


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab.İΣς$5 /\\>\"'")), max_size=40))
def test_alignment_normalizes_as_the_tokenizer_does(text: str) -> None:
    """The alignment's normalized text is the tokenizer's, whatever the text: the two
    read the same characters (slashes, dot runs, lowercase that changes length)."""
    from actparse.engine.alignment import _normalized_with_origins

    assert _normalized_with_origins(text)[0] == tokenizer._normalize(text)


# Pieces that exercise every Treebank rule at a chunk's edges: quotes, clitics,
# contractions, final periods and closers, commas before digits, brackets, dashes.
_PIECES = [
    "a",
    "Ab",
    "5",
    "1,000",
    "can",
    "not",
    "cannot",
    "CanNot",
    "wanna",
    "gonna",
    "'tis",
    "'twas",
    "'t",
    "is",
    "d'ye",
    "mor'n",
    "it's",
    "I'M",
    "don't",
    "they'll",
    "'",
    "''",
    '"',
    '"hi',
    'hi"',
    "``",
    "`",
    ".",
    "..",
    "...",
    "mr.",
    "5.",
    "end.",
    ".'",
    '."',
    ".)",
    ")",
    "(",
    "[x]",
    "{",
    "}",
    "<",
    ">",
    ",",
    ":",
    ";",
    "a,b",
    "a,5",
    "x:",
    "?",
    "!",
    "?!",
    "--",
    "a--b",
    "$",
    "$5",
    "5$",
    "%",
    "&",
    "@",
    "#",
    "'s",
    "'S",
    "n't",
    "N'T",
    "'ll",
    "'re",
    "'ve",
    "'d",
    "'m",
    "]",
    "'.",
    "a'",
    "'a",
    "\u2019s",
    "\u201chi",
    "caf\u00e9.",
]


def _agrees_chunk_by_chunk(text: str) -> None:
    assert tokenizer._treebank_tokenize(text) == tokenizer._treebank_rules(text), text
    # And with the chunk caches warm (a cached chunk gives what it gave the first time).
    assert tokenizer._treebank_tokenize(text) == tokenizer._treebank_rules(text), text


@settings(max_examples=3000, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(_PIECES), st.sampled_from([" ", " ", " ", " ", "", "  ", "\t"])),
        min_size=1,
        max_size=8,
    )
)
def test_chunk_by_chunk_is_the_rules_on_the_whole_sentence(parts: list[tuple[str, str]]) -> None:
    text = "".join(piece + sep for piece, sep in parts)
    _agrees_chunk_by_chunk(text)
    _agrees_chunk_by_chunk(text[: -len(parts[-1][1]) or None])  # no separator at the end


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("end. '", id="final-period-before-a-closing-chunk"),
        pytest.param("hi there. ')", id="final-period-before-closers"),
        pytest.param('"so" he said .', id="opening-quote"),
        pytest.param('"" a', id="two-quotes-opening-a-sentence"),
        pytest.param("i cannot , 5 , wanna", id="contractions-and-commas"),
        pytest.param("mr. smith can't go.", id="inner-period-kept"),
    ],
)
def test_chunk_by_chunk_edge_cases(text: str) -> None:
    _agrees_chunk_by_chunk(text)
