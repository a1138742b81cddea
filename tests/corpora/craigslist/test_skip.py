"""Cocoa's length rule: ``skip="cocoa"`` (the default) leaves short dialogues without acts
and says why in every output; ``skip="never"`` (``--skip never``) labels them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import spacy
from corpus_fixtures import CorpusFixtures
from typer.testing import CliRunner

import actparse
from actparse import iter_turn_rows
from actparse.cli import app
from actparse.corpora.craigslist.parser import CraigslistParser
from actparse.models import SKIPPED, Dialogue, Party, Turn
from actparse.options import option_parsers

runner = CliRunner()

SHORT = ["Would you take $200?", "No, $250."]
PARTIES = (Party(role="buyer"), Party(role="seller"))
HF = "craigslist_validation_20.jsonl"


def _short() -> Dialogue:
    turns = tuple(Turn(i, i % 2, "message", text) for i, text in enumerate(SHORT))
    return Dialogue(turns=turns, parties=PARTIES, corpus="craigslist")


def test_the_default_skips_and_says_why() -> None:
    acts = CraigslistParser().parse(_short())
    assert [(a.intent, a.note, a.no_act) for a in acts] == [(None, SKIPPED, SKIPPED)] * 2
    assert "length rule" in SKIPPED and "--skip never" in SKIPPED


def test_never_labels_a_dialogue_cocoa_skips() -> None:
    acts = CraigslistParser(skip="never").parse(_short())
    assert [(a.intent, a.price, a.no_act) for a in acts] == [
        ("init-price", 200.0, None),
        ("counter-price", 250.0, None),
    ]


def test_an_unknown_skip_is_refused() -> None:
    with pytest.raises(ValueError, match="skip must be one of cocoa, never, got 'sometimes'"):
        CraigslistParser(skip="sometimes")
    with pytest.raises(ValueError, match="skip must be one of"):
        actparse.parse_docs(SHORT, parties=PARTIES, skip="sometimes")


def test_parse_docs_takes_skip() -> None:
    docs = actparse.parse_docs(SHORT, parties=PARTIES)
    assert [d._.intent for d in docs] == [None, None]
    assert all(d._.act["note"] == SKIPPED for d in docs)
    docs = actparse.parse_docs(SHORT, parties=PARTIES, skip="never")
    assert [d._.intent for d in docs] == ["init-price", "counter-price"]


def test_the_tagger_setting_survives_to_disk(tmp_path: Path) -> None:
    actparse.blank_pipeline(skip="never").to_disk(tmp_path / "nlp")
    nlp = spacy.load(tmp_path / "nlp")
    assert nlp.get_pipe("actparse_tagger").skip == "never"
    docs = actparse.parse_docs(SHORT, nlp, parties=PARTIES)
    assert [d._.intent for d in docs] == ["init-price", "counter-price"]
    # The argument wins over the pipeline's setting.
    assert [d._.intent for d in actparse.parse_docs(SHORT, nlp, parties=PARTIES, skip="cocoa")] == [
        None,
        None,
    ]


def test_option_parsers_pass_skip_to_craigslist_only() -> None:
    parsers = option_parsers(None, skip="never")
    assert set(parsers) == {"craigslist"}
    parser = parsers["craigslist"]
    assert isinstance(parser, CraigslistParser) and parser.skip == "never"
    assert option_parsers(None, skip="cocoa") == {}


def test_the_per_turn_table_says_why_a_turn_has_no_act(fixtures: CorpusFixtures) -> None:
    rows = list(iter_turn_rows(fixtures / HF))
    skipped = [r for r in rows if r["no_act"] == SKIPPED]
    assert skipped and all(r["intent"] is None for r in skipped)
    assert all(r["no_act"] is None for r in rows if r["intent"] is not None)
    assert all(r["no_act"] for r in rows if r["intent"] is None)


def _label(*args: str) -> tuple[list[dict[str, Any]], str]:
    result = runner.invoke(app, ["label", *args])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()], result.stderr


@pytest.mark.usefixtures("tasks_of_one")
def test_label_skip_never_labels_the_fixture(fixtures: CorpusFixtures) -> None:
    default, said = _label(str(fixtures / HF), "--jobs", "1")
    assert "skipped by Cocoa's length rule" in said
    labelled, said = _label(str(fixtures / HF), "--skip", "never", "--jobs", "2")
    assert "skipped" not in said
    for before, after in zip(default, labelled, strict=True):
        acts = after["dialogue_acts"]
        assert all(i for i, text in zip(acts["intent"], after["utterance"]) if text)
        skipped = before["actparse"]["no_act"] == [SKIPPED] * len(after["utterance"])
        if not skipped:  # a dialogue Cocoa labels gets the same acts either way
            assert acts == before["dialogue_acts"]


@pytest.mark.parametrize(
    "name", ["casino_20.json", "dealornodeal_val_20.txt", "mutualfriends_card_sample.jsonl"]
)
def test_skip_changes_nothing_for_other_corpora(fixtures: CorpusFixtures, name: str) -> None:
    assert _label(str(fixtures / name), "--skip", "never") == _label(str(fixtures / name))


def test_report_takes_skip(fixtures: CorpusFixtures, tmp_path: Path) -> None:
    """The report labels as label and eval do: --skip never gives the skipped turns acts."""
    pytest.importorskip("plotly", reason="the report needs the 'report' extra (plotly)")
    shown = {}
    for skip in ("cocoa", "never"):
        out = tmp_path / f"{skip}.html"
        done = runner.invoke(app, ["report", str(fixtures / HF), "--skip", skip, "-o", str(out)])
        assert done.exit_code == 0, done.output
        page = out.read_text(encoding="utf-8")
        at = page.index("turns with an act</th><td>") + len("turns with an act</th><td>")
        shown[skip] = int(page[at : page.index("<", at)].replace(",", ""))
    assert shown["never"] > shown["cocoa"]


def test_eval_takes_skip(fixtures: CorpusFixtures) -> None:
    def figures(*options: str) -> dict[str, float]:
        result = runner.invoke(app, ["eval", str(fixtures / HF), "--json", *options])
        assert result.exit_code == 0, result.output
        return dict(json.loads(result.stdout)["figures"])

    default, never = figures(), figures("--skip", "never")
    assert figures("--skip", "cocoa") == default
    assert default["skip_agreement"] == 1.0 > never["skip_agreement"]
    assert never["message_joint_agreement"] == default["message_joint_agreement"]


@pytest.mark.corpus
def test_the_test_split_skip_never_and_default(data_dir: Path, tmp_path: Path) -> None:
    source = str(data_dir / "craigslist" / "test.jsonl")
    never, said = _label(source, "--skip", "never")
    assert len(never) == 838 and "skipped" not in said
    for record in never:
        acts, added = record["dialogue_acts"], record["actparse"]
        texts = record["utterance"]
        # Every message gets an intent; only turns whose action the export lost have none.
        assert all(i for i, text in zip(acts["intent"], texts) if text)
        assert all(why in (None, "non-message turn of unknown action") for why in added["no_act"])

    default, said = _label(source)
    assert "labelled 838 dialogues to stdout (182 skipped by Cocoa's length rule)" in said
    skipped = 0
    for record in default:
        acts, added = record["dialogue_acts"], record["actparse"]
        # Each turn has an act or a reason for having none, never both.
        assert all(
            (i == "") == (why is not None) for i, why in zip(acts["intent"], added["no_act"])
        )
        skipped += all(why == SKIPPED for why in added["no_act"])
    assert skipped == 182
