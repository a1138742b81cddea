"""Cocoa transcripts of CraigslistBargains.

A JSON list of dialogues with ``scenario.kbs`` and ``events`` (``action``, ``agent``, ``data``),
like ``transcripts_extra.json``. Loaded whole.

Output adds ``metadata`` to every event, exactly as Cocoa's parsed transcripts have it:
``{"intent", "price"}`` for messages and offers, ``{"intent"}`` for accept, reject and
quit, ``null`` for the events of a skipped dialogue. What actparse adds goes in a
top-level ``actparse`` object of lists parallel to ``events`` (see
:mod:`actparse.corpora.craigslist.added`); :func:`write_cocoa_coarse` adds ``coarse`` there.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from typing import Any

from actparse.corpora.craigslist.added import ACTPARSE_FIELD, actparse_field, written_before
from actparse.corpora.craigslist.parser import ACTIONS, CORPUS
from actparse.corpora.craigslist.reference import reference_intent, reference_price
from actparse.errors import InputError
from actparse.io.fields import (
    agent_index,
    field_to_write,
    list_field,
    number_or_none,
    record_reader,
    text_field,
)
from actparse.io.messages import json_kind
from actparse.models import Act, Dialogue, Listing, Party, ReferenceAct, Turn

__all__ = ["dialogue_from_cocoa", "write_cocoa", "write_cocoa_coarse"]

_NON_MESSAGE_ACTIONS = frozenset(ACTIONS) - {"message"}
_NO_ACT = ReferenceAct("", None)


@record_reader
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
                target=number_or_none(personal.get("Target")),
                listing=Listing(
                    title=text_field(item["Title"], "Title"),
                    description=" ".join(text_field(d, "Description line") for d in description),
                    price=number_or_none(item["Price"]),
                    category=str(item.get("Category", "")),
                ),
            )
        )
    turns = []
    reference = []
    has_reference = False
    for index, event in enumerate(list_field(raw["events"], "events")):
        action = event["action"]
        agent = agent_index(event["agent"], f"event {index} agent")
        data = event.get("data")
        if action == "message":
            turns.append(Turn(index, agent, "message", text_field(data, f"event {index} data")))
        elif action == "offer":
            turns.append(Turn(index, agent, "offer", "", _offer_price(data, f"event {index} data")))
        elif action in _NON_MESSAGE_ACTIONS:
            turns.append(Turn(index, agent, action))
        else:
            raise ValueError(f"event {index}: unknown action {action!r}")
        reference.append(_event_reference(event.get("metadata"), f"event {index} metadata"))
        # The key, not its value, says the dialogue carries a reference: Cocoa (and our
        # output) writes metadata null on every event of a dialogue its length rule skipped,
        # which eval scores as a skip; a transcript as collected has no metadata at all.
        has_reference = has_reference or "metadata" in event
    return Dialogue(
        turns=tuple(turns),
        parties=(parties[0], parties[1]),
        id=raw.get("uuid"),
        reference=tuple(reference) if has_reference else None,
        corpus=CORPUS,
    )


def _offer_price(data: Any, what: str) -> float | None:
    """An offer's price: its data's ``price``, a number, or null (an offer without one).

    Anything else (text that is no number, an infinity, data that is no object) is an
    error naming the event: read as no price, the offer lost its price without a word."""
    if data is None:
        return None
    if not isinstance(data, dict):
        raise InputError(f"{what} must be an object with a price, got {json_kind(data)}")
    offer = data.get("price")
    price = number_or_none(offer)
    if offer is not None and (price is None or not math.isfinite(price)):
        raise InputError(f"{what}.price must be a number or null, got {offer!r}")
    return price


def _event_reference(meta: Any, what: str) -> ReferenceAct:
    """The reference act of an event's ``metadata`` (Cocoa's ``{intent, price}``, or null).

    No metadata, or one without an intent, is no act; one that is not an object, an intent
    that is not text or a price that is not a finite number is an error naming the event."""
    if meta is None:
        return _NO_ACT
    if not isinstance(meta, dict):
        raise InputError(f"{what} must be an object, got {json_kind(meta)}")
    intent = meta.get("intent")
    if intent is None or intent == "":
        return _NO_ACT
    # A price of 0 is none, as Cocoa's own scoring has it.
    price = reference_price(meta.get("price"), f"{what}.price")
    return ReferenceAct(reference_intent(intent, f"{what}.intent"), price or None)


def _metadata(act: Act, dialogue: Dialogue) -> dict[str, Any] | None:
    """Cocoa's ``metadata`` of an event, nothing more."""
    if act.intent is None:
        return None
    action = dialogue.turns[act.turn].action
    if action in ("accept", "reject", "quit"):
        return {"intent": act.intent}
    return {"intent": act.intent, "price": act.price}


def write_cocoa(
    raw: dict[str, Any], dialogue: Dialogue, acts: Sequence[Act], *, coarse: bool = False
) -> dict[str, Any]:
    """A copy of a transcript with Cocoa's ``metadata`` and actparse's own lists.

    ``metadata`` goes on every event, actparse's lists in ``actparse`` (``coarse``: with the coarse
    acts); every other field is kept."""
    out = dict(raw)
    events = copy.deepcopy(raw["events"])
    for event, act in zip(events, acts):
        event["metadata"] = _metadata(act, dialogue)
    out["events"] = events
    field_to_write(raw, ACTPARSE_FIELD, written_before)
    out[ACTPARSE_FIELD] = actparse_field(acts, coarse=coarse)
    return out


def write_cocoa_coarse(
    raw: dict[str, Any], dialogue: Dialogue, acts: Sequence[Act]
) -> dict[str, Any]:
    """:func:`write_cocoa` with a ``coarse`` list in ``actparse``."""
    return write_cocoa(raw, dialogue, acts, coarse=True)
