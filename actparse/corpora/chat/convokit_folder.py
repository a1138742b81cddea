"""ConvoKit corpus folders, read without ConvoKit as dialogue records and written back with acts.

A ConvoKit corpus is a folder: ``utterances.jsonl`` (one utterance per line: ``id``,
``conversation_id``, ``speaker``, ``reply-to`` or ``reply_to``, ``timestamp``, ``text``,
``meta``), ``speakers.json``, ``conversations.json`` (each conversation's ``meta``),
``corpus.json`` and ``index.json`` (the type of every metadata key; checked when the
folder is opened, before any labelling). Each conversation is
one dialogue record in the nested form (:mod:`actparse.corpora.chat.reader`), in the order
the conversations first appear in ``utterances.jsonl``: its ``turns`` are its utterances,
each kept whole and unchanged (an utterance's own ``line`` field too); their line numbers
in ``utterances.jsonl`` are kept outside the turns, in the record's :data:`LINES`
(``actparse_lines``, one per turn, in turn order: a name of actparse's own, which the
folder writer needs, so the nested form written from a folder carries it, while the
per-turn table and ``to_frame`` do not); its speakers are the
dialogue's parties. A conversation's ``meta`` (an object, or absent) may give the
dialogue's context under the nested form's own keys, ``items``, ``listing_price`` and
``roles`` (speaker -> role); other keys are left alone. ``speakers.json`` is not read.

Utterance order within a conversation (:func:`ordered`): a timestamp is usable when it
is a number, or text that reads as a number (``"10"``, ``" 1.5e3 "``), and usable
timestamps compare as numbers (``"9"`` before ``"10"``); ``true``/``false``, ``null``,
other text (dates included) and a missing timestamp are not usable. When every utterance
of a conversation has a usable timestamp, they go by timestamp, ties in file order; when
any one has none, the whole conversation keeps file order (nothing is guessed from
``reply_to``).

:func:`write_folder` writes the labelled copy: every utterance gets its act in
``meta["actparse"]`` (:func:`~actparse.corpora.chat.writer.act_fields`), ``index.json``
learns that key, and every other file, line and field is copied unchanged. A line that
could not be read (not JSON, no ``id``, a ``meta`` that is not an object, ...) is copied
byte for byte in keep mode, since writing its error into the utterance would change (for
a ``meta`` that is not an object, replace) what the corpus holds; its error goes into
:data:`ERRORS` in the new folder instead, ``{"line": N, "error": "..."}`` a line (a file
ConvoKit does not read, written only when there is such a line).
"""

from __future__ import annotations

import json
import math
import shutil
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from actparse.corpora.chat.writer import FIELD
from actparse.errors import InputError
from actparse.io.bounds import read_json
from actparse.io.lines import decoded_lines, max_line_bytes, open_binary
from actparse.io.messages import json_kind
from actparse.io.sources import Piece

__all__ = [
    "LINES",
    "UTTERANCES",
    "conversation_record",
    "ordered",
    "read_folder",
    "timestamp",
    "write_folder",
]

UTTERANCES = "utterances.jsonl"
CONVERSATIONS = "conversations.json"
INDEX = "index.json"
#: The record key actparse adds for its turns' lines in ``utterances.jsonl`` (from 1, one per
#: turn, in turn order): outside the turns, so no utterance field is added or overwritten.
LINES = "actparse_lines"
#: Conversation metadata read as the dialogue's context (the nested form's keys).
CONTEXT = ("items", "listing_price", "roles")
#: The utterance metadata key that says why a kept utterance has no act (keep mode).
ERROR = "actparse_error"
#: The file of the new folder that says why a line was copied as it was (keep mode).
ERRORS = "actparse_errors.jsonl"
#: How ConvoKit's index names the type of a metadata value.
_TYPES = {FIELD: "<class 'dict'>", ERROR: "<class 'str'>"}


def read_folder(path: Path) -> tuple[str, Iterator[Piece]]:
    """The file the records are numbered in, and one piece per conversation (or bad line).

    A folder without ``utterances.jsonl``, or whose ``conversations.json`` or
    ``index.json`` cannot be read (not JSON, not an object), is an :class:`InputError` at
    once, before any labelling. A line that is not a JSON object with an
    ``id`` and a ``conversation_id`` is a piece with an error (and the line's text) in
    its place; so is a conversation that ``conversations.json`` does not list, or whose
    ``meta`` there is not an object (with its record, to be kept whole). Pieces come in
    the order of their first line.
    """
    utterances = path / UTTERANCES
    if not utterances.is_file():
        raise InputError(f"{path}: a ConvoKit corpus folder needs {UTTERANCES}; there is none")
    conversations = _conversations(path / CONVERSATIONS)
    if (path / INDEX).is_file():
        _read_index(path / INDEX)
    return str(utterances), iter(_pieces(utterances, conversations))


def _json_file(path: Path) -> Any:
    try:
        # Within the records' bounds (depth, integer size), as every JSON actparse reads.
        return read_json(path.read_text(encoding="utf-8"), str(path))
    except json.JSONDecodeError as err:
        raise InputError(
            f"{path}:{err.lineno}: not valid JSON: {err.msg} (column {err.colno})"
        ) from None
    except UnicodeDecodeError as err:
        raise InputError(f"{path}: not UTF-8 text ({err.reason})") from None


def _conversations(path: Path) -> dict[str, dict[str, Any] | str] | None:
    """Each conversation's metadata by id, or why it cannot be read (``None``: no file).

    A conversation's entry that is not an object, or whose ``meta`` is neither an object
    nor absent, is the error text: only that conversation's utterances get it.
    """
    if not path.is_file():
        return None
    data = _json_file(path)
    if not isinstance(data, dict):
        raise InputError(f"{path}: expected a JSON object of conversations, got {json_kind(data)}")
    found: dict[str, dict[str, Any] | str] = {}
    for key, entry in data.items():
        meta = entry.get("meta") if isinstance(entry, dict) else entry
        if not isinstance(entry, dict):
            found[str(key)] = (
                f"{path}: conversation {key!r} must be an object, got {json_kind(entry)}"
            )
        elif meta is not None and not isinstance(meta, dict):
            found[str(key)] = (
                f"{path}: the meta of conversation {key!r} must be an object, got {json_kind(meta)}"
            )
        else:
            found[str(key)] = meta or {}
    return found


def _read_index(path: Path) -> dict[str, Any]:
    """``index.json``, an object whose ``utterances-index`` (if any) is an object."""
    index = _json_file(path)
    if not isinstance(index, dict):
        raise InputError(
            f"{path}: expected a JSON object (ConvoKit's index), got {json_kind(index)}"
        )
    entries = index.get("utterances-index")
    if entries is not None and not isinstance(entries, dict):
        raise InputError(f"{path}: 'utterances-index' must be an object, got {json_kind(entries)}")
    return index


def _pieces(utterances: Path, conversations: Mapping[str, Any] | None) -> list[Piece]:
    name = str(utterances)
    groups: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    bad: list[Piece] = []
    # Lines bounded as every input's are (--max-line-bytes): a longer one is an error in
    # its place, skipped unread.
    with open_binary(utterances) as stream:
        for line in decoded_lines(stream, name):
            number, text = line.number, line.text or ""
            if line.error is not None:
                bad.append(Piece(number, text=text.rstrip("\r\n") or None, error=line.error))
                continue
            if not text.strip():
                continue
            try:
                turn = _utterance(text, f"{name}:{number}")
            except InputError as err:
                bad.append(Piece(number, text=text.rstrip("\n"), error=str(err)))
                continue
            groups.setdefault(str(turn["conversation_id"]), []).append((number, turn))
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
        raise InputError(
            f"{where}: the utterance's meta must be an object, got {json_kind(raw['meta'])}"
        )
    return raw


def timestamp(value: Any) -> int | float | None:
    """A timestamp as a number: a number, or text that reads as one; else ``None``.

    ``true`` and ``false`` are no timestamps (though Python counts them as numbers), nor
    are NaN and the infinities.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        text = value.strip()
        try:
            value = int(text)
        except ValueError:
            try:
                value = float(text)
            except ValueError:
                return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return value
    return None


def ordered(turns: list[tuple[int, dict[str, Any]]]) -> list[tuple[int, dict[str, Any]]]:
    """A conversation's ``(line, utterance)`` pairs by timestamp, else in file order.

    Ties keep file order. File order (the line) is kept whole when any utterance has no usable
    :func:`timestamp`: putting it first or last would be a guess.
    """
    by_line = sorted(turns, key=lambda placed: placed[0])
    stamps = [timestamp(turn.get("timestamp")) for _line, turn in by_line]
    if any(stamp is None for stamp in stamps):
        return by_line
    order = sorted(range(len(by_line)), key=lambda k: (stamps[k], k))
    return [by_line[k] for k in order]


def conversation_record(
    ident: str, turns: list[tuple[int, dict[str, Any]]], meta: Mapping[str, Any]
) -> dict[str, Any]:
    """A conversation as a dialogue record: its utterances in time order, its context.

    ``turns``: its utterances, each after its place in the corpus (its line), put in
    order by :func:`ordered` (the places go under :data:`LINES`);
    ``meta``: the conversation's metadata, whose ``items``, ``listing_price`` and
    ``roles`` are the dialogue's context.
    """
    placed = ordered(turns)
    record: dict[str, Any] = {
        "id": ident,
        "turns": [turn for _line, turn in placed],
        LINES: [line for line, _turn in placed],
    }
    record.update({key: meta[key] for key in CONTEXT if meta.get(key) is not None})
    return record


def _conversation(
    name: str,
    ident: str,
    turns: list[tuple[int, dict[str, Any]]],
    conversations: Mapping[str, dict[str, Any] | str] | None,
) -> Piece:
    first = turns[0][0]
    if conversations is not None and ident not in conversations:
        return Piece(
            first,
            raw=conversation_record(ident, turns, {}),
            error=f"{name}:{first}: utterance {turns[0][1]['id']!r} is of conversation {ident!r}, "
            f"which {CONVERSATIONS} does not list",
        )
    meta = (conversations or {}).get(ident) or {}
    if isinstance(meta, str):  # why the conversation's entry cannot be read
        return Piece(first, raw=conversation_record(ident, turns, {}), error=meta)
    return Piece(first, raw=conversation_record(ident, turns, meta))


def write_folder(source: Path, out: Path, labelled: Iterable[Mapping[str, Any]]) -> None:
    """Write the labelled copy of the folder ``source`` into the empty folder ``out``.

    ``labelled``: the records :func:`read_folder` made (with their :data:`LINES`), each
    turn with its act under ``actparse`` (or the record with an ``actparse_error``: its
    utterances get the error in their ``meta`` instead). An utterance with neither (a line
    that could not be read) is copied as it was, its error in :data:`ERRORS`.
    """
    marks: dict[int, tuple[str, Any]] = {}
    for record in labelled:
        error = record.get(ERROR)
        lines = record.get(LINES)
        turns = record.get("turns")
        if not isinstance(lines, list) or not isinstance(turns, list):
            continue  # a line that could not be read: copied as it was
        for line, turn in zip(lines, turns):
            if isinstance(line, int) and isinstance(turn, Mapping):
                marks[line] = (ERROR, error) if error is not None else (FIELD, turn[FIELD])
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
    # Bytes, line by line up to each newline byte, as the reader numbered them: a line is
    # written back with the very line ending it had, one too long to read copied unread.
    unread: list[dict[str, Any]] = []
    bound = max_line_bytes()
    with open(source, "rb") as fh, open(out, "wb") as sink:
        number = 0
        while data := fh.readline(bound + 1):
            number += 1
            if len(data) > bound and not data.endswith(b"\n"):
                sink.write(data)
                _copy_line_rest(fh, sink)
                unread.append({"line": number, "error": f"{source}:{number}: line too long"})
                continue
            mark = marks.get(number)
            text = data.decode("utf-8", "surrogateescape")
            if mark is None:
                sink.write(data)
                if text.strip():
                    try:
                        _utterance(text, f"{source}:{number}")
                    except InputError as err:
                        unread.append({"line": number, "error": str(err)})
                continue
            utterance = json.loads(text)
            meta = utterance.get("meta")
            utterance["meta"] = {**(meta or {}), mark[0]: mark[1]}
            ending = text[len(text.rstrip("\r\n")) :]
            sink.write((json.dumps(utterance) + ending).encode("utf-8", "surrogateescape"))
    if unread:
        text = "".join(json.dumps(entry) + "\n" for entry in unread)
        (out.parent / ERRORS).write_text(text, encoding="utf-8")


def _copy_line_rest(fh: IO[bytes], sink: IO[bytes]) -> None:
    """Copy the rest of the line under way, a megabyte at a time, never holding it whole."""
    while data := fh.readline(1 << 20):
        sink.write(data)
        if data.endswith(b"\n"):
            return


def _write_index(source: Path, out: Path, keys: set[str]) -> None:
    """``index.json`` with the utterance metadata keys actparse added, in the file's style.

    ConvoKit 2 wrote each key's type as a string, ConvoKit 3 and later as a list of them
    (and read both).
    """
    index = _read_index(source)
    entries = index.setdefault("utterances-index", {})
    styles = [v for part in index.values() if isinstance(part, dict) for v in part.values()]
    as_text = bool(styles) and all(isinstance(v, str) for v in styles)
    for key in sorted(keys):
        entries[key] = _TYPES[key] if as_text else [_TYPES[key]]
    out.write_text(json.dumps(index), encoding="utf-8")
