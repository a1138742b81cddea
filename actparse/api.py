"""The library calls: parse a dialogue, label a record, a file or a batch of columns,
evaluate a file. Each asks :mod:`actparse.registry` which corpus it has in hand."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from actparse import registry
from actparse.io.messages import json_kind
from actparse.io.records import InputError, Record, format_of_record, read_records
from actparse.io.writers import write_record
from actparse.models import Act, Dialogue
from actparse.registry import Parser
from actparse.registry import shipped_parser as parser_for
from actparse.reports import Report

__all__ = [
    "evaluate_path",
    "label_batch",
    "label_file",
    "label_raw",
    "label_record",
    "label_records",
    "parse_dialogue",
    "parser_for",
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
        raise InputError(f"{source}:{line}: cannot tell which corpus this record is from")
    return Record(record, fmt, source, line)


def parse_dialogue(
    dialogue: Dialogue | Mapping[str, Any], parser: Parser | None = None
) -> list[Act]:
    """One :class:`~actparse.models.Act` per turn of a dialogue.

    ``dialogue`` is a :class:`~actparse.models.Dialogue` or a raw record of any supported
    format (the format is told from its fields).
    """
    d = dialogue if isinstance(dialogue, Dialogue) else _record(dialogue).dialogue()
    return (parser or parser_for(d.corpus)).parse(d)


def label_record(record: Mapping[str, Any], parser: Parser | None = None) -> dict[str, Any]:
    """A copy of a raw record with its acts filled in, in the record's own format.

    The copy shares nothing with ``record``: changing one never changes the other.
    """
    raw = _record(record)
    # Writers copy only the top level (enough for a file's records, read fresh), so the
    # caller's nested lists and objects are copied here.
    independent = Record(copy.deepcopy(raw.raw), raw.format, raw.source, raw.line)
    out, _acts = label_raw(independent, parser)
    return out


def label_raw(record: Record, parser: Parser | None = None) -> tuple[dict[str, Any], list[Act]]:
    """The labelled copy of a record, every input field kept, and its acts."""
    dialogue = record.dialogue()
    acts = (parser or parser_for(dialogue.corpus)).parse(dialogue)
    return write_record(record.raw, record.format, dialogue, acts), acts


def label_batch(
    batch: Mapping[str, list[Any]], parser: Parser | None = None
) -> dict[str, list[Any]]:
    """Label a batch of columns: ``Dataset.map(label_batch, batched=True)``.

    For formats that keep their acts in one column (the Craigslist HF export's
    ``dialogue_acts``); returns only that column, and ``map`` keeps the others.
    """
    size = _batch_size(batch)
    records = [
        _record({name: values[i] for name, values in batch.items()}, "<batch>", i + 1)
        for i in range(size)
    ]
    fields = {registry.format_spec(r.format).acts_field for r in records}
    if len(fields) > 1 or None in fields:
        found = ", ".join(sorted({r.format for r in records}))
        fitting = ", ".join(n for n, f in registry.formats().items() if f.acts_field)
        raise InputError(
            f"label_batch labels columns of a format that keeps its acts in one column "
            f"({fitting}), not {found}"
        )
    out: dict[str, list[Any]] = {}
    for record in records:
        labelled, _acts = label_raw(record, parser)
        for field in fields:
            assert field is not None
            out.setdefault(field, []).append(labelled[field])
    return out


def _batch_size(batch: Any) -> int:
    """The number of rows of a batch of columns, or :class:`InputError` saying what is
    wrong with its shape."""
    if not isinstance(batch, Mapping):
        raise InputError(
            f"label_batch takes an object of columns (name: list of values), got {json_kind(batch)}"
        )
    sizes: dict[str, int] = {}
    for name, values in batch.items():
        if not isinstance(values, Sequence) or isinstance(values, str | bytes):
            # What Dataset.map passes without batched=True: one record, not columns.
            raise InputError(
                f"label_batch: column {name!r} must be a list of values, got "
                f"{json_kind(values)}: a record, not a batch of columns? Use "
                "Dataset.map(actparse.label_batch, batched=True), or label_record for one"
            )
        sizes[name] = len(values)
    if len(set(sizes.values())) > 1:
        shown = ", ".join(f"{name} has {size}" for name, size in sizes.items())
        raise InputError(f"label_batch: the columns differ in length ({shown} values)")
    return next(iter(sizes.values()), 0)


def label_records(
    records: Iterable[Record], parsers: Mapping[str, Parser] | None = None
) -> Iterator[tuple[Record, Dialogue, list[Act]]]:
    """Parse a stream of input records; yields each with its dialogue and acts.

    ``parsers`` overrides the shipped parser of a corpus (e.g. a Craigslist parser with
    another lexicon).
    """
    chosen = parsers or {}
    for record in records:
        dialogue = record.dialogue()
        parser = chosen.get(dialogue.corpus) or parser_for(dialogue.corpus)
        yield record, dialogue, parser.parse(dialogue)


def label_file(path: str | Path, fmt: str = "auto") -> Iterator[dict[str, Any]]:
    """Labelled output records for every dialogue of a file, in input order."""
    for record, dialogue, acts in label_records(read_records(path, fmt)):
        yield write_record(record.raw, record.format, dialogue, acts)


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
    records = read_records(path, fmt)
    first = next(records, None)
    if first is None:
        raise InputError(f"{path}: no dialogues")
    name = first.corpus if corpus == "auto" else corpus
    spec = registry.get(name)
    if name != first.corpus:
        # Another corpus' evaluator would fail deep inside on fields it does not know.
        raise InputError(
            f"{path}: the records are {registry.get(first.corpus).title} (format "
            f"{first.format}), not {spec.title}; 'auto' tells the corpus from the records"
        )
    evaluator: registry.Evaluator = registry.resolve(spec.evaluator)
    parser = (parsers or {}).get(name) or parser_for(name)
    report = evaluator(_chain(first, records), parser)
    if report.scored_items() == 0:
        n = int(report.summary().get("dialogues", 0))
        raise InputError(
            f"{path}: nothing to score: none of its {n} dialogue{'' if n == 1 else 's'} "
            f"has the reference {report.headline} compares with; 'actparse label' labels them"
        )
    return report


def _chain(first: Record, rest: Iterator[Record]) -> Iterator[Record]:
    yield first
    yield from rest
