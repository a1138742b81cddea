"""The one loader of rule files: YAML that remembers lines, key checks, shipped files.

Every declarative file under ``rules/`` (tag rules, the coarse act space, the item-split
lexicon, the extended price rules, the learned price lexicon) is read here:
:func:`read_document` parses JSON, or YAML with a ``__line__`` on every mapping, and the
helpers check records against their allowed keys so that a typo fails loudly with
``file:line``. Shipped files are found with :func:`shipped` (``rules/<folder>/<name>``),
installed inside the package or, in a source checkout, at the top level; a corpus' rule
folder (``Corpus.rules``), actparse's own or a plug-in's, with :func:`rule_folder`.
"""

from __future__ import annotations

import functools
import importlib.resources
import json
import reprlib
from collections.abc import Callable, Collection
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, TypeVar

import yaml

from actparse.engine.documents import BoundedLoader, DocumentError, load_json
from actparse.errors import ActparseError

__all__ = [
    "LINE",
    "RuleError",
    "check_keys",
    "display",
    "is_shipped_folder",
    "line_loader",
    "load_file",
    "parse_json",
    "parse_yaml",
    "read_document",
    "read_json_object",
    "read_text",
    "rule_folder",
    "rules_dir",
    "shipped",
    "shown",
    "string_list",
    "where",
]

#: The key the loader adds to every mapping: the line it starts on (from 1).
LINE = "__line__"

T = TypeVar("T")


class RuleError(ActparseError, ValueError):
    """A rule file, a lexicon or another declarative file actparse loads is malformed.

    The file is shipped, or given with ``--rules``, ``--lexicon``, ``--strategies``, ``--acts``; the
    message names the file and the line."""


def rules_dir() -> Traversable:
    """The directory holding the shipped rule files.

    Installed, it is ``actparse/rules`` inside the package; in a source checkout the
    top-level ``rules/`` is used.
    """
    packaged = importlib.resources.files("actparse").joinpath("rules")
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "rules"


def shipped(*parts: str) -> Traversable:
    """A shipped rule file, e.g. ``shipped("craigslist", "tags.yaml")``."""
    return rules_dir().joinpath(*parts)


def rule_folder(spec: str) -> Traversable | None:
    """The folder a corpus' ``rules`` names (``None`` for ``""``: no folder).

    A plain name (``"craigslist"``) is actparse's own ``rules/<name>``; ``"pkg:sub/dir"``
    is a folder inside the importable package ``pkg`` (``importlib.resources``), so that
    a plug-in ships its rules in its own distribution; anything else with a path
    separator is a folder on disk (best absolute: a relative one depends on the working
    directory).
    """
    if not spec:
        return None
    # An absolute path first: a Windows drive ("C:\\...") also holds a colon.
    if Path(spec).is_absolute():
        return Path(spec)
    package, colon, inside = spec.partition(":")
    if colon:
        found = importlib.resources.files(package)
        return found.joinpath(*inside.split("/")) if inside else found
    if "/" in spec or "\\" in spec:
        return Path(spec)
    return rules_dir().joinpath(spec)


def is_shipped_folder(spec: str) -> bool:
    """Whether ``Corpus.rules`` names one of actparse's own folders (a plain name)."""
    return bool(spec) and ":" not in spec and "/" not in spec and "\\" not in spec


class _LineLoader(BoundedLoader):
    """A safe YAML loader that remembers the line of every mapping, within the bounds.

    The bounds (:mod:`actparse.engine.documents`): aliases expand to few nodes, nesting is
    shallow, numbers fit in a float."""


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> dict[str, Any]:
    mapping = loader.construct_mapping(node, deep=True)
    mapping[LINE] = node.start_mark.line + 1
    return mapping  # type: ignore[return-value]


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def line_loader() -> type[yaml.SafeLoader]:
    """The safe YAML loader that adds ``__line__`` to every mapping."""
    return _LineLoader


def parse_yaml(text: str, source: str) -> Any:
    """A YAML document with line numbers.

    Invalid YAML, or YAML past a bound of :mod:`actparse.engine.documents` (an alias bomb,
    deep nesting, a huge number), is a :class:`RuleError` naming the file and the line."""
    try:
        return yaml.load(text, Loader=_LineLoader)
    except DocumentError as err:
        raise RuleError(f"{source}:{err.line}: {err.problem}") from None
    except yaml.reader.ReaderError as err:
        at = text.count("\n", 0, err.position) + 1
        character = err.character if isinstance(err.character, int) else ord(err.character)
        raise RuleError(
            f"{source}:{at}: not valid YAML: character #x{character:04x}: {err.reason}"
        ) from None
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        raise RuleError(f"{source}{line}: not valid YAML: {_yaml_problem(err)}") from None


def _yaml_problem(err: yaml.YAMLError) -> str:
    """PyYAML's complaint in one line, its marks as lines and columns of the file.

    Its own text spans several lines and calls the file ``"<unicode string>"`` (it was
    given the text, not the file), which a one-line error naming the file cannot carry."""
    if not isinstance(err, yaml.MarkedYAMLError) or err.problem is None:
        return " ".join(str(err).split())
    problem = err.problem
    if err.problem_mark is not None:
        problem += f" at column {err.problem_mark.column + 1}"
    mark = err.context_mark
    if err.context is None or mark is None:
        return problem
    return f"{problem} ({err.context} at line {mark.line + 1}, column {mark.column + 1})"


def parse_json(text: str, source: str) -> Any:
    """A JSON document (learned lexicons).

    Invalid JSON, or JSON past a bound of :mod:`actparse.engine.documents` (deep nesting,
    a huge number), is a :class:`RuleError` naming the file and the line."""
    if text.startswith("\ufeff"):
        raise RuleError(
            f"{source}:1: starts with a byte order mark (BOM), which JSON does not allow; "
            "save it as UTF-8 without one"
        )
    try:
        return load_json(text)
    except json.JSONDecodeError as err:
        raise RuleError(f"{source}:{err.lineno}: not valid JSON: {err.msg}") from None
    except DocumentError as err:
        raise RuleError(f"{source}:{err.line}: {err.problem}") from None


def read_json_object(
    path: str | Path | Traversable, what: str, allowed: frozenset[str]
) -> dict[str, Any]:
    """A learned file's JSON object, checked against its ``allowed`` keys.

    ``what`` names the file's kind in errors ("lexicon"); a file that cannot be read, is
    not a JSON object or has a key not allowed is a :class:`RuleError` naming it."""
    source = str(path)
    file = Path(path) if isinstance(path, str) else path
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise RuleError(f"{source}: cannot read the {what}: {err}") from None
    doc = parse_json(text, source)  # the bounds on nesting and numbers of every rule file
    if not isinstance(doc, dict):
        raise RuleError(f"{source}: a {what} is a JSON object")
    unknown = set(doc) - allowed
    if unknown:
        raise RuleError(f"{source}: unknown keys {sorted(unknown)} (allowed: {sorted(allowed)})")
    return doc


def read_text(path: str | Path | Traversable) -> str:
    """A rule file's text.

    A file that is not UTF-8 is a :class:`RuleError` naming the file and the line of the first
    bad byte."""
    file = Path(path) if isinstance(path, str) else path
    data = file.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        bad = data[err.start : err.start + 1]
        raise RuleError(f"{_display(path)}:{line}: not UTF-8 text (byte {bad!r})") from None


def read_document(path: str | Path | Traversable) -> Any:
    """Read and parse a rule file: JSON or YAML by its name.

    JSON when its name ends in ``.json``, else YAML with line numbers (see :func:`parse_yaml`)."""
    text = read_text(path)
    if str(path).endswith(".json"):
        return parse_json(text, _display(path))
    return parse_yaml(text, _display(path))


def _display(path: str | Path | Traversable) -> str:
    """How a file is named in errors: shipped files relative to ``rules/``."""
    text = str(path)
    root = str(rules_dir())
    if text.startswith(root):
        return "rules" + text[len(root) :].replace("\\", "/")
    return text


def load_file(
    path: str | Path | Traversable | None,
    default: tuple[str, ...],
    parse: Callable[[Any, str], T],
) -> T:
    """Load a rule file with ``parse(document, source)``.

    ``path=None`` loads the shipped file ``default`` (parsed once per process)."""
    if path is None:
        return _shipped_file(default, parse)  # type: ignore[no-any-return]
    return parse(read_document(path), _display(path))


#: How a rule file is named in errors (shipped files relative to ``rules/``).
display = _display


@functools.cache
def _shipped_file(parts: tuple[str, ...], parse: Callable[[Any, str], Any]) -> Any:
    file = shipped(*parts)
    return parse(read_document(file), "rules/" + "/".join(parts))


def where(source: str, record: Any) -> str:
    """``source:line`` of a mapping read by :func:`read_document` (``?`` if unknown)."""
    line = record.get(LINE, "?") if isinstance(record, dict) else "?"
    return f"{source}:{line}"


def check_keys(
    record: Any,
    allowed: Collection[str],
    at: str,
    what: str,
    required: Collection[str] = (),
) -> dict[str, Any]:
    """``record`` if it is a mapping with the keys allowed and required.

    Only ``allowed`` keys and every ``required`` one; otherwise a :class:`RuleError` at ``at``
    naming ``what`` and the keys."""
    if not isinstance(record, dict):
        raise RuleError(f"{at}: {what} must be a mapping, got {shown(record)}")
    extra = set(record) - set(allowed) - {LINE}
    if extra:
        raise RuleError(f"{at}: {what}: unknown key(s) {sorted(extra)}; allowed: {sorted(allowed)}")
    missing = set(required) - set(record)
    if missing:
        raise RuleError(f"{at}: {what}: missing key(s) {sorted(missing)}")
    return record


#: How a value is shown in an error: a few items and characters of it, never all.
_SHOWN = reprlib.Repr()
_SHOWN.maxlevel, _SHOWN.maxlist, _SHOWN.maxdict, _SHOWN.maxstring = 3, 6, 6, 60


def shown(value: Any) -> str:
    """A short ``repr`` of a value from a rule file, for an error message (never all of it).

    >>> shown(["word"] * 1000)
    "['word', 'word', 'word', 'word', 'word', 'word', ...]"
    """
    return _SHOWN.repr(value)


def string_list(value: Any, at: str, key: str, *, single: bool = False) -> tuple[str, ...]:
    """A list of strings (numbers read as words); with ``single`` a lone string too."""
    if single and isinstance(value, str):
        return (value,)
    if not isinstance(value, list) or not all(
        isinstance(v, (str, int)) and not isinstance(v, bool) for v in value
    ):
        kind = "a string or a list of strings" if single else "a list of words"
        raise RuleError(f"{at}: '{key}' must be {kind}")
    return tuple(str(v) for v in value)
