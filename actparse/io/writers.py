"""Writers: put acts back into the input record, keeping every input field.

Each format names its writer in :mod:`actparse.registry`; :func:`write_record` asks for
it. :func:`write_acts` is the writer of corpora with no conventions of their own: a
transcript with an ``events`` list gets each act as that event's ``metadata``, any other
record a new ``acts`` list, one act per turn.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from actparse import registry
from actparse.io.fields import acts_written_before, field_to_write
from actparse.models import Act, Dialogue

__all__ = ["write_acts", "write_record"]


def write_record(
    raw: dict[str, Any],
    fmt: str,
    dialogue: Dialogue,
    acts: Sequence[Act],
    *,
    coarse: bool = False,
) -> dict[str, Any] | list[dict[str, Any]]:
    """A copy of a record in format ``fmt`` with its acts written in (a turn table: its rows).

    Written by its format's writer; every other field is kept and the input is not modified.
    ``coarse``: with the coarse acts beside the native intents, for a format that leaves them
    out."""
    found = registry.handlers(fmt)
    return (found.coarse_writer if coarse else found.writer)(raw, dialogue, acts)


def write_acts(raw: dict[str, Any], dialogue: Dialogue, acts: Sequence[Act]) -> dict[str, Any]:
    """``events[k].metadata`` (a transcript) or a new ``acts`` list: ``Act.to_dict()``."""
    out = dict(raw)
    if isinstance(raw.get("events"), list) and all(isinstance(e, dict) for e in raw["events"]):
        events = copy.deepcopy(raw["events"])
        for event, act in zip(events, acts):
            event["metadata"] = act.to_dict()
        out["events"] = events
        return out
    field_to_write(raw, "acts", acts_written_before)
    out["acts"] = [act.to_dict() for act in acts]
    return out
