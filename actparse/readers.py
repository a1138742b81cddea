"""Readers: each corpus format becomes a stream of :class:`~actparse.models.Dialogue`.

Two Craigslist formats are read:

``hf``
    The HuggingFace export, JSON lines, one dialogue per line (``agent_turn``,
    ``utterance``, ``dialogue_acts``, ``items``, ``agent_info``). A non-message event
    was exported as an empty utterance; its action survives only in ``dialogue_acts``
    (train and validation). Where the acts are empty (the test split) the action is
    unknown and the turn gets no act: see :data:`~actparse.models.Action`.
``cocoa``
    Cocoa transcripts: a JSON list of dialogues with ``scenario.kbs`` and ``events``
    (``action``, ``agent``, ``data``), like ``transcripts_extra.json``. Loaded whole.
"""

from __future__ import annotations

import gzip
import json
import math
import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from actparse.models import ACTIONS, Dialogue, Listing, Party, ReferenceAct, Turn

__all__ = [
    "FORMAT_CORPUS",
    "InputError",
    "Record",
    "agent_index",
    "detect_format",
    "dialogue_from_cocoa",
    "dialogue_from_hf",
    "float32",
    "format_of_record",
    "open_text",
    "parse_json_line",
    "read_records",
    "shortest_float32",
    "text_field",
]

_NON_MESSAGE_ACTIONS = frozenset(ACTIONS) - {"message"}
_NO_REFERENCE = ReferenceAct("", None)
# Agents as the export writes them; anything else goes through _agent's checks.
_AGENTS: dict[Any, int] = {0: 0, 1: 1}


class InputError(ValueError):
    """Input that cannot be read; the message names the source, the line and the problem."""


#: ``--format`` names, and the corpus each one holds.
FORMAT_CORPUS: dict[str, str] = {
    "hf": "craigslist",
    "cocoa": "craigslist",
    "dealornodeal": "dealornodeal",
    "casino": "casino",
    "mutualfriends": "mutualfriends",
}


@dataclass(frozen=True)
class Record:
    """One input dialogue: the raw record (kept whole for writing) and where it came from."""

    raw: dict[str, Any]
    format: str
    source: str
    line: int

    @property
    def where(self) -> str:
        """``file:line`` (for a JSON list, the position of the dialogue in it)."""
        return f"{self.source}:{self.line}"

    @property
    def corpus(self) -> str:
        """The corpus the record belongs to."""
        return FORMAT_CORPUS[self.format]

    def dialogue(self) -> Dialogue:
        """Parse the raw record into a :class:`Dialogue`, or raise :class:`InputError`."""
        try:
            return _to_dialogue(self.format)(self.raw)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as err:
            raise InputError(f"{self.where}: {_describe(err)}") from None


def _to_dialogue(fmt: str) -> Callable[[dict[str, Any]], Dialogue]:
    # The other corpora load lazily: a Craigslist run never imports them.
    if fmt == "hf":
        return dialogue_from_hf
    if fmt == "cocoa":
        return dialogue_from_cocoa
    if fmt == "dealornodeal":
        from actparse.dealornodeal import dialogue_from_dealornodeal

        return dialogue_from_dealornodeal
    if fmt == "casino":
        from actparse.casino import dialogue_from_casino

        return dialogue_from_casino
    from actparse.mutualfriends import dialogue_from_mutualfriends

    return dialogue_from_mutualfriends


def _describe(err: Exception) -> str:
    if isinstance(err, KeyError):
        return f"missing field {err}"
    return str(err)


def format_of_record(raw: Any) -> str | None:
    """The format a single raw record is in, judged by its fields (``None`` if unknown)."""
    if not isinstance(raw, dict):
        return None
    if "agent_turn" in raw or "utterance" in raw:
        return "hf"
    if "scenario_kbs" in raw:
        return "mutualfriends"
    if "chat_logs" in raw:
        return "casino"
    if "dialogue" in raw and "input" in raw:
        return "dealornodeal"
    scenario = raw.get("scenario")
    if isinstance(scenario, dict) and "events" in raw:
        kbs = scenario.get("kbs") or [None]
        # Craigslist knowledge bases are mappings with an item; MutualFriends ones are
        # lists of friends.
        return "cocoa" if isinstance(kbs[0], dict) else "mutualfriends"
    return None


def open_text(path: str | Path) -> IO[str]:
    """Open a text file for reading, decompressing ``.gz`` on the fly."""
    if str(path).endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8")
    return open(path, encoding="utf-8")


def detect_format(path: str | Path) -> str:
    """The format of a file, from its first record (a JSON list is loaded whole)."""
    with open_text(path) as fh:
        head = fh.read(4096).lstrip()
        if head.startswith("<"):
            return "dealornodeal"
        if head.startswith("["):
            fh.seek(0)
            try:
                data = json.load(fh)
            except json.JSONDecodeError as err:
                raise InputError(f"{path}:{err.lineno}: not valid JSON: {err.msg}") from None
            fmt = format_of_record(data[0]) if isinstance(data, list) and data else "cocoa"
        elif head.startswith("{"):
            fh.seek(0)
            first = fh.readline()
            try:
                fmt = format_of_record(json.loads(first))
            except json.JSONDecodeError:
                fmt = "hf"  # the reader names the broken line
        elif not head:
            return "hf"
        else:
            fmt = None
    if fmt is None:
        raise InputError(
            f"{path}:1: cannot tell the format (expected Craigslist, Deal or No Deal, "
            "CaSiNo or MutualFriends records); pass --format"
        )
    return fmt


def read_records(path: str | Path, fmt: str = "auto") -> Iterator[Record]:
    """Stream the records of a file.

    ``fmt`` is one of :data:`FORMAT_CORPUS` or ``auto``. JSON lines and Deal or No Deal
    text are read line by line; a JSON list (Cocoa transcripts, CaSiNo) is loaded whole.
    """
    source = str(path)
    if fmt == "auto":
        fmt = detect_format(path)
    if fmt not in FORMAT_CORPUS:
        raise InputError(f"{source}: unknown format {fmt!r}; one of {sorted(FORMAT_CORPUS)}")
    with open_text(path) as fh:
        head = fh.read(1)
        while head and head.isspace():
            head = fh.read(1)
        fh.seek(0)
        if head == "<" and fmt == "dealornodeal":
            from actparse.dealornodeal import iter_text_records

            for number, raw in iter_text_records(path):
                yield Record(raw, fmt, source, number)
        elif head == "[":
            yield from _read_json_list(fh, source, fmt)
        else:
            yield from _read_json_lines(fh, source, fmt)


def parse_json_line(text: str, source: str, number: int) -> dict[str, Any]:
    """One JSON lines record, or :class:`InputError` naming the file and line."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as err:
        raise InputError(
            f"{source}:{number}: not valid JSON: {err.msg} (column {err.colno})"
        ) from None
    if not isinstance(raw, dict):
        raise InputError(f"{source}:{number}: expected a JSON object, got {type(raw).__name__}")
    return raw


# The C scanner json.loads itself uses: (text, index) -> (value, end). JSONDecoder sets it
# in __init__, which the type stubs do not declare.
_scan_json: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]
_JSON_WHITESPACE = " \t\n\r"
_JSON_SPACE = frozenset(_JSON_WHITESPACE)


def json_object_spans(text: str) -> tuple[dict[str, Any], dict[str, tuple[int, int]]] | None:
    """A JSON object's fields, as :func:`json.loads` reads them, and where each value is.

    ``spans[key]`` is the ``(start, end)`` of the value's text, so a writer can replace
    one field and keep every other character of the line. Returns ``None`` for anything
    but one well-formed object with distinct keys (:func:`parse_json_line` then says
    what is wrong).
    """
    fields: dict[str, Any] = {}
    spans: dict[str, tuple[int, int]] = {}
    try:
        i = _skip_space(text, 0)
        if text[i] != "{":
            return None
        i = _skip_space(text, i + 1)
        if _closes(text, i):
            return fields, spans
        while True:
            if text[i] != '"':
                return None
            key, i = _scan_json(text, i)
            i = _skip_space(text, i)
            if text[i] != ":" or key in fields:
                return None
            start = _skip_space(text, i + 1)
            fields[key], i = _scan_json(text, start)
            spans[key] = (start, i)
            i = _skip_space(text, i)
            if _closes(text, i):
                return fields, spans
            if text[i] != ",":
                return None
            i = _skip_space(text, i + 1)
    except (IndexError, StopIteration, ValueError):
        return None


def _closes(text: str, i: int) -> bool:
    """Whether ``text[i]`` is the object's closing brace, with only whitespace after it."""
    return text[i] == "}" and not text[i + 1 :].strip(_JSON_WHITESPACE)


def _skip_space(text: str, i: int) -> int:
    while text[i] in _JSON_SPACE:
        i += 1
    return i


def _read_json_lines(fh: IO[str], source: str, fmt: str) -> Iterator[Record]:
    for number, line in enumerate(fh, start=1):
        if line.strip():
            yield Record(parse_json_line(line, source, number), fmt, source, number)


def _read_json_list(fh: IO[str], source: str, fmt: str) -> Iterator[Record]:
    try:
        data = json.load(fh)
    except json.JSONDecodeError as err:
        raise InputError(f"{source}:{err.lineno}: not valid JSON: {err.msg}") from None
    if not isinstance(data, list):
        raise InputError(f"{source}:1: expected a JSON list of dialogues")
    for index, raw in enumerate(data):
        if not isinstance(raw, dict):
            raise InputError(f"{source}: dialogue {index + 1}: expected a JSON object")
        # Position in the list, counted from 1 like a line number.
        yield Record(raw, fmt, source, index + 1)


def _price(value: Any) -> float | None:
    """A listing or target price; ``None`` when absent or not a number."""
    if value is None or isinstance(value, bool):
        return None
    try:
        price = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(price) else price


def shortest_float32(value: float) -> float:
    """The shortest decimal that rounds to the same float32 as ``value``.

    The HuggingFace export stored prices as float32 (149.99 reads back as
    149.99000549316406); the shortest decimal restores the price as it was typed, so that
    it compares equal to the same price written in a later message.
    """
    target = float32(value)
    for digits in range(1, 10):
        candidate = float(f"{value:.{digits}g}")
        if float32(candidate) == target:
            return candidate
    return value


def restore_float32(value: float | None) -> float | None:
    """Undo float32 storage: a value a float32 holds exactly becomes its shortest decimal.

    Only values that are exactly float32 (as the HF export and its Parquet files store
    prices) are touched; any other double is left as it is.
    """
    if value is None or (value.is_integer() and abs(value) < 2**24):
        return value  # whole numbers below 2**24 are the same in float32 and as typed
    if float32(value) != value:
        return value
    return shortest_float32(value)


def float32(value: float) -> float:
    """``value`` as the HF export stored it (float32), back as a Python float."""
    try:
        return float(struct.unpack("f", struct.pack("f", value))[0])
    except OverflowError:
        return value


def agent_index(value: Any, what: str) -> int:
    """An agent field as 0 or 1 (``"0"``/``"1"`` accepted); anything else is an error."""
    if isinstance(value, bool) or value not in (0, 1, "0", "1"):
        raise ValueError(f"{what} must be agent 0 or 1, got {value!r}")
    return int(value)


def text_field(value: Any, what: str) -> str:
    """A field that must be a string; the error names it and the type found."""
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a string, got {type(value).__name__}")
    return value


def dialogue_from_hf(raw: dict[str, Any]) -> Dialogue:
    """A :class:`Dialogue` from a HuggingFace CraigslistBargains record."""
    agents = raw["agent_turn"]
    utterances = raw["utterance"]
    if len(agents) != len(utterances):
        raise ValueError(
            f"agent_turn has {len(agents)} entries but utterance has {len(utterances)}"
        )
    items, info = raw["items"], raw["agent_info"]
    parties = tuple(
        Party(
            role=str(info["Role"][a]),
            target=restore_float32(_price(info.get("Target", [None, None])[a])),
            listing=Listing(
                title=text_field(items["Title"][a], "Title"),
                # The export joined description lines with ','; Cocoa used ' '. The
                # original line breaks are lost, so the joined text is used as is.
                description=text_field(items["Description"][a], "Description"),
                price=restore_float32(_price(items["Price"][a])),
                category=str(items.get("Category", ["", ""])[a]),
            ),
        )
        for a in (0, 1)
    )
    acts = raw.get("dialogue_acts") or {}
    intents = acts.get("intent") or []
    prices = acts.get("price") or []
    reference = None
    if len(intents) == len(utterances) and len(prices) == len(utterances):
        if any(intents):
            reference = tuple(
                ReferenceAct(str(i), None if p is None or float(p) == -1.0 else float(p))
                for i, p in zip(intents, prices)
            )
        else:  # no acts at all (the test split): nothing to look up, one shared record
            reference = (_NO_REFERENCE,) * len(utterances)
    turns = []
    for index, (agent, text) in enumerate(zip(agents, utterances)):
        if type(text) is not str:
            text_field(text, f"utterance {index}")  # raises, naming the turn
        who = _AGENTS.get(agent)
        if who is None:
            who = agent_index(agent, f"agent_turn {index}")
        if text:
            turns.append(Turn(index, who, "message", text))
            continue
        # An empty utterance is a non-message event: its action is recoverable only from
        # the shipped acts, which copy it (with the offered price) verbatim.
        ref = reference[index] if reference else None
        if ref is not None and ref.intent in _NON_MESSAGE_ACTIONS:
            price = restore_float32(ref.price) if ref.intent == "offer" else None
            turns.append(Turn(index, who, ref.intent, "", price))
        else:
            turns.append(Turn(index, who, None))
    return Dialogue(turns=tuple(turns), parties=(parties[0], parties[1]), reference=reference)


def dialogue_from_cocoa(raw: dict[str, Any]) -> Dialogue:
    """A :class:`Dialogue` from a Cocoa transcript."""
    kbs = raw["scenario"]["kbs"]
    if len(kbs) != 2:
        raise ValueError(f"scenario.kbs must hold 2 knowledge bases, got {len(kbs)}")
    parties = []
    for kb in kbs:
        item, personal = kb["item"], kb["personal"]
        description = item.get("Description") or []
        if isinstance(description, str):
            description = [description]
        parties.append(
            Party(
                role=str(personal["Role"]),
                target=_price(personal.get("Target")),
                listing=Listing(
                    title=text_field(item["Title"], "Title"),
                    description=" ".join(text_field(d, "Description line") for d in description),
                    price=_price(item["Price"]),
                    category=str(item.get("Category", "")),
                ),
            )
        )
    turns = []
    reference = []
    has_reference = False
    for index, event in enumerate(raw["events"]):
        action = event["action"]
        agent = agent_index(event["agent"], f"event {index} agent")
        data = event.get("data")
        if action == "message":
            turns.append(Turn(index, agent, "message", text_field(data, f"event {index} data")))
        elif action == "offer":
            offer = data.get("price") if isinstance(data, dict) else None
            turns.append(Turn(index, agent, "offer", "", _price(offer)))
        elif action in _NON_MESSAGE_ACTIONS:
            turns.append(Turn(index, agent, action))
        else:
            raise ValueError(f"event {index}: unknown action {action!r}")
        meta = event.get("metadata")
        if isinstance(meta, dict) and meta.get("intent"):
            has_reference = True
            reference.append(ReferenceAct(str(meta["intent"]), _price(meta.get("price")) or None))
        else:
            reference.append(ReferenceAct("", None))
    return Dialogue(
        turns=tuple(turns),
        parties=(parties[0], parties[1]),
        id=raw.get("uuid"),
        reference=tuple(reference) if has_reference else None,
    )
