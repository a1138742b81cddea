"""The library calls: parse a dialogue, label a record, label a batch of HF columns."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Protocol

from actparse.craigslist import CraigslistParser
from actparse.models import Act, Dialogue
from actparse.readers import InputError, Record, format_of_record, read_records
from actparse.writers import apply_acts, hf_acts

__all__ = [
    "Parser",
    "default_parser",
    "label_batch",
    "label_file",
    "label_raw",
    "label_record",
    "parse_dialogue",
    "parser_for",
]


class Parser(Protocol):
    """What every corpus parser offers: one act per turn."""

    def parse(self, dialogue: Dialogue) -> list[Act]: ...


@functools.cache
def default_parser() -> CraigslistParser:
    """The Craigslist parser with the shipped rules and lexicon, built once per process."""
    return CraigslistParser()


@functools.cache
def parser_for(corpus: str) -> Parser:
    """The shipped parser of a corpus, built once per process (other corpora load lazily)."""
    if corpus == "craigslist":
        return default_parser()
    if corpus == "dealornodeal":
        from actparse.dealornodeal import DealOrNoDealParser

        return DealOrNoDealParser()
    if corpus == "casino":
        from actparse.casino import CasinoParser

        return CasinoParser()
    if corpus == "mutualfriends":
        from actparse.mutualfriends import MutualFriendsParser

        return MutualFriendsParser()
    raise ValueError(f"unknown corpus {corpus!r}")


def _record(raw: Mapping[str, Any]) -> Record:
    record = dict(raw)
    fmt = format_of_record(record)
    if fmt is None:
        raise InputError("cannot tell which corpus this record is from")
    return Record(record, fmt, "<record>", 1)


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
    """A copy of a raw record with its acts filled in, in the record's own format."""
    out, _acts = label_raw(_record(record), parser)
    return out


def label_raw(record: Record, parser: Parser | None = None) -> tuple[dict[str, Any], list[Act]]:
    """The labelled copy of a record, every input field kept, and its acts.

    MutualFriends output also names each selected friend and whether it is in the
    reader's list, which the parser's per-turn analysis holds beyond the act.
    """
    dialogue = record.dialogue()
    chosen = parser or parser_for(dialogue.corpus)
    if dialogue.corpus == "mutualfriends":
        from actparse.mutualfriends import MutualFriendsParser, write_mutualfriends

        if isinstance(chosen, MutualFriendsParser):
            return write_mutualfriends(record.raw, chosen.analyse(dialogue))
    acts = chosen.parse(dialogue)
    return apply_acts(record.raw, record.format, dialogue, acts), acts


def label_batch(
    batch: Mapping[str, list[Any]], parser: Parser | None = None
) -> dict[str, list[Any]]:
    """Label a batch of HF Craigslist columns: ``Dataset.map(label_batch, batched=True)``.

    Returns only the new ``dialogue_acts`` column; ``map`` keeps the other columns.
    """
    columns = list(batch)
    size = len(batch[columns[0]]) if columns else 0
    records = [_record({name: batch[name][i] for name in columns}) for i in range(size)]
    for record in records:
        if record.format != "hf":
            raise InputError(f"label_batch labels HF Craigslist columns, not {record.format}")
    chosen = parser or default_parser()
    return {"dialogue_acts": [hf_acts(chosen.parse(record.dialogue())) for record in records]}


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
        yield apply_acts(record.raw, record.format, dialogue, acts)
