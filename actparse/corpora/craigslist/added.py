"""What actparse adds to a Craigslist record beside Cocoa's acts, in one field of its own.

Cocoa's schema has room for an intent and a price per turn only (``dialogue_acts`` of
the HuggingFace export, ``metadata`` of a transcript's events); a labelled record keeps
exactly that, so that it has the published features, and gets everything else in one
top-level ``actparse`` object of lists parallel to the turns (``utterance`` or
``events``)::

    >>> from actparse.models import Act
    >>> acts = [Act(0, 0, "intro", strategies=("small-talk",)), Act(1, 1, None, note="why")]
    >>> actparse_field(acts)
    {'strategies': [['small-talk'], []], 'no_act': [None, 'why']}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from actparse.models import Act

__all__ = ["ACTPARSE_FIELD", "actparse_field", "written_before"]

#: The top-level field of actparse's own per-turn lists.
ACTPARSE_FIELD = "actparse"


def written_before(value: Any) -> bool:
    """Whether a record's ``actparse`` field is one actparse wrote (labelled again, replaced)."""
    return isinstance(value, dict) and "no_act" in value


def actparse_field(acts: Sequence[Act], *, coarse: bool = False) -> dict[str, list[Any]]:
    """actparse's per-turn lists: ``strategies``, ``no_act`` and optionally ``coarse``.

    ``strategies`` is a list of labels per turn; ``no_act`` is ``None`` where the turn has an act,
    else why not (:attr:`Act.no_act`); with ``coarse``, ``coarse`` is the coarse act, ``None`` where
    the turn has no act."""
    out: dict[str, list[Any]] = {
        "strategies": [list(a.strategies) for a in acts],
        "no_act": [a.no_act for a in acts],
    }
    if coarse:
        out["coarse"] = [a.coarse if a.intent is not None else None for a in acts]
    return out
