"""Price linking as Cocoa's price tracker did it: numbers, contexts, listing checks."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from corpus_fixtures import CorpusFixtures
from typer.testing import CliRunner

from actparse.cli import app
from actparse.corpora.craigslist.calibrate import (
    DialogueEvidence,
    MessageEvidence,
    calibrate,
    collect_evidence,
    context_stats,
    expand,
)
from actparse.corpora.craigslist.lexicon import PriceLexicon, load_lexicon, train_lexicon
from actparse.corpora.craigslist.linking import ListingContext, find_prices, listing_numbers
from actparse.corpora.craigslist.numbers import parse_number
from actparse.corpora.craigslist.training import cross_validate, train_prices
from actparse.engine.rulefiles import shipped
from actparse.engine.tokenizer import tokenize
from actparse.io.records import read_records
from actparse.models import Listing


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


def test_shipped_lexicon_is_cocoas_own_with_its_provenance_and_licence() -> None:
    lexicon = load_lexicon()
    source = lexicon.provenance["source"]
    assert source["path"] == "craigslistbargain/data/price_tracker.pkl"
    assert len(source["commit"]) == 40 and source["licence"].startswith("MIT")
    notice = shipped("craigslist", "LICENSE-cocoa-price-lexicon.txt").read_text(encoding="utf-8")
    assert "MIT License" in notice and source["commit"] in notice
    assert "<s>" in lexicon.left and len(lexicon.left) > 50


def test_cocoas_own_layout_loads_as_is(tmp_path: Path) -> None:
    path = tmp_path / "cocoa.json"
    path.write_text(json.dumps({"what": "tables", "left": {"<s>": 3}, "right": {"</s>": 2}}))
    lexicon = load_lexicon(path)
    assert lexicon.is_price_context("<s>", "</s>") and not lexicon.is_price_context("a", "</s>")
    assert lexicon.provenance["what"] == "tables" and "layout" in lexicon.provenance
    again = tmp_path / "again.json"
    lexicon.save(again)
    assert load_lexicon(again) == lexicon


def test_shipped_lexicon_keeps_only_word_contexts() -> None:
    """No utterance, number or dialogue is remembered: only single tokens, with counts."""
    doc = json.loads(shipped("craigslist", "price_lexicon.json").read_text(encoding="utf-8"))
    words = [*doc["left"], *doc["right"]]
    assert all(" " not in w and w.strip() == w and w for w in words)
    assert all(isinstance(n, int) for n in [*doc["left"].values(), *doc["right"].values()])


def test_a_calibrated_lexicon_keeps_only_word_contexts(fixtures: CorpusFixtures) -> None:
    training = train_prices(
        [fixtures / "craigslist_transcripts_20.json"],
        calibrate_on=fixtures / "craigslist_validation_20.jsonl",
    )
    calibration = training.lexicon.to_json()["provenance"]["calibration"]
    words = [*training.lexicon.left, *training.lexicon.right]
    for key in ("added_left", "added_right", "removed_left", "removed_right"):
        words.extend(calibration[key])
    expanded = calibration["expansion"]["left"] + calibration["expansion"]["right"]
    words.extend(expanded)
    assert all(" " not in w and w.strip() == w and w for w in words)
    # Expanded words are words: no numbers.
    assert not any(any(c.isdigit() for c in w) for w in expanded)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Contexts the weak lexicon lacked; the reference acts show Cocoa knew them.
        pytest.param("i can only do 390 unless you deliver", [390.0], id="known-right-unless"),
        pytest.param("i can offer 3000 even", [3000.0], id="frequent-word-even"),
        # Contexts the weak lexicon held that the reference acts show Cocoa never knew.
        pytest.param("i have 2 left", [], id="removed-right-left"),
        pytest.param("the lowest i can do is probably 140 .", [], id="removed-left-probably"),
        # Units stay out of the frequency rule: they stand beside numbers, not prices.
        pytest.param("i used it for about 6 months", [], id="unit-months"),
        pytest.param("it has about 900 miles", [], id="unit-miles"),
    ],
)
def test_shipped_lexicon_calibrated_contexts(text: str, expected: list[float]) -> None:
    assert [m.value for m in find_prices(tokenize(text), load_lexicon())] == expected


# --- calibration from reference acts -------------------------------------------------


def _evidence(*messages: MessageEvidence) -> list[DialogueEvidence]:
    return [DialogueEvidence("unit:1", tuple(messages))]


def test_forced_in_and_out_pairs() -> None:
    message = MessageEvidence(
        pairs=(("do", "unless"), ("have", "left"), ("a", "b")),
        patterns=(frozenset({0}), frozenset({0, 2})),
    )
    assert message.forced_in() == [("do", "unless")]
    assert message.forced_out() == [("have", "left")]
    weak = PriceLexicon(left=frozenset({"do", "have"}), right=frozenset({"unless", "left"}))
    assert not message.holds(weak)
    assert message.holds(PriceLexicon(left=frozenset({"do"}), right=frozenset({"unless"})))


def test_calibrate_adds_positive_and_removes_the_unconfirmed_neighbour() -> None:
    base = PriceLexicon(
        left=frozenset({"do", "have"}),
        right=frozenset({"left", "?"}),
        left_counts={"do": 300, "have": 50},
        right_counts={"left": 1, "?": 20},
    )
    evidence = _evidence(
        # "do 390 unless": taken as a price, so "unless" is a right context.
        MessageEvidence((("do", "unless"),), (frozenset({0}),)),
        # "have 2 ?": taken, so "have" is a left context for sure...
        MessageEvidence((("have", "?"),), (frozenset({0}),)),
        # ..."have 2 left": not taken, so "left" (not "have") is no right context.
        MessageEvidence((("have", "left"),), (frozenset(),)),
    )
    result = calibrate(base, evidence)
    assert result.added_right == {"unless": 1}
    assert result.removed_right == {"left": 1} and not result.removed_left
    assert result.lexicon.left == {"do", "have"}
    assert result.lexicon.right == {"unless", "?"}
    assert result.lexicon.right_counts["unless"] == 0  # not seen beside a `$`
    assert result.lexicon.provenance["calibration"]["added_right"] == {"unless": 1}


def test_calibrate_set_cover_prefers_the_word_with_weaker_support() -> None:
    base = PriceLexicon(
        left=frozenset({"about", "storage"}),
        right=frozenset({"years"}),
        left_counts={"about": 250, "storage": 1},
        right_counts={"years": 3},
    )
    # Neither neighbour is confirmed: "years" explains both negatives, so it goes.
    evidence = _evidence(
        MessageEvidence((("about", "years"),), (frozenset(),)),
        MessageEvidence((("storage", "years"),), (frozenset(),)),
    )
    assert calibrate(base, evidence).removed_right == {"years": 2}
    # One negative each way: the weaker weak-supervision count goes.
    single = _evidence(MessageEvidence((("storage", "years"),), (frozenset(),)))
    assert calibrate(base, single).removed_left == {"storage": 1}


def test_calibrate_min_support_leaves_single_occurrences() -> None:
    base = PriceLexicon(left=frozenset({"do"}), right=frozenset())
    evidence = _evidence(MessageEvidence((("do", "unless"),), (frozenset({0}),)))
    assert calibrate(base, evidence, min_support=2).lexicon.right == frozenset()
    assert calibrate(base, evidence, min_support=1).lexicon.right == {"unless"}


def test_expand_adds_frequent_words_but_not_units() -> None:
    stats = context_stats(["i will keep it unless it rains"] * 60 + ["it is 5 years old"] * 60)
    base = PriceLexicon(left=frozenset({"for"}), right=frozenset())
    lexicon, left, right = expand(base, stats, min_count=50, max_number_share=0.05)
    assert "unless" in right and "rains" in right
    assert "years" not in right  # beside a number in every occurrence
    assert "300" not in right and "5" not in left  # numbers are not word contexts
    assert "</s>" not in left and "<s>" not in right
    assert lexicon.left >= base.left


def test_collect_evidence_reads_with_the_reference_state(fixtures: CorpusFixtures) -> None:
    records = list(read_records(fixtures / "craigslist_validation_20.jsonl"))
    evidence = collect_evidence(records)
    assert evidence and all(d.messages for d in evidence)
    messages = [m for d in evidence for m in d.messages]
    assert all(m.patterns and len(m.pairs) <= 10 for m in messages)
    # The shipped lexicon was calibrated on these dialogues' acts: it reproduces them.
    assert all(m.holds(load_lexicon()) for m in messages)


def test_cross_validate_scores_held_out_folds(fixtures: CorpusFixtures) -> None:
    records = list(read_records(fixtures / "craigslist_validation_20.jsonl"))
    base = PriceLexicon(left=frozenset({"<s>", "do", "for"}), right=frozenset({"</s>", "?"}))
    cv = cross_validate(records, base, folds=2)
    assert cv.folds == 2 and len(cv.per_fold) == 2
    assert cv.messages == sum(n for n, _, _ in cv.per_fold) > 0
    assert 0.0 <= cv.baseline <= 1.0 and 0.0 <= cv.calibrated <= 1.0
    with pytest.raises(ValueError, match="at least 2 folds"):
        cross_validate(records, base, folds=1)


def test_train_prices_calibrate_command(fixtures: CorpusFixtures, tmp_path: Path) -> None:
    out = tmp_path / "lexicon.json"
    result = CliRunner().invoke(
        app,
        [
            "train-prices",
            str(fixtures / "craigslist_transcripts_20.json"),
            "--calibrate",
            str(fixtures / "craigslist_validation_20.jsonl"),
            "--folds",
            "2",
            "-o",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "cross-validation" in result.output
    lexicon = load_lexicon(out)
    assert lexicon.provenance["trained_on"][0]["file"] == "craigslist_transcripts_20.json"
    assert lexicon.provenance["calibration"]["reference"]["file"] == (
        "craigslist_validation_20.jsonl"
    )
