"""The deal tracker on golden dialogues: each turn's move, the final deal, the statuses.

The tables are made-up dialogues beside each corpus' tests
(``tests/corpora/<corpus>/deal_golden.yaml``); known misses run as strict xfails.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from actparse.engine.deals import PROPOSAL_STATUSES, track_deals
from actparse.engine.pipeline import pipeline
from actparse.models import Act, DealMove, Dialogue, Item, ItemSplit, Party, Turn

CORPORA_TESTS = Path(__file__).resolve().parent.parent
KNOWN_MISS = pytest.mark.xfail(strict=True, reason="known miss")
ITEMS = {"dealornodeal": ("book", "hat", "ball"), "casino": ("food", "water", "firewood")}
CASE_KEYS = {"id", "rule", "totals", "turns", "moves", "final", "statuses", "miss"}


def cases(corpus: str) -> list[Any]:
    """The cases of a corpus' ``deal_golden.yaml`` as test parameters named by their ids."""
    path = CORPORA_TESTS / corpus / "deal_golden.yaml"
    rows = yaml.safe_load(path.read_text(encoding="utf-8"))["cases"]
    ids = [row["id"] for row in rows]
    if len(set(ids)) != len(ids) or any(set(row) - CASE_KEYS for row in rows):
        raise ValueError(f"{path}: a repeated id or a key not in {sorted(CASE_KEYS)}")
    return [
        pytest.param(corpus, row, id=row["id"], marks=[KNOWN_MISS] if row.get("miss") else [])
        for row in rows
    ]


def parse(corpus: str, case: dict[str, Any]) -> list[Act]:
    """The acts of a made-up dialogue of ``corpus``."""
    items = tuple(Item(name, count) for name, count in zip(ITEMS[corpus], case["totals"]))
    turns = []
    for k, line in enumerate(case["turns"]):
        agent, text = line.split(": ", 1)
        turns.append(Turn(k, int(agent), "message", text))
    dialogue = Dialogue(tuple(turns), (Party(items=items), Party(items=items)), corpus=corpus)
    return pipeline(corpus).parse(dialogue)


def _move(move: DealMove | None) -> str | None:
    return None if move is None else f"{move.move} {move.proposal}"


@pytest.mark.parametrize(("corpus", "case"), [*cases("dealornodeal"), *cases("casino")])
def test_deal_golden(corpus: str, case: dict[str, Any]) -> None:
    acts = parse(corpus, case)
    assert [_move(a.deal) for a in acts] == case["moves"]
    track = track_deals(acts)
    assert track.final is not None and track.final.turn == case["final"]
    statuses = {turn: p.status for turn, p in track.proposals.items()}
    assert statuses == case["statuses"]
    assert set(statuses.values()) <= set(PROPOSAL_STATUSES)


#: extras-after-one-each-said-before: after a message that gave each side one of every
#: item, "the remaining/extra X" of a later message is the one unit left; "the food" is
#: still all of it, "extra firewood" a wish, and with no base "the remaining" is all.
BASE_SAID = ["0: so we each get one food, one water and one firewood, right?", "1: yes"]
EXTRAS_SAID_BEFORE = [
    (
        [
            *BASE_SAID,
            "0: then you can have the remaining food and firewood if I get the remaining water",
        ],
        ((1, 2, 1), (2, 1, 2)),
    ),
    (
        [*BASE_SAID, "1: I will take the extra water and you can have the extra firewood and food"],
        ((2, 1, 2), (1, 2, 1)),
    ),
    ([*BASE_SAID, "0: then you can have the food"], ((0, 3, 3), (3, 0, 0))),
    ([*BASE_SAID, "0: I could use extra firewood though"], None),
    (
        ["0: then you can have the remaining food and firewood if I get the remaining water"],
        ((0, 3, 0), (3, 0, 3)),
    ),
]


@pytest.mark.parametrize(
    ("turns", "counts"),
    EXTRAS_SAID_BEFORE,
    ids=["remaining", "extra-and-list", "the-food-is-all", "extra-is-a-wish", "no-base"],
)
def test_extras_after_one_each_said_before(turns: list[str], counts: Any) -> None:
    split = parse("casino", {"totals": [3, 3, 3], "turns": turns})[-1].split
    assert (split and split.counts) == counts


def test_an_act_carries_its_move_and_the_split_its_doubts() -> None:
    turns = ["0: i want the book , you can have the rest", "1: ok", "0: a hat too ?", "1: no"]
    acts = parse("dealornodeal", {"totals": [1, 2, 2], "turns": turns})
    assert acts[0].deal == DealMove("propose", 0, 0)
    assert acts[1].deal == DealMove("agree", 0, 0)
    assert acts[3].deal == DealMove("refuse", 2, 0)
    # "no" puts the deal before the refused one back: a split the parse did not read.
    assert acts[3].split is not None and acts[3].split.uncertain == ("restored-after-refusal",)
    assert acts[0].split is not None and acts[0].split.uncertain == ()
    assert acts[3].to_dict()["deal"] == {"move": "refuse", "proposal": 2, "standing": 0}
    assert acts[3].to_dict()["split_uncertain"] == ["restored-after-refusal"]
    assert "split_uncertain" not in acts[0].to_dict()


def test_uncertainty_is_not_part_of_a_split_s_identity() -> None:
    counts = ((1, 0, 0), (0, 2, 2))
    sure = ItemSplit(ITEMS["dealornodeal"], counts)
    unsure = ItemSplit(ITEMS["dealornodeal"], counts, ("count-assumed",))
    assert sure == unsure and hash(sure) == hash(unsure)


def test_deal_is_the_last_field_of_an_act() -> None:
    # with_deal_moves sets it by position (Act._make of a slice, faster than _replace).
    assert Act._fields[-1] == "deal"


def _act(turn: int, agent: int, coarse: str, counts: Any = None) -> Act:
    split = None if counts is None else ItemSplit(ITEMS["casino"], counts)
    return Act(turn, agent, coarse, coarse=coarse, split=split)


def test_a_rejected_submission_refuses_the_deal_it_submitted() -> None:
    # rejected-submission-refuses: after Reject-Deal a bare "ok" agrees to nothing.
    deal = ((3, 2, 0), (0, 1, 3))
    acts = [
        _act(0, 0, "propose", deal),
        _act(1, 1, "offer", deal),
        _act(2, 0, "reject"),
        _act(3, 1, "agree"),
    ]
    track = track_deals(acts)
    assert track.proposals[0].status == "refused" and track.standing is None
    assert 3 not in track.moves and 1 not in track.moves  # formal actions make no move


@pytest.mark.parametrize(
    ("formal", "before", "side"),
    [
        # The submission standing when the text ends: its side.
        pytest.param([(1, "offer")], None, 1, id="a-submission"),
        # Deal or No Deal: both sides select; the first selection is kept.
        pytest.param([(1, "offer"), (0, "offer")], None, 1, id="the-first-selection"),
        # A rejected submission clears it; the next one stands.
        pytest.param([(1, "offer"), (0, "reject"), (0, "offer")], None, 0, id="resubmitted"),
        # Counterexample: the last submission was rejected, none stands.
        pytest.param([(1, "offer"), (0, "reject")], None, None, id="rejected"),
        # Read up to a formal turn: the side of that turn, not read as a move.
        pytest.param([(1, "offer"), (0, "reject"), (0, "offer")], 3, 0, id="read-up-to-it"),
    ],
)
def test_the_formal_side_is_kept(
    formal: list[tuple[int, str]], before: int | None, side: int | None
) -> None:
    # formal-side-is-kept: who submitted the deal or selected first, for the final split.
    deal = ((3, 2, 0), (0, 1, 3))
    acts = [_act(0, 0, "propose", deal)]
    acts += [_act(k, agent, coarse, deal) for k, (agent, coarse) in enumerate(formal, 1)]
    track = track_deals(acts, before)
    assert track.formal_by == side
    assert set(track.moves) == {0}


def test_own_yes_confirms_and_is_no_agreement() -> None:
    # own-agreement-confirms: only the other side agrees.
    acts = [_act(0, 0, "propose", ((3, 2, 0), (0, 1, 3))), _act(1, 0, "agree")]
    track = track_deals(acts)
    assert track.moves[1] == DealMove("confirm", 0, 0)
    assert track.proposals[0].status == "open" and not track.proposals[0].agreed


MINE, THEIRS = ((3, 2, 0), (0, 1, 3)), ((2, 2, 0), (1, 1, 3))


@pytest.mark.parametrize(
    ("ask", "replies", "move"),
    [
        # The writer asked, the partner only argued: its "ok" gives in.
        pytest.param(("question",), [("inform", ())], DealMove("agree", 0, 0), id="gives-in"),
        pytest.param(
            ("question",),
            [("inform", ("need",)), ("inform", ())],
            DealMove("agree", 0, 0),
            id="two-arguments",
        ),
        # Counterexamples: a counter stated as firm; a reply with a word of assent, a
        # question, no act; no reply at all. The "ok" confirms the writer's own.
        pytest.param((), [("inform", ())], DealMove("confirm", 1, 1), id="stated"),
        pytest.param(
            ("question",), [("inform", ("agree",))], DealMove("confirm", 1, 1), id="assent"
        ),
        pytest.param(("question",), [("inquire", ())], DealMove("confirm", 1, 1), id="asked"),
        pytest.param(("question",), [("unknown", ())], DealMove("confirm", 1, 1), id="no-act"),
        pytest.param(("question",), [], DealMove("confirm", 1, 1), id="no-reply"),
    ],
)
def test_an_ask_argued_down_gives_in(
    ask: tuple[str, ...], replies: list[tuple[str, tuple[str, ...]]], move: DealMove
) -> None:
    # asked-and-argued-down-gives-in: the partner's proposal stands again, agreed.
    acts = [_act(0, 0, "propose", THEIRS), _act(1, 1, "propose", MINE)._replace(tags=ask)]
    acts += [_act(k, 0, coarse)._replace(tags=tags) for k, (coarse, tags) in enumerate(replies, 2)]
    acts.append(_act(len(acts), 1, "agree"))
    track = track_deals(acts)
    assert track.moves[len(acts) - 1] == move
    gave_in = move.move == "agree"
    assert track.proposals[0].status == ("agreed" if gave_in else "superseded")
    assert track.proposals[1].status == ("withdrawn" if gave_in else "open")


def test_no_giving_in_to_a_refused_proposal() -> None:
    # asked-and-argued-down-gives-in: the writer refused the partner's proposal before it
    # asked; its "ok" after the argument confirms its ask.
    acts = [
        _act(0, 0, "propose", THEIRS),
        _act(1, 1, "disagree"),
        _act(2, 1, "propose", MINE)._replace(tags=("question",)),
        _act(3, 0, "inform"),
        _act(4, 1, "agree"),
    ]
    track = track_deals(acts)
    assert track.moves[4] == DealMove("confirm", 2, 2)
    assert {t: p.status for t, p in track.proposals.items()} == {0: "refused", 2: "open"}


def test_nothing_on_the_table_takes_no_agreement() -> None:
    # agreement-answers-the-table: after a refusal that put nothing back, a bare "ok"
    # makes no move and no superseded proposal comes back.
    acts = [
        _act(0, 0, "propose", ((3, 2, 0), (0, 1, 3))),
        _act(1, 1, "propose", ((0, 1, 3), (3, 2, 0))),
        _act(2, 0, "disagree"),
        _act(3, 1, "agree"),
    ]
    track = track_deals(acts)
    assert track.moves[2] == DealMove("refuse", 1, None)
    assert 3 not in track.moves
    assert {t: p.status for t, p in track.proposals.items()} == {0: "superseded", 1: "refused"}


def test_a_long_dialogue_is_tracked_in_about_linear_steps() -> None:
    # Each step looks proposals up by division and keeps only the standing ones: a
    # 4,000-turn dialogue of alternating proposals makes 4,000 proposals, each once.
    acts = [_act(k, k % 2, "propose", ((k % 4, 0, 0), (3 - k % 4, 3, 3))) for k in range(4000)]
    track = track_deals(acts)
    assert len(track.live) == 1 and track.standing == 3999
