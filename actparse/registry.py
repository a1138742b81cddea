"""The corpora by name: the one place that knows which corpora exist and what each provides.

It names none itself: every corpus, the built-in ones included, is found the same way,
through the entry points of the group ``actparse_corpora`` (each built-in corpus exports
its :class:`Corpus` as ``SPEC`` from ``actparse/corpora/<name>/spec.py``) or
:func:`register`. A :class:`Corpus` names the formats it reads (each with its detection,
reader and writer), its parser, its evaluator, its rule folder and its headline figure.
Parsers, readers, writers and evaluators are given as dotted paths
(``"package.module:name"``) and imported on first use, so labelling one corpus never
imports another. Every dispatch in actparse (format detection, parsing, writing, batch
labelling, ``actparse eval``, the command line's choices and help) asks this module.

Other packages add corpora without editing actparse, in either of two ways:

- an entry point in the group ``actparse_corpora`` whose object is a :class:`Corpus`
  (``[project.entry-points.actparse_corpora] mycorpus = "mypkg.spec:SPEC"``); every
  entry point is loaded the first time the registry is asked about the corpora;
- :func:`register` at run time.

The corpora come in the order of their :attr:`Corpus.order` (the built-in ones first),
then in the order they were registered: the ``--format`` choices, the help and the
tables of ``actparse eval`` follow it.

A reader takes one raw record (a ``dict``) and returns a
:class:`~actparse.models.Dialogue`; a writer takes ``(raw, dialogue, acts)`` and returns
the labelled copy of the record; a parser has ``parse(dialogue) -> list[Act]`` (and may
have ``parse_many``); an evaluator takes ``(records, parser)`` and returns a
:class:`~actparse.reports.Report`.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, NamedTuple, Protocol

# Below every module that reads or parses (models imports nothing of actparse): the
# protocols name the data model without an import cycle.
from actparse.errors import PluginError, RegistryError
from actparse.models import Act, Dialogue

__all__ = [
    "ENTRY_POINT_GROUP",
    "AmbiguousFormat",
    "BatchParser",
    "Corpus",
    "Format",
    "Handlers",
    "Loadable",
    "NotInstalled",
    "Parser",
    "Reader",
    "Writer",
    "claimants",
    "corpora",
    "corpus_of_format",
    "default_corpus",
    "default_format",
    "detect",
    "explain",
    "format_names",
    "format_spec",
    "formats",
    "get",
    "handlers",
    "names",
    "register",
    "resolve",
    "shipped_parser",
    "text_format",
    "unregister",
]

#: The entry-point group every corpus (built-in or plug-in) registers under.
ENTRY_POINT_GROUP = "actparse_corpora"
#: The :attr:`Corpus.order` of a corpus that gives none: after the built-in ones.
PLUGIN_ORDER = 1000


class NotInstalled(RegistryError):
    """No corpus is registered under the entry points.

    actparse runs from a source tree that was never installed (entry points come from an installed
    distribution)."""


class AmbiguousFormat(RegistryError):
    """A record that formats of more than one corpus claim (none declared narrower)."""

    def __init__(self, formats: Sequence[str]) -> None:
        self.formats = tuple(formats)
        named = " and ".join(f"{f!r} ({_formats()[f][1].title})" for f in self.formats)
        super().__init__(f"the record fits the formats {named}; pass --format")


class Parser(Protocol):
    """What every corpus parser offers: one act per turn."""

    def parse(self, dialogue: Dialogue) -> list[Act]: ...


class BatchParser(Parser, Protocol):
    """A parser that also labels a batch at once (faster on large inputs)."""

    def parse_many(self, dialogues: Sequence[Dialogue]) -> list[list[Act]]: ...


Reader = Callable[[dict[str, Any]], Dialogue]
#: A row format's writer (:attr:`Format.row_key`) returns a list: one labelled row per row.
Writer = Callable[
    [dict[str, Any], Dialogue, Sequence[Act]], "dict[str, Any] | list[dict[str, Any]]"
]
#: A callable, or the dotted path ``"module:attribute"`` of one, imported on first use.
Loadable = str | Callable[..., Any]


@dataclass(frozen=True)
class Format:
    """One input layout of a corpus (a ``--format`` name)."""

    name: str
    #: One line for ``--help``.
    help: str
    #: Whether a raw record is in this layout; looks at its keys only (cheap, no imports).
    detect: Callable[[Mapping[str, Any]], bool]
    #: Raw record -> :class:`~actparse.models.Dialogue`.
    reader: Loadable
    #: ``(raw, dialogue, acts)`` -> the labelled record, every input field kept.
    writer: Loadable
    #: For a plain-text layout (not JSON): the first character of such a file, and the
    #: function that turns one line into a raw record.
    text_marker: str | None = None
    text_reader: Loadable | None = None
    #: The one field of the input the writer replaces, when it changes only that one:
    #: batch labelling then splices the new value into the input line and keeps every
    #: other character.
    acts_field: str | None = None
    #: With :attr:`acts_field`: top-level fields of the writer's own it sets too (an
    #: ``actparse`` object beside a schema with no room for it). Each replaces the same
    #: field of the input line, or is added before its closing brace.
    added_fields: tuple[str, ...] = ()
    #: For a format whose writer leaves the coarse act out: a writer that adds it (where
    #: the format's schema has no room, in a field of the writer's own) and changes
    #: nothing else (``actparse label --coarse``).
    coarse_writer: Loadable | None = None
    #: Formats (of any corpus) this one is more specific than: where both claim a record,
    #: it is this one's; where two claim it and neither is narrower, the record is
    #: ambiguous (:class:`AmbiguousFormat`).
    narrower_than: tuple[str, ...] = ()
    #: For a layout of one record per turn (a turn table): the dialogue a raw row belongs
    #: to. Adjacent rows with the same key are one dialogue, made one record by
    #: :attr:`group_rows`; the writer then returns one labelled row per input row.
    row_key: Callable[[Mapping[str, Any]], Any] | None = None
    #: With :attr:`row_key`: ``(rows, where) -> raw record``, the dialogue record of its
    #: rows (each row kept whole in it). ``where`` names each row's place (``file:line``)
    #: and an :class:`~actparse.errors.InputError` it raises starts with the place of the
    #: row at fault.
    group_rows: Loadable | None = None
    #: ``raw record -> rows``: a record's turns as flat rows, in turn order. For a row
    #: format, the rows :attr:`group_rows` was given (an unlabellable dialogue is written
    #: back as them); for any format, the input's own per-turn fields, which the per-turn
    #: table keeps beside its columns.
    rows_of: Loadable | None = None
    #: ``raw -> hint or None``: asked when no format claims a record, to say what the
    #: record lacks to be of this format (a turn table row without its ``text`` column).
    explain: Callable[[Mapping[str, Any]], str | None] | None = None
    #: For a layout that is a folder of files (a ConvoKit corpus): whether a directory is
    #: one (looks at its file names only); ``path -> (name, pieces)``, the file its lines
    #: are numbered in and an iterator of :class:`~actparse.io.sources.Piece`, one raw
    #: record (or the reason there is none) each; and ``(input folder, empty output folder,
    #: labelled records) -> None``, which writes the labelled copy of the folder
    #: (:mod:`actparse.io.folders`).
    folder_detect: Callable[[Path], bool] | None = None
    folder_reader: Loadable | None = None
    folder_writer: Loadable | None = None


@dataclass(frozen=True)
class Corpus:
    """Everything actparse needs to know about a corpus."""

    name: str
    #: The corpus as people write it ("Deal or No Deal").
    title: str
    formats: tuple[Format, ...]
    #: A callable with no arguments that builds the shipped parser.
    parser: Loadable
    #: ``(records, parser)`` -> :class:`~actparse.reports.Report`.
    evaluator: Loadable
    #: The figure ``actparse eval --min-agreement`` checks.
    headline: str
    #: The folder of the corpus' rule files (its ``tags.yaml``, its ``coarse.yaml``), read
    #: at run time: a plain name is actparse's own ``rules/<name>``, ``"pkg:dir"`` a folder
    #: inside an installed package, an absolute path a folder on disk (``""``: none).
    rules: str = ""
    #: For a corpus that lists a dialogue once from each side, one view right after the
    #: other: ``Dialogue -> key``, the same key for both views of one dialogue. Per-turn
    #: tables keep a dialogue's first view only, and ``actparse label`` counts records,
    #: not dialogues (``None``: each record is a dialogue).
    view_key: Loadable | None = None
    #: Where the corpus comes among the corpora (lower first; equal: in the order
    #: registered). The built-in ones take 10 to 40.
    order: int = PLUGIN_ORDER


def resolve(target: Loadable) -> Any:
    """The object a :data:`Loadable` names (imported on first use)."""
    if not isinstance(target, str):
        return target
    return _import(target)


@functools.cache
def _import(dotted: str) -> Any:
    module, _, attribute = dotted.partition(":")
    obj: Any = importlib.import_module(module)
    for part in attribute.split(".") if attribute else ():
        obj = getattr(obj, part)
    return obj


# ---------------------------------------------------------------------------
# The registry
# ---------------------------------------------------------------------------

_registered: dict[str, Corpus] = {}
_loaded = False


def register(corpus: Corpus, *, replace: bool = False) -> Corpus:
    """Add a corpus (``replace=True`` to swap one of the same name); returns it.

    Its format names must be new: a format belongs to one corpus.
    """
    _load()
    _add(corpus, replace)
    return corpus


def _add(corpus: Corpus, replace: bool) -> None:
    if corpus.name in _registered and not replace:
        raise RegistryError(f"a corpus named {corpus.name!r} is registered already")
    taken = {
        f.name: c.name for c in _registered.values() if c.name != corpus.name for f in c.formats
    }
    for fmt in corpus.formats:
        if fmt.name in taken or fmt.name == "auto":
            raise RegistryError(
                f"corpus {corpus.name!r}: format {fmt.name!r} is taken "
                f"({taken.get(fmt.name, 'reserved')})"
            )
    _registered[corpus.name] = corpus
    _forget()


def unregister(name: str) -> None:
    """Remove a corpus (for tests and plug-in development)."""
    _registered.pop(name, None)
    _forget()


def _forget() -> None:
    _sorted.cache_clear()
    _formats.cache_clear()
    handlers.cache_clear()
    shipped_parser.cache_clear()


def _load() -> None:
    """Register the corpora of the ``actparse_corpora`` entry points, once.

    No entry point at all means actparse itself is not installed (its own corpora are
    entry points too): an empty registry would only fail later and more obscurely.
    """
    global _loaded
    if _loaded:
        return
    # By name, so that the order of equal-ranked plug-ins does not hang on sys.path; the
    # same entry point seen in two copies of a distribution on the path counts once.
    unique = {(p.name, p.value): p for p in entry_points(group=ENTRY_POINT_GROUP)}
    points = [unique[key] for key in sorted(unique)]
    if not points:
        raise NotInstalled(
            f"no corpus is registered (entry point group {ENTRY_POINT_GROUP!r} is empty): "
            "actparse is not installed; in a source checkout run: pip install -e ."
        )
    _loaded = True
    for point in points:
        corpus = point.load()
        if callable(corpus) and not isinstance(corpus, Corpus):
            corpus = corpus()
        if not isinstance(corpus, Corpus):
            raise PluginError(
                f"entry point {point.name!r} of {ENTRY_POINT_GROUP}: expected an "
                f"actparse.registry.Corpus, got {type(corpus).__name__}"
            )
        try:
            _add(corpus, replace=False)
        except RegistryError as err:
            raise RegistryError(f"entry point {point.name} = {point.value}: {err}") from None


@functools.cache
def _sorted() -> tuple[Corpus, ...]:
    # sorted() is stable: equal orders keep the order of registration.
    return tuple(sorted(_registered.values(), key=lambda c: c.order))


def corpora() -> tuple[Corpus, ...]:
    """Every registered corpus: the built-in ones first, in a fixed order."""
    _load()
    return _sorted()


def names() -> tuple[str, ...]:
    """The names of every registered corpus."""
    return tuple(c.name for c in corpora())


def get(name: str) -> Corpus:
    """The corpus called ``name``.

    An unknown name is a :class:`RegistryError` (a ``ValueError``) listing the known."""
    _load()
    try:
        return _registered[name]
    except KeyError:
        raise RegistryError(f"unknown corpus {name!r}; one of {sorted(_registered)}") from None


def default_corpus() -> str:
    """The corpus a run with no input (the bundled sample) is for: the first one."""
    return corpora()[0].name


@functools.cache
def _formats() -> dict[str, tuple[Format, Corpus]]:
    return {f.name: (f, c) for c in _sorted() for f in c.formats}


def formats() -> dict[str, Format]:
    """Every format by its name, in the order of the corpora."""
    _load()
    return {name: spec for name, (spec, _corpus) in _formats().items()}


def format_names() -> tuple[str, ...]:
    """The ``--format`` choices (``auto`` aside)."""
    return tuple(formats())


def format_spec(name: str) -> Format:
    """The format called ``name``.

    Unknown: a :class:`RegistryError` (a ``ValueError``) listing the known ones."""
    _load()
    try:
        return _formats()[name][0]
    except KeyError:
        raise RegistryError(f"unknown format {name!r}; one of {sorted(_formats())}") from None


def corpus_of_format(name: str) -> Corpus:
    """The corpus a format belongs to."""
    format_spec(name)  # names the problem for an unknown format
    return _formats()[name][1]


def claimants(raw: Any) -> tuple[str, ...]:
    """Every format whose detection claims a raw record, less the overruled ones.

    A claimant is overruled when a narrower claimant declares itself more specific than it."""
    if not isinstance(raw, Mapping):
        return ()
    _load()
    found = [name for name, (spec, _corpus) in _formats().items() if spec.detect(raw)]
    wider = {w for name in found for w in _formats()[name][0].narrower_than}
    return tuple(name for name in found if name not in wider)


def detect(raw: Any) -> str | None:
    """The format of one raw record, judged by its keys (``None`` when no format fits).

    Every format is asked: a record two of them claim is an :class:`AmbiguousFormat`.
    """
    found = claimants(raw)
    if len(found) > 1:
        raise AmbiguousFormat(found)
    return found[0] if found else None


def explain(raw: Any) -> str | None:
    """Why no format claims a record, where a format can tell (``None``: none can)."""
    if not isinstance(raw, Mapping):
        return None
    hints = [
        h for spec in formats().values() if spec.explain is not None if (h := spec.explain(raw))
    ]
    return "; ".join(hints) if hints else None


def text_format(marker: str) -> str | None:
    """The plain-text format whose files start with ``marker`` (``None`` if none)."""
    for name, spec in formats().items():
        if spec.text_marker is not None and spec.text_marker == marker:
            return name
    return None


class Handlers(NamedTuple):
    """A format's functions, imported: what each record of that format goes through."""

    corpus: str
    reader: Reader
    writer: Writer
    acts_field: str | None
    #: The writer with the coarse acts (the plain writer where that has them already).
    coarse_writer: Writer
    #: Every field the writer sets when it changes only those (``acts_field`` first), to
    #: be spliced into a JSON line; ``()`` when it rewrites the record.
    spliced_fields: tuple[str, ...] = ()


@functools.cache
def handlers(fmt: str) -> Handlers:
    """The imported reader and writer of a format and its corpus.

    They are looked up once: this is per-record work."""
    spec = format_spec(fmt)
    corpus = _formats()[fmt][1].name
    writer = resolve(spec.writer)
    coarse = writer if spec.coarse_writer is None else resolve(spec.coarse_writer)
    spliced = () if spec.acts_field is None else (spec.acts_field, *spec.added_fields)
    return Handlers(corpus, resolve(spec.reader), writer, spec.acts_field, coarse, spliced)


@functools.cache
def shipped_parser(name: str) -> Parser:
    """The shipped parser of a corpus, built once per process.

    Its modules are imported now, not before."""
    build: Callable[[], Parser] = resolve(get(name).parser)
    return build()


def default_format() -> str:
    """The format an empty file, or one whose first line is broken, is read as.

    It is the first format of the first corpus."""
    return corpora()[0].formats[0].name
