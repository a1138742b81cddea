"""What single words tell the split scans (actparse.corpora.splits.words): the pronoun
classes the scans test instead of calling person(), the tables kept per lexicon, and the
word classes shared by the steps that read one message."""

from __future__ import annotations

import dataclasses
import gc

import pytest

from actparse.corpora.splits import words
from actparse.corpora.splits.lexicon import SplitLexicon, load_split_lexicon
from actparse.corpora.splits.words import (
    PRONOUNS,
    SUBJECT_PRONOUNS,
    message_classes,
    per_lexicon,
    person,
)

LEXICONS = [load_split_lexicon("dealornodeal"), load_split_lexicon("casino")]


def _vocabulary(lexicon: SplitLexicon) -> list[str]:
    return sorted({*lexicon.classes, *lexicon.item_words, *lexicon.numbers, "", "2", "zzz"})


@pytest.mark.parametrize("lexicon", LEXICONS, ids=lambda lex: lex.corpus)
def test_pronoun_classes_are_the_words_person_gives_a_side(lexicon: SplitLexicon) -> None:
    """The scans test a token's classes against PRONOUNS and SUBJECT_PRONOUNS where they
    once called person() with nothing after the token: the two must agree on every word."""
    for token in _vocabulary(lexicon):
        classes = lexicon.classes_of(token)
        as_object = person(token, lexicon, subject=False) is not None
        as_subject = person(token, lexicon, subject=True) is not None
        assert as_object == (not PRONOUNS.isdisjoint(classes)), token
        assert as_subject == (not SUBJECT_PRONOUNS.isdisjoint(classes)), token


def test_person_reads_the_words_after_me_and_we() -> None:
    lexicon = LEXICONS[0]
    assert person("me", lexicon, subject=True) is None
    assert person("me", lexicon, subject=True, nxt="2 hats") == 0
    assert person("we", lexicon, subject=True) == 0
    assert person("we", lexicon, subject=True, nxt="each get") is None


def _vowel_words(lexicon: SplitLexicon) -> frozenset[str]:
    return frozenset(word for word in lexicon.item_words if word[0] in "aeiou")


def test_a_lexicons_tables_are_built_once_and_go_with_it() -> None:
    shipped = LEXICONS[0]
    assert per_lexicon(shipped, _vowel_words) is per_lexicon(shipped, _vowel_words)
    before = len(words._TABLES)
    lexicon = dataclasses.replace(shipped, item_words={**shipped.item_words, "orb": 2})
    assert "orb" in per_lexicon(lexicon, _vowel_words)
    assert "orb" not in per_lexicon(shipped, _vowel_words)
    assert len(words._TABLES) == before + 1
    del lexicon
    gc.collect()
    assert len(words._TABLES) == before


def test_message_classes_are_the_lexicons_and_follow_the_message() -> None:
    dond, casino = LEXICONS
    tokens = ("i", "get", "the", "water", ",", "you", "the", "food")
    first = message_classes(tokens, dond)
    assert first == dond.token_classes(tokens)
    assert message_classes(tokens, dond) is first  # the next step on the same message
    assert message_classes(tokens, casino) == casino.token_classes(tokens)
    # An equal message is another message; a list may change between two steps.
    assert message_classes(tuple(list(tokens)), dond) == first
    changing = list(tokens)
    assert message_classes(changing, dond) == first
    changing[0] = "you"
    assert message_classes(changing, dond) == dond.token_classes(changing)
