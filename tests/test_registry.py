"""The corpus registry: the one place that knows the corpora, lazy, open to plug-ins.

A made-up corpus (the distribution ``tests/plugin/``) is plugged in at run time through
``actparse.register`` here; ``tests/test_plugin.py`` installs it and finds it through its
entry point. Nothing under ``actparse/`` names it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from corpus_fixtures import CorpusFixtures

import actparse
from actparse import registry

PLUGIN = Path(__file__).resolve().parent / "plugin"
BUILTIN = ("craigslist", "dealornodeal", "casino", "mutualfriends", "chat")
TOY = {
    "toy_turns": [
        {"speaker": 0, "text": "hello there"},
        {"speaker": 1, "text": "what do you need?"},
        {"speaker": 0, "text": "firewood"},
    ],
    "toy_reference": ["greet", "inquire", "inform"],
}


@pytest.fixture
def toy() -> Iterator[registry.Corpus]:
    sys.path.insert(0, str(PLUGIN))
    try:
        from toycorpus.spec import SPEC  # type: ignore[import-not-found]

        yield actparse.register(SPEC)
    finally:
        registry.unregister("toy")
        sys.path.remove(str(PLUGIN))


def test_the_builtin_corpora_are_registered_with_their_formats() -> None:
    assert registry.names()[: len(BUILTIN)] == BUILTIN
    assert registry.format_names()[:5] == ("hf", "cocoa", "dealornodeal", "casino", "mutualfriends")
    for corpus in registry.corpora():
        assert corpus.formats and corpus.headline and corpus.title


def test_the_builtin_corpora_come_through_entry_points_as_plugins_do() -> None:
    points = {p.name: p.load() for p in entry_points(group=registry.ENTRY_POINT_GROUP)}
    assert {c.name: c for c in registry.corpora()[: len(BUILTIN)]} == {
        n: points[n] for n in BUILTIN
    }


def test_without_entry_points_the_registry_says_actparse_is_not_installed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(registry, "_loaded", False)
    monkeypatch.setattr(registry, "_registered", {})
    monkeypatch.setattr(registry, "entry_points", lambda group: [])
    registry._forget()
    try:
        with pytest.raises(registry.NotInstalled, match=r"not installed.*pip install"):
            registry.names()
    finally:
        monkeypatch.undo()
        registry._forget()


def test_an_entry_point_seen_twice_registers_its_corpus_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two copies of one distribution on the path (an installed actparse and its metadata
    again, as spaCy's entry-point test puts it) list the same entry points twice."""
    points = list(entry_points(group=registry.ENTRY_POINT_GROUP))
    monkeypatch.setattr(registry, "_loaded", False)
    monkeypatch.setattr(registry, "_registered", {})
    monkeypatch.setattr(registry, "entry_points", lambda group: [*points, *points])
    registry._forget()
    try:
        assert registry.names()[: len(BUILTIN)] == BUILTIN
    finally:
        monkeypatch.undo()
        registry._forget()


def test_every_dotted_path_of_the_builtin_corpora_resolves() -> None:
    for corpus in registry.corpora()[:4]:
        for target in (corpus.parser, corpus.evaluator):
            assert callable(registry.resolve(target))
        for fmt in corpus.formats:
            for target in (fmt.reader, fmt.writer, fmt.text_reader):
                assert target is None or callable(registry.resolve(target))


def test_unknown_names_are_errors_that_list_the_known() -> None:
    with pytest.raises(ValueError, match=r"unknown corpus 'nope'; one of \["):
        registry.get("nope")
    with pytest.raises(ValueError, match="unknown format 'nope'"):
        registry.format_spec("nope")


def test_a_format_belongs_to_one_corpus(toy: registry.Corpus) -> None:
    clash = registry.Corpus(
        name="other",
        title="Other",
        formats=(registry.Format("hf", "clash", lambda raw: False, "x:y", "x:y"),),
        parser="x:y",
        evaluator="x:y",
        headline="h",
    )
    with pytest.raises(ValueError, match="format 'hf' is taken"):
        registry.register(clash)
    with pytest.raises(ValueError, match="registered already"):
        registry.register(toy)


def test_a_corpus_registered_at_run_time_labels_and_evaluates(toy: registry.Corpus) -> None:
    labelled = actparse.label_record(TOY)
    assert [a["intent"] for a in labelled["acts"]] == ["greet", "inquire", "unknown"]
    assert labelled["toy_turns"] == TOY["toy_turns"]  # every input field kept
    acts = actparse.parse_dialogue(TOY)
    assert [a.coarse for a in acts] == ["greet", "inquire", "unknown"]


def test_labelling_craigslist_imports_no_other_corpus(fixtures: CorpusFixtures) -> None:
    code = (
        "import sys, actparse\n"
        f"list(actparse.label_file({str(fixtures / 'craigslist_validation_20.jsonl')!r}))\n"
        "print(sorted(m for m in sys.modules if m.startswith('actparse.corpora.')))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    loaded = eval(result.stdout)
    # Of another corpus, only what the registry reads: its spec and the package holding it
    # (whose lazy names come from the shared actparse.corpora.lazy).
    others = {f"actparse.corpora.{n}{part}" for n in BUILTIN[1:] for part in ("", ".spec")}
    others.add("actparse.corpora.lazy")
    assert loaded and all(
        m.startswith("actparse.corpora.craigslist") or m in others for m in loaded
    ), loaded


def test_importing_actparse_loads_no_corpus() -> None:
    code = (
        "import sys, actparse; print(any(m.startswith('actparse.corpora.') for m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"


def _claiming(name: str, narrower_than: tuple[str, ...] = ()) -> registry.Corpus:
    """A corpus whose one format claims every record with an ``utterance``."""
    fmt = registry.Format(
        name, "claims hf", lambda raw: "utterance" in raw, "x:y", "x:y", narrower_than=narrower_than
    )
    return registry.Corpus(
        name=name, title=name.title(), formats=(fmt,), parser="x:y", evaluator="x:y", headline="h"
    )


def test_a_record_two_corpora_claim_is_an_input_error_naming_both(tmp_path: Path) -> None:
    from actparse.io.records import InputError, read_records

    source = tmp_path / "both.jsonl"
    source.write_text(json.dumps({"utterance": ["hi"], "agent_turn": [0]}) + "\n")
    registry.register(_claiming("greedy"))
    try:
        with pytest.raises(registry.AmbiguousFormat, match=r"'hf' .*'greedy'.*--format"):
            registry.detect({"utterance": []})
        with pytest.raises(InputError, match=r"both.jsonl:1: .*'hf' \(CraigslistBargains\)"):
            list(read_records(source))
        assert [r.format for r in read_records(source, "hf")] == ["hf"]
    finally:
        registry.unregister("greedy")


def test_a_format_declared_narrower_wins_the_records_both_claim() -> None:
    registry.register(_claiming("narrow", narrower_than=("hf",)))
    try:
        assert registry.detect({"utterance": []}) == "narrow"
    finally:
        registry.unregister("narrow")
    assert registry.detect({"utterance": []}) == "hf"
