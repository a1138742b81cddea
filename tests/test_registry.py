"""The corpus registry: the one place that knows the corpora, lazy, open to plug-ins.

A made-up corpus (``tests/fixtures/plugin/toycorpus.py``) is plugged in from outside, both
through the ``actparse_corpora`` entry point (in a fresh interpreter, through the
command line) and through ``actparse.register``; nothing under ``actparse/`` names it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import actparse
from actparse import registry

PLUGIN = Path(__file__).resolve().parent / "fixtures" / "plugin"
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
        from toycorpus import CORPUS  # type: ignore[import-not-found]

        yield actparse.register(CORPUS)
    finally:
        registry.unregister("toy")
        sys.path.remove(str(PLUGIN))


def test_the_builtin_corpora_are_registered_with_their_formats() -> None:
    assert registry.names()[:4] == ("craigslist", "dealornodeal", "casino", "mutualfriends")
    assert registry.format_names()[:5] == ("hf", "cocoa", "dealornodeal", "casino", "mutualfriends")
    for corpus in registry.corpora():
        assert corpus.formats and corpus.headline and corpus.title


def test_every_dotted_path_of_the_builtin_corpora_resolves() -> None:
    for corpus in registry.BUILTIN:
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


def test_a_plugin_found_through_its_entry_point_works_from_the_command_line(
    tmp_path: Path,
) -> None:
    # An installed distribution is a folder on the path with a .dist-info beside it.
    site = tmp_path / "site"
    info = site / "toycorpus-1.0.dist-info"
    info.mkdir(parents=True)
    (site / "toycorpus.py").write_text((PLUGIN / "toycorpus.py").read_text())
    shutil.copytree(PLUGIN / "toy_rules", site / "toy_rules")
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toycorpus\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[actparse_corpora]\ntoy = toycorpus:CORPUS\n")
    source = tmp_path / "toy.jsonl"
    source.write_text(json.dumps(TOY) + "\n")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]),
    }

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "actparse", *args],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )

    helped = run("label", "--help")
    assert "toy" in helped.stdout  # the --format choices come from the registry
    labelled = run("label", str(source))
    assert labelled.returncode == 0, labelled.stderr
    record = json.loads(labelled.stdout)
    assert [a["intent"] for a in record["acts"]] == ["greet", "inquire", "unknown"]
    evaluated = run("eval", str(source), "--json")
    assert evaluated.returncode == 0, evaluated.stderr
    doc = json.loads(evaluated.stdout)
    assert doc["corpus"] == "toy" and doc["dialogues"] == 1
    assert doc["headline"] == {"figure": "intent_agreement", "value": 2 / 3}
    assert doc["misses"][0]["turns"][0]["ours"] == "unknown"
    shown = run("eval", str(source), "--min-agreement", "0.9")
    assert shown.returncode == 1  # below the floor
    assert "firewood" in shown.stdout and "reference: inform | ours: unknown" in shown.stdout


def test_labelling_craigslist_imports_no_other_corpus(fixtures: Path) -> None:
    code = (
        "import sys, actparse\n"
        f"list(actparse.label_file({str(fixtures / 'craigslist_validation_20.jsonl')!r}))\n"
        "print(sorted(m for m in sys.modules if m.startswith('actparse.corpora.')))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    loaded = eval(result.stdout)
    assert loaded and all(m.startswith("actparse.corpora.craigslist") for m in loaded), loaded


def test_importing_actparse_loads_no_corpus() -> None:
    code = (
        "import sys, actparse; print(any(m.startswith('actparse.corpora.') for m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"
