"""The learned final-split chooser: its file, its features and what it chooses."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from actparse.cli import app
from actparse.corpora.dealornodeal import dialogue_from_dealornodeal, evaluate_dealornodeal
from actparse.corpora.dealornodeal.core import DealOrNoDealParser
from actparse.corpora.splits.evaluate import _learned_how
from actparse.engine.deals import Proposal, track_deals
from actparse.engine.final_chooser import (
    FEATURES,
    MAX_DIVISIONS,
    ChoiceContext,
    FinalChoice,
    FinalChooser,
    final_choice,
    load_final_chooser,
    shipped_chooser,
)
from actparse.engine.pipeline import pipeline
from actparse.engine.rulefiles import RuleError
from actparse.models import Dialogue, ItemSplit

runner = CliRunner()
PARSER = pipeline("dealornodeal", DealOrNoDealParser())
#: YOU asks for the book and the ball; THEM, to whom the ball is worth nothing, asks for
#: it, and YOU says ok: the rules take THEM's counter as final, the values YOU's ask.
COUNTER_TAKEN = (
    "YOU: i want the book and the ball <eos> THEM: i want the ball <eos> "
    "YOU: ok <eos> THEM: <selection>"
)
#: The final split of :func:`record`: YOU the book and the ball, THEM the hats.
YOURS = "item0=1 item1=0 item2=1 item0=0 item1=2 item2=0"


def record(dialogue: str, output: str = YOURS) -> dict[str, Any]:
    """A Deal or No Deal record over one book, two hats and one ball.

    YOU values them 4, 1, 4; THEM 0, 5, 0."""
    return {
        "input": {"count": [1, 2, 1], "value": [4, 1, 4]},
        "dialogue": dialogue,
        "output": output,
        "partner_input": {"count": [1, 2, 1], "value": [0, 5, 0]},
    }


def dond(dialogue: str, output: str = YOURS) -> Dialogue:
    """The dialogue of :func:`record`."""
    return dialogue_from_dealornodeal(record(dialogue, output))


def choose(dialogue: Dialogue, chooser: FinalChooser | None) -> FinalChoice:
    formal = next(t.index for t in dialogue.turns if t.action == "select")
    return final_choice(track_deals(PARSER.parse(dialogue), formal), dialogue.parties, chooser)


@pytest.mark.parametrize("corpus", ["dealornodeal", "casino"])
def test_the_shipped_choosers_name_known_features_and_their_provenance(corpus: str) -> None:
    chooser = shipped_chooser((corpus, "final_chooser.json"))
    assert chooser is not None
    assert set(chooser.weights) == set(FEATURES)
    for key in ("data", "not_used", "written_by", "cross_validated"):
        assert chooser.provenance[key], key
    assert pipeline(corpus).final_chooser is chooser


def test_the_values_mend_a_counter_the_rules_took_as_final() -> None:
    # "i want the ball" from THEM, worth nothing to THEM, after YOU asked for book and ball.
    d = dond(COUNTER_TAKEN)
    rules = choose(d, None)
    assert rules.by == "rules" and rules.split is not None
    assert rules.split.counts == ((1, 2, 0), (0, 0, 1))
    learned = choose(d, shipped_chooser(("dealornodeal", "final_chooser.json")))
    assert learned.by == "learned" and learned.confidence == "low"
    assert learned.split is not None and learned.split.counts == ((1, 0, 1), (0, 2, 0))
    assert learned.split.uncertain == ("chosen-by-values",)


def test_a_final_agreed_as_said_stays() -> None:
    # Counterexample: the other side agreed to a split that suits both values.
    d = dond(
        "YOU: i want the book and the ball , you get the hats <eos> THEM: deal <eos> "
        "YOU: <selection>"
    )
    choice = choose(d, shipped_chooser(("dealornodeal", "final_chooser.json")))
    assert (choice.by, choice.confidence) == ("rules", "high")


def test_ties_go_to_the_tracked_final() -> None:
    d = dond(COUNTER_TAKEN)
    assert choose(d, FinalChooser({"lesser_points": 0.0})).by == "rules"


def test_no_proposal_no_choice() -> None:
    d = dond("YOU: hello <eos> THEM: hi <eos> YOU: <selection>")
    choice = choose(d, shipped_chooser(("dealornodeal", "final_chooser.json")))
    assert (choice.split, choice.proposal, choice.confidence) == (None, None, "none")


def test_features_of_a_division() -> None:
    d = dond("YOU: i want the book and the ball <eos> THEM: ok <eos> YOU: <selection>")
    context = ChoiceContext.of(track_deals(PARSER.parse(d), 2), d.parties)
    assert context is not None and context.scale == 10.0
    got = context.features(((1, 0, 1), (0, 2, 0)))
    assert set(got) == set(FEATURES)
    assert (got["is_final"], got["was_agreed"], got["items_for_nothing"]) == (1.0, 1.0, 0.0)
    assert got["lesser_points"] == pytest.approx(0.8) and got["points_gap"] == pytest.approx(0.2)
    worse = context.features(((0, 0, 1), (1, 2, 0)))  # the book to THEM, worth nothing there
    assert (worse["one_item_off_final"], worse["items_for_nothing"]) == (1.0, 1.0)
    # YOU selected first: YOU's 8 points less THEM's 10, over 10.
    assert got["formal_side_favour"] == pytest.approx(-0.2)


@pytest.mark.parametrize(("first", "favour"), [("YOU", -0.2), ("THEM", 0.2)])
def test_the_side_of_the_formal_offer_weighs_its_own_points(first: str, favour: float) -> None:
    d = dond(f"YOU: i want the book and the ball <eos> THEM: ok <eos> {first}: <selection>")
    context = ChoiceContext.of(track_deals(PARSER.parse(d), 2), d.parties)
    assert context is not None and context.formal_by == (first == "THEM")
    assert context.features(((1, 0, 1), (0, 2, 0)))["formal_side_favour"] == pytest.approx(favour)
    # Counterexample: read with no formal turn, no side and no weight.
    unread = ChoiceContext.of(track_deals(PARSER.parse(d)[:2]), d.parties)
    assert unread is not None and unread.features(((1, 0, 1), (0, 2, 0)))["formal_side_favour"] == 0


def test_round_trip(tmp_path: Path) -> None:
    chooser = FinalChooser({"is_final": 2.0, "lesser_points": 1.5}, "d", {"data": "x"})
    chooser.to_disk(tmp_path / "c.json")
    again = load_final_chooser(tmp_path / "c.json")
    assert (again.weights, again.description, again.provenance) == (
        chooser.weights,
        "d",
        {"data": "x"},
    )


@pytest.mark.parametrize(
    ("doc", "says"),
    [
        ({"features": {"is_final": 1}, "extra": 1}, "unknown keys ['extra']"),
        ({"features": {"is_final": 1, "colour": 2}}, "unknown features ['colour']"),
        ({"features": {"is_final": "high"}}, "the weights of ['is_final'] are not finite numbers"),
        ({"features": {"is_final": float("nan")}}, "the weights of ['is_final'] are not finite"),
        ({"features": {}}, "'features' must map feature names to weights"),
        ([1, 2], "a final-split chooser is a JSON object"),
    ],
    ids=["unknown-key", "unknown-feature", "not-a-number", "nan", "no-features", "not-an-object"],
)
def test_a_malformed_file_is_named(tmp_path: Path, doc: object, says: str) -> None:
    path = tmp_path / "chooser.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(RuleError) as err:
        load_final_chooser(path)
    assert str(err.value) == f"{path}: {says}" or str(err.value).startswith(f"{path}: {says}")


def test_final_split_rules_turns_the_chooser_off_and_is_a_no_op_elsewhere(
    tmp_path: Path,
) -> None:
    source = tmp_path / "d.jsonl"
    source.write_text(json.dumps(record(COUNTER_TAKEN)) + "\n")
    figures = {}
    for mode in ("learned", "rules"):
        result = runner.invoke(app, ["eval", str(source), "--json", "--final-split", mode])
        assert result.exit_code == 0, result.output
        figures[mode] = json.loads(result.stdout)["figures"]
    assert figures["learned"]["final_split_accuracy"] == 1.0
    assert figures["learned"]["final_split_learned_choices"] == 1
    assert figures["rules"]["final_split_accuracy"] == 0.0
    assert figures["learned"]["final_split_accuracy_rules_only"] == 0.0
    # A corpus without a chooser (here Craigslist) takes the option and changes nothing.
    craigslist = tmp_path / "c.jsonl"
    craigslist.write_text(
        json.dumps({"agent_info": {"Role": ["buyer", "seller"], "Target": [1, 2]}}) + "\n"
    )
    args = ["eval", str(craigslist), "--corpus", "craigslist", "--json"]
    plain = runner.invoke(app, args)
    ruled = runner.invoke(app, [*args, "--final-split", "rules"])
    assert (ruled.exit_code, ruled.stdout) == (plain.exit_code, plain.stdout)


def test_a_side_of_unknown_values_leaves_the_choice_to_the_rules() -> None:
    d = dond(COUNTER_TAKEN)
    unknown = replace(d.parties[1], items=tuple(replace(i, value=None) for i in d.parties[1].items))
    d = replace(d, parties=(d.parties[0], unknown))
    assert choose(d, shipped_chooser(("dealornodeal", "final_chooser.json"))).by == "rules"


def test_too_many_divisions_leave_the_choice_to_the_rules() -> None:
    d = dond(COUNTER_TAKEN)
    track = track_deals(PARSER.parse(d), 3)
    many = tuple(
        replace(p, items=tuple(replace(i, count=MAX_DIVISIONS) for i in p.items)) for p in d.parties
    )
    assert ChoiceContext.of(track, many) is None


def test_a_learned_miss_names_the_turn_that_proposed_its_split() -> None:
    # The chooser moves to the first proposal (turn 0); the reference is the second.
    d = dond(COUNTER_TAKEN, "item0=1 item1=2 item2=0 item0=0 item1=0 item2=1")
    (miss,) = evaluate_dealornodeal([d]).misses()
    assert "our final split (turn 0; the item values favour it over turn 1's)" in miss.summary
    assert miss.turns[0].turn == 0 and miss.kind == "wrong_proposal_final"


def test_labelling_never_reads_the_chooser_file() -> None:
    parser = DealOrNoDealParser()
    assert "final_chooser" not in vars(parser)  # read when evaluation first asks
    assert parser.final_chooser is shipped_chooser(("dealornodeal", "final_chooser.json"))


@pytest.mark.parametrize(
    ("proposal_turn", "chosen", "says"),
    [
        (0, ((1, 0, 1), (0, 2, 0)), "turn 0; the item values favour it over turn 1's"),
        (None, ((1, 0, 1), (0, 2, 0)), "turn 1, its open counts filled by the item values"),
        (None, ((0, 0, 1), (1, 2, 0)), "no proposal; the item values favour it over turn 1's"),
    ],
    ids=["another-proposal", "open-counts-filled", "no-proposal"],
)
def test_a_learned_miss_says_how_the_values_chose(
    proposal_turn: int | None, chosen: tuple[tuple[int, ...], ...], says: str
) -> None:
    items = ("book", "hat", "ball")
    tracked = Proposal(1, 1, ItemSplit(items, ((1, None, 1), (0, None, 0))))
    earlier = Proposal(0, 0, ItemSplit(items, ((1, 0, 1), (0, 2, 0))))
    split = ItemSplit(items, (chosen[0], chosen[1]), ("chosen-by-values",))
    proposal = earlier if proposal_turn == 0 else None
    choice = FinalChoice(split, proposal, "low", "learned", tracked)
    assert _learned_how(choice) == says
