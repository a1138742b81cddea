"""The reference columns of your own dialogues, read from a dialogue's record.

A turn (a row of a turn table, a turn of the nested form) may carry:

- ``reference_coarse``: the coarse act the turn should get, one of the shared inventory
  (``rules/acts.yaml``: ``greet``, ``propose``...); empty or absent: the turn's act is
  not scored;
- ``reference_price``: the price the turn proposes, a number (``120``, ``"$1,200"``);
  an empty cell (or ``null``) says the turn proposes none, so a turn whose record has
  the field is scored either way, and a turn without the field is not.

A dialogue may carry ``reference_split``, the split both speakers agreed on at the end:
``{"ann": {"book": 2, "hat": 0}, "bob": {"book": 1, "hat": 1}}`` or its JSON text,
keyed by the two speakers' names (as the ``speaker`` column writes them), on every row
of the dialogue or on one of them (given twice, it must be the same), or at the top
level of a nested record. Empty or ``null``: no agreement recorded, nothing to score.
Where the dialogue declares its ``items``, an item a speaker's share leaves out is 0 of
it, and both shares must add up to the declared counts.

The reader of the corpus (:mod:`actparse.corpora.chat.reader`) ignores these columns;
:func:`references` reads them here, from the raw record the dialogue was read from.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from actparse.corpora.chat.reader import cell_given, json_cell, parse_price, speakers
from actparse.errors import InputError
from actparse.io.fields import count_field
from actparse.io.messages import json_kind
from actparse.models import Dialogue, ItemSplit

__all__ = ["COARSE", "COLUMNS", "PRICE", "SPLIT", "References", "references"]

COARSE = "reference_coarse"
PRICE = "reference_price"
SPLIT = "reference_split"
#: The reference columns, in the order the documentation gives them.
COLUMNS = (COARSE, PRICE, SPLIT)


@dataclass(frozen=True)
class References:
    """What a dialogue's record says our acts should be, by turn position."""

    #: Turn position -> the reference coarse act.
    coarse: dict[int, str] = field(default_factory=dict)
    #: Turn position -> the reference price (``None``: the turn proposes no price).
    prices: dict[int, float | None] = field(default_factory=dict)
    #: The agreed final split (``None``: none recorded).
    split: ItemSplit | None = None
    #: Whether the record has any reference column at all (even an empty one).
    given: bool = False


def _coarse(value: Any, acts: Collection[str], what: str) -> str:
    if not isinstance(value, str):
        raise InputError(f"{what} must be the name of a coarse act, got {json_kind(value)}")
    name = value.strip().lower()
    if acts and name not in acts:
        raise InputError(
            f"{what}: {value!r} is no coarse act; the coarse acts are {', '.join(acts)}"
        )
    return name


def _split_value(values: Sequence[tuple[str, Any]]) -> Any:
    """The one split value a dialogue gives, wherever it gives it (``None`` if nowhere)."""
    given = [(where, v) for where, v in values if cell_given(v)]
    if not given:
        return None
    first_where, first = given[0]
    for where, value in given[1:]:
        if value != first:
            raise InputError(
                f"{where}: {SPLIT} {value!r} differs from {first!r} on {first_where} "
                f"(a dialogue has one {SPLIT} value: give it on one turn, or the same on each)"
            )
    return first


def _shares(value: Any, speakers: Sequence[str], what: str) -> dict[str, dict[str, int]]:
    """Each speaker's share of a reference split, checked against the dialogue's speakers."""
    if isinstance(value, str):
        value = json_cell(value, what)
    if not isinstance(value, Mapping):
        raise InputError(
            f"{what} must map each speaker to the items they get, got {json_kind(value)}"
        )
    if len(speakers) != 2:
        raise InputError(
            f"{what}: the dialogue has {len(speakers)} speaker(s); a split is scored between two"
        )
    unknown = [str(k) for k in value if str(k) not in speakers]
    missing = [s for s in speakers if s not in {str(k) for k in value}]
    if unknown or missing:
        raise InputError(
            f"{what} must give the share of each speaker, {speakers[0]!r} and "
            f"{speakers[1]!r}; got {', '.join(repr(str(k)) for k in value) or 'none'}"
        )
    shares: dict[str, dict[str, int]] = {}
    for speaker, share in value.items():
        if not isinstance(share, Mapping):
            raise InputError(f"{what}.{speaker} must map items to counts, got {json_kind(share)}")
        shares[str(speaker)] = {
            str(item): count_field(n, f"{what}.{speaker}.{item}") for item, n in share.items()
        }
    return shares


def reference_split(value: Any, dialogue: Dialogue, what: str = SPLIT) -> ItemSplit:
    """A reference split as an :class:`ItemSplit` over the dialogue's items.

    Agent 0 is the first speaker (:func:`.reader.speakers`); the items are the
    declared ones in their order, or, where none are declared, those the split names.
    """
    names_by_agent = speakers(dialogue)
    shares = _shares(value, names_by_agent, what)
    declared = {i.name: i.count for i in dialogue.parties[0].items}
    named = list(dict.fromkeys(item for share in shares.values() for item in share))
    if declared:
        extra = [i for i in named if i not in declared]
        if extra:
            raise InputError(
                f"{what}: {', '.join(map(repr, extra))} is no item of the dialogue "
                f"(its items: {', '.join(declared)})"
            )
        names = list(declared)
    else:
        names = named
    counts = [tuple(shares[s].get(i, 0) for i in names) for s in names_by_agent]
    for k, name in enumerate(names):
        total = counts[0][k] + counts[1][k]
        if declared and total != declared[name]:
            raise InputError(
                f"{what}: the shares of {name!r} add up to {total}, the dialogue has "
                f"{declared[name]}"
            )
    return ItemSplit(tuple(names), (counts[0], counts[1]))


def references(
    raw: Mapping[str, Any] | None, dialogue: Dialogue, acts: Collection[str] = ()
) -> References:
    """The reference columns of a dialogue's record (none for a bare dialogue).

    ``acts`` are the coarse act names a ``reference_coarse`` may give (any, when empty).
    Raises :class:`~actparse.errors.InputError` naming the turn and the column at fault.
    """
    if raw is None:
        return References()
    turns = raw.get("turns")
    turns = turns if isinstance(turns, list) else []
    coarse: dict[int, str] = {}
    prices: dict[int, float | None] = {}
    splits: list[tuple[str, Any]] = [("the record", raw.get(SPLIT))]
    given = SPLIT in raw
    for k, turn in enumerate(turns):
        if not isinstance(turn, Mapping):
            continue  # the reader has said so already
        given = given or any(c in turn for c in COLUMNS)
        if cell_given(turn.get(COARSE)):
            coarse[k] = _coarse(turn[COARSE], acts, f"turn {k}: {COARSE}")
        if PRICE in turn:
            value = turn[PRICE]
            prices[k] = parse_price(value, f"turn {k}: {PRICE}") if cell_given(value) else None
        splits.append((f"turn {k}", turn.get(SPLIT)))
    value = _split_value(splits)
    split = None if value is None else reference_split(value, dialogue)
    return References(coarse, prices, split, given)
