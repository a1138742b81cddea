"""The index of guarded patterns by the words they need (:class:`NeedIndex`): every
pattern that matches a text is among its candidates, and the chunk cache stays bounded."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from actparse.engine import prefilter
from actparse.engine.prefilter import NeedIndex
from actparse.engine.rulefiles import shipped
from actparse.engine.tags import load_rules

WORDS = ["not", "work", "works", "good", "Deal", "no", "NO", "?", "thank", "you", "bye"]
WORDS += ["food", "water", "kids", "FIRE", "camping", "sorry", "well", "i", "a"]
WORDS += ["need", "we", "my", "fair", "trade", "how", "are", "what", "your", "already", "have"]
# Words that hold a shorter rule word inside or beside punctuation: the index files words
# with their boundaries ("he" as a word is not in "the", but is in "he's" and "(he)").
WORDS += ["the", "he", "he's", "(he)", "she,", "her", "nothing", "hope", "too", "on", "ok,"]
SHIPPED = {name: load_rules(shipped(name, "tags.yaml")) for name in ("dealornodeal", "casino")}
SHIPPED["strategies"] = load_rules(shipped("strategies.yaml"))


def _guarded(name: str) -> list[tuple[tuple[tuple[str, ...], ...], bool, object, bool]]:
    """The guarded patterns of a shipped rule set, in the order of their ids."""
    matchers = SHIPPED[name]._matchers  # the index is what is tested
    return [g for _tag, m in matchers for g in m.guarded]


def test_candidates_are_the_patterns_whose_words_a_chunk_holds() -> None:
    index = NeedIndex(
        [
            ((("not ",), ("work",)), False),  # both needed: "not" and "work"
            ((("have a good day", "bye"),), False),  # "have a good day" -> "have"
            ((("sorry",),), True),  # ignores case: compared with the lowercased text
            (((" ",),), False),  # nothing but whitespace: a candidate for every text
        ]
    )
    assert index.candidates("that does not work") == {0, 3}
    assert index.candidates("i have to go, bye!") == {1, 3}
    assert index.candidates("SORRY about that") == {2, 3}
    assert index.candidates("Sorry") == {2, 3}
    assert index.candidates("") == {3}
    assert 0 not in index.candidates("homework")  # no "not"
    # A candidate need not match: the caller still tests the needs and the pattern.
    assert 0 in index.candidates("homework is not fun")
    # Needs of words without whitespace ("sorry") are proven by candidacy; "not " and
    # "have a good day" are not.
    assert index.proven_mask == 0b100
    # A pattern with several groups is a candidate only where the text touches them all.
    assert index.candidate_mask("it does not") & 1 == 0
    assert index.candidate_mask("it does not work") & 1 == 1


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(WORDS),
        max_size=12,
    ),
    st.sampled_from([" ", "  ", "\t", "\u00a0", "\u2028", ""]),
    st.sampled_from(list(SHIPPED)),
)
def test_every_matching_pattern_is_a_candidate(words: list[str], sep: str, name: str) -> None:
    text = sep.join(words)
    guarded = _guarded(name)
    index = NeedIndex([(needs, ignore_case) for needs, ignore_case, _, _ in guarded])
    candidates = index.candidates(text)
    for k, (_needs, _ignore_case, pattern, exact) in enumerate(guarded):
        matches = bool(pattern.search(text))  # type: ignore[attr-defined]
        if matches:
            assert k in candidates, (text, pattern)
        if exact:  # words between boundaries: a candidate exactly where it matches
            assert (k in candidates) == matches, (text, pattern)


def test_words_are_filed_with_their_boundaries() -> None:
    b = prefilter.BOUNDARY
    index = NeedIndex(
        [
            (((f"{b}he{b}", f"{b}she{b}"),), False),  # \\b(he|she)\\b
            (((f"{b}good on",),), False),  # \\bgood on: "good" ends its chunk
            ((("you too" + b,),), False),  # you too\\b: "too" starts a chunk, ends a word
        ]
    )
    assert index.candidates("the other") == set()
    assert index.candidates("he's here") == {0}
    assert index.candidates("ask (she) now") == {0}
    assert index.candidates("she_ is") == set()  # "_" is a word character
    assert index.candidates("goodness on me") == set()
    assert index.candidates("good on water") == {1}
    assert index.candidates("so good on") == {1}  # the chunk "on" is not filed
    assert index.candidates("you tool") == set()
    assert index.candidates("and you too!") == {2}
    # The needs, plain, still hold in every candidate: they are proven.
    assert index.proven_mask & 1


def test_the_chunk_cache_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prefilter, "_CHUNK_CACHE_SIZE", 4)
    index = NeedIndex([((("deal",),), False), ((("food",),), True)])
    texts = [f"word{k} deal FOOD other{k}" for k in range(10)]
    for text in texts * 2:
        assert index.candidates(text) == {0, 1}
        assert len(index._table) <= 4
        assert len(index._table._masks) <= 4  # the shared masks go with the chunks


def test_equal_chunk_masks_are_one_object() -> None:
    # Masks past CPython's small integers, which would be one object anyway.
    words = [f"w{k}" for k in range(300)] + ["deal"]
    index = NeedIndex([(((w,),), False) for w in words])
    assert index.candidates("deal, deal! w7") == {300, 7}
    table = index._table
    assert table["deal,"] == table["deal!"] > 1 << 256
    assert table["deal,"] is table["deal!"]
    assert table["w7"] != table["deal,"]


def test_the_chunk_cache_keeps_no_long_chunk() -> None:
    # Keyed by the chunk, 65,536 entries of 1 MB unbroken strings held 64 GB at most.
    index = NeedIndex([((("deal",),), False)])
    long = "x" * 10_000 + "deal"
    assert index.candidates(f"{long} ok") == {0}
    assert index.candidates(f"{long} ok") == {0}
    assert set(index._table) == {"ok"}
