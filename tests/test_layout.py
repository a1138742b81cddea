"""The package's shape holds: its docstring examples run, no module imports one that
imports it back, no module is much over 500 lines nor function over 80, and corpus
names appear as literals only in the corpus' own modules and the registry."""

from __future__ import annotations

import ast
import doctest
import importlib
import importlib.util
import pkgutil
from pathlib import Path

import pytest

import actparse
from actparse import registry

PACKAGE = Path(actparse.__file__).resolve().parent
MAX_LINES = 500
#: Modules that import an optional dependency when imported: looked at where it is installed.
OPTIONAL = {"actparse.convokit": "convokit"}
MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages([str(PACKAGE)], prefix="actparse.")
    if info.name != "actparse.__main__"
    and (info.name not in OPTIONAL or importlib.util.find_spec(OPTIONAL[info.name]) is not None)
)


def _source(name: str) -> Path:
    module = importlib.import_module(name)
    assert module.__file__ is not None
    return Path(module.__file__)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


@pytest.mark.parametrize("name", MODULES)
def test_no_module_is_much_over_500_lines(name: str) -> None:
    lines = len(_source(name).read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{name}: {lines} lines"


def test_no_import_cycle_counting_type_checking_imports() -> None:
    # Type-only imports are still a module knowing its user: no cycle through them either.
    grimp = pytest.importorskip("grimp")
    graph = grimp.build_graph("actparse", exclude_type_checking_imports=False)
    cycles = [
        (a, b)
        for a in graph.modules
        for b in graph.find_modules_directly_imported_by(a)
        if graph.chain_exists(importer=b, imported=a)
    ]
    assert cycles == []


def _quoted_corpus_names(path: Path) -> list[tuple[int, str]]:
    names = set(registry.names())
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value in names
        and id(node) not in docstrings
    ]


def test_corpus_names_are_quoted_only_in_the_corpora_and_the_registry() -> None:
    found = {
        name: hits
        for name in MODULES
        if not name.startswith("actparse.corpora.") and name != "actparse.registry"
        for hits in [_quoted_corpus_names(_source(name))]
        if hits
    }
    assert found == {}


MAX_FUNCTION_LINES = 80
#: Functions over the limit, with their length: none. One that must stay long is named
#: here with its length, and the test fails when it changes, so the list stays true.
LONG_FUNCTIONS: dict[str, int] = {}


def test_no_function_is_over_80_lines() -> None:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):  # nested functions and methods too
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                assert node.end_lineno is not None
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    where = f"{path.relative_to(PACKAGE.parent).as_posix()}:{node.name}"
                    found[where] = lines
    assert found == LONG_FUNCTIONS
