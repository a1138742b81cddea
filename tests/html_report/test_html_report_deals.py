"""The deal in the report's dialogue browser: each turn's move on the deal ("proposes #2
(agreed)", "refuses #0"), what its split assumed, and each dialogue's final split with
how sure it is; nothing of it for a corpus whose acts follow no deal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from corpus_fixtures import CorpusFixtures
from deal_dialogues import DOND_DEAL, DOND_SHOWN, write_casino, write_dond
from typer.testing import CliRunner

pytest.importorskip("plotly", reason="the report needs the 'report' extra (plotly)")

from actparse.cli import app
from actparse.engine.deals import CONFIDENCE_LEVELS
from actparse.html_report import collect_input
from actparse.html_report.browser import browser_data
from actparse.options import option_parsers

#: A turn's deal move and what its split assumed, in the browser's turn rows.
MOVE, UNCERTAIN = 9, 10


def _dialogues(path: Path) -> list[dict[str, Any]]:
    return browser_data([collect_input(path)])


def test_each_turn_shows_its_deal_move(tmp_path: Path) -> None:
    (dialogue,) = _dialogues(write_dond(tmp_path))
    assert [t[MOVE] for t in dialogue["turns"]] == DOND_SHOWN


def test_a_proposal_shows_how_it_ended(tmp_path: Path) -> None:
    (dialogue,) = _dialogues(write_casino(tmp_path))
    moves = [t[MOVE] for t in dialogue["turns"]]
    assert moves[2:6] == [
        "proposes #2 (superseded)",
        "proposes #3 (agreed)",
        "agrees to #3",
        "confirms #3",
    ]
    assert moves[:2] == moves[6:] == ["", ""]  # small talk and the formal actions: no move


def test_each_turn_shows_what_its_split_assumed(tmp_path: Path) -> None:
    (dialogue,) = _dialogues(write_dond(tmp_path))
    assert [t[UNCERTAIN] for t in dialogue["turns"]] == [d[4] for d in DOND_DEAL]


def test_each_dialogue_shows_its_final_split_and_confidence(tmp_path: Path) -> None:
    (dialogue,) = _dialogues(write_dond(tmp_path))
    assert dialogue["deal"] == {
        "proposal": 2,
        "split": "YOU book 0 hat 2 ball 0 | THEM book 1 hat 0 ball 2",
        "confidence": "high",
        "why": "agreed in text",
    }


def test_every_fixture_dialogue_of_a_split_corpus_has_a_confidence(
    fixtures: CorpusFixtures,
) -> None:
    for name in ("dealornodeal_val_20.txt", "casino_20.json"):
        dialogues = [d for d in _dialogues(fixtures / name) if d["deal"] is not None]
        assert dialogues
        for d in dialogues:
            assert d["deal"]["confidence"] in CONFIDENCE_LEVELS
            final = d["deal"]["proposal"]
            if final is not None:  # a proposal the turns show, made at its turn
                assert d["turns"][final][MOVE].startswith(f"proposes #{final} ")


@pytest.mark.parametrize(
    "name", ["craigslist_validation_20.jsonl", "mutualfriends_card_sample.jsonl"]
)
def test_a_corpus_without_deals_shows_none(fixtures: CorpusFixtures, name: str) -> None:
    dialogues = _dialogues(fixtures / name)
    assert all(d["deal"] is None for d in dialogues)
    assert all(t[MOVE] == "" and t[UNCERTAIN] == [] for d in dialogues for t in d["turns"])


def test_every_deal_move_has_words_in_the_browser() -> None:
    from actparse.engine.deals import DEAL_MOVES
    from actparse.html_report.browser import _MOVE_WORDS

    assert set(_MOVE_WORDS) == set(DEAL_MOVES)


#: How the browser says the chooser moved from the tracked final (a learned choice).
LEARNED = "the item values favour it"


@pytest.mark.parametrize(
    ("final_split", "learned"), [("learned", 1), ("rules", 0)], ids=["learned", "rules"]
)
def test_the_browser_shows_the_final_split_the_figures_scored(
    fixtures: CorpusFixtures, tmp_path: Path, final_split: str, learned: int
) -> None:
    # casino_20.json has one dialogue whose final split the chooser moves.
    path = fixtures / "casino_20.json"
    parsers = option_parsers(path, final_split=final_split)
    data = collect_input(path, parsers=parsers)
    assert data.report is not None
    assert data.report.figures()["final_split_learned_choices"] == learned
    whys = [d["deal"]["why"] for d in browser_data([data]) if d["deal"] is not None]
    assert sum(why.startswith(LEARNED) for why in whys) == learned
    out = tmp_path / "report.html"
    result = CliRunner().invoke(
        app, ["report", str(path), "--final-split", final_split, "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert (LEARNED in out.read_text(encoding="utf-8")) is bool(learned)
