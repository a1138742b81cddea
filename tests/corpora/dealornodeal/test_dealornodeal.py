"""Deal or No Deal: reading both layouts, the tag rules, the parser and the final-split
evaluation (each dialogue counted once, whichever side the file shows)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from corpus_fixtures import CorpusFixtures

from actparse.corpora.dealornodeal import (
    CORPUS,
    INTENT_RULES,
    DealOrNoDealParser,
    dialogue_from_dealornodeal,
    dialogue_key,
    evaluate_dealornodeal,
    final_split,
    parse_output,
    text_line_to_record,
)
from actparse.engine.acts import load_act_space
from actparse.engine.pipeline import pipeline
from actparse.io.records import InputError, read_records
from actparse.models import Dialogue
from actparse.reports import JSON_KEYS, Report

PARSER = pipeline(CORPUS, DealOrNoDealParser())  # its acts with their coarse acts
RULES = DealOrNoDealParser(final_chooser=None)  # the final split by the rules alone
FIXTURE = "dealornodeal_val_20.txt"


def _dialogues(fixtures: CorpusFixtures) -> list[Dialogue]:
    return [record.dialogue() for record in read_records(fixtures / FIXTURE)]


def record(
    dialogue: str, output: str = "item0=1 item1=0 item2=1 item0=0 item1=2 item2=0"
) -> dict[str, Any]:
    """A HuggingFace-layout record with one book, two hats and one ball."""
    return {
        "input": {"count": [1, 2, 1], "value": [4, 1, 4]},
        "dialogue": dialogue,
        "output": output,
        "partner_input": {"count": [1, 2, 1], "value": [0, 5, 0]},
    }


# --------------------------------------------------------------------------------------
# Rules (every example and counterexample of rules/dealornodeal/tags.yaml runs in
# test_rule_files.py)
# --------------------------------------------------------------------------------------


def test_decision_list_names_are_unique_and_intents_mapped() -> None:
    names = [rule.name for rule in INTENT_RULES.rules]
    assert len(names) == len(set(names))
    assert INTENT_RULES.fallback == "unknown"
    space = load_act_space()
    intents = set(INTENT_RULES.intents) | {"select"}
    assert intents == space.native("dealornodeal")


# --------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------


def test_text_lines_become_hf_records(fixtures: CorpusFixtures) -> None:
    records = list(read_records(fixtures / FIXTURE))
    assert [r.line for r in records] == list(range(1, 20))
    assert {r.format for r in records} == {"dealornodeal"}
    first = records[1].raw
    assert first["input"] == {"count": [3, 3, 1], "value": [3, 0, 1]}
    assert first["partner_input"] == {"count": [3, 3, 1], "value": [2, 1, 1]}
    assert first["dialogue"].startswith("YOU: im a reader")
    assert first["dialogue"].endswith("THEM: <selection>")
    assert first["output"] == "item0=2 item1=0 item2=1 item0=1 item1=3 item2=0"


def test_hf_record_to_dialogue() -> None:
    d = dialogue_from_dealornodeal(
        record("THEM: i want the hats <eos> YOU: ok , deal <eos> THEM: <selection>")
    )
    assert [(t.agent, t.action) for t in d.turns] == [(1, "message"), (0, "message"), (1, "select")]
    assert d.parties[0].items[0].name == "book" and d.parties[1].items[1].value == 5.0
    assert final_split(d) is not None and final_split(d).counts == ((1, 0, 1), (0, 2, 0))  # type: ignore[union-attr]
    assert d.turns[2].data == {"counts": [0, 2, 0]}  # THEM selected its own share
    assert d.corpus == "dealornodeal" and d.outcome and d.outcome["status"] == "agreed"


@pytest.mark.parametrize(
    ("output", "status"),
    [
        pytest.param("<disagree> " * 6, "disagree", id="disagree"),
        pytest.param("<no_agreement> " * 6, "no_agreement", id="no-agreement"),
        pytest.param("<disconnect> " * 6, "disconnect", id="disconnect"),
    ],
)
def test_dialogues_without_agreement(output: str, status: str) -> None:
    d = dialogue_from_dealornodeal(record("YOU: no <eos> THEM: <selection>", output.strip()))
    assert final_split(d) is None and d.outcome and d.outcome["status"] == status
    assert parse_output(output) is None


@pytest.mark.parametrize(
    ("raw", "error", "message"),
    [
        pytest.param({"dialogue": "YOU: hi"}, InputError, "input", id="missing-field"),
        pytest.param(
            record("YOU: hi <eos> THEM: <selection>", "item0=1 item1=0"),
            InputError,
            "expected 6 item counts",
            id="short-output",
        ),
        pytest.param(
            record("ME: hi <eos> THEM: <selection>"),
            InputError,
            "expected 'YOU:' or 'THEM:'",
            id="bad-speaker",
        ),
        pytest.param(
            {**record("YOU: hi"), "input": {"count": [1, 2], "value": [1, 1]}},
            InputError,
            "expected 3 counts",
            id="two-items",
        ),
    ],
)
def test_malformed_records_say_what_is_wrong(
    raw: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        dialogue_from_dealornodeal(raw)


def test_malformed_text_line_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "val.txt"
    good = "<input> 1 1 1 1 1 1 </input> <dialogue> YOU: hi <eos> THEM: <selection> </dialogue> "
    good += "<output> <disagree> </output> <partner_input> 1 1 1 1 1 1 </partner_input>\n"
    path.write_text(good + "\n" + good.replace("</output>", "</outputs>"), encoding="utf-8")
    with pytest.raises(InputError, match=r"val\.txt:3: no <output>"):
        list(read_records(path))
    with pytest.raises(ValueError, match="<input>: expected 6 numbers"):
        text_line_to_record(good.replace("1 1 1 1 1 1 </input>", "1 1 </input>"))


# --------------------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------------------


def test_one_act_per_turn_with_coarse_acts(fixtures: CorpusFixtures) -> None:
    space = load_act_space()
    for d in _dialogues(fixtures):
        acts = PARSER.parse(d)
        assert [a.turn for a in acts] == [t.index for t in d.turns]
        for act in acts:
            assert act.coarse == space.coarse("dealornodeal", act.intent)
            json.dumps(act.to_dict())
        select = acts[-1]
        assert select.intent == "select" and select.coarse == "offer"
        expected = final_split(d)
        assert (select.split.counts if select.split else None) == (
            expected.counts if expected else None
        )


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        pytest.param("hi how are you ?", "greet", id="how-are-you"),
        pytest.param("thank you !", "greet", id="thanks"),
        pytest.param("ok thanks", "agree", id="assent-with-thanks"),
        pytest.param("how are you going to split them ?", "inquire", id="not-small-talk"),
    ],
)
def test_small_talk_is_greet(text: str, intent: str) -> None:
    """Greetings and small talk are ``greet`` in every corpus."""
    (act, _select) = PARSER.parse(
        dialogue_from_dealornodeal(record(f"YOU: {text} <eos> THEM: <selection>"))
    )
    assert act.intent == intent


def test_a_whole_dialogue() -> None:
    d = dialogue_from_dealornodeal(
        record(
            "YOU: hi , i need the book and the ball <eos> THEM: what about the hats ? <eos> "
            "YOU: you can have the hats <eos> THEM: i need the ball too . book for you <eos> "
            "YOU: no , i need the ball <eos> THEM: ok deal <eos> YOU: <selection>"
        )
    )
    got = [(a.intent, a.split.counts if a.split else None) for a in PARSER.parse(d)]
    mine, hats = ((1, 0, 1), (0, 2, 0)), ((1, 0, 0), (0, 2, 1))
    assert got == [
        ("propose", mine),
        # A list with no person that matches the reader's share of the deal on the
        # table takes it up: THEM asks for the hats YOU left.
        ("agree", mine),
        ("insist", mine),  # YOU repeats its own split
        ("propose", hats),
        # "i need the ball" names YOU's side only: the rest goes to THEM (the corpus
        # convention; here the book stays with THEM).
        ("propose", ((0, 0, 1), (1, 2, 0))),
        ("agree", None),
        ("select", mine),
    ]


def _intents_and_splits(dialogue: str) -> list[tuple[str | None, Any]]:
    acts = PARSER.parse(dialogue_from_dealornodeal(record(dialogue)))
    return [(a.intent, a.split.counts if a.split else None) for a in acts]


def test_a_refusal_puts_the_deal_before_back_on_the_table() -> None:
    # restores-refused-deal: a bare "no" right after a proposal refuses it; the deal
    # that was on the table before it is the one to select.
    got = _intents_and_splits(
        "YOU: i want the book and the ball <eos> THEM: fine <eos> "
        "YOU: can i have a hat as well ? <eos> THEM: no sorry <eos> YOU: ok then <eos> "
        "YOU: <selection>"
    )
    mine = ((1, 0, 1), (0, 2, 0))
    assert got[2] == ("propose", ((1, 1, 1), (0, 1, 0)))
    assert got[3] == ("disagree", mine)
    assert last_proposal_split(got) == mine


@pytest.mark.parametrize(
    ("ask", "answer", "expected"),
    [
        pytest.param(
            "can i have one hat ?",
            "i need both of them please",
            ("inform", ((1, 0, 1), (0, 2, 0))),
            id="can-i-have-one-i-need-both",
        ),
        pytest.param(
            "would you be willing to let me have a hat too ?",
            "that just leaves me with 1 item , i'd prefer to keep both .",
            ("inform", ((1, 0, 1), (0, 2, 0))),
            id="would-you-be-willing-i-prefer-to-keep",
        ),
        # Counterexamples: a grudging yes grants it; an ask that is no question, and a
        # proposal in answer, are not refused.
        pytest.param(
            "would you trade a hat for nothing ?",
            "i really would not like to but , if that is what you need .",
            ("inform", None),
            id="grudging-yes-grants",
        ),
        pytest.param(
            "i'll take a hat too .",
            "i need both of them please",
            ("inform", None),
            id="no-question-no-refusal",
        ),
    ],
)
def test_an_answer_to_a_question_refuses_it(
    ask: str, answer: str, expected: tuple[str, Any]
) -> None:
    # refuses-a-question: a proposal asked as a question and answered with neither yes
    # nor terms ("i need both of them please") is refused; the deal before it is back.
    got = _intents_and_splits(
        f"YOU: i want the book and the ball <eos> THEM: fine <eos> YOU: {ask} <eos> "
        f"THEM: {answer} <eos> YOU: ok <eos> YOU: <selection>"
    )
    assert got[3] == expected


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        pytest.param(
            "nope , the book and the ball", ("propose", ((0, 2, 0), (1, 0, 1))), id="nope-list"
        ),
        pytest.param("no deal . book and ball", ("propose", ((0, 2, 0), (1, 0, 1))), id="no-deal"),
        # Counterexample: with no refusal the list restates the table.
        pytest.param("ok , the book and the ball", ("agree", ((1, 0, 1), (0, 2, 0))), id="ok-list"),
    ],
)
def test_a_refusal_keeps_its_reading(reply: str, expected: tuple[str, Any]) -> None:
    # refusal-keeps-its-reading: a list with no person in a refusal is not read as the
    # deal it refuses.
    got = _intents_and_splits(
        f"YOU: i get the book and the ball , you get the hats <eos> THEM: {reply} <eos> "
        "YOU: <selection>"
    )
    assert got[1] == expected


def test_a_refusal_that_names_items_or_comes_late_restores_nothing() -> None:
    got = _intents_and_splits(
        "YOU: i want the book and the ball <eos> THEM: no , hats are worth nothing to me <eos> "
        "YOU: <selection>"
    )
    assert got[1] == ("disagree", None)
    got = _intents_and_splits(
        "YOU: i want the book and the ball <eos> THEM: hmm <eos> THEM: no <eos> YOU: <selection>"
    )
    assert got[2] == ("disagree", None)


def test_a_bare_count_in_reply_moves_the_readers_count() -> None:
    # keeps-default-reading: "one hat" answers "2 hats and a ball for me?" by cutting the
    # reader's hats to one; read for the writer it would only restate the table.
    got = _intents_and_splits(
        "YOU: i want the book <eos> THEM: 2 hats and a ball for me ? <eos> "
        "YOU: one hat <eos> THEM: fine <eos> YOU: <selection>"
    )
    assert got[1] == ("agree", ((1, 0, 0), (0, 2, 1)))
    assert got[2] == ("propose", ((1, 1, 0), (0, 1, 1)))


def test_a_message_that_settles_an_open_item_keeps_the_table() -> None:
    # fills-open-items: the trade left the ball open; asking for it keeps the trade.
    got = _intents_and_splits(
        "THEM: i will give you all the hats for the book <eos> YOU: what about the ball ? "
        "<eos> THEM: fine <eos> YOU: <selection>"
    )
    assert got[0] == ("propose", ((0, 2, None), (1, 0, None)))
    assert got[1] == ("propose", ((0, 2, 1), (1, 0, 0)))


@pytest.mark.parametrize(
    ("need", "expected"),
    [
        # a-need-sets-the-topic: after the reader's need with no terms, a list with no
        # person answers it: it is the reader's share ...
        pytest.param("i need three items to make this work .", ((1, 2, 0), (0, 0, 1)), id="need"),
        # ... while after talk with no need it is the writer's, as the talk was about.
        pytest.param("hmm , let me think .", ((0, 0, 1), (1, 2, 0)), id="no-need"),
    ],
)
def test_a_need_with_no_terms_makes_the_next_list_its_writers(
    need: str, expected: tuple[tuple[int, ...], tuple[int, ...]]
) -> None:
    got = _intents_and_splits(
        f"THEM: i would like the hats and ball and you can have the book <eos> YOU: {need} "
        "<eos> THEM: ok , how about the book and 2 hats ? <eos> YOU: deal <eos> THEM: <selection>"
    )
    assert got[2] == ("propose", expected)


def _dialogue_misses() -> list[Any]:
    """The known misses of dialogue_misses.yaml, beside this file: each rule written for
    them fixed only the dialogues it was written for, so it went."""
    path = Path(__file__).resolve().parent / "dialogue_misses.yaml"
    rows = yaml.safe_load(path.read_text(encoding="utf-8"))["misses"]
    ids = [row["id"] for row in rows]
    if len(set(ids)) != len(ids) or any(set(row) != ROW_KEYS for row in rows):
        raise ValueError(f"{path}: a repeated id, or a row whose keys are not {sorted(ROW_KEYS)}")
    return [
        pytest.param(row["dialogue"], row["turn"], _agents(row["expected"]), id=row["id"])
        for row in rows
    ]


def _agents(counts: dict[str, list[int]] | None) -> tuple[tuple[int, ...], ...] | None:
    if counts is None:
        return None
    return tuple(counts["agent_0"]), tuple(counts["agent_1"])


ROW_KEYS = {"id", "dialogue", "turn", "expected"}
DIALOGUE_MISSES = _dialogue_misses()


@pytest.mark.xfail(strict=True, reason="known miss")
@pytest.mark.parametrize(("dialogue", "turn", "expected"), DIALOGUE_MISSES)
def test_known_dialogue_misses(
    dialogue: str, turn: int, expected: tuple[tuple[int, ...], tuple[int, ...]]
) -> None:
    assert _intents_and_splits(dialogue)[turn][1] == expected


def last_proposal_split(got: list[tuple[str | None, Any]]) -> Any:
    """The split of the last message act that carries one."""
    return next(split for intent, split in reversed(got) if split and intent != "select")


def test_both_views_of_a_dialogue_parse_the_same(fixtures: CorpusFixtures) -> None:
    dialogues = _dialogues(fixtures)
    by_key: dict[object, list[Dialogue]] = {}
    for d in dialogues:
        by_key.setdefault(dialogue_key(d), []).append(d)
    pairs = [views for views in by_key.values() if len(views) == 2]
    assert len(pairs) == 9
    for one, two in pairs:
        acts_one, acts_two = PARSER.parse(one), PARSER.parse(two)
        assert [a.intent for a in acts_one] == [a.intent for a in acts_two]
        for a, b in zip(acts_one, acts_two):
            mirrored = (b.split.counts[1], b.split.counts[0]) if b.split else None
            assert (a.split.counts if a.split else None) == mirrored


# --------------------------------------------------------------------------------------
# Evaluation
# --------------------------------------------------------------------------------------


def test_evaluation_counts_each_dialogue_once(fixtures: CorpusFixtures) -> None:
    dialogues = _dialogues(fixtures)
    report = evaluate_dealornodeal(dialogues)
    summary = report.summary()
    assert summary["dialogues"] == 10  # one seen from one side, nine from both
    assert summary["agreed_dialogues"] == 8
    assert summary["final_split_accuracy"] == 1.0
    assert summary["split_anywhere"] == 1.0
    assert set(summary["coarse_act_counts"]) <= set(load_act_space().names)
    json.dumps(summary)
    # reading the other side first gives the same figures
    assert evaluate_dealornodeal(reversed(dialogues)).summary() == summary


def test_evaluation_reads_records_and_is_a_report(fixtures: CorpusFixtures) -> None:
    # `actparse eval` passes records: the same figures, misses named by file and line.
    report = evaluate_dealornodeal(read_records(fixtures / FIXTURE), PARSER)
    assert isinstance(report, Report) and report.headline == "final_split_accuracy"
    assert report.summary() == evaluate_dealornodeal(_dialogues(fixtures)).summary()
    assert report.headline_value() == 1.0
    assert tuple(report.to_json()) == JSON_KEYS


def test_misses_are_readable() -> None:
    d = dialogue_from_dealornodeal(
        record(
            "YOU: i want the book and the ball <eos> THEM: fine <eos> YOU: <selection>",
            "item0=0 item1=2 item2=1 item0=1 item1=0 item2=0",
        )
    )
    report = evaluate_dealornodeal([d])
    assert report.summary()["final_split_accuracy"] == 0.0
    (miss,) = report.misses(5)
    final = "YOU book 0 hat 2 ball 1 | THEM book 1 hat 0 ball 0"
    ours = "YOU book 1 hat 0 ball 1 | THEM book 0 hat 2 ball 0"
    assert miss.where == "dialogue 1"
    assert miss.summary == (
        f"final split {final}; our final split (turn 0): {ours}; "
        "the final split appears among our proposals: no"
    )
    (turn,) = miss.turns
    assert (turn.turn, turn.agent, turn.text) == (0, 0, "i want the book and the ball")
    assert (turn.reference, turn.ours, turn.reason) == (final, ours, "differs on book, hat")
    assert miss.context == (
        f" 0 YOU: i want the book and the ball  [propose {ours}]",
        " 1 THEM: fine  [agree]",
        f" 2 YOU: <select>  [select {final}]",
    )
    json.dumps(miss.to_dict())


def test_misses_never_found_come_first() -> None:
    found_then_lost = dialogue_from_dealornodeal(
        record(
            "YOU: i want the book and the ball <eos> THEM: i want the ball <eos> "
            "YOU: ok <eos> THEM: <selection>"
        )
    )
    never_proposed = dialogue_from_dealornodeal(
        record("YOU: hello <eos> THEM: hi there <eos> YOU: <selection>")
    )
    # The rules' misses: the learned chooser would take the ball from the values.
    report = evaluate_dealornodeal([found_then_lost, never_proposed], RULES)
    assert report.summary()["split_anywhere"] == 0.5
    first, second = report.misses()
    assert first.where == "dialogue 2" and first.summary.endswith("among our proposals: no")
    (turn,) = first.turns
    assert (turn.turn, turn.text, turn.ours) == (2, "<select>", "no proposal")
    assert turn.reason == "no text proposal before the <select>"
    assert second.where == "dialogue 1"
    assert second.summary.endswith("among our proposals: yes (turn 0)")
    assert second.turns[0].turn == 1
    assert second.turns[0].reason.endswith("the final split was proposed at turn 0")
    assert report.misses(1) == [first]


# --------------------------------------------------------------------------------------
# The whole validation split (skipped without the shared corpora)
# --------------------------------------------------------------------------------------

#: Floors only go up. Measured on val.txt: 0.974 overall, 0.976 on the first half,
#: 0.972 on the second (both halves were developed on), by the rules alone
#: (``final_split_accuracy_rules_only``); with the learned final-split chooser, fitted
#: on these dialogues too: 0.981, 0.9905, 0.9716.
VALIDATION_FLOOR = 0.980
VALIDATION_HALF_FLOOR = 0.971
RULES_VALIDATION_FLOOR = 0.973
#: Measured on the first 8,000 lines of train.txt (developed on; 3,122 agreed
#: dialogues): the rules alone 0.9702, with the chooser 0.9773; after round five (denied
#: clauses, even splits, a-comma-before-for-still-trades, ...) 0.9734 and 0.9801. The rest
#: of train.txt is held out and never read by the tests.
TRAIN_DEV_FLOOR = 0.980
RULES_TRAIN_DEV_FLOOR = 0.973
TRAIN_DEV_LINES = 8000


@pytest.mark.corpus
@pytest.mark.slow
def test_validation_final_split_accuracy(data_dir: Path) -> None:
    path = data_dir / "dealornodeal" / "val.txt"
    if not path.is_file():
        pytest.skip(f"{path} not found")
    dialogues = [record.dialogue() for record in read_records(path)]
    summary = evaluate_dealornodeal(dialogues).summary()
    assert summary["agreed_dialogues"] == 422
    assert summary["final_split_accuracy"] >= VALIDATION_FLOOR, summary
    assert summary["final_split_accuracy_rules_only"] >= RULES_VALIDATION_FLOOR, summary
    # Development and held-out halves (by first appearance) each hold the floor.
    unique: list[Dialogue] = []
    seen: set[object] = set()
    for d in dialogues:
        if dialogue_key(d) not in seen:
            seen.add(dialogue_key(d))
            unique.append(d)
    half = len(unique) // 2
    for part in (unique[:half], unique[half:]):
        summary = evaluate_dealornodeal(part).summary()
        assert summary["final_split_accuracy"] >= VALIDATION_HALF_FLOOR, summary


@pytest.mark.corpus
@pytest.mark.slow
def test_train_development_part_final_split_accuracy(data_dir: Path) -> None:
    path = data_dir / "dealornodeal" / "train.txt"
    if not path.is_file():
        pytest.skip(f"{path} not found")
    with path.open(encoding="utf-8") as fh:
        lines = list(itertools.islice(fh, TRAIN_DEV_LINES))
    dialogues = [dialogue_from_dealornodeal(text_line_to_record(line)) for line in lines]
    summary = evaluate_dealornodeal(dialogues).summary()
    assert summary["agreed_dialogues"] == 3122
    assert summary["final_split_accuracy"] >= TRAIN_DEV_FLOOR, summary
    assert summary["final_split_accuracy_rules_only"] >= RULES_TRAIN_DEV_FLOOR, summary
