"""The chat corpus' writer: every input field kept, the act in ``actparse``, caveats said."""

from __future__ import annotations

import pytest

import actparse
from actparse.corpora.chat.parser import speakers_note
from actparse.corpora.chat.writer import SPLITS_OFF


def _nested(speakers: list[str]) -> dict[str, object]:
    return {
        "id": "d",
        "items": "hat=2;book=1",
        "turns": [
            {"speaker": s, "text": "i want the book", "mine": k} for k, s in enumerate(speakers)
        ],
    }


def test_the_parser_tag_is_the_one_the_writer_looks_for() -> None:
    assert speakers_note(3).startswith(SPLITS_OFF)


@pytest.mark.parametrize(
    ("speakers", "note"),
    [
        pytest.param(["ann"], "1 speaker: coarse acts", id="one-speaker"),
        pytest.param(["ann", "bob", "cy"], "3 speakers: coarse acts", id="three-speakers"),
    ],
)
def test_a_dialogue_without_two_speakers_says_it_gets_no_splits(
    speakers: list[str], note: str
) -> None:
    labelled = actparse.label_record(_nested(speakers))
    for k, turn in enumerate(labelled["turns"]):
        assert turn["mine"] == k  # the input's own fields kept
        assert turn["actparse"]["note"].startswith(note)
        assert turn["actparse"]["split"] is None


def test_two_speakers_have_no_note() -> None:
    labelled = actparse.label_record(_nested(["ann", "bob"]))
    assert all("note" not in t["actparse"] for t in labelled["turns"])
