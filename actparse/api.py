"""The library calls: parse, label and evaluate dialogues of any registered corpus.

The library calls: parse a dialogue, label a record, a file or a batch of columns,
evaluate a file. Each asks :mod:`actparse.registry` which corpus it has in hand."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from actparse import registry
from actparse.engine.pipeline import pipeline, pipelines
from actparse.io.messages import json_kind
from actparse.io.records import (
    InputError,
    Record,
    format_of_record,
    group_records,
    read_records,
)
from actparse.io.sources import source_name
from actparse.io.turns import COLUMNS, Source, iter_turn_rows, rows_of_dialogue
from actparse.io.writers import write_record
from actparse.models import Act, Dialogue
from actparse.registry import Parser
from actparse.reports import Report, evaluate_records

if TYPE_CHECKING:
    import pandas

__all__ = [
    "evaluate_path",
    "iter_turn_rows",
    "label_batch",
    "label_file",
    "label_raw",
    "label_record",
    "label_records",
    "parse_dialogue",
    "parser_for",
    "to_frame",
    "turn_features",
    "turns_batch",
]


def _record(raw: Any, source: str = "<record>", line: int = 1) -> Record:
    """A raw record as a :class:`Record` of its format, or :class:`InputError` in words."""
    if not isinstance(raw, Mapping):
        raise InputError(
            f"{source}:{line}: expected a record (an object of fields) or a Dialogue, "
            f"got {json_kind(raw)}"
        )
    record = dict(raw)
    fmt = format_of_record(record)
    if fmt is None:
        hint = registry.explain(record)
        why = f": {hint}" if hint else ""
        raise InputError(f"{source}:{line}: cannot tell which corpus this record is from{why}")
    # One row of a turn table on its own: a dialogue of one turn.
    return next(group_records([Record(record, fmt, source, line)]))


def parser_for(corpus: str) -> Parser:
    """The shipped parser of a corpus in its pipeline, built once per process.

    Its acts carry their coarse acts."""
    return pipeline(corpus)


def parse_dialogue(
    dialogue: Dialogue | Mapping[str, Any], parser: Parser | None = None
) -> list[Act]:
    """One :class:`~actparse.models.Act` per turn of a dialogue.

    ``dialogue`` is a :class:`~actparse.models.Dialogue` or a raw record of any supported
    format (the format is told from its fields).
    """
    d = dialogue if isinstance(dialogue, Dialogue) else _record(dialogue).dialogue()
    return pipeline(d.corpus, parser).parse(d)


def label_record(
    record: Mapping[str, Any], parser: Parser | None = None, *, coarse: bool = False
) -> dict[str, Any]:
    """A copy of a raw record with its acts filled in, in the record's own format.

    The copy shares nothing with ``record``: changing one never changes the other.
    ``coarse``: with the coarse acts in a format that leaves them out (Craigslist: a
    ``coarse`` list in its ``actparse`` field), as ``actparse label --coarse`` writes.
    """
    raw = _record(record)
    # Writers copy only the top level (enough for a file's records, read fresh), so the
    # caller's nested lists and objects are copied here.
    independent = Record(copy.deepcopy(raw.raw), raw.format, raw.source, raw.line)
    out, _acts = label_raw(independent, parser, coarse=coarse)
    # A turn table's row (a dialogue of one turn) comes back as its one labelled row.
    return out[0] if isinstance(out, list) else out


def label_raw(
    record: Record, parser: Parser | None = None, *, coarse: bool = False
) -> tuple[dict[str, Any] | list[dict[str, Any]], list[Act]]:
    """The labelled copy of a record, every input field kept, and its acts.

    A turn table's dialogue is labelled as its rows: a list, one labelled row per row."""
    dialogue = record.dialogue()
    acts = pipeline(dialogue.corpus, parser).parse(dialogue)
    return write_record(record.raw, record.format, dialogue, acts, coarse=coarse), acts


def label_batch(
    batch: Mapping[str, list[Any]],
    indices: Sequence[int] | None = None,
    parser: Parser | None = None,
    *,
    coarse: bool = False,
) -> dict[str, list[Any]]:
    """Label a batch of columns: ``Dataset.map(label_batch, batched=True, with_indices=True)``.

    For formats that keep their acts in one column (the Craigslist HF export's
    ``dialogue_acts``); returns only the columns labelling sets (for Craigslist
    ``dialogue_acts`` and actparse's own ``actparse``), and ``map`` keeps the others.
    ``coarse`` as for :func:`label_record` (``fn_kwargs={"coarse": True}`` in ``map``).
    ``indices`` (what ``with_indices=True`` passes) are the rows' indices in the dataset,
    which an error names (``<dataset index>:25``); without them it names the row's place
    in the batch (``<batch>:6``). A parser given second (the former signature) is the
    parser.
    """
    if parser is None and indices is not None and hasattr(indices, "parse"):
        indices, parser = None, cast(Parser, indices)
    records = _batch_records(batch, indices, "label_batch")
    layouts = {registry.handlers(r.format).spliced_fields for r in records}
    if len(layouts) > 1 or () in layouts:
        found = ", ".join(sorted({r.format for r in records}))
        fitting = ", ".join(n for n, f in registry.formats().items() if f.acts_field)
        raise InputError(
            f"label_batch labels columns of a format that keeps its acts in one column "
            f"({fitting}), not {found}; turns_batch labels every format"
        )
    fields = layouts.pop() if layouts else ()
    out: dict[str, list[Any]] = {field: [] for field in fields}
    for record in records:
        labelled, _acts = label_raw(record, parser, coarse=coarse)
        assert isinstance(labelled, dict)  # a format with acts fields writes a record
        for field in fields:
            out[field].append(labelled[field])
    return out


def _batch_records(batch: Any, indices: Sequence[int] | None, function: str) -> list[Record]:
    """The records of a batch of columns, each named by its index in the dataset.

    ``<dataset index>:N`` where ``indices`` are given (``with_indices=True``), else
    ``<batch>:N``, its place in the batch from 1. A record that is not one is an
    :class:`InputError` so named."""
    size = _batch_size(batch, function)
    if indices is not None and len(indices) != size:
        raise InputError(
            f"{function}: {len(indices)} indices for a batch of {size} rows (pass the "
            "indices Dataset.map gives with with_indices=True)"
        )
    return [
        _record(
            {name: values[i] for name, values in batch.items()},
            *(("<batch>", i + 1) if indices is None else ("<dataset index>", int(indices[i]))),
        )
        for i in range(size)
    ]


#: What labels one record, for each batch function: named when a record is given as a batch.
_ONE = {"label_batch": "label_record", "turns_batch": "iter_turn_rows([record])"}


def _batch_size(batch: Any, function: str) -> int:
    """The number of rows of a batch of columns, or an InputError naming what is wrong.

    The error is an :class:`InputError` saying what is wrong with the batch's shape; ``function`` is
    the batch function called (``label_batch`` or ``turns_batch``), which the message names so the
    user knows which call to fix."""
    if not isinstance(batch, Mapping):
        raise InputError(
            f"{function} takes an object of columns (name: list of values), got {json_kind(batch)}"
        )
    sizes: dict[str, int] = {}
    for name, values in batch.items():
        if not isinstance(values, Sequence) or isinstance(values, str | bytes):
            # What Dataset.map passes without batched=True: one record, not columns.
            raise InputError(
                f"{function}: column {name!r} must be a list of values, got "
                f"{json_kind(values)}: a record, not a batch of columns? Use "
                f"Dataset.map(actparse.{function}, batched=True), or {_ONE[function]} for one"
            )
        sizes[name] = len(values)
    if len(set(sizes.values())) > 1:
        shown = ", ".join(f"{name} has {size}" for name, size in sizes.items())
        raise InputError(f"{function}: the columns differ in length ({shown} values)")
    return next(iter(sizes.values()), 0)


def label_records(
    records: Iterable[Record], parsers: Mapping[str, Parser] | None = None
) -> Iterator[tuple[Record, Dialogue, list[Act]]]:
    """Parse a stream of input records; yields each with its dialogue and acts.

    ``parsers`` overrides the shipped parser of a corpus (e.g. a Craigslist parser with
    another lexicon).
    """
    chosen = pipelines(parsers)
    for record in records:
        dialogue = record.dialogue()
        parser = chosen.get(dialogue.corpus) or pipeline(dialogue.corpus)
        yield record, dialogue, parser.parse(dialogue)


def label_file(
    path: str | Path, fmt: str = "auto", *, coarse: bool = False
) -> Iterator[dict[str, Any]]:
    """Labelled output records for every dialogue of a file, in input order.

    ``coarse`` as for :func:`label_record`.
    """
    for record, dialogue, acts in label_records(read_records(path, fmt)):
        out = write_record(record.raw, record.format, dialogue, acts, coarse=coarse)
        # A turn table's dialogue: its rows, each an output record as in the file.
        yield from out if isinstance(out, list) else (out,)


def evaluate_path(
    path: str | Path,
    *,
    corpus: str = "auto",
    fmt: str = "auto",
    parsers: Mapping[str, Parser] | None = None,
) -> Report:
    """Compare our acts with the reference a file carries, with its corpus' evaluator.

    ``corpus="auto"`` takes the corpus of the first record; ``parsers`` overrides the
    shipped parser of a corpus.
    """
    name = source_name(path)  # '-' is <stdin>, as every reader names it
    return evaluate_records(read_records(path, fmt), name, corpus=corpus, parsers=parsers)


def to_frame(
    source: Source,
    *,
    corpus: str | None = None,
    fmt: str = "auto",
    parsers: Mapping[str, Parser] | None = None,
    after: Mapping[str, Any] | Record | None = None,
    start: int = 0,
) -> pandas.DataFrame:
    """The per-turn table of a file or of records as a pandas ``DataFrame``.

    One row per turn and the same columns, with the same dtypes, for every corpus (a
    column a corpus lacks is null): ``corpus``, ``dialogue_id`` (the dialogue's own id,
    else its position among the input's records from 0, as text; unique in the table: a
    repeated id is an :class:`InputError`), ``turn``, ``agent``, ``role``, ``action``,
    ``text``, ``intent`` (native), ``coarse``, ``price``, ``split`` (per item, what each
    agent gets), ``entities``, ``strategies``, ``no_act``, and the deal on the table
    (``deal_move``, ``deal_proposal``, ``deal_standing``, ``proposal_status``,
    ``split_uncertain``); :data:`actparse.io.turns.COLUMNS` describes each. A turn
    table's own other columns (``speaker``, ``items``...) follow them, as ``object``. Each
    dialogue appears once: a corpus that lists a dialogue once from each side (Deal or
    No Deal) names a key both views share, and a record with the same key as the record
    right before it is that dialogue's other view, left out. The arguments are those of
    :func:`~actparse.io.turns.iter_turn_rows`; for a partition of a larger input,
    ``after`` is the record before its first and ``start`` the position of its first
    record in the whole (``to_frame(records[i : i + n], after=records[i - 1], start=i)``),
    so that its ids are those of the whole. Needs pandas
    (``pip install 'actparse[pandas]'``).
    """
    pd = _pandas()
    columns: dict[str, list[Any]] = {c.name: [] for c in COLUMNS}
    rows = iter_turn_rows(source, corpus=corpus, fmt=fmt, parsers=parsers, after=after, start=start)
    for count, row in enumerate(rows):
        for name, value in row.items():
            values = columns.get(name)
            if values is None:
                # An input's own column (a turn table's), null in the rows before it.
                values = columns[name] = [None] * count
            values.append(value)
        for values in columns.values():
            if len(values) <= count:
                values.append(None)
    kinds = {c.name: c.kind.pandas for c in COLUMNS}
    return pd.DataFrame(
        {name: pd.Series(v, dtype=kinds.get(name, "object")) for name, v in columns.items()}
    )


def _pandas() -> Any:
    try:
        import pandas
    except ImportError:
        raise ImportError("to_frame needs pandas: pip install 'actparse[pandas]'") from None
    return pandas


def turns_batch(
    batch: Mapping[str, list[Any]],
    indices: Sequence[int] | None = None,
    parser: Parser | None = None,
) -> dict[str, list[Any]]:
    """Label a batch of columns of any corpus, for ``Dataset.map``.

    Use it as ``Dataset.map(actparse.turns_batch, batched=True, with_indices=True, features=...)``,
    with :func:`turn_features` (plus the input's own) as the features.

    Returns one column, ``turns``: for each input row, its per-turn rows (the columns of
    :func:`to_frame`), so every input row is labelled, both views of a Deal or No Deal
    dialogue included. A dialogue without an id of its own gets its row's index in the
    dataset (``indices``, which ``with_indices=True`` passes), as text: the id
    :func:`to_frame` and ``actparse label --per-turn`` give it, whatever the
    ``batch_size`` or ``num_proc``. Without indices such a row is an :class:`InputError`
    (its place in the batch would repeat in every batch).
    """
    turns: list[list[dict[str, Any]]] = []
    for i, record in enumerate(_batch_records(batch, indices, "turns_batch")):
        dialogue = record.dialogue()
        if dialogue.id is not None:
            ident = str(dialogue.id)
        elif indices is not None:
            ident = str(indices[i])
        else:
            raise InputError(
                f"turns_batch: row {i + 1} of the batch has no dialogue id of its own, so "
                "its id is its index in the dataset, which turns_batch is not given: use "
                "Dataset.map(actparse.turns_batch, batched=True, with_indices=True, "
                "features=actparse.turn_features(dataset.features))"
            )
        acts = pipeline(dialogue.corpus, parser).parse(dialogue)
        turns.append(list(rows_of_dialogue(dialogue, acts, ident)))
    return {"turns": turns}


def turn_features(base: Mapping[str, Any] | None = None, *, nested: bool = True) -> Any:
    """The ``datasets.Features`` of :func:`turns_batch`'s output.

    They are ``base`` (the input dataset's features, which ``map`` keeps) and the ``turns`` column;
    with ``nested=False``, the features of one per-turn row. Needs datasets."""
    import datasets

    row = {c.name: c.kind.feature(datasets) for c in COLUMNS}
    return datasets.Features({**(base or {}), "turns": [row]} if nested else row)
