"""What the HTML report shows of one input.

Its dialogues with our acts and, when the input carries a reference, the corpus evaluator's
:class:`~actparse.reports.Report`.

Each dialogue is parsed once: the evaluator parses through a recording parser, and the
acts it recorded are the ones the browser shows (a dialogue the evaluator did not parse
itself, or an input without a reference, is parsed here).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from actparse import registry
from actparse.engine.final_chooser import FinalChooser
from actparse.engine.pipeline import pipeline
from actparse.errors import NothingToScore
from actparse.io.records import InputError, Record, read_records
from actparse.io.timed import each_in_time
from actparse.models import Act, Dialogue
from actparse.registry import Parser
from actparse.reports import Miss, Report, evaluate_records

__all__ = ["InputData", "LabelledDialogue", "collect_input"]


@dataclass(frozen=True)
class LabelledDialogue:
    """One dialogue of an input with its acts, and the names an evaluator may give it."""

    where: str
    dialogue: Dialogue
    acts: tuple[Act, ...]
    #: The ``where`` of the evaluator's :class:`~actparse.reports.Miss` for this dialogue
    #: may be ``file:line`` or ``file:line (id)`` (:func:`actparse.reports.located`).
    names: frozenset[str]


@dataclass
class InputData:
    """One input file as the report shows it."""

    path: str
    corpus: str
    title: str
    dialogues: list[LabelledDialogue]
    #: The evaluation, or ``None`` with the reason in ``no_evaluation``.
    report: Report | None = None
    no_evaluation: str = ""
    #: The evaluator's misses by dialogue name (every miss, not only the worst).
    misses: dict[str, Miss] = field(default_factory=dict)
    #: How the report labels the input: the file's name (``""``: set from ``path``).
    name: str = ""
    #: The learned final-split chooser of the parser that labelled it (``None``: the
    #: rules decide), so the browser shows the split the figures scored.
    final_chooser: FinalChooser | None = None

    def __post_init__(self) -> None:
        if not self.name:
            self.name = Path(self.path).name

    def miss_of(self, dialogue: LabelledDialogue) -> Miss | None:
        """The evaluator's miss for a dialogue, if it reported one."""
        for name in dialogue.names:
            if name in self.misses:
                return self.misses[name]
        return None


@dataclass(frozen=True)
class _Kept(Record):
    """A record that reads its dialogue once.

    So the evaluator and the report see the same :class:`Dialogue` object (and the recorded acts can
    be found by it)."""

    kept: list[Dialogue] = field(default_factory=list, compare=False, repr=False)

    def dialogue(self) -> Dialogue:
        if not self.kept:
            self.kept.append(super().dialogue())
        return self.kept[0]


class _Recording:
    """A parser that keeps what it parsed, by dialogue object."""

    def __init__(self, parser: Parser) -> None:
        self.parser = parser
        self.acts: dict[int, list[Act]] = {}

    def parse(self, dialogue: Dialogue) -> list[Act]:
        acts = self.parser.parse(dialogue)
        self.acts[id(dialogue)] = acts
        return acts

    def __getattr__(self, name: str) -> Any:
        # What an evaluator needs beyond parse (MutualFriends' analyse) is the parser's
        # own; those acts are not recorded, and the report parses such dialogues itself.
        return getattr(self.parser, name)


def collect_input(
    path: str | Path, fmt: str = "auto", parsers: Mapping[str, Parser] | None = None
) -> InputData:
    """Read, label and (when it has a reference) evaluate one input file.

    A corpus that lists a dialogue once from each side (``Corpus.view_key``) shows each
    dialogue once, its first view, as its evaluator counts it.
    """
    records = [_Kept(r.raw, r.format, r.source, r.line) for r in read_records(path, fmt)]
    if not records:
        raise InputError(f"{path}: no dialogues")
    corpus = records[0].corpus
    for record in records:
        if record.corpus != corpus:
            # One input is one corpus: its charts and figures would mix two otherwise.
            raise InputError(
                f"{record.where}: a {registry.get(record.corpus).title} record in a "
                f"{registry.get(corpus).title} file"
            )
    spec = registry.get(corpus)
    parser = pipeline(corpus, (parsers or {}).get(corpus))
    recording = _Recording(parser)
    data = InputData(str(path), corpus, spec.title, [])
    data.final_chooser = getattr(parser, "final_chooser", None)
    try:
        data.report = evaluate_records(records, str(path), parsers={corpus: recording})
    except NothingToScore as exc:
        # No reference to compare with (the Craigslist test split, a labelled file): the
        # report shows the acts without figures, and says why.
        data.no_evaluation = str(exc)
    if data.report is not None:
        for miss in data.report.misses():
            data.misses[miss.where] = miss
    key_of = registry.resolve(spec.view_key) if spec.view_key is not None else None
    with each_in_time(records) as timed:
        _add_dialogues(data, timed, parser, recording, key_of)
    return data


def _add_dialogues(
    data: InputData,
    records: Iterable[_Kept],
    parser: Parser,
    recording: _Recording,
    key_of: Callable[[Dialogue], Hashable] | None,
) -> None:
    """Each record's dialogue and acts (those the evaluation parsed, else parsed here)."""
    seen: set[Hashable] = set()
    for record in records:
        dialogue = record.dialogue()
        if key_of is not None:
            key = key_of(dialogue)
            if key in seen:
                continue
            seen.add(key)
        acts = recording.acts.get(id(dialogue))
        if acts is None or len(acts) != len(dialogue.turns):
            acts = parser.parse(dialogue)
        names = {record.where}
        if dialogue.id is not None:
            names |= {f"{record.where} ({dialogue.id})", dialogue.id}
        data.dialogues.append(
            LabelledDialogue(record.where, dialogue, tuple(acts), frozenset(names))
        )
