"""The CraigslistBargains HuggingFace export: JSON lines, one dialogue per line.

Fields: ``agent_turn``, ``utterance``, ``dialogue_acts {intent, price}``, ``items``,
``agent_info``. A non-message event was exported as an empty utterance; its action
survives only in ``dialogue_acts`` (train and validation). Where the acts are empty (the
test split) the action is unknown and the turn gets no act. Prices were stored as
float32; :func:`restore_float32` gives back the price as typed.

Output keeps every field and fills ``dialogue_acts`` in the export's conventions and
schema, ``{intent, price}``: intent ``''`` and price ``-1.0`` where there is none (a price
of 0 too, as the export did). What actparse adds goes in one field of its own,
``actparse`` (see :func:`actparse_field`), so a labelled split has the published features.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any

from actparse.corpora.craigslist.added import ACTPARSE_FIELD, actparse_field, written_before
from actparse.corpora.craigslist.parser import ACTIONS, CORPUS
from actparse.corpora.craigslist.reference import hf_reference
from actparse.io.fields import (
    agent_index,
    field_to_write,
    list_field,
    number_or_none,
    record_reader,
    text_field,
)
from actparse.models import Act, Dialogue, Listing, Party, ReferenceAct, Turn

__all__ = [
    "NO_PRICE",
    "dialogue_from_hf",
    "float32",
    "hf_acts",
    "restore_float32",
    "shortest_float32",
    "write_hf",
    "write_hf_coarse",
]

#: The export's price for "no price".
NO_PRICE = -1.0
_NON_MESSAGE_ACTIONS = frozenset(ACTIONS) - {"message"}
_NO_REFERENCE = ReferenceAct("", None)
# Agents as the export writes them; anything else goes through agent_index's checks.
_AGENTS: dict[Any, int] = {0: 0, 1: 1}


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


@record_reader
def dialogue_from_hf(raw: dict[str, Any]) -> Dialogue:
    """A :class:`Dialogue` from a HuggingFace CraigslistBargains record."""
    agents = list_field(raw["agent_turn"], "agent_turn")
    utterances = list_field(raw["utterance"], "utterance")
    if len(agents) != len(utterances):
        raise ValueError(
            f"agent_turn has {len(agents)} entries but utterance has {len(utterances)}"
        )
    items, info = raw["items"], raw["agent_info"]
    parties = tuple(
        Party(
            role=str(info["Role"][a]),
            target=restore_float32(number_or_none(info.get("Target", [None, None])[a])),
            listing=Listing(
                title=text_field(items["Title"][a], "Title"),
                # The export joined description lines with ','; Cocoa used ' '. The
                # original line breaks are lost, so the joined text is used as is.
                description=text_field(items["Description"][a], "Description"),
                price=restore_float32(number_or_none(items["Price"][a])),
                category=str(items.get("Category", ["", ""])[a]),
            ),
        )
        for a in (0, 1)
    )
    reference = hf_reference(raw.get("dialogue_acts"), len(utterances), no_price=NO_PRICE)
    if reference is not None and not any(r.intent for r in reference):
        # No acts at all (the test split): nothing to look up, one shared record.
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
    return Dialogue(
        turns=tuple(turns), parties=(parties[0], parties[1]), reference=reference, corpus=CORPUS
    )


def hf_acts(acts: Sequence[Act]) -> dict[str, list[Any]]:
    """``dialogue_acts`` in the HuggingFace layout: exactly ``{intent, price}``.

    These are the published features, so a labelled split concatenates with the shipped ones."""
    return {
        "intent": [a.intent or "" for a in acts],
        "price": [a.price if a.price else NO_PRICE for a in acts],
    }


def write_hf(raw: dict[str, Any], dialogue: Dialogue, acts: Sequence[Act]) -> dict[str, Any]:
    """A copy of an HF record with ``dialogue_acts`` and actparse's own lists filled in.

    actparse's own per-turn lists go in ``actparse`` (:func:`actparse_field`); every other field is
    kept."""
    out = dict(raw)
    out["dialogue_acts"] = hf_acts(acts)
    field_to_write(raw, ACTPARSE_FIELD, written_before)
    out[ACTPARSE_FIELD] = actparse_field(acts)
    return out


def write_hf_coarse(raw: dict[str, Any], dialogue: Dialogue, acts: Sequence[Act]) -> dict[str, Any]:
    """:func:`write_hf` with a ``coarse`` list in ``actparse``.

    ``dialogue_acts`` is as :func:`write_hf` writes it."""
    out = dict(raw)
    out["dialogue_acts"] = hf_acts(acts)
    field_to_write(raw, ACTPARSE_FIELD, written_before)
    out[ACTPARSE_FIELD] = actparse_field(acts, coarse=True)
    return out
