"""Each corpus' coarse map, in its own rule folder, and the pipeline that applies it: the
map of every built-in corpus covers exactly what its parser gives, a map with an act the
inventory lacks or an intent left out fails on load naming the file, and a corpus from
outside actparse maps its acts through a folder of its own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from corpus_fixtures import CorpusFixtures

import actparse
from actparse import registry
from actparse.engine.acts import COARSE_FILE, load_act_space
from actparse.engine.pipeline import Pipeline, pipeline
from actparse.engine.rulefiles import RuleError, rule_folder, rules_dir
from actparse.models import Act, Dialogue, Party, Turn

SPACE = load_act_space()


@pytest.mark.parametrize("corpus", registry.names())
def test_each_corpus_map_is_read_from_its_rule_folder(corpus: str) -> None:
    found = SPACE.coarse_map(corpus)
    assert found is not None
    assert found.source == f"rules/{registry.get(corpus).rules}/{COARSE_FILE}"
    # Both directions: every intent the parser gives is mapped, nothing else is.
    assert set(found.acts) == set(registry.shipped_parser(corpus).intents)  # type: ignore[attr-defined]
    assert set(found.acts.values()) <= set(SPACE.names)


def test_the_inventory_holds_no_corpus_map() -> None:
    assert all(not act.native for act in SPACE.acts)


def test_rule_folders_are_actparse_own_a_package_folder_or_a_path(tmp_path: Path) -> None:
    assert str(rule_folder("casino")) == str(rules_dir().joinpath("casino"))
    assert str(rule_folder("actparse:engine")).endswith("engine")
    assert rule_folder(str(tmp_path)) == tmp_path
    assert rule_folder("") is None


class _Tiny:
    """A parser of a corpus from outside: greets, else does not know."""

    intents = ("hello", "other")

    def parse(self, dialogue: Dialogue) -> list[Act]:
        return [
            Act(t.index, t.agent, "hello" if "hi" in t.text else "other") for t in dialogue.turns
        ]


@pytest.fixture
def tiny(tmp_path: Path) -> Iterator[Path]:
    """A corpus ``tiny`` whose rule folder is ``tmp_path``; its coarse map is written by
    each test."""
    corpus = registry.Corpus(
        name="tiny",
        title="Tiny",
        formats=(registry.Format("tiny", "tiny", lambda r: "tiny" in r, "x:y", "x:y"),),
        parser=_Tiny,
        evaluator="x:y",
        headline="h",
        rules=str(tmp_path),
    )
    actparse.register(corpus)
    try:
        yield tmp_path / COARSE_FILE
    finally:
        registry.unregister("tiny")


def _dialogue(*texts: str) -> Dialogue:
    turns = tuple(Turn(i, i % 2, "message", text) for i, text in enumerate(texts))
    return Dialogue(turns, (Party(), Party()), corpus="tiny")


def test_a_corpus_from_outside_uses_its_own_map(tiny: Path) -> None:
    tiny.write_text("coarse:\n  greet: [hello]\n  unknown: [other]\n")
    acts = actparse.parse_dialogue(_dialogue("hi there", "what"))
    assert [(a.intent, a.coarse) for a in acts] == [("hello", "greet"), ("other", "unknown")]
    assert isinstance(pipeline("tiny"), Pipeline)


def test_an_unmapped_native_intent_is_a_load_error_naming_the_file(tiny: Path) -> None:
    tiny.write_text("description: x\ncoarse:\n  greet: [hello]\n")
    with pytest.raises(RuleError, match=rf"{tiny}: no coarse act for the tiny intent\(s\) 'other'"):
        pipeline("tiny")


def test_an_unknown_coarse_act_is_a_load_error_naming_the_file(tiny: Path) -> None:
    tiny.write_text("coarse:\n  greet: [hello]\n  haggle: [other]\n")
    with pytest.raises(RuleError, match=rf"{tiny}:2: coarse act 'haggle' is not in the act"):
        pipeline("tiny")


def test_a_coarse_map_has_only_known_keys(tiny: Path) -> None:
    tiny.write_text("coarse:\n  greet: [hello]\n  unknown: [other]\nintent: {}\n")
    with pytest.raises(
        RuleError, match=rf"{tiny}:1: the coarse map: unknown key\(s\) \['intent'\]"
    ):
        pipeline("tiny")


def test_an_intent_mapped_twice_is_named(tiny: Path) -> None:
    tiny.write_text("coarse:\n  greet: [hello]\n  unknown: [other, hello]\n")
    with pytest.raises(RuleError, match="tiny intent 'hello' maps to both 'greet' and 'unknown'"):
        pipeline("tiny")


def test_parsers_give_native_intents_and_the_pipeline_the_coarse_acts(
    fixtures: CorpusFixtures,
) -> None:
    import json

    raw = json.loads((fixtures / "craigslist_validation_20.jsonl").read_text().splitlines()[0])
    dialogue = actparse.api._record(raw).dialogue()
    native = registry.shipped_parser("craigslist").parse(dialogue)
    mapped = actparse.parse_dialogue(dialogue)
    assert all(a.coarse is None for a in native)
    assert [a._replace(coarse=None) for a in mapped] == native
    assert [a.coarse for a in mapped] == [SPACE.coarse("craigslist", a.intent) for a in native]
