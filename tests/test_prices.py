"""Price linking as Cocoa's price tracker did it: numbers, contexts, listing checks."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from actparse.models import Listing
from actparse.prices import (
    ListingContext,
    PriceLexicon,
    find_prices,
    listing_numbers,
    load_lexicon,
    parse_number,
    train_lexicon,
)
from actparse.tokenizer import tokenize


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        pytest.param("250", 250.0, id="plain"),
        pytest.param("$250", 250.0, id="dollar-before"),
        pytest.param("250$", 250.0, id="dollar-after"),
        pytest.param("1,200", 1200.0, id="thousands-comma"),
        pytest.param("1.5k", 1500.0, id="k-suffix"),
        pytest.param("$2k", 2000.0, id="dollar-k"),
        pytest.param("12.50", 12.5, id="cents"),
        pytest.param(".5", 0.5, id="leading-dot"),
        pytest.param("1e3", 1000.0, id="exponent-as-python-float"),
        pytest.param("1_000", None, id="underscore-rejected-as-python2"),
        pytest.param("k", None, id="bare-k"),
        pytest.param("32gb", None, id="unit-suffix"),
        pytest.param("abc", None, id="word"),
        pytest.param("$", None, id="lone-dollar"),
    ],
)
def test_parse_number(token: str, expected: float | None) -> None:
    assert parse_number(token) == expected


def test_parse_number_infinities_and_nan_parse_but_are_never_prices() -> None:
    assert parse_number("inf") == math.inf
    assert math.isnan(parse_number("nan") or 0.0)
    lexicon = PriceLexicon(left=frozenset({"for"}), right=frozenset({"</s>"}))
    for text in ("for inf", "for nan", "$inf", "for 1e309"):
        assert find_prices(tokenize(text), lexicon) == [], text


LEX = PriceLexicon(left=frozenset({"for", "do", "<s>"}), right=frozenset({"?", "</s>", "."}))
LISTING = Listing(title="2016 MacBook Pro 13 inch", description="16gb ram, 512 ssd", price=1200.0)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("would you take $900?", [900.0], id="dollar-needs-no-context"),
        pytest.param("i can do 900?", [900.0], id="bare-number-between-known-contexts"),
        pytest.param("i can pay 900 now", [], id="unknown-right-context"),
        pytest.param("maybe 900?", [], id="unknown-left-context"),
        pytest.param("i can do 1900?", [], id="bare-above-1.5x-listing"),
        pytest.param("i can do $1900", [1900.0], id="dollar-above-1.5x-is-kept"),
        pytest.param("i can do 512?", [], id="bare-listing-spec-number"),
        pytest.param("i can do $512", [512.0], id="dollar-spec-number-is-kept"),
        pytest.param("i can do 1200?", [1200.0], id="listing-price-itself"),
        pytest.param("for 1k?", [1000.0], id="k-suffix"),
        pytest.param("900", [900.0], id="whole-message"),
    ],
)
def test_find_prices(text: str, expected: list[float]) -> None:
    found = find_prices(tokenize(text), LEX, ListingContext(LISTING))
    assert [m.value for m in found] == expected


def test_mentions_keep_surface_and_value() -> None:
    (mention,) = find_prices(tokenize("for $1.5k?"), LEX)
    assert (mention.surface, mention.value, mention.token) == ("$1.5k", 1500.0, 1)


def test_listing_numbers_blank_non_ascii_word_characters() -> None:
    numbers = listing_numbers("Café table 2x3", "30 inch, year 2015")
    assert {30.0, 2015.0} <= numbers


def test_missing_listing_price_skips_the_ratio_check() -> None:
    listing = ListingContext(Listing(title="", description="", price=None))
    assert [m.value for m in find_prices(tokenize("for 900?"), LEX, listing)] == [900.0]


def test_training_records_neighbours_of_dollar_tokens(tmp_path: Path) -> None:
    lexicon = train_lexicon(["i can do $100 today", "$50?", "no price here"], note="unit")
    assert lexicon.left == {"do", "<s>"}
    assert lexicon.right == {"today", "?"}
    assert lexicon.provenance["messages"] == 3
    path = tmp_path / "lex.json"
    lexicon.save(path)
    again = load_lexicon(path)
    assert again == lexicon
    assert again.provenance["note"] == "unit"
    assert json.loads(path.read_text())["format"] == "actparse-price-lexicon/1"


def test_bad_lexicon_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "lex.json"
    path.write_text('{"left": []}')
    with pytest.raises(ValueError, match=r"lex\.json: not a price lexicon"):
        load_lexicon(path)


def test_shipped_lexicon_has_provenance_and_never_saw_validation() -> None:
    lexicon = load_lexicon()
    files = [entry["file"] for entry in lexicon.provenance["trained_on"]]
    assert files == ["test.jsonl", "transcripts_extra.json"]
    assert "validation" not in json.dumps(lexicon.provenance)
    assert "<s>" in lexicon.left and len(lexicon.left) > 50
