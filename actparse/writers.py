"""Writers: put acts back into the input record, keeping every input field.

``hf`` records get ``dialogue_acts`` in the export's conventions: intent ``''`` and price
``-1.0`` where there is none (a price of 0 too, as the export did). ``cocoa`` transcripts
get ``metadata`` on every event, as Cocoa's parsed transcripts have: ``{"intent", "price"}``
for messages and offers, ``{"intent"}`` for accept, reject and quit, ``null`` for the
events of a skipped dialogue.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from actparse.models import Act, Dialogue

__all__ = ["apply_acts", "hf_acts"]

NO_PRICE = -1.0


def hf_acts(acts: Sequence[Act]) -> dict[str, list[Any]]:
    """``dialogue_acts`` in the HuggingFace layout."""
    return {
        "intent": [a.intent or "" for a in acts],
        "price": [a.price if a.price else NO_PRICE for a in acts],
    }


def _cocoa_metadata(act: Act, dialogue: Dialogue) -> dict[str, Any] | None:
    if act.intent is None:
        return None
    action = dialogue.turns[act.turn].action
    if action in ("accept", "reject", "quit"):
        return {"intent": act.intent}
    return {"intent": act.intent, "price": act.price}


def apply_acts(
    raw: dict[str, Any], fmt: str, dialogue: Dialogue, acts: Sequence[Act]
) -> dict[str, Any]:
    """A copy of the input record with the acts written in, every other field kept.

    Craigslist records keep their corpus' own conventions (``dialogue_acts``, event
    ``metadata``); Cocoa-style transcripts of other corpora get ``metadata`` per event;
    every other record gets an ``acts`` list, one act per turn.
    """
    out = dict(raw)
    if fmt == "hf":
        out["dialogue_acts"] = hf_acts(acts)
        return out
    if fmt == "cocoa":
        events = copy.deepcopy(raw["events"])
        for event, act in zip(events, acts):
            event["metadata"] = _cocoa_metadata(act, dialogue)
        out["events"] = events
        return out
    if isinstance(raw.get("events"), list) and all(isinstance(e, dict) for e in raw["events"]):
        events = copy.deepcopy(raw["events"])
        for event, act in zip(events, acts):
            event["metadata"] = act.to_dict()
        out["events"] = events
        return out
    out["acts"] = [act.to_dict() for act in acts]
    return out
