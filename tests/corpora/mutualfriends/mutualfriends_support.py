"""What the MutualFriends tests share: the fixtures, the shipped parser, and reading and
labelling a fixture the way the registry does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from corpus_fixtures import FIXTURES

from actparse.corpora.mutualfriends import CORPUS
from actparse.corpora.mutualfriends.parser import MutualFriendsParser
from actparse.corpora.mutualfriends.reader import dialogue_from_mutualfriends
from actparse.corpora.mutualfriends.writer import write_mutualfriends
from actparse.engine.pipeline import pipeline
from actparse.io.records import Record, read_records

CARD = FIXTURES / "mutualfriends_card_sample.jsonl"
HANDMADE_HF = FIXTURES / "mutualfriends_handmade.jsonl"
HANDMADE_COCOA = FIXTURES / "mutualfriends_handmade_cocoa.json"
#: The parser, built once (it only caches name shapes), in its pipeline: what labelling
#: runs, so that its acts carry their coarse acts.
PARSER = pipeline(CORPUS, MutualFriendsParser())
#: The registry's format name of both layouts.
FORMAT = CORPUS


def read_fixture(path: Path) -> list[Record]:
    """The records of a fixture file."""
    return list(read_records(path, FORMAT))


def raw_records(path: Path) -> list[dict[str, Any]]:
    """The raw records of a fixture file."""
    return [record.raw for record in read_fixture(path)]


def label(raw: dict[str, Any]) -> dict[str, Any]:
    """The labelled copy of a raw record, written by the MutualFriends writer."""
    dialogue = dialogue_from_mutualfriends(raw)
    return write_mutualfriends(raw, dialogue, PARSER.parse(dialogue))
