"""One root for every error that is not a bug: each exception class actparse defines is an
``ActparseError`` (found by walking the package, so a new one is checked too), keeps the
built-in base users may catch it by, and the command line prints it in one line while
anything else is a bug, shown with its traceback and where to report it."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import pkgutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import actparse
from actparse.cli_run import ISSUES_URL
from actparse.errors import ActparseError, InputError
from actparse.io.deadline import RecordTimedOut, RecordTimeout

ROOT = Path(__file__).resolve().parents[1]

#: Exceptions that unwind the stack on purpose and are no error: ``BaseException``s, so
#: that no ``except Exception`` stops them, and turned into an ``ActparseError`` (or an
#: exit status) where they are caught.
CONTROL_FLOW = {
    "actparse.io.deadline.RecordTimeout",  # becomes an error record or a RecordTimedOut
    "actparse.cli_run._Signalled",  # a signal: the run exits with 128 + its number
}


#: Modules that import an optional dependency when imported.
OPTIONAL = {"actparse.convokit": "convokit"}


def _exception_classes() -> dict[str, type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(actparse.__path__, "actparse."):
        if info.name.endswith(".__main__"):
            continue  # running the command is all it does
        if info.name in OPTIONAL and importlib.util.find_spec(OPTIONAL[info.name]) is None:
            continue  # its import is the ImportError that says how to install its dependency
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__ == info.name
            ):
                found[f"{info.name}.{name}"] = value
    return found


CLASSES = _exception_classes()


def test_the_walk_finds_the_known_classes() -> None:
    expected = {
        "actparse.errors.ActparseError",
        "actparse.errors.InputError",
        "actparse.engine.rulefiles.RuleError",
        "actparse.io.destination.OutputError",
        "actparse.io.batch.WorkerDied",
        "actparse.html_report.MissingExtra",
        "actparse.io.deadline.RecordTimedOut",
        *CONTROL_FLOW,
    }
    assert expected <= set(CLASSES)


@pytest.mark.parametrize("name", sorted(set(CLASSES) - CONTROL_FLOW))
def test_every_exception_class_is_an_actparse_error(name: str) -> None:
    cls = CLASSES[name]
    assert issubclass(cls, ActparseError)
    # Its docstring says when it is raised, opening with a one-line summary.
    assert cls.__doc__ and cls.__doc__.strip()


@pytest.mark.parametrize("name", sorted(CONTROL_FLOW))
def test_control_flow_exceptions_pass_every_except_exception(name: str) -> None:
    assert not issubclass(CLASSES[name], Exception)


@pytest.mark.parametrize(
    ("cls", "base"),
    [
        (actparse.InputError, ValueError),
        (actparse.RuleError, ValueError),
        (CLASSES["actparse.io.destination.OutputError"], ValueError),
        (CLASSES["actparse.io.batch.WorkerDied"], RuntimeError),
        (CLASSES["actparse.html_report.MissingExtra"], ImportError),
        (CLASSES["actparse.errors.RegistryError"], ValueError),
        (CLASSES["actparse.errors.PluginError"], TypeError),
    ],
    ids=lambda value: value.__name__,
)
def test_each_keeps_the_base_it_was_caught_by(cls: type, base: type) -> None:
    assert issubclass(cls, base)


def test_the_root_is_exported() -> None:
    assert actparse.ActparseError is ActparseError
    assert "ActparseError" in actparse.__all__
    assert actparse.InputError is InputError


def test_a_timed_out_record_surfaces_as_an_input_error() -> None:
    assert issubclass(RecordTimedOut, InputError)
    assert not issubclass(RecordTimeout, Exception)


@pytest.mark.parametrize(
    "call",
    [
        lambda: actparse.registry.get("no-such-corpus"),
        lambda: actparse.registry.format_spec("no-such-format"),
        lambda: actparse.CraigslistParser(skip="sometimes"),
        lambda: actparse.register(actparse.registry.get("casino")),
    ],
    ids=["unknown-corpus", "unknown-format", "craigslist-skip", "corpus-registered-twice"],
)
def test_a_users_mistake_is_an_actparse_error(call: object) -> None:
    with pytest.raises(ActparseError):
        call()  # type: ignore[operator]


def test_the_issues_url_is_the_projects() -> None:
    urls = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["urls"]
    assert urls["Issues"] == ISSUES_URL


def _run_with(tmp_path: Path, exc: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``actparse eval`` with the evaluation raising ``exc`` (Python source)."""
    script = tmp_path / "run.py"
    script.write_text(
        "import actparse.cli as cli\n"
        "from actparse.errors import InputError\n"
        "def fails(*args, **kwargs):\n"
        f"    raise {exc}\n"
        "cli.evaluate_path = fails\n"
        "cli.main()\n"
    )
    return subprocess.run(
        [sys.executable, str(script), "eval", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(
    ("exc", "message"),
    [
        ("InputError('x.jsonl:3: missing field chat_logs')", "x.jsonl:3: missing field chat_logs"),
        ("FileNotFoundError(2, 'No such file or directory', 'x.jsonl')", "x.jsonl: no such file"),
    ],
    ids=["input-error", "missing-file"],
)
def test_an_actparse_error_is_one_line_with_status_2(
    tmp_path: Path, exc: str, message: str
) -> None:
    done = _run_with(tmp_path, exc, "x.jsonl")
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"error: {message}")


@pytest.mark.parametrize(
    "exc", ["ValueError('not ours')", "KeyError('chat_logs')"], ids=["value-error", "key-error"]
)
def test_anything_else_is_a_bug_with_its_traceback_and_where_to_report_it(
    tmp_path: Path, exc: str
) -> None:
    done = _run_with(tmp_path, exc, "x.jsonl")
    assert done.returncode == 2
    assert exc.split("(")[0] in done.stderr  # the traceback names the exception
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("this is a bug in actparse")
    assert ISSUES_URL in last
