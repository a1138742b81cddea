"""The learned strategy lexicon (:mod:`actparse.engine.strategy_lexicon`) and the tagger
that adds it to the rules: CaSiNo's default, not the other corpora's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from actparse.engine.rulefiles import RuleError, shipped
from actparse.engine.strategies import NON_STRATEGIC, StrategyTagger, default_tagger
from actparse.engine.strategy_lexicon import StrategyLexicon, load_strategy_lexicon
from actparse.registry import shipped_parser

TOY = {
    "labels": ["small-talk", "uv-part"],
    "intercepts": [-1.0, -1.0],
    "weights": {"weekend": [1.5, 0.0], "you probably": [0.0, 2.0], "probably": [0.0, -0.5]},
}


def _toy(tmp_path: Path, doc: object) -> Path:
    path = tmp_path / "lexicon.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "labels"),
    [
        pytest.param("Great WEEKEND!", ("small-talk",), id="a-word-lowercased"),
        pytest.param("you probably have water", ("uv-part",), id="a-word-pair"),
        pytest.param("it is probably fine", (), id="a-negative-weight"),
        pytest.param("weekend, you probably...", ("small-talk", "uv-part"), id="two-labels"),
        pytest.param("a weekend b", ("small-talk",), id="one-letter-words-are-no-words"),
        pytest.param("", (), id="empty"),
    ],
)
def test_a_label_holds_where_its_weights_outweigh_its_intercept(
    tmp_path: Path, text: str, labels: tuple[str, ...]
) -> None:
    assert load_strategy_lexicon(_toy(tmp_path, TOY)).labels_of(text) == labels


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        pytest.param({**TOY, "extra": 1}, "unknown keys ['extra']", id="unknown-key"),
        pytest.param({"labels": ["small-talk"]}, "missing ['intercepts', 'weights']", id="missing"),
        pytest.param({**TOY, "intercepts": [0.0]}, "2 labels but 1 intercepts", id="intercepts"),
        pytest.param({**TOY, "weights": {"x": [1.0]}}, "the weights of 'x' are 1", id="weights"),
        pytest.param({**TOY, "ngrams": [1, 3]}, "ngrams must be", id="ngrams"),
        pytest.param([1, 2], "a lexicon is a JSON object", id="not-an-object"),
        pytest.param({**TOY, "labels": "uv-part"}, "a list of strings", id="labels-a-string"),
        pytest.param({**TOY, "labels": ["uv-part", "uv-part"]}, "listed twice", id="a-label-twice"),
        pytest.param({**TOY, "intercepts": [1e999, 0.0]}, "finite numbers", id="infinite"),
        pytest.param(
            {**TOY, "weights": {"x": ["0.5", 0.0]}}, "must be finite numbers", id="a-string"
        ),
        pytest.param({**TOY, "weights": {"x": [True, 0.0]}}, "finite numbers", id="a-bool"),
    ],
)
def test_a_malformed_lexicon_names_its_file(tmp_path: Path, doc: object, message: str) -> None:
    path = _toy(tmp_path, doc)
    with pytest.raises(RuleError, match=r"lexicon\.json") as error:
        load_strategy_lexicon(path)
    assert message in str(error.value)


def test_broken_json_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"labels": [\n  "small-talk",\n  oops\n]}', encoding="utf-8")
    with pytest.raises(RuleError, match=r"broken\.json:3: not valid JSON"):
        load_strategy_lexicon(path)


def test_a_lexicon_of_other_labels_is_refused() -> None:
    lexicon = StrategyLexicon(["greet"], [0.0], {}, source="mine.json")
    with pytest.raises(RuleError, match=r"mine\.json: no strategy labels: \['greet'\]"):
        StrategyTagger(lexicon=lexicon)


def test_the_tagger_gives_the_labels_of_the_rules_and_of_the_lexicon() -> None:
    lexicon = StrategyLexicon(["uv-part"], [-1.0], {"lake": [2.0]})
    tagger = StrategyTagger(lexicon=lexicon)
    rules_only = default_tagger()
    text = "How are you? There is a lake right by your site."
    assert rules_only.tag(text) == ("small-talk",)
    assert tagger.tag(text) == ("small-talk", "uv-part")  # in the labels' order
    assert tagger.tag("ok") == rules_only.tag("ok") == (NON_STRATEGIC,)


def test_the_shipped_lexicon_is_casinos_default_only() -> None:
    casino = shipped_parser("casino").strategies  # type: ignore[attr-defined]
    assert casino.lexicon is not None and casino.rules is default_tagger().rules
    for corpus in ("craigslist", "dealornodeal", "mutualfriends"):
        assert shipped_parser(corpus).strategies.lexicon is None  # type: ignore[attr-defined]
    lexicon = load_strategy_lexicon(shipped("casino", "strategy_lexicon.json"))
    assert set(lexicon.labels) == set(casino.lexicon.labels)
    assert len(lexicon.labels) == 9  # every label but non-strategic
    # What the rules miss, the lexicon may find: small talk about the trip.
    assert "small-talk" in casino.tag("We are all set to go hiking tomorrow morning")


def test_the_shipped_lexicon_says_where_it_comes_from() -> None:
    doc = json.loads(shipped("casino", "strategy_lexicon.json").read_text(encoding="utf-8"))
    provenance = doc["provenance"]
    assert "CC BY 4.0" in provenance["corpus"]
    assert "the last 100 annotated ones" in provenance["data"]
    assert "--export" in provenance["written_by"]
    notice = shipped("casino", "LICENSE-strategy-lexicon.txt").read_text(encoding="utf-8")
    assert "CC BY 4.0" in notice and "Chawla" in notice
