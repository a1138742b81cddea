"""The evaluation of your own dialogues: the reference columns, the figures, the misses.

The shipped parser of the corpus is written elsewhere; these tests score the acts of a
scripted parser (each message's act given by its text), so what they check is the
scoring, whatever the rules say.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from actparse.cli import app
from actparse.cli_exits import FAILED, OK, TROUBLE
from actparse.corpora.chat.evaluate import ChatReport, evaluate_chat, same_split
from actparse.corpora.chat.parser import INTENTS
from actparse.corpora.chat.reader import dialogue_from_record
from actparse.corpora.chat.references import references
from actparse.corpora.chat.rows import group_rows
from actparse.errors import InputError
from actparse.io.records import Record
from actparse.models import Act, Dialogue, ItemSplit
from actparse.reports import JSON_KEYS, evaluate_records

ITEMS = ("book", "hat")


def _split(ann: tuple[int, int], bob: tuple[int, int]) -> ItemSplit:
    return ItemSplit(ITEMS, (ann, bob))


class Scripted:
    """A parser whose act for a message is looked up by its text (``unknown`` otherwise)."""

    intents = INTENTS

    def __init__(self, acts: Mapping[str, tuple[str, float | None, ItemSplit | None]]) -> None:
        self.acts = acts

    def parse(self, dialogue: Dialogue) -> list[Act]:
        out = []
        for turn in dialogue.turns:
            intent, price, split = self.acts.get(turn.text, ("unknown", None, None))
            out.append(Act(turn.index, turn.agent, intent, price=price, split=split))
        return out


PARSER = Scripted(
    {
        "hi": ("greet", None, None),
        "I'll take the books, you get the hat": ("propose", None, _split((2, 0), (0, 1))),
        "fine, one book each and you take the hat": ("propose", None, _split((1, 0), (1, 1))),
        "how about 120?": ("propose", 120.0, None),
        "deal": ("agree", None, None),
    }
)


def _record(raw: dict[str, Any], line: int = 1, source: str = "mine.jsonl") -> Record:
    fmt = "nested" if "turns" in raw else "turns"
    return Record(raw, fmt, source, line)


def _turn(speaker: str, text: str, **refs: Any) -> dict[str, Any]:
    return {"speaker": speaker, "text": text, **refs}


def _evaluate(*raws: dict[str, Any]) -> ChatReport:
    return evaluate_chat([_record(r, k + 1) for k, r in enumerate(raws)], PARSER)


# --- coarse acts ----------------------------------------------------------------------


def test_coarse_agreement_precision_recall_and_confusion() -> None:
    report = _evaluate(
        {
            "id": "d1",
            "turns": [
                _turn("ann", "hi", reference_coarse="greet"),
                _turn("bob", "hello there", reference_coarse="greet"),
                _turn("ann", "how about 120?", reference_coarse="propose"),
                _turn("bob", "deal", reference_coarse="disagree"),
                _turn("ann", "ok", reference_coarse=""),  # an empty cell: not scored
            ],
        }
    )
    figures = report.figures()
    assert figures["coarse_turns"] == 4
    assert figures["coarse_agreement"] == 0.5
    assert figures["coarse_recall"] == {"disagree": 0.0, "greet": 0.5, "propose": 1.0}
    assert figures["coarse_precision"] == {
        "agree": 0.0,
        "greet": 1.0,
        "propose": 1.0,
        "unknown": 0.0,
    }
    assert figures["coarse_confusion"]["greet"] == {"greet": 1, "unknown": 1}
    assert report.headline_value() == 0.5
    assert report.scored_items() == 4


def test_reference_coarse_is_read_whatever_its_case_and_must_be_a_coarse_act() -> None:
    report = _evaluate({"turns": [_turn("ann", "hi", reference_coarse=" Greet ")]})
    assert report.summary()["coarse_agreement"] == 1.0
    with pytest.raises(InputError, match=r"mine.jsonl:1: turn 0: reference_coarse: 'hello'"):
        _evaluate({"turns": [_turn("ann", "hi", reference_coarse="hello")]})
    with pytest.raises(InputError, match="the coarse acts are greet, inquire"):
        _evaluate({"turns": [_turn("ann", "hi", reference_coarse="hello")]})


# --- prices -----------------------------------------------------------------------------


def test_price_agreement_counts_turns_with_the_field_and_empty_means_no_price() -> None:
    report = _evaluate(
        {
            "turns": [
                _turn("ann", "hi", reference_price=""),  # no price, and none found: agree
                _turn("bob", "how about 120?", reference_price="$120.00"),
                _turn("ann", "deal", reference_price=100),  # we give none: a miss
                _turn("bob", "how about 120?"),  # no field: not scored
                _turn("ann", "how about 120?", reference_price=None),  # we give one: a miss
            ]
        }
    )
    s = report.summary()
    assert (s["price_turns"], s["priced_turns"]) == (4, 2)
    assert s["price_agreement"] == 0.5
    (miss,) = report.misses()
    assert [(t.turn, t.reference, t.ours) for t in miss.turns] == [
        (2, "price 100", "no price"),
        (4, "no price", "price 120"),
    ]
    assert miss.summary == "2 of 4 prices differ"


def test_a_reference_price_that_is_no_number_is_an_error() -> None:
    with pytest.raises(InputError, match=r"turn 1: reference_price must be a number, got 'soon'"):
        _evaluate({"turns": [_turn("ann", "hi"), _turn("bob", "deal", reference_price="soon")]})


# --- final split ----------------------------------------------------------------------------


def _split_dialogue(reference: Any, **where: Any) -> dict[str, Any]:
    turns = [
        _turn("ann", "I'll take the books, you get the hat"),
        _turn("bob", "fine, one book each and you take the hat"),
        _turn("ann", "deal"),
    ]
    record: dict[str, Any] = {"id": "s", "items": "book=2;hat=1", "turns": turns}
    if where.get("top"):
        record["reference_split"] = reference
    else:
        turns[-1]["reference_split"] = reference
    return record


BOB_PROPOSAL = {"ann": {"book": 1}, "bob": {"book": 1, "hat": 1}}  # ann's hat: 0
ANN_PROPOSAL = {"ann": {"book": 2}, "bob": {"hat": 1, "book": 0}}


@pytest.mark.parametrize("top", [False, True], ids=["on a turn", "at the top level"])
@pytest.mark.parametrize("as_text", [False, True], ids=["a mapping", "its JSON text"])
def test_the_final_split_is_our_last_split(top: bool, as_text: bool) -> None:
    reference: Any = json.dumps(BOB_PROPOSAL) if as_text else BOB_PROPOSAL
    report = _evaluate(_split_dialogue(reference, top=top))
    s = report.summary()
    assert (s["split_dialogues"], s["final_split_accuracy"], s["split_anywhere"]) == (1, 1.0, 1.0)
    assert report.misses() == []


def test_a_final_split_proposed_earlier_is_a_miss_that_says_where_it_was() -> None:
    report = _evaluate(_split_dialogue(ANN_PROPOSAL))
    s = report.summary()
    assert (s["final_split_accuracy"], s["split_anywhere"]) == (0.0, 1.0)
    (miss,) = report.misses()
    assert miss.where == "mine.jsonl:1 (s)"
    assert miss.summary == (
        "final split ann book 2 hat 0 | bob book 0 hat 1; "
        "our final split (turn 1): ann book 1 hat 0 | bob book 1 hat 1"
    )
    (turn,) = miss.turns
    assert (turn.turn, turn.agent, turn.text) == (1, 1, "fine, one book each and you take the hat")
    assert turn.reason == "final split differs; the reference split is proposed at turn 0"
    assert miss.context[1].startswith(" 1 bob: fine, one book each and you take the hat  [propose")


def test_no_split_of_ours_is_a_miss_at_the_last_turn() -> None:
    record = {
        "items": {"book": 2, "hat": 1},
        "turns": [_turn("ann", "hi"), _turn("bob", "deal", reference_split=BOB_PROPOSAL)],
    }
    (miss,) = _evaluate(record).misses()
    assert miss.turns[0].ours == "no split" and miss.turns[0].turn == 1
    assert "no act of ours carries a split" in miss.summary


def test_an_empty_reference_split_records_no_agreement() -> None:
    report = _evaluate(_split_dialogue(""), _split_dialogue(None))
    s = report.summary()
    assert (s["scored_dialogues"], s["split_dialogues"]) == (2, 0)


def test_splits_compare_item_by_item_whatever_the_order() -> None:
    ours = ItemSplit(("hat", "book"), ((0, 1), (1, 1)))
    assert same_split(ours, _split((1, 0), (1, 1)))
    assert not same_split(ours, _split((1, 1), (1, 0)))


@pytest.mark.parametrize(
    ("reference", "message"),
    [
        ({"ann": {"book": 2}, "carl": {"hat": 1}}, "must give the share of each speaker, 'ann'"),
        ({"ann": {"book": 2}, "bob": {"pen": 1}}, "'pen' is no item of the dialogue"),
        ({"ann": {"book": 2}, "bob": {"book": 1, "hat": 1}}, "'book' add up to 3, the dialogue"),
        ({"ann": {"book": -1}, "bob": {}}, "reference_split.ann.book must not be negative"),
        ("ann gets the books", "reference_split: not a valid JSON object"),
        ('{"ann": ' + "[" * 150 + "]" * 150 + "}", "reference_split: nested more than 100"),
        ('{"ann": ' + "9" * 5000 + "}", "reference_split: holds an integer of more than"),
        (["ann", "bob"], "must map each speaker to the items they get, got a list"),
    ],
)
def test_a_reference_split_that_does_not_fit_the_dialogue_is_an_error(
    reference: Any, message: str
) -> None:
    with pytest.raises(InputError, match=f"mine.jsonl:1 \\(s\\): .*{message}"):
        _evaluate(_split_dialogue(reference))


def test_a_reference_split_given_twice_must_be_the_same() -> None:
    record = _split_dialogue(BOB_PROPOSAL)
    record["turns"][0]["reference_split"] = ANN_PROPOSAL
    with pytest.raises(InputError, match=r"turn 2: reference_split .* differs from .* on turn 0"):
        _evaluate(record)
    with pytest.raises(InputError, match=r"a dialogue has one reference_split value: give it"):
        _evaluate(record)


def test_a_split_is_scored_between_two_speakers_only() -> None:
    record = {
        "turns": [_turn("ann", "hi"), _turn("bob", "hi"), _turn("carl", "deal")],
        "reference_split": {"ann": {"book": 1}, "bob": {"book": 1}},
    }
    with pytest.raises(InputError, match="the dialogue has 3 speaker\\(s\\); a split is scored"):
        _evaluate(record)


def test_three_speakers_are_scored_on_coarse_acts_and_prices() -> None:
    record = {
        "turns": [
            _turn("ann", "hi", reference_coarse="greet"),
            _turn("bob", "how about 120?", reference_price=120),
            _turn("carl", "deal", reference_coarse="agree"),
        ]
    }
    s = _evaluate(record).summary()
    assert (s["coarse_agreement"], s["price_agreement"]) == (1.0, 1.0)


# --- a table's rows, grouped -----------------------------------------------------------


def test_a_tables_rows_carry_the_references_on_every_row_or_once() -> None:
    split = json.dumps(BOB_PROPOSAL)
    rows = [
        {"dialogue_id": "t", "speaker": "ann", "text": "I'll take the books, you get the hat"},
        {"dialogue_id": "t", "speaker": "bob", "text": "fine, one book each and you take the hat"},
        {"dialogue_id": "t", "speaker": "ann", "text": "deal"},
    ]
    for k, row in enumerate(rows):
        row.update(
            items="book=2;hat=1",
            reference_coarse=["propose", "propose", "agree"][k],
            reference_price="",
            reference_split=split if k else "",  # not on the first row
        )
    report = evaluate_chat([Record(group_rows(rows), "turns", "mine.csv", 2)], PARSER)
    s = report.summary()
    assert (s["coarse_agreement"], s["price_agreement"], s["final_split_accuracy"]) == (1, 1, 1)
    assert (s["coarse_turns"], s["price_turns"], s["split_dialogues"]) == (3, 3, 1)


def test_nan_cells_of_a_parquet_table_are_empty() -> None:
    raw = {
        "turns": [_turn("ann", "hi", reference_coarse=float("nan"), reference_split=float("nan"))]
    }
    refs = references(raw, dialogue_from_record(raw))
    assert refs.given and not refs.coarse and refs.split is None


# --- unscored dialogues -------------------------------------------------------------------


def test_dialogues_without_reference_columns_are_counted_not_scored() -> None:
    report = _evaluate(
        {"turns": [_turn("ann", "hi")]},
        {"turns": [_turn("ann", "hi", reference_coarse="greet")]},
    )
    s = report.summary()
    assert (s["dialogues"], s["scored_dialogues"], s["unscored_dialogues"]) == (2, 1, 1)
    assert (
        report.tables()[0].note == "2 dialogues, 1 with reference columns (1 without: not scored)"
    )


def test_bare_dialogues_have_no_references() -> None:
    dialogue = dialogue_from_record({"turns": [_turn("ann", "hi", reference_coarse="greet")]})
    report = evaluate_chat([dialogue], PARSER)
    assert (report.dialogues, report.scored_items()) == (1, 0)


def test_an_input_with_nothing_to_score_names_the_reference_columns() -> None:
    records = [_record({"turns": [_turn("ann", "hi")]}, k) for k in (1, 2)]
    with pytest.raises(InputError, match="nothing to score: none of its 2 dialogues has a ref"):
        evaluate_records(records, "mine.jsonl", parsers={"chat": PARSER})
    with pytest.raises(InputError, match="reference_coarse or reference_price on its turns"):
        evaluate_records(records, "mine.jsonl", parsers={"chat": PARSER})


# --- the report -----------------------------------------------------------------------------


def test_misses_come_worst_first_with_the_dialogue_to_read() -> None:
    one = {"id": "one", "turns": [_turn("ann", "hi", reference_coarse="inform")]}
    two = {
        "id": "two",
        "turns": [
            _turn("ann", "hi", reference_coarse="inform"),
            _turn("bob", "how about 120?", reference_coarse="inquire", reference_price=110),
        ],
    }
    report = _evaluate(one, two)
    assert [m.where for m in report.misses()] == ["mine.jsonl:2 (two)", "mine.jsonl:1 (one)"]
    assert [m.where for m in report.misses(1)] == ["mine.jsonl:2 (two)"]
    worst = report.misses()[0]
    assert worst.summary == "2 of 2 coarse acts differ; 1 of 1 prices differ"
    assert worst.turns[1].reference == "inquire price 110"
    assert worst.turns[1].ours == "propose price 120"
    assert worst.turns[1].reason == "coarse act differs; price differs"
    assert worst.context == (
        " 0 ann: hi  [greet]  (reference inform)",
        " 1 bob: how about 120?  [propose 120]  (reference inquire price 110)",
    )


def test_the_json_has_the_keys_of_every_corpus_and_the_tables_read() -> None:
    report = _evaluate(_split_dialogue(ANN_PROPOSAL))
    out = report.to_json()
    assert tuple(out) == JSON_KEYS
    # No turn has a reference coarse act: the headline is no figure, not 0.
    assert out["headline"] == {"figure": "coarse_agreement", "value": None}
    assert out["figures"]["coarse_agreement"] is None
    titles = [t.title for t in report.tables()]
    assert titles == ["Chat (your own dialogues): evaluation"]  # no coarse reference: no act table
    rows = {row[0]: row[1:] for row in report.tables()[0].rows}
    assert rows["coarse act"] == ("0 turns", "-")
    assert rows["final split"] == ("1 dialogue", "0.00%")


# --- the command line ----------------------------------------------------------------------

runner = CliRunner()
#: Formal actions are their own coarse acts, whatever the rules for messages say.
FORMAL = (
    json.dumps(
        {
            "id": "f",
            "turns": [
                {"speaker": "ann", "text": "", "action": "offer", "reference_coarse": "offer"},
                {"speaker": "bob", "text": "", "action": "accept", "reference_coarse": "reject"},
            ],
        }
    )
    + "\n"
)


def test_eval_reads_the_nested_form_from_standard_input() -> None:
    result = runner.invoke(app, ["eval", "-", "--json"], input=FORMAL)
    assert result.exit_code == OK, result.output
    out = json.loads(result.stdout)
    assert out["corpus"] == "chat"
    assert out["headline"] == {"figure": "coarse_agreement", "value": 0.5}
    assert out["misses"][0]["where"] == "<stdin>:1 (f)"
    shown = runner.invoke(app, ["eval", "-"], input=FORMAL)
    assert "Coarse acts" in shown.stdout and "reference: reject | ours: accept" in shown.stdout


def test_eval_min_agreement_checks_the_coarse_agreement() -> None:
    passed = runner.invoke(app, ["eval", "-", "--min-agreement", "0.5"], input=FORMAL)
    assert passed.exit_code == OK, passed.output
    failed = runner.invoke(app, ["eval", "-", "--min-agreement", "0.6"], input=FORMAL)
    assert failed.exit_code == FAILED
    assert "coarse_agreement 0.5000 is below --min-agreement 0.6" in failed.stderr


def test_eval_of_dialogues_without_references_says_there_is_nothing_to_score(
    tmp_path: Path,
) -> None:
    path = tmp_path / "mine.jsonl"
    path.write_text(json.dumps({"turns": [_turn("ann", "hi"), _turn("bob", "hi")]}) + "\n")
    result = runner.invoke(app, ["eval", str(path)])
    assert result.exit_code == TROUBLE
    assert "Traceback" not in result.output
    assert "nothing to score: its one dialogue lacks a reference column" in result.stderr


def test_speakers_written_as_numbers_are_named_as_agents_in_misses() -> None:
    record = _split_dialogue(ANN_PROPOSAL)
    for turn, speaker in zip(record["turns"], (0, 1, 0)):
        turn["speaker"] = speaker
    record["turns"][-1]["reference_split"] = {"0": {"book": 2}, "1": {"hat": 1}}
    (miss,) = _evaluate(record).misses()
    assert miss.summary.startswith("final split agent 0 book 2 hat 0 | agent 1 book 0 hat 1;")


def test_a_floor_on_a_table_without_reference_coarse_acts_is_an_error(tmp_path: Path) -> None:
    # Only prices are referenced: --min-agreement has no coarse agreement to check.
    path = tmp_path / "prices.csv"
    path.write_text(
        "dialogue_id,speaker,text,reference_price\nd,ann,i can pay 50,50\n", encoding="utf-8"
    )
    result = runner.invoke(app, ["eval", str(path), "--min-agreement", "0.9"])
    assert result.exit_code == 2, result.output
    assert "no turn has a reference_coarse" in result.output
    assert "Traceback" not in result.output
