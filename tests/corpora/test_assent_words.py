"""Words of assent read in their context (rules/tags/assent.yaml), in every corpus that
includes the rules: "sure" assents but "make sure" and "are you sure ?" do not, and a
negated assent ("not ok with that") refuses."""

from __future__ import annotations

import pytest

from actparse import Dialogue, Item, Party, Turn, parse_dialogue

#: Each corpus' items, as its dialogues name them.
ITEMS = {
    "dealornodeal": ("book", "hat", "ball"),
    "casino": ("food", "water", "firewood"),
    "chat": ("book", "hat", "ball"),
}


def _reply_act(corpus: str, reply: str) -> str:
    """The coarse act of ``reply`` to a greeting."""
    party = Party(items=tuple(Item(name, 3) for name in ITEMS[corpus]))
    turns = (Turn(0, 0, "message", "hello there"), Turn(1, 1, "message", reply))
    return parse_dialogue(Dialogue(turns=turns, parties=(party, party), corpus=corpus))[1].coarse


@pytest.mark.parametrize("corpus", list(ITEMS))
@pytest.mark.parametrize(
    ("reply", "coarse"),
    [
        pytest.param("sure , that works", "agree", id="sure"),
        pytest.param("ok sure", "agree", id="ok-sure"),
        pytest.param("i am not ok with that", "disagree", id="not-ok"),
        pytest.param("that is not fine", "disagree", id="not-fine"),
        pytest.param("i do not agree", "disagree", id="do-not-agree"),
        pytest.param("are you sure ?", "inquire", id="are-you-sure"),
        pytest.param("i want to make sure i have enough water", "inform", id="make-sure"),
    ],
)
def test_assent_words_read_in_context(corpus: str, reply: str, coarse: str) -> None:
    assert _reply_act(corpus, reply) == coarse


@pytest.mark.parametrize("corpus", list(ITEMS))
def test_a_doubt_is_no_assent(corpus: str) -> None:
    """A doubt ("not sure") is neither assent nor refusal: the deal stays open."""
    assert _reply_act(corpus, "hmm , i am not sure about that") not in ("agree", "disagree")
