"""The corpora by name: the one place that knows which corpora exist and what each provides.

A :class:`Corpus` names the formats it reads (each with its detection, reader and
writer), its parser, its evaluator, its rule folder and its headline figure. Parsers,
readers, writers and evaluators are given as dotted paths (``"package.module:name"``)
and imported on first use, so labelling one corpus never imports another. Every
dispatch in actparse (format detection, parsing, writing, batch labelling, ``actparse
eval``, the command line's choices and help) asks this module.

Other packages add corpora without editing actparse, in either of two ways:

- an entry point in the group ``actparse_corpora`` whose object is a :class:`Corpus`
  (``[project.entry-points.actparse_corpora] mycorpus = "mypkg.spec:CORPUS"``); it is
  loaded the first time the registry is asked about the corpora;
- :func:`register` at run time.

A reader takes one raw record (a ``dict``) and returns a
:class:`~actparse.models.Dialogue`; a writer takes ``(raw, dialogue, acts)`` and returns
the labelled copy of the record; a parser has ``parse(dialogue) -> list[Act]`` (and may
have ``parse_many``); an evaluator takes ``(records, parser)`` and returns a
:class:`~actparse.reports.Report`.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from actparse.errors import PluginError, RegistryError

if TYPE_CHECKING:
    from actparse.io.records import Record
    from actparse.models import Act, Dialogue
    from actparse.reports import Report

__all__ = [
    "BUILTIN",
    "DEFAULT_CORPUS",
    "ENTRY_POINT_GROUP",
    "BatchParser",
    "Corpus",
    "Evaluator",
    "Format",
    "Handlers",
    "Loadable",
    "Parser",
    "Reader",
    "Writer",
    "corpora",
    "corpus_of_format",
    "default_format",
    "detect",
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

#: The entry-point group plug-in corpora register under.
ENTRY_POINT_GROUP = "actparse_corpora"
#: The corpus a hand-built :class:`~actparse.models.Dialogue` belongs to by default, and
#: whose first format an empty or unreadable file is taken to be.
DEFAULT_CORPUS = "craigslist"


class Parser(Protocol):
    """What every corpus parser offers: one act per turn."""

    def parse(self, dialogue: Dialogue) -> list[Act]: ...


class BatchParser(Parser, Protocol):
    """A parser that also labels a batch at once (faster on large inputs)."""

    def parse_many(self, dialogues: Sequence[Dialogue]) -> list[list[Act]]: ...


Reader = Callable[[dict[str, Any]], "Dialogue"]
Writer = Callable[[dict[str, Any], "Dialogue", Sequence["Act"]], dict[str, Any]]
Evaluator = Callable[[Iterable["Record"], Parser], "Report"]
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
    #: The folder of the corpus' rule files under ``rules/`` (``""``: none).
    rules: str = ""
    #: For a corpus that lists a dialogue once from each side, one view right after the
    #: other: ``Dialogue -> key``, the same key for both views of one dialogue. Per-turn
    #: tables keep a dialogue's first view only (``None``: each record is a dialogue).
    view_key: Loadable | None = None


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
# Detection of the built-in formats: keys only, so that detecting never imports a corpus.
# ---------------------------------------------------------------------------


def _cocoa_kbs_are_mappings(raw: Mapping[str, Any]) -> bool | None:
    """For a Cocoa transcript (``scenario`` and ``events``): whether its knowledge bases
    are mappings (Craigslist: an item and a role) rather than lists (MutualFriends:
    friends); ``None`` for anything else."""
    scenario = raw.get("scenario")
    if not isinstance(scenario, Mapping) or "events" not in raw:
        return None
    kbs = scenario.get("kbs") or [None]
    return isinstance(kbs[0], Mapping)


def _is_craigslist_hf(raw: Mapping[str, Any]) -> bool:
    return "agent_turn" in raw or "utterance" in raw


def _is_craigslist_cocoa(raw: Mapping[str, Any]) -> bool:
    return _cocoa_kbs_are_mappings(raw) is True


def _is_dealornodeal(raw: Mapping[str, Any]) -> bool:
    return "dialogue" in raw and "input" in raw


def _is_casino(raw: Mapping[str, Any]) -> bool:
    return "chat_logs" in raw


def _is_mutualfriends(raw: Mapping[str, Any]) -> bool:
    return "scenario_kbs" in raw or _cocoa_kbs_are_mappings(raw) is False


_CL = "actparse.corpora.craigslist"
_MF = "actparse.corpora.mutualfriends"
_DOND = "actparse.corpora.dealornodeal"
_CASINO = "actparse.corpora.casino"

BUILTIN: tuple[Corpus, ...] = (
    Corpus(
        name="craigslist",
        title="CraigslistBargains",
        formats=(
            Format(
                name="hf",
                help="Craigslist HuggingFace JSON lines, streamed",
                detect=_is_craigslist_hf,
                reader=f"{_CL}.hf:dialogue_from_hf",
                writer=f"{_CL}.hf:write_hf",
                acts_field="dialogue_acts",
                added_fields=("actparse",),
                coarse_writer=f"{_CL}.hf:write_hf_coarse",
            ),
            Format(
                name="cocoa",
                help="Craigslist Cocoa transcripts, a JSON list loaded whole",
                detect=_is_craigslist_cocoa,
                reader=f"{_CL}.cocoa:dialogue_from_cocoa",
                writer=f"{_CL}.cocoa:write_cocoa",
                coarse_writer=f"{_CL}.cocoa:write_cocoa_coarse",
            ),
        ),
        parser=f"{_CL}.parser:default_parser",
        evaluator=f"{_CL}.evaluate:evaluate",
        headline="message_joint_agreement",
        rules="craigslist",
    ),
    Corpus(
        name="dealornodeal",
        title="Deal or No Deal",
        formats=(
            Format(
                name="dealornodeal",
                help="the original text or HF JSON lines",
                detect=_is_dealornodeal,
                reader=f"{_DOND}:dialogue_from_dealornodeal",
                writer="actparse.io.writers:write_acts",
                text_marker="<",
                text_reader=f"{_DOND}:text_line_to_record",
            ),
        ),
        parser=f"{_DOND}:DealOrNoDealParser",
        evaluator=f"{_DOND}:evaluate_dealornodeal",
        headline="final_split_accuracy",
        rules="dealornodeal",
        view_key=f"{_DOND}:dialogue_key",
    ),
    Corpus(
        name="casino",
        title="CaSiNo",
        formats=(
            Format(
                name="casino",
                help="the original JSON list",
                detect=_is_casino,
                reader=f"{_CASINO}:dialogue_from_casino",
                writer="actparse.io.writers:write_acts",
            ),
        ),
        parser=f"{_CASINO}:CasinoParser",
        evaluator=f"{_CASINO}:evaluate_casino",
        headline="final_split_accuracy",
        rules="casino",
    ),
    Corpus(
        name="mutualfriends",
        title="MutualFriends",
        formats=(
            Format(
                name="mutualfriends",
                help="HF JSON lines or Cocoa transcripts",
                detect=_is_mutualfriends,
                reader=f"{_MF}.reader:dialogue_from_mutualfriends",
                writer=f"{_MF}.writer:write_mutualfriends",
            ),
        ),
        parser=f"{_MF}.parser:MutualFriendsParser",
        evaluator=f"{_MF}.evaluate:evaluate_mutualfriends",
        headline="selection_agreement",
        rules="mutualfriends",
    ),
)

# ---------------------------------------------------------------------------
# The registry
# ---------------------------------------------------------------------------

_registered: dict[str, Corpus] = {c.name: c for c in BUILTIN}
_plugins_loaded = False


def register(corpus: Corpus, *, replace: bool = False) -> Corpus:
    """Add a corpus (``replace=True`` to swap one of the same name); returns it.

    Its format names must be new: a format belongs to one corpus.
    """
    _load_plugins()
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
    _formats.cache_clear()
    handlers.cache_clear()
    shipped_parser.cache_clear()


def _load_plugins() -> None:
    """Register the corpora of the ``actparse_corpora`` entry points, once."""
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    for point in entry_points(group=ENTRY_POINT_GROUP):
        corpus = point.load()
        if callable(corpus) and not isinstance(corpus, Corpus):
            corpus = corpus()
        if not isinstance(corpus, Corpus):
            raise PluginError(
                f"entry point {point.name!r} of {ENTRY_POINT_GROUP}: expected an "
                f"actparse.registry.Corpus, got {type(corpus).__name__}"
            )
        _add(corpus, replace=False)


def corpora() -> tuple[Corpus, ...]:
    """Every registered corpus: the built-in ones first, in a fixed order."""
    _load_plugins()
    return tuple(_registered.values())


def names() -> tuple[str, ...]:
    """The names of every registered corpus."""
    return tuple(c.name for c in corpora())


def get(name: str) -> Corpus:
    """The corpus called ``name``; an unknown name is a :class:`RegistryError` (a
    ``ValueError``) listing the known."""
    _load_plugins()
    try:
        return _registered[name]
    except KeyError:
        raise RegistryError(f"unknown corpus {name!r}; one of {sorted(_registered)}") from None


@functools.cache
def _formats() -> dict[str, tuple[Format, Corpus]]:
    return {f.name: (f, c) for c in _registered.values() for f in c.formats}


def formats() -> dict[str, Format]:
    """Every format by its name, in registration order."""
    _load_plugins()
    return {name: spec for name, (spec, _corpus) in _formats().items()}


def format_names() -> tuple[str, ...]:
    """The ``--format`` choices (``auto`` aside)."""
    return tuple(formats())


def format_spec(name: str) -> Format:
    """The format called ``name``; unknown: a :class:`RegistryError` (a ``ValueError``)
    listing the known ones."""
    _load_plugins()
    try:
        return _formats()[name][0]
    except KeyError:
        raise RegistryError(f"unknown format {name!r}; one of {sorted(_formats())}") from None


def corpus_of_format(name: str) -> Corpus:
    """The corpus a format belongs to."""
    format_spec(name)  # names the problem for an unknown format
    return _formats()[name][1]


def detect(raw: Any) -> str | None:
    """The format of one raw record, judged by its keys (``None`` when no format fits)."""
    if not isinstance(raw, Mapping):
        return None
    _load_plugins()
    for name, (spec, _corpus) in _formats().items():
        if spec.detect(raw):
            return name
    return None


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
    """The imported reader and writer of a format and its corpus (looked up once: this is
    per-record work)."""
    spec = format_spec(fmt)
    corpus = _formats()[fmt][1].name
    writer = resolve(spec.writer)
    coarse = writer if spec.coarse_writer is None else resolve(spec.coarse_writer)
    spliced = () if spec.acts_field is None else (spec.acts_field, *spec.added_fields)
    return Handlers(corpus, resolve(spec.reader), writer, spec.acts_field, coarse, spliced)


@functools.cache
def shipped_parser(name: str) -> Parser:
    """The shipped parser of a corpus, built once per process (its modules are imported
    now, not before)."""
    build: Callable[[], Parser] = resolve(get(name).parser)
    return build()


def default_format() -> str:
    """The format an empty file, or one whose first line is broken, is read as."""
    return get(DEFAULT_CORPUS).formats[0].name
