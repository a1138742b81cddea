"""The library calls: parse a dialogue, label a record, label a batch of HF columns."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from actparse.craigslist import CraigslistParser
from actparse.models import Act, Dialogue
from actparse.readers import Record, dialogue_from_cocoa, dialogue_from_hf, read_records
from actparse.writers import apply_acts

__all__ = ["default_parser", "label_batch", "label_file", "label_record", "parse_dialogue"]


@functools.cache
def default_parser() -> CraigslistParser:
    """The parser with the shipped rules and lexicon, built once per process."""
    return CraigslistParser()


def _as_dialogue(dialogue: Dialogue | Mapping[str, Any]) -> Dialogue:
    if isinstance(dialogue, Dialogue):
        return dialogue
    raw = dict(dialogue)
    return dialogue_from_cocoa(raw) if "events" in raw else dialogue_from_hf(raw)


def parse_dialogue(
    dialogue: Dialogue | Mapping[str, Any], parser: CraigslistParser | None = None
) -> list[Act]:
    """One :class:`~actparse.models.Act` per turn of a dialogue.

    ``dialogue`` is a :class:`~actparse.models.Dialogue` or a raw record in either
    Craigslist format (a HuggingFace record or a Cocoa transcript).
    """
    return (parser or default_parser()).parse(_as_dialogue(dialogue))


def label_record(
    record: Mapping[str, Any], parser: CraigslistParser | None = None
) -> dict[str, Any]:
    """A copy of a raw record with its acts filled in, in the record's own format."""
    raw = dict(record)
    fmt = "cocoa" if "events" in raw else "hf"
    dialogue = dialogue_from_cocoa(raw) if fmt == "cocoa" else dialogue_from_hf(raw)
    return apply_acts(raw, fmt, dialogue, (parser or default_parser()).parse(dialogue))


def label_batch(
    batch: Mapping[str, list[Any]], parser: CraigslistParser | None = None
) -> dict[str, list[Any]]:
    """Label a batch of HF columns: ``Dataset.map(label_batch, batched=True)``.

    Returns only the new ``dialogue_acts`` column; ``map`` keeps the other columns.
    """
    columns = list(batch)
    size = len(batch[columns[0]]) if columns else 0
    acts_column = []
    for i in range(size):
        record = {name: batch[name][i] for name in columns}
        acts_column.append(label_record(record, parser)["dialogue_acts"])
    return {"dialogue_acts": acts_column}


def label_records(
    records: Iterable[Record], parser: CraigslistParser | None = None
) -> Iterator[tuple[Record, Dialogue, list[Act]]]:
    """Parse a stream of input records; yields each with its dialogue and acts."""
    parser = parser or default_parser()
    for record in records:
        dialogue = record.dialogue()
        yield record, dialogue, parser.parse(dialogue)


def label_file(path: str | Path, fmt: str = "auto") -> Iterator[dict[str, Any]]:
    """Labelled output records for every dialogue of a file, in input order."""
    for record, dialogue, acts in label_records(read_records(path, fmt)):
        yield apply_acts(record.raw, record.format, dialogue, acts)
