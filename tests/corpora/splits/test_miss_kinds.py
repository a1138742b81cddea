"""The kinds of a missed final split (Deal or No Deal, CaSiNo): one dialogue of each kind
per corpus, the figure ``final_split_misses_by_kind`` and each miss's ``kind`` in
``eval --json``, and the counts on the shared files."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from actparse.cli import app
from actparse.corpora.casino import dialogue_from_casino, evaluate_casino
from actparse.corpora.casino.core import CasinoParser
from actparse.corpora.dealornodeal import dialogue_from_dealornodeal, evaluate_dealornodeal
from actparse.corpora.dealornodeal.core import DealOrNoDealParser
from actparse.corpora.splits.evaluate import MISS_KINDS, SplitReport
from actparse.io.records import read_records
from actparse.models import Dialogue
from actparse.reports import JSON_KEYS, Miss

runner = CliRunner()


def dond(dialogue: str) -> Dialogue:
    """A Deal or No Deal dialogue with one book, two hats and one ball.

    Its final split: YOU book 1 hat 0 ball 1, THEM book 0 hat 2 ball 0."""
    return dialogue_from_dealornodeal(
        {
            "input": {"count": [1, 2, 1], "value": [4, 1, 4]},
            "dialogue": dialogue,
            "output": "item0=1 item1=0 item2=1 item0=0 item1=2 item2=0",
            "partner_input": {"count": [1, 2, 1], "value": [0, 5, 0]},
        }
    )


def casino(*messages: tuple[int, str]) -> Dialogue:
    """A CaSiNo dialogue of messages, then a deal agent 0 submits and agent 1 accepts.

    The deal: agent 0 gets food 3, water 2, firewood 0; agent 1 the rest."""
    logs: list[dict[str, Any]] = [
        {"text": text, "task_data": {}, "id": f"mturk_agent_{agent + 1}"}
        for agent, text in messages
    ]
    you = {"Food": "3", "Water": "2", "Firewood": "0"}
    they = {"Food": "0", "Water": "1", "Firewood": "3"}
    deal = {"issue2youget": you, "issue2theyget": they}
    logs.append({"text": "Submit-Deal", "task_data": deal, "id": "mturk_agent_1"})
    accept = {"data": "accept_deal"}
    logs.append({"text": "Accept-Deal", "task_data": accept, "id": "mturk_agent_2"})
    return dialogue_from_casino({"dialogue_id": 0, "chat_logs": logs})


#: Agent 0's offer, which is the deal, and agent 1's counter, which is not.
OFFER = "How about I take 3 food and 2 water, you get 1 water and 3 firewood?"
COUNTER = "Could I have 2 water and 3 firewood, and you take 3 food and 1 water?"


#: The kinds of a miss are the rules' own: the learned chooser, which weighs the item
#: values, would mend some of these small dialogues (tests/engine/test_final_chooser.py).
RULES_DOND = DealOrNoDealParser(final_chooser=None)
RULES_CASINO = CasinoParser(final_chooser=None)


def only_miss(report: SplitReport) -> Miss:
    """The one miss of a one-dialogue report, after checking the figure counts it alone."""
    (miss,) = report.misses()
    counts = report.summary()["final_split_misses_by_kind"]
    assert counts == {kind: int(kind == miss.kind) for kind in MISS_KINDS}
    assert miss.to_dict()["kind"] == miss.kind
    return miss


# --------------------------------------------------------------------------------------
# One dialogue of each kind
# --------------------------------------------------------------------------------------


def test_dealornodeal_wrong_proposal_final() -> None:
    # The final split was proposed (turn 0), but the counter after it was taken as final.
    d = dond(
        "YOU: i want the book and the ball <eos> THEM: i want the ball <eos> "
        "YOU: ok <eos> THEM: <selection>"
    )
    miss = only_miss(evaluate_dealornodeal([d], RULES_DOND))
    assert miss.kind == "wrong_proposal_final"
    assert miss.summary.endswith("among our proposals: yes (turn 0)")


def test_dealornodeal_proposal_parsed_wrong() -> None:
    # The one text proposal is read as a split that is not the final one.
    d = dond("YOU: i want the book and the hats <eos> THEM: fine <eos> YOU: <selection>")
    miss = only_miss(evaluate_dealornodeal([d], RULES_DOND))
    assert miss.kind == "proposal_parsed_wrong"
    assert miss.summary.endswith("among our proposals: no")


def test_dealornodeal_no_text_proposal() -> None:
    d = dond("YOU: hello <eos> THEM: hi there <eos> YOU: <selection>")
    miss = only_miss(evaluate_dealornodeal([d], RULES_DOND))
    assert miss.kind == "no_text_proposal"
    assert miss.turns[0].reason == "no text proposal before the <select>"


def test_casino_wrong_proposal_final() -> None:
    d = casino((0, OFFER), (1, COUNTER), (0, "Okay"))
    miss = only_miss(evaluate_casino([d], RULES_CASINO))
    assert miss.kind == "wrong_proposal_final"
    assert miss.summary.endswith("among our proposals: yes (turn 0)")


def test_casino_proposal_parsed_wrong() -> None:
    d = casino((0, COUNTER), (1, "Okay deal"))
    miss = only_miss(evaluate_casino([d], RULES_CASINO))
    assert miss.kind == "proposal_parsed_wrong"
    assert miss.summary.endswith("among our proposals: no")


def test_casino_no_text_proposal() -> None:
    d = casino((0, "Hello! How are you?"), (1, "Great, thanks. Let's make a deal."), (0, "Sure"))
    miss = only_miss(evaluate_casino([d], RULES_CASINO))
    assert miss.kind == "no_text_proposal"
    assert miss.turns[0].reason == "no text proposal before the <submit-deal>"


# --------------------------------------------------------------------------------------
# The figure and the JSON
# --------------------------------------------------------------------------------------


def test_the_figure_counts_every_kind_and_no_hit() -> None:
    hit = dond("YOU: i want the book and the ball <eos> THEM: ok <eos> YOU: <selection>")
    never = dond("YOU: hello <eos> THEM: hi there <eos> YOU: <selection>")
    report = evaluate_dealornodeal([hit, never], RULES_DOND)
    figures = report.summary()
    assert figures["final_split_accuracy"] == 0.5
    assert figures["final_split_misses_by_kind"] == {
        "wrong_proposal_final": 0,
        "proposal_parsed_wrong": 0,
        "no_text_proposal": 1,
    }
    table = next(t for t in report.tables() if t.title == "final_split_misses_by_kind")
    assert table.rows == (
        ("wrong_proposal_final", "0"),
        ("proposal_parsed_wrong", "0"),
        ("no_text_proposal", "1"),
    )


def test_a_miss_without_a_kind_keeps_its_keys() -> None:
    # Corpora that give no kind (Craigslist, MutualFriends, chat) print the keys they did.
    assert list(Miss("here", "wrong", (), ("line",)).to_dict()) == [
        "where",
        "summary",
        "turns",
        "context",
    ]


def test_eval_json_gives_the_figure_and_each_misss_kind(tmp_path: Path) -> None:
    lines = [
        "YOU: i want the book and the ball <eos> THEM: i want the ball <eos> "
        "YOU: ok <eos> THEM: <selection>",
        "YOU: i want the book and the hats <eos> THEM: fine <eos> YOU: <selection>",
        "YOU: hello <eos> THEM: hi there <eos> YOU: <selection>",
    ]
    source = tmp_path / "misses.jsonl"
    source.write_text("".join(json.dumps(_record(line)) + "\n" for line in lines))
    result = runner.invoke(app, ["eval", str(source), "--json", "--final-split", "rules"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert tuple(sorted(doc)) == tuple(sorted(JSON_KEYS))
    assert doc["figures"]["final_split_misses_by_kind"] == dict.fromkeys(MISS_KINDS, 1)
    assert doc["figures"]["final_split_learned_choices"] == 0
    kinds = {m["where"].split(":")[-1]: m["kind"] for m in doc["misses"]}
    assert kinds == dict(zip(("1", "2", "3"), MISS_KINDS))


def _record(dialogue: str) -> dict[str, Any]:
    """The HuggingFace-layout record of :func:`dond`."""
    return {
        "input": {"count": [1, 2, 1], "value": [4, 1, 4]},
        "dialogue": dialogue,
        "output": "item0=1 item1=0 item2=1 item0=0 item1=2 item2=0",
        "partner_input": {"count": [1, 2, 1], "value": [0, 5, 0]},
    }


# --------------------------------------------------------------------------------------
# The shared files (skipped without them)
# --------------------------------------------------------------------------------------

#: Measured with the learned final-split chooser (the rules alone: val.txt (4, 7, 0),
#: casino_train.json (57, 109, 10), casino_valid.json (2, 5, 1)); rules that move a miss
#: from one kind to another update these and the corpus pages. Deal or No Deal
#: train.txt is held out of the tests and not read here.
MEASURED = {
    ("dealornodeal", "val.txt"): (3, 5, 0),
    ("casino", "casino_train.json"): (44, 97, 10),
    ("casino", "casino_valid.json"): (2, 5, 1),
}


def _evaluate(corpus: str, dialogues: Iterable[Dialogue]) -> SplitReport:
    if corpus == "casino":
        return evaluate_casino(dialogues)
    return evaluate_dealornodeal(dialogues)


@pytest.mark.corpus
@pytest.mark.slow
@pytest.mark.parametrize(("corpus", "name"), sorted(MEASURED))
def test_misses_by_kind_on_the_shared_files(data_dir: Path, corpus: str, name: str) -> None:
    path = data_dir / corpus / name
    if not path.is_file():
        pytest.skip(f"{path} not found")
    report = _evaluate(corpus, (record.dialogue() for record in read_records(path)))
    figures = report.summary()
    counts = figures["final_split_misses_by_kind"]
    assert tuple(counts[kind] for kind in MISS_KINDS) == MEASURED[(corpus, name)]
    missed = round(figures["agreed_dialogues"] * (1 - figures["final_split_accuracy"]))
    assert sum(counts.values()) == missed == len(report.misses())
    for miss in report.misses():
        appears = miss.summary.rsplit("appears among our proposals: ", 1)[1]
        assert appears.startswith("yes") == (miss.kind == "wrong_proposal_final"), miss.where
