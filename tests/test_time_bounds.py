"""The hostile inputs of issue 13 that used to take seconds to hours: each record is
labelled (not an error record) within :data:`BOUND` seconds.

Before: 300 digits for the extended price mode took 18-30 s in quantulum3 and 5,000
digits hours; ten 50,000-character Craigslist turns 12 s; thirty 2.3 KB CaSiNo turns 42 s;
a Deal or No Deal line of 40,000 ``<input>`` 65 s.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from corpus_fixtures import CorpusFixtures

from actparse import registry
from actparse.corpora.craigslist.parser import CraigslistParser
from actparse.corpora.dealornodeal import text_line_to_record
from actparse.io import deadline
from actparse.io.batch import iter_items, label_items

#: Seconds within which each case is done: well under the record deadline, so the
#: record is labelled rather than given up.
BOUND = 5.0
assert BOUND < deadline.RECORD_DEADLINE


def _craigslist(fixtures: CorpusFixtures, tmp_path: Path, turns: list[str]) -> Path:
    record = json.loads((fixtures / "craigslist_validation_20.jsonl").read_text().splitlines()[0])
    n = len(turns)
    record.update(
        utterance=turns,
        agent_turn=[i % 2 for i in range(n)],
        dialogue_acts={"intent": [""] * n, "price": [-1.0] * n},
    )
    path = tmp_path / "hostile.jsonl"
    path.write_text(json.dumps(record) + "\n")
    return path


def _casino(fixtures: CorpusFixtures, tmp_path: Path, turns: list[str]) -> Path:
    record = json.loads((fixtures / "casino_20.json").read_text())[0]
    agents = ["mturk_agent_1", "mturk_agent_2"]
    record["chat_logs"] = [
        {"text": text, "task_data": {}, "id": agents[i % 2]} for i, text in enumerate(turns)
    ]
    record["annotations"] = []
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps([record]))
    return path


Case = tuple[Callable[[Path, Path, list[str]], Path], list[str], str | None]
EXTENDED = "extended prices"
CASES: dict[str, Case] = {
    "extended-300-digits": (_craigslist, ["for " + "9" * 300 + " dollars"], EXTENDED),
    "extended-5000-digits": (_craigslist, ["for " + "9" * 5000 + " dollars"], EXTENDED),
    "extended-many-numbers": (_craigslist, ["1.5 grand " * 100 + "dollars"], EXTENDED),
    "extended-long-spelled": (_craigslist, ["two hundred " * 1000 + "dollars"], EXTENDED),
    "craigslist-have-a-deal-10x50k": (_craigslist, ["have a deal " * 4200 + "!"] * 10, None),
    "casino-elicit-30x2.3k": (_casino, ["what do you need " * 135] * 30, None),
    "casino-need-30x2.3k": (_casino, ["water food " * 210] * 30, None),
    "casino-ask-30x2.3k": (_casino, ["do you need your water " * 100] * 30, None),
}


@pytest.fixture(scope="module")
def extended_parser() -> registry.Parser:
    parser = CraigslistParser(prices="extended")
    parser.prepare()  # loads quantulum3 (seconds), as label_items does before any record
    return parser


@pytest.mark.parametrize("case", sorted(CASES))
def test_hostile_record_is_labelled_in_bounded_time(
    case: str, fixtures: CorpusFixtures, tmp_path: Path, extended_parser: registry.Parser
) -> None:
    make, turns, mode = CASES[case]
    path = make(fixtures, tmp_path, turns)
    overrides = {"craigslist": extended_parser} if mode == EXTENDED else {}
    start = time.perf_counter()
    outcomes = list(label_items(iter_items(path), on_error="keep", overrides=overrides))
    took = time.perf_counter() - start
    assert [o.error for o in outcomes] == [None]
    assert took < BOUND, f"{took:.1f} s"


@pytest.mark.parametrize(
    "line",
    [
        pytest.param("<dialogue>" + "<input>" * 40_000, id="dealornodeal-40000-inputs"),
        pytest.param("<input>" * 40_000 + "</input>", id="dealornodeal-40000-inputs-closed"),
    ],
)
def test_hostile_dealornodeal_line_is_refused_in_bounded_time(line: str) -> None:
    start = time.perf_counter()
    with pytest.raises(ValueError, match="section"):
        text_line_to_record(line)
    assert time.perf_counter() - start < BOUND


def test_quantulum_is_not_given_what_it_cannot_read_in_time() -> None:
    from actparse.corpora.craigslist.extended import quantulum_refusal

    def refusal(text: str) -> Any:
        return quantulum_refusal(text, text.split())

    assert refusal("for 200 dollars") is None
    assert refusal("for 999999999999 dollars") is None
    assert "13 digits" in refusal("for 9999999999999 dollars")
    assert "21 tokens with digits" in refusal("1 " * 21 + "dollars")
    assert "characters" in refusal("two hundred " * 100 + "dollars")
