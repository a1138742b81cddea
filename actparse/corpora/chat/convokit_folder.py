"""ConvoKit corpus folders, read without ConvoKit as dialogue records and written back with acts.

A ConvoKit corpus is a folder: ``utterances.jsonl`` (one utterance per line: ``id``,
``conversation_id``, ``speaker``, ``reply-to`` or ``reply_to``, ``timestamp``, ``text``,
``meta``), ``speakers.json``, ``conversations.json`` (each conversation's ``meta``),
``corpus.json`` and ``index.json`` (the type of every metadata key). Each conversation is
one dialogue record in the nested form (:mod:`actparse.corpora.chat.reader`), in the order
the conversations first appear in ``utterances.jsonl``: its ``turns`` are its utterances,
each kept whole with its line number under :data:`LINE`, ordered by ``timestamp`` then
file order; its speakers are the dialogue's parties. A conversation's ``meta`` may give
the dialogue's context under the nested form's own keys, ``items``, ``listing_price`` and
``roles`` (speaker -> role); other keys are left alone.

:func:`write_folder` writes the labelled copy: every utterance gets its act in
``meta["actparse"]`` (:func:`~actparse.corpora.chat.writer.act_fields`), ``index.json``
learns that key, and every other file, line and field is copied unchanged.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from actparse.corpora.chat.writer import FIELD
from actparse.errors import InputError
from actparse.io.bounds import read_json
from actparse.io.messages import json_kind
from actparse.io.sources import Piece

__all__ = ["LINE", "UTTERANCES", "conversation_record", "read_folder", "write_folder"]

UTTERANCES = "utterances.jsonl"
CONVERSATIONS = "conversations.json"
INDEX = "index.json"
#: The key of a turn that holds its utterance's line in ``utterances.jsonl`` (from 1).
LINE = "line"
#: Conversation metadata read as the dialogue's context (the nested form's keys).
CONTEXT = ("items", "listing_price", "roles")
#: The utterance metadata key that says why a kept utterance has no act (keep mode).
ERROR = "actparse_error"
#: How ConvoKit's index names the type of a metadata value.
_TYPES = {FIELD: "<class 'dict'>", ERROR: "<class 'str'>"}


def read_folder(path: Path) -> tuple[str, Iterator[Piece]]:
    """The file the records are numbered in, and one piece per conversation (or bad line).

    A folder without ``utterances.jsonl``, or whose ``conversations.json`` cannot be
    read, is an :class:`InputError` at once. A line that is not a JSON object with an
    ``id`` and a ``conversation_id`` is a piece with an error (and the line's text) in
    its place; so is a conversation that ``conversations.json`` does not list (with its
    record, to be kept whole). Pieces come in the order of their first line.
    """
    utterances = path / UTTERANCES
    if not utterances.is_file():
        raise InputError(f"{path}: a ConvoKit corpus folder needs {UTTERANCES}; there is none")
    conversations = _conversations(path / CONVERSATIONS)
    return str(utterances), iter(_pieces(utterances, conversations))


def _conversations(path: Path) -> dict[str, Any] | None:
    """Each conversation's metadata by id (``None``: no ``conversations.json``)."""
    if not path.is_file():
        return None
    try:
        data = read_json(path.read_text(encoding="utf-8"), str(path))
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise InputError(f"{path}: not valid JSON ({err})") from None
    if not isinstance(data, dict):
        raise InputError(f"{path}: expected a JSON object of conversations, got {json_kind(data)}")
    return {str(k): (v.get("meta") if isinstance(v, dict) else None) or {} for k, v in data.items()}


def _pieces(utterances: Path, conversations: Mapping[str, Any] | None) -> list[Piece]:
    name = str(utterances)
    groups: dict[str, list[dict[str, Any]]] = {}
    bad: list[Piece] = []
    with open(utterances, encoding="utf-8", errors="surrogateescape") as fh:
        for number, text in enumerate(fh, start=1):
            if not text.strip():
                continue
            try:
                turn = _utterance(text, f"{name}:{number}")
            except InputError as err:
                bad.append(Piece(number, text=text.rstrip("\n"), error=str(err)))
                continue
            turn[LINE] = number
            groups.setdefault(str(turn["conversation_id"]), []).append(turn)
    pieces = bad + [
        _conversation(name, ident, turns, conversations) for ident, turns in groups.items()
    ]
    return sorted(pieces, key=lambda piece: piece.line)


def _utterance(text: str, where: str) -> dict[str, Any]:
    try:
        raw = read_json(text, where)  # within the records' bounds (depth, integer size)
    except json.JSONDecodeError as err:
        raise InputError(f"{where}: not valid JSON: {err.msg} (column {err.colno})") from None
    if not isinstance(raw, dict):
        raise InputError(f"{where}: expected an utterance (a JSON object), got {json_kind(raw)}")
    if "conversation_id" not in raw and "root" in raw:  # ConvoKit before 2.0
        raw["conversation_id"] = raw["root"]
    if "speaker" not in raw and "user" in raw:  # ConvoKit before 2.0
        raw["speaker"] = raw["user"]
    for key in ("id", "conversation_id", "speaker"):
        if raw.get(key) is None:
            raise InputError(f"{where}: the utterance has no {key!r}")
    if raw.get("meta") is not None and not isinstance(raw["meta"], dict):
        raise InputError(f"{where}: the utterance's meta must be an object, got {json_kind(raw)}")
    return raw


def _order(turn: Mapping[str, Any]) -> tuple[int, Any, int]:
    """Timestamps in order (numbers, then text), then file order; none: last, in file order."""
    stamp = turn.get("timestamp")
    if isinstance(stamp, int | float):
        return (0, stamp, turn[LINE])
    if isinstance(stamp, str):
        return (1, stamp, turn[LINE])
    return (2, 0, turn[LINE])


def conversation_record(
    ident: str, turns: list[dict[str, Any]], meta: Mapping[str, Any]
) -> dict[str, Any]:
    """A conversation as a dialogue record: its utterances in time order, its context.

    ``turns``: its utterances, each with its place in the corpus under :data:`LINE`;
    ``meta``: the conversation's metadata, whose ``items``, ``listing_price`` and
    ``roles`` are the dialogue's context.
    """
    record: dict[str, Any] = {"id": ident, "turns": sorted(turns, key=_order)}
    record.update({key: meta[key] for key in CONTEXT if meta.get(key) is not None})
    return record


def _conversation(
    name: str, ident: str, turns: list[dict[str, Any]], conversations: Mapping[str, Any] | None
) -> Piece:
    first = turns[0][LINE]
    if conversations is not None and ident not in conversations:
        return Piece(
            first,
            raw=conversation_record(ident, turns, {}),
            error=f"{name}:{first}: utterance {turns[0]['id']!r} is of conversation {ident!r}, "
            f"which {CONVERSATIONS} does not list",
        )
    meta = (conversations or {}).get(ident) or {}
    return Piece(first, raw=conversation_record(ident, turns, meta))


def write_folder(source: Path, out: Path, labelled: Iterable[Mapping[str, Any]]) -> None:
    """Write the labelled copy of the folder ``source`` into the empty folder ``out``.

    ``labelled``: the records :func:`read_folder` made, each turn with its act under
    ``actparse`` (or the record with an ``actparse_error``: its utterances get the error
    in their ``meta`` instead). An utterance with neither (a line that could not be read)
    is copied as it was.
    """
    marks: dict[int, tuple[str, Any]] = {}
    for record in labelled:
        error = record.get(ERROR)
        for turn in record.get("turns") or ():
            if isinstance(turn, Mapping) and isinstance(turn.get(LINE), int):
                marks[turn[LINE]] = (ERROR, error) if error is not None else (FIELD, turn[FIELD])
    for entry in source.iterdir():
        if entry.name in (UTTERANCES, INDEX):
            continue
        if entry.is_dir():
            shutil.copytree(entry, out / entry.name, symlinks=True)
        else:
            shutil.copy2(entry, out / entry.name)
    _write_utterances(source / UTTERANCES, out / UTTERANCES, marks)
    if (source / INDEX).is_file():
        _write_index(source / INDEX, out / INDEX, {key for key, _value in marks.values()})


def _write_utterances(source: Path, out: Path, marks: Mapping[int, tuple[str, Any]]) -> None:
    # newline="": a line is written back with the very line ending it had.
    with (
        open(source, encoding="utf-8", errors="surrogateescape", newline="") as fh,
        open(out, "w", encoding="utf-8", errors="surrogateescape", newline="") as sink,
    ):
        for number, text in enumerate(fh, start=1):
            mark = marks.get(number)
            if mark is None:
                sink.write(text)
                continue
            utterance = json.loads(text)
            meta = utterance.get("meta")
            utterance["meta"] = {**(meta or {}), mark[0]: mark[1]}
            ending = text[len(text.rstrip("\r\n")) :]
            sink.write(json.dumps(utterance) + ending)


def _write_index(source: Path, out: Path, keys: set[str]) -> None:
    """``index.json`` with the utterance metadata keys actparse added, in the file's style.

    ConvoKit 2 wrote each key's type as a string, ConvoKit 3 and later as a list of them
    (and read both).
    """
    index = json.loads(source.read_text(encoding="utf-8"))
    entries = index.setdefault("utterances-index", {})
    styles = [v for part in index.values() if isinstance(part, dict) for v in part.values()]
    as_text = bool(styles) and all(isinstance(v, str) for v in styles)
    for key in sorted(keys):
        entries[key] = _TYPES[key] if as_text else [_TYPES[key]]
    out.write_text(json.dumps(index), encoding="utf-8")
