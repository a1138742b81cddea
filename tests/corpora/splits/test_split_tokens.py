"""The split tokenizer's expansion table (one lookup per word) gives what expanding
each word does, and words it leaves out expand to themselves."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from actparse.corpora.splits import tokens as split_tokens
from actparse.corpora.splits import words as split_words
from actparse.corpora.splits.lexicon import SplitLexicon, load_split_lexicon
from actparse.corpora.splits.tokens import _expand, _expansions, tokenize

CORPORA = ("dealornodeal", "casino")


@pytest.mark.parametrize("corpus", CORPORA)
def test_the_table_holds_what_expanding_gives(corpus: str) -> None:
    lexicon = load_split_lexicon(corpus)
    table = _expansions(lexicon)
    assert table["couldnt"] == ("could", "not")
    for word, parts in table.items():
        assert parts == tuple(_expand(word, lexicon)) != (word,)
        assert "'" not in word and not word.isspace()


@pytest.mark.parametrize("corpus", CORPORA)
def test_words_left_out_expand_to_themselves(corpus: str) -> None:
    lexicon = load_split_lexicon(corpus)
    table = _expansions(lexicon)
    words = set(lexicon.contractions) | set(lexicon.item_words) | set(lexicon.numbers)
    for members in lexicon.words.values():
        words |= members
    words |= {w + suffix for w in set(words) for suffix in ("nt", "ent", "t", "s")}
    for word in words:
        if "'" not in word and word not in table:
            assert tuple(_expand(word, lexicon)) == (word,), word


def _reference(text: str, lexicon: SplitLexicon) -> tuple[str, ...]:
    """Tokenizing word by word with no table and no shortcut (as before the table)."""
    m = split_tokens
    out: list[str] = []
    for token in m._TOKEN.findall(text.lower().translate(m._APOSTROPHES)):
        if token.isspace():
            continue
        clitic = m._CLITICS.get(token)
        if clitic is not None and token != "s" and m._stray_apostrophe(out):
            while out[-1] in m._STRAY:
                out.pop()
            out.append(clitic)
            continue
        out.extend(_expand(token, lexicon))
    typos = m._typos(lexicon)
    out = [part for t in out for part in typos.get(t, (t,))]
    joined: list[str] = []
    i = 0
    while i < len(out):
        for words, replacement in lexicon.phrases.get(out[i], ()):
            if tuple(out[i : i + len(words)]) == words:
                joined.append(replacement)
                i += len(words)
                break
        else:
            joined.append(out[i])
            i += 1
    return tuple(joined)


WORDS = ["couldnt", "wouldent", "cant", "dont", "i'll", "i", "ll", "d", "s", ";", "'", "the"]
WORDS += ["ball", "baall", "theball", "everything", "else", "in", "exchange", "for", "x\u2028"]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(WORDS), max_size=12),
    st.sampled_from([" ", "", " ; "]),
    st.sampled_from(CORPORA),
)
def test_tokens_are_those_of_tokenizing_word_by_word(
    words: list[str], sep: str, corpus: str
) -> None:
    lexicon = load_split_lexicon(corpus)
    text = sep.join(words)
    assert tokenize(text, lexicon) == _reference(text, lexicon)


def test_a_lexicons_tables_go_with_it() -> None:
    """Tables are kept per lexicon while it lives: a lexicon built and dropped (by a test,
    a plug-in) leaves nothing behind, and a new lexicon never gets another's table."""
    import dataclasses
    import gc

    shipped = load_split_lexicon("dealornodeal")
    # The shipped lexicon's own tables are built on its first use, which may be here.
    tokenize("gimmeh the ball", shipped)
    before = len(split_words._TABLES)
    lexicon = dataclasses.replace(
        shipped, contractions={**shipped.contractions, "gimmeh": ("give", "me")}
    )
    assert tokenize("gimmeh the ball", lexicon) == ("give", "me", "the", "ball")
    assert tokenize("gimmeh the ball", shipped) == ("gimmeh", "the", "ball")
    assert len(split_words._TABLES) > before
    del lexicon
    gc.collect()
    assert len(split_words._TABLES) == before


@pytest.mark.parametrize("kept", [0, 3])
def test_a_full_word_table_changes_no_tokens(monkeypatch: pytest.MonkeyPatch, kept: int) -> None:
    """Past its bound the word table keeps no more words, and the words it does not keep
    come out the same as those it does."""
    import dataclasses

    shipped = load_split_lexicon("casino")
    lexicon = dataclasses.replace(shipped)  # a lexicon of its own: an empty table
    monkeypatch.setattr(split_tokens, "_WORDS_KEPT", kept)
    text = "I cant take the baall, everything else is yours; can i have 2 fire wood?"
    assert tokenize(text, lexicon) == _reference(text, lexicon)
    assert tokenize(text, lexicon) == _reference(text, lexicon)
    assert len(split_tokens._words(lexicon)) == kept
