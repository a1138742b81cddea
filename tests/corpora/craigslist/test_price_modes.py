"""The two price modes: a golden table of price mentions, the extended rules' own
examples, the lazy quantulum3 import, and offer-price recall."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from corpus_fixtures import CorpusFixtures

from actparse.corpora.craigslist.extended import (
    ExtendedRule,
    extended_readings,
    load_extended_rules,
)
from actparse.corpora.craigslist.finder import PRICE_MODES, PriceFinder
from actparse.corpora.craigslist.hf import dialogue_from_hf
from actparse.corpora.craigslist.lexicon import load_lexicon
from actparse.corpora.craigslist.linking import ListingContext
from actparse.corpora.craigslist.parser import CraigslistParser
from actparse.corpora.craigslist.recall import offer_price_recall
from actparse.engine.rulefiles import RuleError
from actparse.engine.tokenizer import tokenize
from actparse.io.records import read_records
from actparse.models import Listing

LEXICON = load_lexicon()
FINDERS = {mode: PriceFinder(LEXICON, mode) for mode in PRICE_MODES}


def _found(mode: str, text: str, listing_price: float | None) -> list[float]:
    listing = ListingContext(Listing(title="", description="", price=listing_price))
    return [m.value for m in FINDERS[mode].find(tokenize(text), listing)]


# (text, listing price, prices found in cocoa mode, prices found in extended mode)
GOLDEN = [
    pytest.param("two hundred dollars", 300, [], [200], id="spelled-dollars"),
    pytest.param("three hundred bucks works", 400, [], [300], id="spelled-bucks"),
    pytest.param("i can do 150 bucks", 300, [150], [150], id="digits-bucks"),
    pytest.param("ten bucks", 15, [], [10], id="spelled-bucks-small"),
    pytest.param("2k", 3000, [2000], [2000], id="k-suffix-alone"),
    pytest.param("1.5 grand is my limit", 2000, [], [1500], id="grand"),
    pytest.param("two grand and it is yours", 2500, [], [2000], id="spelled-grand"),
    pytest.param("$1,200.00", 1500, [1200], [1200], id="dollar-comma-cents"),
    # Cocoa's own lexicon knows "usd" and "dollars" as right contexts of a bare number.
    pytest.param("1200 usd", 1500, [1200], [1200], id="usd-after"),
    pytest.param("usd 1200 is fine", 1500, [], [1200], id="usd-before"),
    pytest.param("within 2000 dollars", 2500, [2000], [2000], id="digits-dollars"),
    pytest.param("a hundred and fifty dollars", 200, [], [150], id="spelled-compound"),
    pytest.param("i can do fifteen hundred", 2000, [], [1500], id="spelled-no-currency"),
    pytest.param("let's do 1 thousand", 1200, [], [1000], id="digit-thousand"),
    pytest.param("how about $250 ?", 300, [250], [250], id="dollar-sign"),
    pytest.param("300$", 300, [300], [300], id="dollar-after"),
    pytest.param("i can do 250", 300, [250], [250], id="bare-known-contexts"),
    pytest.param("i can only do 390 unless", 450, [390], [390], id="bare-calibrated-context"),
    pytest.param("my budget is 1,500 .", 2000, [1500], [1500], id="bare-thousands-comma"),
    pytest.param("i'll pay 1.2k", 1500, [1200], [1200], id="k-suffix-decimal"),
    pytest.param("$2,00", 2500, [200], [200], id="comma-read-as-cocoa-does"),
    # No price, in either mode.
    pytest.param("it has 120k miles", 5000, [], [], id="mileage-k"),
    pytest.param("a few hundred dollars", 300, [], [], id="vague-hundreds"),
    pytest.param("anything between 100-150 dollars", 200, [], [], id="range"),
    pytest.param("it costs 25 cents", 1, [], [], id="cents"),
    pytest.param("5 euros", 10, [], [], id="euros"),
    pytest.param("a grand piano", 500, [], [], id="grand-piano"),
    pytest.param("about 6 months ago", 100, [], [], id="months-ago"),
    pytest.param("it is 10 years old", 100, [], [], id="age"),
    pytest.param("i can do 1900 ?", 1200, [], [], id="above-1.5x-listing"),
    # Known misses of the extended mode.
    pytest.param(
        "a buck fifty",
        3,
        [],
        [1.5],
        id="miss-buck-fifty",
        marks=pytest.mark.xfail(strict=True, reason="quantulum3 reads 'a buck' as 1 dollar"),
    ),
    pytest.param(
        "i can do three fifty",
        400,
        [],
        [350],
        id="miss-three-fifty",
        marks=pytest.mark.xfail(strict=True, reason="'three fifty' is no quantity to quantulum3"),
    ),
    pytest.param(
        "i can do 2 k",
        3000,
        [],
        [2000],
        id="miss-spaced-k",
        marks=pytest.mark.xfail(strict=True, reason="a lone 'k' token is not read as thousand"),
    ),
]


@pytest.mark.parametrize(("text", "listing_price", "cocoa", "extended"), GOLDEN)
def test_golden_price_mentions(
    text: str, listing_price: float, cocoa: list[float], extended: list[float]
) -> None:
    assert _found("cocoa", text, listing_price) == cocoa
    assert _found("extended", text, listing_price) == extended


def test_extended_finds_everything_cocoa_finds() -> None:
    for param in GOLDEN:
        text, listing_price, _cocoa, _extended = param.values
        cocoa = set(_found("cocoa", str(text), float(listing_price)))  # type: ignore[arg-type]
        extended = set(_found("extended", str(text), float(listing_price)))  # type: ignore[arg-type]
        assert cocoa <= extended, text


RULES = load_extended_rules()
RULE_CASES = [
    pytest.param(rule, text, list(values), id=f"{rule.name}:+{text}")
    for rule in RULES.rules
    for text, values in rule.examples
] + [
    pytest.param(rule, text, [], id=f"{rule.name}:-{text}")
    for rule in RULES.rules
    for text in rule.counterexamples
]


@pytest.mark.parametrize(("rule", "text", "expected"), RULE_CASES)
def test_extended_rule_examples(rule: ExtendedRule, text: str, expected: list[float]) -> None:
    listing = ListingContext(Listing(title="", description="", price=rule.example_listing_price))
    found = extended_readings(tokenize(text), LEXICON, listing, RULES, only=rule.name)
    assert [m.value for m in found] == expected


def test_every_extended_rule_has_examples_and_counterexamples() -> None:
    for rule in RULES.rules:
        assert rule.examples and rule.counterexamples, rule.name


def test_mentions_keep_the_surface_as_written() -> None:
    (mention,) = FINDERS["extended"].find(tokenize("i can do two hundred dollars"))
    assert (mention.surface, mention.value, mention.token) == ("two hundred dollars", 200.0, 3)


def test_bad_extended_rule_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "ext.yaml"
    path.write_text("rules:\n  - name: r\n    kind: regex\n    pattern: '('\n", encoding="utf-8")
    with pytest.raises(RuleError, match=r"ext\.yaml:2: rule 'r'"):
        load_extended_rules(path)
    path.write_text("rules:\n  - name: r\n    kind: quantity\n    reading: x\n")
    with pytest.raises(RuleError, match="needs a reading"):
        load_extended_rules(path)


def test_unknown_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown price mode 'fuzzy'"):
        CraigslistParser(prices="fuzzy")


def test_parser_mode_changes_only_the_linking() -> None:
    record = {
        "agent_turn": [0, 1, 0, 1],
        "utterance": [
            "hi , is the bike still for sale ? i like it a lot and want it today , but i "
            "would like to know a little more about it first , like how old it is and "
            "whether it has been ridden much",
            "yes it is , it is in great shape and i am asking the listed price . it is "
            "two years old and i rode it maybe ten times , always on the road",
            "would you take two hundred dollars for it ? i can pick it up tonight",
            "i could do 250 dollars if you come tonight , that is my lowest",
        ],
        "dialogue_acts": {"intent": ["", "", "", ""], "price": [-1.0, -1.0, -1.0, -1.0]},
        "items": {
            "Title": ["bike", "bike"],
            "Description": ["a bike", "a bike"],
            "Price": [300.0, 300.0],
            "Category": ["bike", "bike"],
        },
        "agent_info": {"Role": ["buyer", "seller"], "Target": [200.0, 280.0]},
    }
    dialogue = dialogue_from_hf(record)
    cocoa = CraigslistParser().parse(dialogue)
    extended = CraigslistParser(prices="extended").parse(dialogue)
    assert [a.price for a in cocoa][2:] == [None, 250.0]
    assert [(a.intent, a.price) for a in extended][2:] == [
        ("init-price", 200.0),
        ("counter-price", 250.0),
    ]


def test_cocoa_mode_never_imports_quantulum3(fixtures: CorpusFixtures) -> None:
    code = (
        "import sys\n"
        "from actparse.api import parse_dialogue\n"
        "from actparse.io.records import read_records\n"
        "from actparse.corpora.craigslist.parser import CraigslistParser\n"
        f"recs = list(read_records({str(fixtures / 'craigslist_validation_20.jsonl')!r}))\n"
        "for r in recs: parse_dialogue(r.dialogue())\n"
        "assert 'quantulum3' not in sys.modules, 'cocoa mode imported quantulum3'\n"
        "p = CraigslistParser(prices='extended')\n"
        "assert 'quantulum3' not in sys.modules, 'building the extended parser imported it'\n"
        "p.parse(recs[0].dialogue())\n"
        "print('ok')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_offer_price_recall_on_fixtures(fixtures: CorpusFixtures) -> None:
    dialogues = [r.dialogue() for r in read_records(fixtures / "craigslist_transcripts_20.json")]
    result = offer_price_recall(dialogues)
    cocoa, extended = result["cocoa"], result["extended"]
    assert cocoa.dialogues == extended.dialogues > 0
    assert cocoa.messages == extended.messages > 0
    assert extended.found >= cocoa.found and extended.recall >= cocoa.recall
    assert cocoa.only == 0  # the extended mode keeps every price Cocoa finds


@pytest.mark.corpus
@pytest.mark.slow
@pytest.mark.parametrize("name", ["validation.jsonl", "transcripts_extra.json"])
def test_extended_recall_is_at_least_cocoa(data_dir: Path, name: str) -> None:
    dialogues = (r.dialogue() for r in read_records(data_dir / "craigslist" / name))
    result = offer_price_recall(dialogues)
    assert result["extended"].recall >= result["cocoa"].recall
    assert result["extended"].only > 0 and result["cocoa"].only == 0
