"""Acts written back into your own dialogues, every input field kept.

Each turn (a row of a table, a turn of the nested form) gets one field of actparse's
own, ``actparse``: its :func:`act_fields`. A table's dialogue is written back as its
rows (:func:`write_rows`), one per input row, in turn order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from actparse.corpora.chat.reader import SPLITS_OFF, speakers
from actparse.corpora.chat.rows import rows_of
from actparse.models import Act, Dialogue

__all__ = ["FIELD", "SPLITS_OFF", "act_fields", "write_nested", "write_rows"]

#: The field every turn gets.
FIELD = "actparse"


def act_fields(act: Act, dialogue: Dialogue) -> dict[str, Any]:
    """A turn's act as JSON: intent, coarse act, price, split, strategies, and why none.

    With a split, what its parse assumed (``split_uncertain``) and what the message does
    to the deal (``deal``, :class:`~actparse.models.DealMove`), when it does anything.

    The split names each side by its speaker: ``{"ann": {"book": 2}, "bob": {...}}``. A
    dialogue of one speaker or of three and more has a ``note`` saying it gets no splits.
    """
    split = None
    if act.split is not None:
        names = speakers(dialogue)
        split = {(names[a] if a < len(names) else str(a)): act.split.for_agent(a) for a in (0, 1)}
    fields: dict[str, Any] = {
        "intent": act.intent,
        "coarse": act.coarse,
        "price": act.price,
        "split": split,
        "strategies": list(act.strategies),
        "no_act": act.no_act,
    }
    if act.split is not None and act.split.uncertain:
        fields["split_uncertain"] = list(act.split.uncertain)
    if act.deal is not None:
        fields["deal"] = act.deal.to_dict()
    if any(tag.startswith(SPLITS_OFF) for tag in act.tags):
        # Said on every turn, so that a row read alone still tells why it has no split.
        n = len(speakers(dialogue))
        fields["note"] = (
            f"{n} speaker{'s' if n != 1 else ''}: coarse acts and prices only (item splits "
            "are read between two speakers)"
        )
    return fields


def write_rows(
    raw: dict[str, Any], dialogue: Dialogue, acts: Sequence[Act]
) -> list[dict[str, Any]]:
    """The dialogue's rows, each with its act in ``actparse`` (replacing an earlier one)."""
    rows = rows_of(raw)
    for row, act in zip(rows, acts):
        row[FIELD] = act_fields(act, dialogue)
    return rows


def write_nested(raw: dict[str, Any], dialogue: Dialogue, acts: Sequence[Act]) -> dict[str, Any]:
    """A copy of the record whose turns each have their act in ``actparse``."""
    out = dict(raw)
    out["turns"] = [
        {**turn, FIELD: act_fields(act, dialogue)} for turn, act in zip(raw["turns"], acts)
    ]
    return out
