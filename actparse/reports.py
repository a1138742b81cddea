"""One report interface for every corpus' evaluation.

Each corpus' evaluator returns a :class:`Report`: its figures (:meth:`Report.summary`),
the headline figure that ``actparse eval --min-agreement`` checks, readable worst cases
(:class:`Miss`, each disagreeing turn with the reference, ours and the reason, worst
first) and the tables a person reads (:meth:`Report.tables`). ``to_json`` has the same
top-level keys for every corpus: ``corpus``, ``dialogues``, ``headline``, ``figures``
and ``misses``. Rendering to a terminal is :mod:`actparse.render`'s job.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import chain
from typing import Any, ClassVar, overload

from actparse import registry
from actparse.engine.pipeline import pipeline
from actparse.errors import NothingToScore
from actparse.io.records import InputError, Record
from actparse.io.timed import each_in_time
from actparse.models import Dialogue

__all__ = [
    "JSON_KEYS",
    "WORST_KEY",
    "Evaluator",
    "Miss",
    "MissTurn",
    "Report",
    "Table",
    "evaluate_records",
    "format_figure",
    "located",
    "share",
]

#: What a corpus' ``evaluator`` is: ``(records, parser)`` -> its :class:`Report`. Here, not
#: in :mod:`actparse.registry`, which sits below the records and the reports.
Evaluator = Callable[[Iterable[Record], registry.Parser], "Report"]

#: The top-level keys of :meth:`Report.to_json`, the same for every corpus.
JSON_KEYS = ("corpus", "dialogues", "headline", "figures", "misses")

#: The top-level key ``actparse eval --json --worst N`` adds: :meth:`Report.worst_to_json`.
WORST_KEY = "worst"


@dataclass(frozen=True)
class MissTurn:
    """One turn where we disagree with the reference: what each side says, and why."""

    turn: int
    agent: int
    text: str
    reference: str
    ours: str
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON view."""
        return {
            "turn": self.turn,
            "agent": self.agent,
            "text": self.text,
            "reference": self.reference,
            "ours": self.ours,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Miss:
    """A dialogue we got wrong.

    It holds where the dialogue is, what went wrong in one line, the turns that disagree,
    optionally the dialogue itself as lines to read them in, and optionally what kind of miss
    it is (a corpus' own word, such as a split corpus' ``no_text_proposal``)."""

    where: str
    summary: str
    turns: tuple[MissTurn, ...] = ()
    context: tuple[str, ...] = ()
    kind: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON view."""
        out: dict[str, Any] = {
            "where": self.where,
            "summary": self.summary,
            **({"kind": self.kind} if self.kind else {}),
            "turns": [t.to_dict() for t in self.turns],
        }
        if self.context:
            out["context"] = list(self.context)
        return out


@dataclass(frozen=True)
class Table:
    """A table for people: a title, column names, rows of text, and a line to read first."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""


@overload
def share(part: int, whole: int, *, empty: float) -> float: ...
@overload
def share(part: int, whole: int, *, empty: None) -> float | None: ...
def share(part: int, whole: int, *, empty: float | None) -> float | None:
    """``part / whole``, or ``empty`` when ``whole`` is 0.

    What a figure over nothing is differs from report to report, so each caller names it:
    0.0, 1.0 or ``None`` (no figure: null in JSON, "-" in the tables).

    >>> share(1, 4, empty=0.0), share(0, 0, empty=0.0), share(0, 0, empty=None)
    (0.25, 0.0, None)
    """
    return part / whole if whole else empty


def format_figure(key: str, value: Any) -> str:
    """A figure as people read it.

    Shares as percentages, rates (``*_per_*``) plainly, mappings as ``key value`` pairs."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        return f"{value:.2f}" if "per_" in key else f"{value:.2%}"
    if isinstance(value, Mapping):
        # A share over nothing inside a breakdown reads "-", not an empty gap.
        return ", ".join(
            f"{k} {'-' if v is None else format_figure(key, v)}" for k, v in value.items()
        )
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return "" if value is None else str(value)


class Report(ABC):
    """What every corpus' evaluation offers."""

    #: The corpus evaluated.
    corpus: str
    #: The figure of :meth:`summary` that ``--min-agreement`` checks.
    headline: ClassVar[str]

    @abstractmethod
    def summary(self) -> dict[str, Any]:
        """The figures: ``dialogues`` and the corpus' own (shares as fractions in 0..1)."""

    @abstractmethod
    def misses(self, n: int | None = None) -> list[Miss]:
        """The dialogues we got wrong, worst first (all when ``n`` is ``None``)."""

    def figures(self) -> dict[str, Any]:
        """What ``--json`` prints under ``figures``.

        :meth:`summary`, plus any breakdowns a corpus adds."""
        return self.summary()

    def scored_items(self) -> int | None:
        """How many things the headline figure counts (``None``: the report does not say).

        Zero means the input had nothing to score: the figure would be a guess."""
        return None

    def reference_wanted(self) -> str:
        """What an input must carry to be scored, as the error for one without it says."""
        return f"the reference {self.headline} compares with"

    def agent_names(self) -> tuple[str, str] | None:
        """How the misses name agents 0 and 1.

        As "YOU" and "THEM", so that other views of the same dialogues can name them alike
        (``None``: by role, or as agent 0 and 1)."""
        return None

    def headline_missing(self) -> str:
        """Why the headline figure has no value, when it has none (it counts nothing)."""
        return f"no dialogue has {self.reference_wanted()}"

    def headline_value(self) -> float | None:
        """The value of the headline figure (``None``: it counts nothing, so there is none)."""
        value = self.summary()[self.headline]
        return None if value is None else float(value)

    def title(self) -> str:
        """The title of the figures table: the corpus as people write it."""
        try:
            name = registry.get(self.corpus).title
        except ValueError:
            name = self.corpus
        return f"{name}: evaluation"

    def tables(self) -> list[Table]:
        """The figures as tables.

        The single figures in one table, each breakdown (a mapping of counts or shares) in a table
        of its own."""
        figures = self.figures()
        single = tuple(
            (key, format_figure(key, value))
            for key, value in figures.items()
            if not isinstance(value, (Mapping, list, tuple)) and key != "corpus"
        )
        tables = [Table(self.title(), ("figure", "value"), single)]
        for key, value in figures.items():
            if isinstance(value, Mapping) and value:
                rows = tuple((str(k), format_figure(key, v)) for k, v in value.items())
                tables.append(Table(key, ("", "value"), rows))
        return tables

    def to_json(self, worst: int | None = None) -> dict[str, Any]:
        """The report as JSON.

        ``corpus``, ``dialogues``, ``headline`` (its name and value), ``figures`` (the
        rest of :meth:`figures`) and ``misses`` (the ``worst`` first, or all)."""
        figures = dict(self.figures())
        figures.pop("corpus", None)
        dialogues = figures.pop("dialogues")
        return {
            "corpus": self.corpus,
            "dialogues": dialogues,
            "headline": {"figure": self.headline, "value": self.headline_value()},
            "figures": figures,
            "misses": [m.to_dict() for m in self.misses(worst)],
        }

    def worst_to_json(self, n: int) -> list[dict[str, Any]]:
        """The ``n`` worst dialogues as JSON, worst first: the text report's list, as fields.

        Each is shaped as an entry of ``misses``: ``where`` (the source and line, and the
        dialogue's id), ``summary``, ``turns`` (each disagreeing turn with the reference and
        ours), and ``context`` and ``kind`` where the corpus gives them."""
        return [m.to_dict() for m in self.misses(n)]


def located(items: Iterable[Record | Dialogue]) -> Iterator[tuple[str, Dialogue]]:
    """``(where, dialogue)`` for each input of an evaluator.

    A :class:`Record` is named by its ``file:line`` (and its corpus id, when it has one), a bare
    :class:`Dialogue` by its id or its position from 1."""
    for number, item in enumerate(items, start=1):
        if isinstance(item, Record):
            dialogue = item.dialogue()
            where = item.where if dialogue.id is None else f"{item.where} ({dialogue.id})"
        else:
            dialogue = item
            where = dialogue.id if dialogue.id is not None else f"dialogue {number}"
        yield where, dialogue


def evaluate_records(
    records: Iterable[Record],
    source: str,
    *,
    corpus: str = "auto",
    parsers: Mapping[str, registry.Parser] | None = None,
) -> Report:
    """Compare our acts with the reference the records carry.

    Uses their corpus' evaluator; ``actparse eval`` and the HTML report go through here.

    ``source`` names the input in errors; ``corpus="auto"`` takes the corpus of the
    first record; ``parsers`` overrides the shipped parser of a corpus. An input with
    nothing to score is an :class:`InputError`, not a figure of 100% of nothing.
    """
    stream = iter(records)
    first = next(stream, None)
    if first is None:
        raise NothingToScore(f"{source}: no dialogues")
    name = first.corpus if corpus == "auto" else corpus
    spec = registry.get(name)
    if name != first.corpus:
        # Another corpus' evaluator would fail deep inside on fields it does not know.
        raise InputError(
            f"{source}: the records are {registry.get(first.corpus).title} (format "
            f"{first.format}), not {spec.title}; 'auto' tells the corpus from the records"
        )
    evaluator: Evaluator = registry.resolve(spec.evaluator)
    parser = pipeline(name, (parsers or {}).get(name))
    with each_in_time(chain([first], stream)) as timed:  # the deadline of label, per record
        report = evaluator(timed, parser)
    if report.scored_items() == 0:
        n = int(report.summary().get("dialogues", 0))
        raise NothingToScore(
            f"{source}: nothing to score: "
            + ("its one dialogue lacks" if n == 1 else f"none of its {n} dialogues has")
            + f" {report.reference_wanted()}; 'actparse label' labels them"
        )
    return report
