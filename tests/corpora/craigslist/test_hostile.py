"""Hostile input: no crash, no hang, exactly one act per turn."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from actparse import parse_dialogue, tokenize
from actparse.api import label_record
from actparse.errors import InputError
from actparse.io.records import read_records

HOSTILE_TEXTS = {
    "empty": "",
    "spaces": "   \t\n ",
    "emoji": "deal? 🤝💰 $100 😀",
    "control": "\x00\x01\x1b[31m 100 \x7f\u200b\u2028",
    "nan": "would you take nan ?",
    "inf": "how about inf or -inf or infinity?",
    "overflow": "i can do 1e309 ?",
    "dollars": "$$$ $ $$ 100$$",
    "rtl": "مرحبا \u0661\u0660\u0660 دولار",  # Arabic-Indic digits
    "quotes": "\"'`''``\"",
    "dots": "." * 5000,
    "brackets": "(" * 2000 + ")" * 2000,
    "megabyte": "so " * 350_000 + "$100?",
}


def record(utterances: list[str], price: float | None = 100.0) -> dict[str, object]:
    n = len(utterances)
    return {
        "agent_info": {
            "Bottomline": ["None", "None"],
            "Role": ["buyer", "seller"],
            "Target": [80.0, 100.0],
        },
        "agent_turn": [i % 2 for i in range(n)],
        "dialogue_acts": {"intent": [""] * n, "price": [-1.0] * n},
        "utterance": utterances,
        "items": {
            "Category": ["bike", "bike"],
            "Images": ["", ""],
            "Price": [price, price],
            "Description": ["a bike", "a bike 2015"],
            "Title": ["Bike", "Bike"],
        },
    }


@pytest.mark.parametrize("text", list(HOSTILE_TEXTS.values()), ids=list(HOSTILE_TEXTS))
def test_hostile_text(text: str) -> None:
    filler = "tell me more about the bike and its condition please " * 4
    acts = parse_dialogue(record([filler, text, filler, text]))
    assert len(acts) == 4
    assert all(isinstance(t, str) and t for t in tokenize(text))


@pytest.mark.parametrize("price", [-1.0, 0.0, None, float("nan"), 1e309], ids=str)
def test_odd_listing_prices(price: float | None) -> None:
    filler = "would you take 100 ? i can do $90 . " * 6
    acts = parse_dialogue(record([filler, "ok 95 ?", filler, "deal"], price))
    assert len(acts) == 4


def test_ten_thousand_turns() -> None:
    turns = [f"i can do ${100 + i % 50} ?" for i in range(10_000)]
    acts = parse_dialogue(record(turns))
    assert len(acts) == 10_000


texts = (
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=80)
    | st.sampled_from(list(HOSTILE_TEXTS.values())[:-1])
    | st.from_regex(
        r"(i can do|how about|\$)? ?[0-9]{1,5}(\.[0-9]{2})?k? ?(\?|\.|!)?", fullmatch=True
    )
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(texts, min_size=0, max_size=12))
def test_parse_never_raises_is_deterministic_and_gives_one_act_per_turn(
    utterances: list[str],
) -> None:
    raw = record(utterances)
    first = parse_dialogue(raw)
    assert len(first) == len(utterances)
    assert parse_dialogue(raw) == first


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_tokenize_never_raises(text: str) -> None:
    tokens = tokenize(text)
    assert all(token and not any(c.isspace() for c in token) for token in tokens)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(texts, min_size=1, max_size=8))
def test_label_then_reread_round_trips(tmp_path: Path, utterances: list[str]) -> None:
    labelled = label_record(record(utterances))
    path = tmp_path / "out.jsonl"
    path.write_text(json.dumps(labelled) + "\n", encoding="utf-8")
    (again,) = read_records(path)
    assert again.raw == labelled
    assert label_record(again.raw) == labelled  # labelling is idempotent


def test_a_catastrophic_pattern_on_long_text_times_out_instead_of_hanging() -> None:
    from actparse.engine.guard import GUARD_LENGTH, TIMEOUT, timeout_for
    from actparse.engine.tags import Rule

    assert timeout_for("x" * (GUARD_LENGTH + 1)) == TIMEOUT
    rule = Rule(name="backtracking", tag="t", match="text-search", values=("(x+x+)+y",))
    with pytest.raises(TimeoutError):
        rule.matches([], "x" * 3000)


def test_a_timeout_becomes_an_error_record_with_keep(tmp_path: Path) -> None:
    from actparse.io.batch import Item, label_items

    class Exploding:
        def parse(self, dialogue: object) -> list[object]:
            raise TimeoutError("regex timed out")

    raw = record(["hello there"] * 4)
    item = Item("mem.jsonl", 7, "hf", text=json.dumps(raw))
    (outcome,) = label_items([item], on_error="keep", overrides={"craigslist": Exploding()})
    kept = json.loads(outcome.line)
    assert kept["actparse_error"] == "mem.jsonl:7: regex timed out"
    assert kept["utterance"] == raw["utterance"]


def _transcript_with_offer() -> tuple[dict[str, Any], int]:
    path = Path(__file__).parent / "fixtures" / "craigslist_transcripts_20.json"
    for transcript in json.loads(path.read_text(encoding="utf-8")):
        offers = [k for k, e in enumerate(transcript["events"]) if e["action"] == "offer"]
        if offers:
            return transcript, offers[0]
    raise AssertionError("no transcript with an offer")  # pragma: no cover


@pytest.mark.parametrize(
    ("data", "message"),
    [
        pytest.param({"price": "abc"}, "data.price must be a number or null, got 'abc'", id="text"),
        pytest.param({"price": float("inf")}, "data.price must be a number or null", id="inf"),
        pytest.param("132", "data must be an object with a price, got a string", id="no-object"),
    ],
)
def test_an_offer_price_that_is_no_number_is_an_error_naming_its_event(
    data: object, message: str
) -> None:
    # It was read as an offer without a price, without a word.
    transcript, k = _transcript_with_offer()
    transcript["events"][k]["data"] = data
    with pytest.raises(InputError, match=re.escape(f"event {k} {message}")):
        parse_dialogue(transcript)


@pytest.mark.parametrize("price", [None, 132, "132"], ids=["null", "number", "digits"])
def test_an_offer_with_a_price_or_none_is_read(price: object) -> None:
    transcript, k = _transcript_with_offer()
    transcript["events"][k]["data"] = {"price": price}
    assert parse_dialogue(transcript)[k].price == (None if price is None else 132.0)
