"""A dialogue record of your own, in the nested form, as a :class:`~actparse.models.Dialogue`.

The nested form is one dialogue per record::

    {"id": "d1", "turns": [{"speaker": "ann", "text": "hi"}, ...],
     "items": {"book": 3, "hat": 1}, "listing_price": 120, "roles": {"ann": "seller"}}

Only ``turns`` is required, each turn with a ``speaker`` (or actparse's ``agent``) and
its ``text``; a turn may give its ``action`` (``message`` when absent: an ``offer``, an
``accept``... in a table actparse wrote). The rows of a turn table are grouped into this
form first (:mod:`actparse.corpora.chat.rows`), so both layouts are read here.

Speakers become agents in the order they first speak, except that speakers written as
the agent numbers ``0`` and ``1`` (a table actparse wrote) keep their numbers. Both
parties see the same ``items`` (counts, values unknown) and the same listing price; a
speaker's role comes from ``roles``.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from actparse.errors import InputError
from actparse.io.bounds import read_json
from actparse.io.fields import count_field, list_field, record_reader, required, text_field
from actparse.io.messages import json_kind
from actparse.models import Dialogue, Item, Listing, Party, Turn

__all__ = [
    "CORPUS",
    "cell_given",
    "dialogue_from_record",
    "parse_items",
    "parse_price",
    "speaker_agents",
    "speaker_of",
    "turn_speaker",
]

CORPUS = "chat"
#: Speakers written as these agent numbers keep them (a per-turn table actparse wrote).
_AGENT_NUMBERS = {0: 0, 1: 1, "0": 0, "1": 1}


def cell_given(value: Any) -> bool:
    """Whether a cell holds a value: CSV has ``""`` and Parquet null or NaN where none is.

    >>> [cell_given(v) for v in ("x", 0, "", "  ", None, float("nan"))]
    [True, True, False, False, False, False]
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        return False
    return not (isinstance(value, float) and math.isnan(value))


def parse_items(value: Any, what: str = "items") -> tuple[Item, ...]:
    """The items of a negotiation: names and counts, from a mapping or its text.

    ``{"book": 3, "hat": 1}``, its JSON text, or ``book=3;hat=1`` (``,`` also separates).
    ``None`` or ``""``: no items.

    >>> [(i.name, i.count) for i in parse_items("book=3; hat=1")]
    [('book', 3), ('hat', 1)]
    >>> parse_items("book:three")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    actparse.errors.InputError: items: expected name=count pairs ... got 'book:three'
    """
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        value = _items_text(value, what)
    if not isinstance(value, Mapping):
        raise InputError(f"{what} must map item names to counts, got {json_kind(value)}")
    items = []
    seen: set[str] = set()
    for name, count in value.items():
        if not isinstance(name, str) or not name.strip():
            raise InputError(f"{what}: an item name must be a non-empty string, got {name!r}")
        # Messages are read in lower case: "Book" and "book" would be one item twice.
        if name.strip().lower() in seen:
            raise InputError(f"{what}: item {name.strip()!r} is given twice (case aside)")
        seen.add(name.strip().lower())
        items.append(Item(name.strip(), count_field(count, f"{what}.{name}")))
    return tuple(items)


#: The prefix of the tag the parser puts on every act of a dialogue without exactly two
#: speakers (``parser.speakers_note``), which the writer looks for: one spelling for both.
SPLITS_OFF = "splits-off:"


def speakers(dialogue: Dialogue) -> list[str]:
    """The speakers' names by agent number, as the reader records them.

    A dialogue built otherwise (no ``outcome["speakers"]``) names its agents by number,
    ``"0"`` up to the highest agent of its turns.

    >>> speakers(dialogue_from_record({"turns": [{"speaker": "ann", "text": "hi"}]}))
    ['ann']
    """
    named = (dialogue.outcome or {}).get("speakers")
    if named is not None:
        return [str(s) for s in named]
    return [str(a) for a in range(max((t.agent for t in dialogue.turns), default=-1) + 1)]


def json_cell(text: str, what: str, invalid: str | None = None) -> Any:
    """The JSON value of a cell's text, read within the records' bounds (nesting, digits).

    A syntax error is :class:`InputError` ``invalid`` (default: ``what`` is not a valid
    JSON object); a value beyond the bounds is one at ``what``
    (:func:`actparse.io.bounds.read_json`)."""
    try:
        return read_json(text, what)
    except json.JSONDecodeError as err:
        raise InputError(invalid or f"{what}: not a valid JSON object: {err.msg}") from None


def _items_text(text: str, what: str) -> Any:
    stripped = text.strip()
    if stripped.startswith("{"):
        return json_cell(stripped, what)
    pairs: dict[str, str] = {}
    for part in stripped.replace(",", ";").split(";"):
        if not part.strip():
            continue
        name, sep, count = part.partition("=")
        if not sep or not name.strip() or not count.strip():
            raise InputError(
                f"{what}: expected name=count pairs separated by ';' (book=3;hat=1) or a JSON "
                f"object, got {text!r}"
            )
        if name.strip() in pairs:
            raise InputError(f"{what}: item {name.strip()!r} is given twice in {text!r}")
        pairs[name.strip()] = count.strip()
    return pairs


#: A price as text: an optional currency sign, digits with commas between groups of
#: three or none, and an optional decimal point. "1.200,50" (a decimal comma) is refused
#: rather than read as 1.2: which mark is the decimal one is for the user to say. A minus
#: before or after the sign is caught, to refuse the price as below 0 rather than as text.
_PRICE_TEXT = re.compile(r"(-)?\s*[$€£]?\s*(-)?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?")


def parse_price(value: Any, what: str = "listing_price") -> float | None:
    """A price given as a number or as its text (``"1,200"``, ``"$950.50"``); none: ``None``.

    Text with a decimal comma or dots between thousands is refused: ``1.200`` could be
    either.

    >>> parse_price("$1,200")
    1200.0
    >>> parse_price("€1.200,50")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    actparse.errors.InputError: listing_price must be a number, got '€1.200,50' (...)
    """
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise InputError(f"{what} must be a number, got {value!r}")
    if isinstance(value, str):
        found = _PRICE_TEXT.fullmatch(value.strip())
        if found is None:
            raise InputError(
                f"{what} must be a number, got {value!r} (write 1200, 1,200.50 or $1200: "
                "no decimal comma)"
            )
        number = float(found.group(3).replace(",", "") + (found.group(4) or ""))
        if number and (found.group(1) or found.group(2)):  # a number, but below 0
            raise InputError(f"{what} must be a finite number from 0, got {value!r}")
    elif isinstance(value, int | float):
        number = float(value) if abs(value) < 2**1024 else math.inf  # past every float
    else:
        raise InputError(f"{what} must be a number, got {json_kind(value)}")
    if not math.isfinite(number) or number < 0:
        raise InputError(f"{what} must be a finite number from 0, got {value!r}")
    return number + 0.0  # -0.0 is 0


def speaker_of(turn: Mapping[str, Any]) -> Any:
    """A turn's speaker: its ``speaker``, else its ``agent``, a whole float as its integer.

    pandas writes a column of whole numbers with a gap as floats (``0.0``, ``1.0``): the
    speaker is ``0`` wherever it is named (a row's ``role`` too).

    >>> speaker_of({"agent": 1.0}), speaker_of({"speaker": "ann", "agent": 0})
    (1, 'ann')
    """
    speaker = turn.get("speaker", turn.get("agent"))
    if isinstance(speaker, float) and speaker.is_integer():
        return int(speaker)
    return speaker


def turn_speaker(turn: Any, what: str) -> Any:
    """A turn's speaker (:func:`speaker_of`), checked: an error at ``what`` when none or no name."""
    if not isinstance(turn, Mapping):
        raise InputError(f"{what} must be a JSON object, got {json_kind(turn)}")
    speaker = speaker_of(turn)
    if speaker is None or speaker == "":
        raise InputError(f"{what}: missing speaker (a 'speaker' name or an 'agent' number)")
    if isinstance(speaker, bool | float | list | dict):
        raise InputError(
            f"{what}: a speaker is a name or an agent number, got {json_kind(speaker)} {speaker!r}"
        )
    return speaker


def speaker_agents(speakers: Sequence[Any]) -> dict[str, int]:
    """Each speaker's agent number: in the order they first speak, or their own 0 and 1.

    >>> speaker_agents(["bob", "ann", "bob"])
    {'bob': 0, 'ann': 1}
    >>> speaker_agents([1, 0, 1])
    {'1': 1, '0': 0}
    """
    if all(s in _AGENT_NUMBERS and not isinstance(s, bool) for s in speakers):
        return {str(s): _AGENT_NUMBERS[s] for s in dict.fromkeys(speakers)}
    agents: dict[str, int] = {}
    for speaker in speakers:
        agents.setdefault(str(speaker), len(agents))
    return agents


def _roles(value: Any, agents: Mapping[str, int]) -> dict[int, str]:
    if value is None or value == "":
        return {}
    if isinstance(value, str):
        value = json_cell(value, "roles", f"roles must map speakers to roles, got {value!r}")
    if not isinstance(value, Mapping):
        raise InputError(f"roles must map speakers to roles, got {json_kind(value)}")
    roles: dict[int, str] = {}
    for speaker, role in value.items():
        if str(speaker) not in agents:
            raise InputError(f"roles: {speaker!r} is no speaker of the dialogue")
        roles[agents[str(speaker)]] = text_field(role, f"roles.{speaker}")
    return roles


@record_reader
def dialogue_from_record(raw: dict[str, Any]) -> Dialogue:
    """A :class:`Dialogue` from a record in the nested form (or a table's grouped rows).

    Raises :class:`~actparse.errors.InputError` naming the field (and the turn) at fault.
    """
    turns_raw = list_field(required(raw, "turns"), "turns")
    speakers = [turn_speaker(t, f"turns[{k}]") for k, t in enumerate(turns_raw)]
    agents = speaker_agents(speakers)
    items = parse_items(raw.get("items"))
    price = parse_price(raw.get("listing_price"))
    roles = _roles(raw.get("roles"), agents)
    listing = None if price is None else Listing(title="", description="", price=price)
    parties = tuple(Party(role=roles.get(a, ""), listing=listing, items=items) for a in (0, 1))
    turns = []
    for k, (turn, speaker) in enumerate(zip(turns_raw, speakers)):
        text = turn.get("text")
        text = "" if text is None else text_field(text, f"turns[{k}].text")
        action = turn.get("action") or "message"
        turns.append(Turn(k, agents[str(speaker)], text_field(action, f"turns[{k}].action"), text))
    ident = raw.get("id", raw.get("dialogue_id"))
    outcome = {"speakers": sorted(agents, key=agents.__getitem__)}
    return Dialogue(
        turns=tuple(turns),
        parties=(parties[0], parties[1]),
        id=None if ident is None else str(ident),
        corpus=CORPUS,
        outcome=outcome,
    )
