"""Key-only checks of record layouts that more than one corpus uses.

Detectors of the corpora's ``spec`` modules call these; they look at a record's keys
and import nothing, so that knowing a corpus stays cheap.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["cocoa_kbs_are_mappings"]


def cocoa_kbs_are_mappings(raw: Mapping[str, Any]) -> bool | None:
    """Whether a Cocoa transcript's knowledge bases are mappings rather than lists.

    A Cocoa transcript has ``scenario`` and ``events``; a sale's knowledge bases are
    mappings (an item and a role: Craigslist), a collaborative task's are lists
    (friends: MutualFriends). ``None`` for a record that is no Cocoa transcript.

    >>> cocoa_kbs_are_mappings({"scenario": {"kbs": [{"item": {}}]}, "events": []})
    True
    >>> cocoa_kbs_are_mappings({"scenario": {"kbs": [[{"Name": "Ann"}]]}, "events": []})
    False
    >>> cocoa_kbs_are_mappings({"utterance": []}) is None
    True
    """
    scenario = raw.get("scenario")
    if not isinstance(scenario, Mapping) or "events" not in raw:
        return None
    kbs = scenario.get("kbs") or [None]
    return isinstance(kbs[0], Mapping)
