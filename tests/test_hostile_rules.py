"""Issue 28, rule files the user supplies: aliases, nesting and numbers are bounded.

Every rule file (``--rules``, ``--strategies``, ``--acts``, ``--lexicon``, a learned
strategy lexicon) is read through :mod:`actparse.engine.rulefiles`, whose loader
(:mod:`actparse.engine.documents`) refuses an alias bomb, deep nesting, an integer past a
float and a float literal that overflows, each as a one-line :class:`RuleError` naming the
file and the line: through the command line (exit 2, no traceback) and the library.
"""

from __future__ import annotations

import itertools
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest
from corpus_fixtures import CorpusFixtures
from typer.testing import CliRunner

from actparse.cli import app
from actparse.engine.acts import load_act_space
from actparse.engine.documents import ALIAS_NODES, MAX_DEPTH, MAX_DIGITS
from actparse.engine.rulefiles import RuleError, parse_json, parse_yaml, read_document
from actparse.engine.strategies import load_strategy_rules
from actparse.engine.strategy_lexicon import load_strategy_lexicon
from actparse.engine.tags import load_rules

runner = CliRunner()
CRAIGSLIST = "craigslist_validation_20.jsonl"


def _bomb(top: str = "rules") -> str:
    """The classic billion laughs: 10 lists of 10 aliases, 9 levels: 10^10 items expanded."""
    levels = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    names = "abcdefghi"
    for previous, name in itertools.pairwise(names):
        levels.append(f"{name}: &{name} [" + ", ".join([f"*{previous}"] * 10) + "]")
    inner = "\n".join("  " + level for level in levels)
    return f"description:\n{inner}\n{top}:\n  - *i\n"


#: Each hostile rule file: its text and the line its error names.
HOSTILE = {
    "alias-bomb": (_bomb(), 5),
    "nested-5000-flow": ("rules:\n  - " + "[" * 5000 + "]" * 5000 + "\n", 2),
    "nested-5000-mapping": ("rules: " + "{a: " * 5000 + "1" + "}" * 5000 + "\n", 1),
    "nested-5000-block": (
        "rules:\n" + "".join("  " * i + "  -\n" for i in range(5000)),
        MAX_DEPTH + 1,
    ),
    "integer-5000-digits": ("rules:\n  - name: big\n    values: [" + "9" * 5000 + "]\n", 3),
    "integer-past-a-float": ("rules:\n  - name: big\n    tag: " + "9" * 309 + "\n", 3),
    "float-overflow": ("rules:\n  - name: big\n    values: [1.0e+400]\n", 3),
    "self-referring-alias": ("rules: &r\n  - *r\n", 2),
}


def _write(tmp_path: Path, name: str, text: str, suffix: str = ".yaml") -> Path:
    path = tmp_path / f"{name}{suffix}"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("case", HOSTILE)
def test_the_loader_refuses_it_with_file_and_line_fast(tmp_path: Path, case: str) -> None:
    text, line = HOSTILE[case]
    path = _write(tmp_path, case, text)
    start = time.perf_counter()
    with pytest.raises(RuleError) as err:
        read_document(path)
    # A bound on hanging, not a speed figure: PyYAML's scanner looks up to 1,024
    # characters ahead for a flow key, each step over every open bracket, which costs
    # about half a second on 2 cores at 5,000 brackets however deep the file goes.
    assert time.perf_counter() - start < 2
    message = str(err.value)
    assert message.startswith(f"{path}:{line}: ")
    assert "\n" not in message and len(message) < 300


@pytest.mark.parametrize("case", HOSTILE)
@pytest.mark.parametrize(
    "load", [load_rules, load_strategy_rules, load_act_space], ids=["rules", "strategies", "acts"]
)
def test_every_rule_loader_refuses_it(tmp_path: Path, case: str, load: object) -> None:
    text, line = HOSTILE[case]
    path = _write(tmp_path, case, text)
    with pytest.raises(RuleError, match=rf"^{path}:{line}: "):
        load(path)  # type: ignore[operator]


@pytest.mark.parametrize("case", HOSTILE)
@pytest.mark.parametrize("option", ["--rules", "--strategies", "--acts"])
def test_the_command_line_says_one_line_and_exits_2(
    tmp_path: Path, fixtures: CorpusFixtures, case: str, option: str
) -> None:
    text, line = HOSTILE[case]
    path = _write(tmp_path, case, text)
    out = tmp_path / "out.jsonl"
    args = ["label", str(fixtures / CRAIGSLIST), option, str(path), "-o", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    errors = [row for row in result.output.splitlines() if row.startswith("error:")]
    assert len(errors) == 1 and errors[0].startswith(f"error: {path}:{line}: "), result.output
    assert not out.exists()


def test_the_alias_bomb_fails_fast_in_bounded_memory(
    tmp_path: Path, fixtures: CorpusFixtures
) -> None:
    """A real process under a 1 GB address-space limit: it failed after 32 s and 2.2 GB."""
    path = _write(tmp_path, "bomb", _bomb())

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    command = [sys.executable, "-m", "actparse", "label", str(fixtures / CRAIGSLIST)]
    start = time.perf_counter()
    done = subprocess.run(
        [*command, "--rules", str(path), "-o", str(tmp_path / "out.jsonl")],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=limit,
        check=False,
    )
    assert time.perf_counter() - start < 10
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == (
        f"error: {path}:5: aliases expand past {ALIAS_NODES:,} nodes (at *c); "
        "write the values out instead"
    )


def test_a_few_small_aliases_are_still_read() -> None:
    doc = parse_yaml("words: &w [a, b]\nrules:\n  - values: *w\n  - values: *w\n", "x.yaml")
    assert doc["rules"][0]["values"] == ["a", "b"] == doc["rules"][1]["values"]


def test_numbers_that_fit_in_a_float_are_read() -> None:
    big = "9" * 308
    doc = parse_yaml(f"a: {big}\nb: 1.5e+300\nc: .inf\nd: -{big}\n", "x.yaml")
    assert doc["a"] == int(big) and doc["b"] == 1.5e300 and doc["d"] == -int(big)
    assert doc["c"] == float("inf")  # spelled as infinity: the loaders check the value


def test_nesting_up_to_the_bound_is_read() -> None:
    doc = parse_yaml("[" * MAX_DEPTH + "]" * MAX_DEPTH, "x.yaml")
    assert isinstance(doc, list)
    with pytest.raises(RuleError, match="nested more than"):
        parse_yaml("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "x.yaml")


#: Each hostile JSON rule file (lexicons): its text and the line its error names.
HOSTILE_JSON = {
    "nested-5000": ('{"labels":\n' + "[" * 5000 + "]" * 5000 + "}", 2),
    "nested-100000": ('{"labels":\n\n' + "[" * 100_000 + "]" * 100_000 + "}", 3),
    "integer-5000-digits": ('{"labels": [],\n"weights": ' + "9" * 5000 + "}", 2),
    "integer-past-a-float": ('{"labels": [],\n"weights": -' + "9" * MAX_DIGITS + "}", 2),
    "float-overflow": ('{"labels": [],\n\n"weights": [1.5, 2e400]}', 3),
    "brackets-in-strings-do-not-nest": ('{"a":\n"' + "[" * 5000 + '", "b": 1e999}', 2),
}


@pytest.mark.parametrize("case", HOSTILE_JSON)
def test_json_rule_files_are_bounded_too(tmp_path: Path, case: str) -> None:
    text, line = HOSTILE_JSON[case]
    path = _write(tmp_path, case, text, ".json")
    for load in (read_document, load_strategy_lexicon):
        with pytest.raises(RuleError, match=rf"^{path}:{line}: ") as err:
            load(path)  # type: ignore[operator]
        assert "\n" not in str(err.value)


@pytest.mark.parametrize("case", ["nested-5000", "integer-5000-digits", "float-overflow"])
def test_the_price_lexicon_option_refuses_it(
    tmp_path: Path, fixtures: CorpusFixtures, case: str
) -> None:
    text, line = HOSTILE_JSON[case]
    path = _write(tmp_path, case, text, ".json")
    result = runner.invoke(app, ["label", str(fixtures / CRAIGSLIST), "--lexicon", str(path)])
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"error: {path}:{line}: "), result.output
    assert "Traceback" not in result.output


def test_a_json_lexicon_within_the_bounds_is_read() -> None:
    assert parse_json('{"a": [1, 2.5, -3e300, ' + "9" * 300 + "]}", "x.json")["a"][:3] == [
        1,
        2.5,
        -3e300,
    ]


def test_an_error_shows_a_short_value_never_the_whole(tmp_path: Path) -> None:
    path = _write(tmp_path, "long", "rules:\n  - [" + ", ".join(["word"] * 100_000) + "]\n")
    with pytest.raises(RuleError, match=rf"^{path}: every rule must be a mapping") as err:
        load_rules(path)
    assert len(str(err.value)) < 300


def test_the_bounds_are_documented_as_they_are() -> None:
    page = (Path(__file__).parent.parent / "docs" / "large-inputs.md").read_text(encoding="utf-8")
    section = page.split("## Rule files: bounded", 1)[1].split("\n## ", 1)[0]
    assert f"at most {ALIAS_NODES:,} nodes" in section
    assert f"at most {MAX_DEPTH} deep" in section
    assert f"at most {MAX_DIGITS} digits" in section
