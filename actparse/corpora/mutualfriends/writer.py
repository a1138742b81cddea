"""MutualFriends records written back with one act per event, every input field kept.

HuggingFace export: a new field ``acts``, one object per event. Cocoa transcript:
``metadata`` on each event. Each act object holds ``intent``, ``coarse`` and
``entities`` (``[{surface, value, type}]``, the values a message mentions; empty for a
select); a select's also holds ``friend`` and ``in_own_list`` (whether the friend is in
the reader's own list, the reader being the other agent).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from actparse.corpora.mutualfriends.linker import FriendLists, selected_friend
from actparse.corpora.mutualfriends.reader import is_hf_export
from actparse.io.fields import acts_written_before, field_to_write
from actparse.models import Act, Dialogue

__all__ = ["act_records", "write_mutualfriends"]


def act_records(dialogue: Dialogue, acts: Sequence[Act]) -> list[dict[str, Any]]:
    """The act object of every turn, one per turn.

    See the module's description; from the dialogue and the parser's acts."""
    if len(acts) != len(dialogue.turns):
        raise ValueError(f"{len(acts)} acts for a dialogue of {len(dialogue.turns)} turns")
    lists: FriendLists | None = None
    out: list[dict[str, Any]] = []
    for turn, act in zip(dialogue.turns, acts):
        # A select's act carries the friend's values as entities, but the record
        # lists only what a message mentions: the friend is written whole below.
        mentions = act.entities if turn.action == "message" else ()
        record: dict[str, Any] = {
            "intent": act.intent,
            "coarse": act.coarse,
            "entities": [m.to_dict() for m in mentions],
            "strategies": list(act.strategies),
        }
        if turn.action == "select":
            friend = selected_friend(turn)
            if lists is None:
                lists = FriendLists(dialogue.parties)
            in_own, _in_writer = lists.selection(friend, turn.agent)
            record["friend"] = dict(friend)
            record["in_own_list"] = in_own
        out.append(record)
    return out


def write_mutualfriends(
    raw: dict[str, Any], dialogue: Dialogue, acts: Sequence[Act]
) -> dict[str, Any]:
    """A copy of a raw record (either layout) with ``acts`` written in.

    See the module's description; ``dialogue`` is the record read by
    :func:`~actparse.corpora.mutualfriends.reader.dialogue_from_mutualfriends`. The input is not
    modified."""
    records = act_records(dialogue, acts)
    out = dict(raw)
    if is_hf_export(raw):
        field_to_write(raw, "acts", acts_written_before)
        out["acts"] = records
    else:
        events = []
        for event, record in zip(raw["events"], records):
            labelled = dict(event)
            labelled["metadata"] = record
            events.append(labelled)
        out["events"] = events
    return out
