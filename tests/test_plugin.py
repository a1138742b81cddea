"""A corpus of its own distribution (``tests/plugin/``) installed beside actparse works
through every command, found through its entry point only.

The plug-in is built and installed into a fresh virtual environment that also sees the
running one (where actparse and its dependencies are), with no network: its corpus
comes in through ``actparse_corpora`` as a third party's would, and no file of actparse
changes for it.
"""

from __future__ import annotations

import json
import shutil
import site
import subprocess
import venv
from collections.abc import Callable
from pathlib import Path

import pytest

PLUGIN = Path(__file__).resolve().parent / "plugin"

Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    """``python -m actparse ARGS`` in a virtual environment with the plug-in installed."""
    root = tmp_path_factory.mktemp("plugin")
    env_dir = root / "venv"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # addsitedir, not a bare path: an editable actparse is itself a .pth to be read.
    lines = [f"import site; site.addsitedir({d!r})" for d in site.getsitepackages()]
    (Path(purelib) / "running_env.pth").write_text("\n".join(lines) + "\n")
    source = shutil.copytree(PLUGIN, root / "plugin")  # the build writes beside its source
    installed = subprocess.run(
        [
            python,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            str(source),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert installed.returncode == 0, installed.stderr

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [python, "-m", "actparse", *args],
            capture_output=True,
            text=True,
            check=False,
            cwd=root,
        )

    return run


pytestmark = pytest.mark.slow


def test_the_plugin_is_a_format_choice(run: Run) -> None:
    helped = run("label", "--help")
    assert helped.returncode == 0, helped.stderr
    assert "toy" in helped.stdout


def test_label_gives_the_intents_of_the_plugins_tag_rules(run: Run) -> None:
    labelled = run("label", str(PLUGIN / "toy.jsonl"))
    assert labelled.returncode == 0, labelled.stderr
    records = [json.loads(line) for line in labelled.stdout.splitlines()]
    assert [[a["intent"] for a in r["acts"]] for r in records] == [
        ["greet", "inquire", "unknown"],
        ["greet", "inquire"],
    ]
    assert records[0]["acts"][1]["tags"] == ["question"]
    assert [a["coarse"] for a in records[0]["acts"]] == ["greet", "inquire", "unknown"]


def test_eval_scores_with_the_plugins_evaluator(run: Run) -> None:
    evaluated = run("eval", str(PLUGIN / "toy.jsonl"), "--json")
    assert evaluated.returncode == 0, evaluated.stderr
    doc = json.loads(evaluated.stdout)
    assert doc["corpus"] == "toy" and doc["dialogues"] == 2
    assert doc["headline"] == {"figure": "intent_agreement", "value": 4 / 5}
    assert doc["misses"][0]["turns"][0]["ours"] == "unknown"
    shown = run("eval", str(PLUGIN / "toy.jsonl"), "--min-agreement", "0.9")
    assert shown.returncode == 1  # below the floor
    assert "firewood" in shown.stdout and "reference: inform | ours: unknown" in shown.stdout


def test_per_turn_has_a_row_per_turn(run: Run, tmp_path: Path) -> None:
    table = tmp_path / "turns.jsonl"
    done = run("label", str(PLUGIN / "toy.jsonl"), "--per-turn", "-o", str(table))
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in table.read_text().splitlines()]
    assert [(r["corpus"], r["turn"], r["intent"], r["coarse"]) for r in rows] == [
        ("toy", 0, "greet", "greet"),
        ("toy", 1, "inquire", "inquire"),
        ("toy", 2, "unknown", "unknown"),
        ("toy", 0, "greet", "greet"),
        ("toy", 1, "inquire", "inquire"),
    ]


def test_report_shows_the_plugins_figures_and_acts(run: Run, tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    done = run("report", str(PLUGIN / "toy.jsonl"), "-o", str(page))
    assert done.returncode == 0, done.stderr
    html = page.read_text(encoding="utf-8")
    assert "Toy" in html and "intent_agreement" in html
    assert "firewood" in html and "inquire" in html
