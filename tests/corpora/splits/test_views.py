"""Both views of a Deal or No Deal dialogue: the second gets the first one's acts,
mirrored, and those are exactly the acts parsing it gives (on every dialogue of the
shared files, both views)."""

from __future__ import annotations

from pathlib import Path

import pytest

from actparse.corpora.dealornodeal import DealOrNoDealParser, dialogue_from_dealornodeal
from actparse.corpora.splits.views import ViewMemo, mirror_act, view_key
from actparse.io.records import read_records
from actparse.models import Act, Dialogue, ItemSplit

#: The writer of the first message takes the book; each view lists its own side first.
YOU_OUTPUT = "item0=1 item1=0 item2=0 item0=0 item1=2 item2=3"
THEM_OUTPUT = "item0=0 item1=2 item2=3 item0=1 item1=0 item2=0"


class _Unmemoized(DealOrNoDealParser):
    view_memo_size = 0


def _view(first: str, output: str, text: str = "i want the book") -> Dialogue:
    """One dialogue of two messages and a selection by the first writer, seen by the
    side that wrote ``first`` ("YOU" or "THEM"); the two views swap the inputs too."""
    second = "THEM" if first == "YOU" else "YOU"
    mine = {"count": [1, 2, 3], "value": [4, 2, 0]}
    theirs = {"count": [1, 2, 3], "value": [0, 2, 2]}
    return dialogue_from_dealornodeal(
        {
            "input": mine if first == "YOU" else theirs,
            "partner_input": theirs if first == "YOU" else mine,
            "dialogue": f"{first}: {text} <eos> {second}: ok you can have it <eos> "
            f"{first}: <selection>",
            "output": output,
        }
    )


def test_mirror_act_swaps_the_agents_and_the_shares() -> None:
    split = ItemSplit(("book", "hat", "ball"), ((1, 0, None), (0, 2, 3)))
    act = Act(3, 0, "propose", tags=("x",), split=split)
    mirrored = mirror_act(act)
    assert mirrored.agent == 1
    assert mirrored.split == ItemSplit(("book", "hat", "ball"), ((0, 2, 3), (1, 0, None)))
    assert mirrored._replace(agent=0, split=split) == act
    assert mirror_act(Act(0, 1, "greet")) == Act(0, 0, "greet")


def test_only_the_exact_mirror_image_matches() -> None:
    you, them = _view("YOU", YOU_OUTPUT), _view("THEM", THEM_OUTPUT)
    assert view_key(you, mirrored=True) == view_key(them)
    assert view_key(you) != view_key(them)
    assert view_key(you, mirrored=True) != view_key(_view("THEM", "<disagree>"))
    assert view_key(you, mirrored=True) != view_key(_view("THEM", THEM_OUTPUT, "i want a hat"))


def test_a_mirrored_view_gets_the_acts_parsing_gives() -> None:
    you, them = _view("YOU", YOU_OUTPUT), _view("THEM", THEM_OUTPUT)
    parser = DealOrNoDealParser()
    assert parser.parse(you) == _Unmemoized().parse(you)
    assert parser.parse(them) == _Unmemoized().parse(them)
    assert parser._views.hits == 1  # the second view was mirrored
    assert any(act.split is not None for act in parser.parse(you))


def test_the_memo_is_bounded_and_can_be_off() -> None:
    def parse(dialogue: Dialogue) -> list[Act]:
        return []

    memo = ViewMemo(2)
    for n in range(5):
        memo.parse(_view("YOU", "<disagree>", f"i want {n} hats"), parse)
        assert len(memo._kept) <= 2
    off = ViewMemo(0)
    off.parse(_view("YOU", "<disagree>"), parse)
    assert not off._kept


@pytest.mark.parametrize("name", ["val.txt", "train.txt"])
def test_both_views_are_labelled_as_without_the_memo(data_dir: Path, name: str) -> None:
    path = data_dir / "dealornodeal" / name
    if not path.is_file():
        pytest.skip(f"{path} not found")
    dialogues = [record.dialogue() for record in read_records(path)]
    memoized, plain = DealOrNoDealParser(), _Unmemoized()
    for dialogue in dialogues:
        assert memoized.parse(dialogue) == plain.parse(dialogue), dialogue.id
    # Nearly every dialogue is listed from both sides, one right after the other.
    assert memoized._views.hits >= len(dialogues) // 3
