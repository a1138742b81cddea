"""The per-turn table: one row per turn, the same typed columns for every corpus.

:data:`COLUMNS` is the table's layout, one :class:`Column` per line: its name, its
:class:`~actparse.io.kinds.Kind` (which fixes its Arrow, pandas, ``datasets`` and CSV
types in one place) and how a turn gives its value. A column a corpus lacks is null (a
Craigslist turn has no ``split``, a CaSiNo one no ``role``). Adding a column is adding
one line there.

:func:`iter_turn_rows` is the one place rows are made, for ``actparse.to_frame``,
``actparse label --per-turn`` and the batch and Dask recipes alike.

**Each dialogue once.** A corpus may list a dialogue once from each side, one view
right after the other (Deal or No Deal does). Such a corpus names a ``view_key`` in
:mod:`actparse.registry`: a function of the dialogue that both views share (for Deal or
No Deal the turns in order with each writer taken relative to the first writer, and the
two parties starting with the first writer's). A record whose key equals that of the
record right before it is the other view of that dialogue and gives no rows; so the
table keeps each dialogue's first view, and a dialogue recorded from one side only is
kept too. Only the previous record's key is held, so the rows stream.

**One id per dialogue.** A dialogue's ``dialogue_id`` is its own id where its record has
one (:attr:`~actparse.models.Dialogue.id`: Cocoa's ``uuid``, CaSiNo's ``dialogue_id``),
else its position among the input's records, from 0, as text (``"0"``, ``"1"``, ...): for
a file, how many records come before it (blank lines are no records; for a JSON list,
its index; for Parquet, its row); for records given in memory, its place among them
(plus ``start``, for a partition of a larger input). That is the index
``Dataset.map(..., with_indices=True)`` gives ``actparse.turns_batch``, so every path
gives a dialogue the same id. A second view takes up a position but gets no rows. An id
that repeats one already tabled is an :class:`InputError` naming both records; for this
the ids tabled are held, each with where it was first seen (one small entry per
dialogue, never the rows).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from actparse import registry
from actparse.engine.deals import track_deals
from actparse.engine.pipeline import pipeline, pipelines
from actparse.io.detection import detect_at
from actparse.io.kinds import (
    ENTITIES,
    INTEGER,
    LABEL,
    LABELS,
    NUMBER,
    OPTIONAL_INTEGER,
    SPLIT,
    TEXT,
    Kind,
)
from actparse.io.messages import json_kind
from actparse.io.records import InputError, Record, group_records, read_records
from actparse.io.timed import call_in_time
from actparse.models import Act, Dialogue, Turn

__all__ = [
    "COLUMNS",
    "Column",
    "Kind",
    "Row",
    "Source",
    "Tabled",
    "TurnInContext",
    "column_names",
    "input_fields",
    "iter_dialogue_rows",
    "iter_turn_rows",
    "rows_of_dialogue",
]

Row = dict[str, Any]


class TurnInContext(NamedTuple):
    """What a column's value is taken from: one turn, its act and its dialogue."""

    corpus: str
    dialogue_id: str
    dialogue: Dialogue
    turn: Turn
    act: Act
    #: What became of each proposal of the dialogue, by the turn that made it (empty
    #: when no act of it moves a deal).
    statuses: Mapping[int, str] = MappingProxyType({})


@dataclass(frozen=True)
class Column:
    """One column of the table: its name, kind, and how a turn gives its value."""

    name: str
    kind: Kind
    value: Callable[[TurnInContext], Any]
    help: str


def _split(t: TurnInContext) -> list[Row] | None:
    split = t.act.split
    if split is None:
        return None
    return [
        {"item": item, "agent_0": mine, "agent_1": theirs}
        for item, mine, theirs in zip(split.items, split.counts[0], split.counts[1])
    ]


def _deal(t: TurnInContext, field: str) -> Any:
    return None if t.act.deal is None else getattr(t.act.deal, field)


def _proposal_status(t: TurnInContext) -> str | None:
    deal = t.act.deal
    if deal is None or deal.move != "propose":
        return None
    return t.statuses.get(deal.proposal)


def _split_uncertain(t: TurnInContext) -> list[str]:
    return [] if t.act.split is None else list(t.act.split.uncertain)


def _role(t: TurnInContext) -> str | None:
    parties = t.dialogue.parties
    return (parties[t.turn.agent].role or None) if 0 <= t.turn.agent < len(parties) else None


#: The table, column by column (the order of the columns in every output).
COLUMNS: tuple[Column, ...] = (
    Column("corpus", TEXT, lambda t: t.corpus, "the corpus' registry name"),
    Column(
        "dialogue_id",
        TEXT,
        lambda t: t.dialogue_id,
        "the dialogue's own id where its record has one, else its position among the "
        "input's records, from 0 (`12`: twelve records come before it; the row index of "
        "`Dataset.map(..., with_indices=True)`); unique in a table",
    ),
    Column("turn", INTEGER, lambda t: t.turn.index, "the turn's position in its dialogue"),
    Column("agent", INTEGER, lambda t: t.turn.agent, "the writer, 0 or 1"),
    Column("role", LABEL, _role, "the writer's role (Craigslist: buyer or seller)"),
    Column("action", LABEL, lambda t: t.turn.action, "message, offer, select, ... (null: lost)"),
    Column("text", TEXT, lambda t: t.turn.text, "the message as written ('' for other events)"),
    Column("intent", LABEL, lambda t: t.act.intent, "the corpus' native intent"),
    Column("coarse", LABEL, lambda t: t.act.coarse, "the act in the shared coarse act space"),
    Column(
        "price",
        NUMBER,
        lambda t: None if t.act.price is None else float(t.act.price),
        "the proposed price",
    ),
    Column("split", SPLIT, _split, "the proposed or submitted item split"),
    Column(
        "entities",
        ENTITIES,
        lambda t: [e.to_dict() for e in t.act.entities],
        "knowledge-base values mentioned or selected",
    ),
    Column(
        "strategies",
        LABELS,
        lambda t: list(t.act.strategies),
        "the turn's negotiation strategies (CaSiNo's labels, rules/strategies.yaml)",
    ),
    Column("no_act", LABEL, lambda t: t.act.no_act, "why the turn has no act (null: it has one)"),
    Column(
        "deal_move",
        LABEL,
        lambda t: _deal(t, "move"),
        "what the message does to the deal: propose, restate, agree, confirm or refuse "
        "(null: nothing)",
    ),
    Column(
        "deal_proposal",
        OPTIONAL_INTEGER,
        lambda t: _deal(t, "proposal"),
        "the proposal the move concerns, named by the turn that made it",
    ),
    Column(
        "deal_standing",
        OPTIONAL_INTEGER,
        lambda t: _deal(t, "standing"),
        "the proposal the deal stands on after the message (null: none)",
    ),
    Column(
        "proposal_status",
        LABEL,
        _proposal_status,
        "on a turn that proposes: what became of its proposal by the dialogue's end (open, "
        "agreed, superseded, refused or withdrawn)",
    ),
    Column(
        "split_uncertain",
        LABELS,
        _split_uncertain,
        "why the turn's split parse is unsure: what it assumed rather than read ([] when "
        "nothing, or no split)",
    ),
)

#: The columns of the deal on the table (the last ones): a table written before they
#: were added lacks them.
_DEAL_COLUMNS = frozenset(
    ("deal_move", "deal_proposal", "deal_standing", "proposal_status", "split_uncertain")
)


def column_names() -> tuple[str, ...]:
    """The table's column names, in order."""
    return tuple(c.name for c in COLUMNS)


#: The names of :data:`COLUMNS`, and actparse's own field of a labelled input: an input
#: turn's fields of these names are not kept as extra columns.
_NOT_EXTRA = frozenset(column_names()) | {"actparse"}


def rows_of_dialogue(
    dialogue: Dialogue,
    acts: Iterable[Act],
    dialogue_id: str,
    extras: Sequence[Mapping[str, Any]] = (),
) -> Iterator[Row]:
    """The rows of one dialogue, one per turn, given its acts.

    ``extras`` are the input's own fields of each turn (a turn table's rows): each row
    gets those not named like a column after the columns, in their order. A column of
    actparse's replaces an input field of its name (the input's ``turn`` only ordered
    the rows; its ``text`` is the turn's text; its ``agent`` is kept as ``speaker``).
    """
    acts = list(acts)
    statuses = _statuses(dialogue.corpus, acts)
    for k, (turn, act) in enumerate(zip(dialogue.turns, acts)):
        here = TurnInContext(dialogue.corpus, dialogue_id, dialogue, turn, act, statuses)
        row = {column.name: column.value(here) for column in COLUMNS}
        if k < len(extras):
            row.update((name, v) for name, v in extras[k].items() if name not in _NOT_EXTRA)
            row.update(_own_speaker(extras[k]))
        yield row


def _own_speaker(fields: Mapping[str, Any]) -> dict[str, Any]:
    """The input's own ``agent`` kept as ``speaker`` (text), where it named the speaker.

    A turn table may name its speakers in an ``agent`` column (``bob``, ``5``), which the
    table's ``agent`` (an agent number) replaces: kept as ``speaker``, the name is not
    lost, and the table reads back as the same dialogues. Always text, as a ``speaker``
    is: the column then has one type whatever each dialogue's agents are (Parquet needs
    that). It depends on the columns only. A table actparse wrote has its own agent
    numbers there, and labels again as it is."""
    if "agent" not in fields or "speaker" in fields or _WRITTEN.issubset(fields):
        return {}
    agent = fields["agent"]
    if isinstance(agent, float) and agent.is_integer():
        agent = int(agent)  # pandas' 0.0 for a column with a gap is speaker 0
    return {"speaker": str(agent)}


def _statuses(corpus: str, acts: Sequence[Act]) -> Mapping[int, str]:
    """What became of each proposal of a dialogue, by its turn (empty: no deal tracked)."""
    if all(act.deal is None for act in acts):
        return MappingProxyType({})  # most corpora: no deal to track
    return {turn: proposal.status for turn, proposal in track_deals(acts).proposals.items()}


#: The columns that hold actparse's reading of a turn (not what the input said of it).
_ACT_COLUMNS = (
    frozenset(("corpus", "intent", "coarse", "price", "split", "entities", "strategies", "no_act"))
    | _DEAL_COLUMNS
)
#: The columns that tell a table actparse wrote: every one of its columns but the deal's,
#: so that a table written before those were added labels again as it is too.
_WRITTEN = frozenset(column_names()) - _DEAL_COLUMNS


def _check_no_clash(fields: Sequence[Mapping[str, Any]], record: Record) -> None:
    """Refuse input fields that actparse's act columns would replace without a word.

    A user's own ``price`` or ``intent`` column is common; replacing it loses it. A table
    actparse wrote (every one of its columns there) is labelled again as it is: its act
    columns are actparse's earlier reading, which the new one replaces.
    """
    for row in fields[:1]:  # a dialogue's rows share their columns
        clash = sorted(_ACT_COLUMNS.intersection(row))
        if clash and not _WRITTEN.issubset(row):
            one = len(clash) == 1
            columns, names, them = (
                ("column", "that name", "it") if one else ("columns", "those names", "them")
            )
            raise InputError(
                f"{record.where}: the input's {columns} {', '.join(clash)} would be replaced "
                f"by actparse's {columns} of {names} in the per-turn table: rename {them} to "
                f"keep {them}"
            )


def input_fields(record: Record) -> list[dict[str, Any]]:
    """The input's own fields of each turn of a record, where its format names them.

    A format's ``rows_of`` gives them (a turn table's rows, a nested record's turns);
    ``[]`` for a format without one, whose table has the columns only.
    """
    rows_of = registry.format_spec(record.format).rows_of
    return [] if rows_of is None else registry.resolve(rows_of)(record.raw)


Source = str | Path | Iterable[Mapping[str, Any] | Record]


class Tabled(NamedTuple):
    """One dialogue of the table: its record, its ``dialogue_id`` and its rows.

    A dialogue without turns has no rows."""

    record: Record
    dialogue_id: str
    rows: list[Row]


def iter_turn_rows(
    source: Source,
    *,
    corpus: str | None = None,
    fmt: str = "auto",
    parsers: Mapping[str, registry.Parser] | None = None,
    after: Mapping[str, Any] | Record | None = None,
    start: int = 0,
) -> Iterator[Row]:
    """The per-turn rows of a file or of records, in input order, streamed.

    ``source`` is a path (any input ``actparse label`` reads, Parquet included) or an
    iterable of raw records (dicts of any supported format, a ``datasets.Dataset``) or
    :class:`~actparse.io.records.Record`\\ s. ``corpus`` names the corpus the records
    must be of (``None``: any; a record of another is an :class:`InputError`).
    ``parsers`` overrides the shipped parser of a corpus. For a partition of a larger
    input, ``after`` is the record right before the first one (the last record of the
    previous partition), so that a dialogue's second view at the start of the partition
    is still recognized, and ``start`` is the position of the first record in the whole
    input (how many records come before it), so that a dialogue without an id of its own
    gets the id it has in the whole (see the module's description). A record that
    cannot be read or labelled, or whose dialogue id repeats one already tabled, stops
    the iteration with an :class:`InputError` naming it.
    """
    for tabled in iter_dialogue_rows(
        source, corpus=corpus, fmt=fmt, parsers=parsers, after=after, start=start
    ):
        yield from tabled.rows


def iter_dialogue_rows(
    source: Source,
    *,
    corpus: str | None = None,
    fmt: str = "auto",
    parsers: Mapping[str, registry.Parser] | None = None,
    after: Mapping[str, Any] | Record | None = None,
    start: int = 0,
) -> Iterator[Tabled]:
    """The dialogues of the table, each with its rows, in input order, streamed.

    They are what :func:`iter_turn_rows` flattens (the arguments are its own). A second view is left
    out; a dialogue without turns is there, with no rows."""
    chosen = pipelines(parsers)  # a user's parser wrapped once, not once per dialogue
    previous = None if after is None else _view(_as_record(after, fmt, "<after>", start))
    # Each id tabled, and where it was first seen (the source's name is shared, not copied).
    seen: dict[str, tuple[str, int]] = {}
    for position, record in enumerate(_records(source, fmt, start), start):
        if corpus is not None and record.corpus != corpus:
            title = registry.get(corpus).title
            raise InputError(
                f"{record.where}: a {registry.get(record.corpus).title} record, "
                f"not {title} (corpus={corpus!r})"
            )
        dialogue = record.dialogue()
        key = _view_key(dialogue)
        if key is not None and key == previous:
            continue  # the other view of the dialogue just tabled
        previous = key
        ident = str(position) if dialogue.id is None else str(dialogue.id)
        here = (record.source, record.line)
        first = seen.setdefault(ident, here)
        if first is not here:
            raise InputError(
                f"{record.where}: dialogue id {ident!r} was given already, to the dialogue "
                f"at {first[0]}:{first[1]}, and a table needs one id per dialogue: leave "
                "out the repeated record, or give each dialogue an id of its own"
            )
        parser = chosen.get(dialogue.corpus) or pipeline(dialogue.corpus)
        acts = call_in_time(record.where, parser.parse, dialogue)  # label's deadline
        fields = input_fields(record)
        _check_no_clash(fields, record)
        rows = rows_of_dialogue(dialogue, acts, ident, fields)
        yield Tabled(record, ident, list(rows))


def _view_key(dialogue: Dialogue) -> Any:
    key_of = registry.get(dialogue.corpus).view_key
    return None if key_of is None else registry.resolve(key_of)(dialogue)


def _view(record: Record) -> Any:
    if registry.get(record.corpus).view_key is None:
        return None  # no record read: a turn table's lone row is no dialogue
    return _view_key(record.dialogue())


def _records(source: Source, fmt: str, start: int = 0) -> Iterator[Record]:
    """The records of a file, or of records given in memory.

    A raw one is named ``<records>:N``, N its position in the whole input counted from 1."""
    if isinstance(source, str | Path):
        yield from read_records(source, fmt)
        return
    # A turn table's rows given one by one are grouped as a file's are.
    yield from group_records(
        _as_record(item, fmt, "<records>", number) for number, item in enumerate(source, start + 1)
    )


def _as_record(item: Mapping[str, Any] | Record, fmt: str, source: str, line: int) -> Record:
    if isinstance(item, Record):
        return item
    if not isinstance(item, Mapping):
        raise InputError(
            f"{source}:{line}: expected a record (an object of fields), got {json_kind(item)}"
        )
    raw = dict(item)
    found = detect_at(raw, f"{source}:{line}") if fmt == "auto" else fmt
    if found is None:
        hint = registry.explain(raw)
        why = f": {hint}" if hint else ""
        raise InputError(f"{source}:{line}: cannot tell which corpus this record is from{why}")
    return Record(raw, found, source, line)
