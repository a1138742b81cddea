"""MutualFriends records, in either layout, read into :class:`~actparse.models.Dialogue`.

- the HuggingFace export: ``scenario_kbs`` and ``events`` as parallel lists;
- Cocoa transcripts: ``scenario.kbs`` as lists of objects, ``events`` with
  ``message``/``select`` actions.

Telling MutualFriends from the other corpora is :mod:`actparse.registry`'s job; this
module only tells its two layouts apart (:func:`is_hf_export`). Friends become
:class:`Friend` mappings that keep each attribute's value type; :func:`friend_key` says
when two friends are the same.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from actparse.corpora.mutualfriends import CORPUS
from actparse.corpora.mutualfriends.names import fold
from actparse.io.fields import agent_index, list_field, record_reader, required, text_field
from actparse.io.messages import json_kind
from actparse.models import Dialogue, Party, Turn

__all__ = [
    "Friend",
    "FriendKey",
    "attribute_type",
    "dialogue_from_mutualfriends",
    "friend_key",
    "is_hf_export",
]

#: A friend as a set of folded ``(attribute, value)`` pairs: equal for the same friend
#: however its attributes are ordered, cased or accented.
FriendKey = frozenset[tuple[str, str]]


def _snake(name: str) -> str:
    return "_".join(name.lower().split())


class Friend(Mapping[str, str]):
    """One friend of a knowledge base: a read-only mapping attribute name -> value.

    It also keeps each attribute's value type (``school``, ``company``, ``loc_pref``...)
    from the scenario, because :class:`~actparse.models.Party` has no field for them.
    It compares equal to any mapping with the same items, so a plain ``dict`` works
    wherever a friend is expected (its types then default to the snake-cased attribute
    name).
    """

    __slots__ = ("_key", "_types", "_values")

    def __init__(self, values: Mapping[str, str], types: Mapping[str, str] | None = None):
        self._values = dict(values)
        given = types or {}
        self._types = {name: given.get(name) or _snake(name) for name in self._values}
        self._key: FriendKey | None = None

    def __getitem__(self, key: str) -> str:
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"Friend({self._values!r})"

    def type_of(self, attribute: str) -> str:
        """The value type of an attribute (``KeyError`` if the friend has no such one)."""
        return self._types[attribute]

    def key(self) -> FriendKey:
        """The friend's :data:`FriendKey`, folded once.

        The parser and the writer both check the same selections and knowledge bases against each
        other."""
        if self._key is None:
            self._key = _fold_items(self._values)
        return self._key


def _fold_items(friend: Mapping[str, str]) -> FriendKey:
    return frozenset((fold(k).strip(), fold(str(v)).strip()) for k, v in friend.items())


def friend_key(friend: Mapping[str, str]) -> FriendKey:
    """The :data:`FriendKey` of a friend (a :class:`Friend` or a plain mapping)."""
    return friend.key() if isinstance(friend, Friend) else _fold_items(friend)


def attribute_type(friend: Mapping[str, str], attribute: str) -> str:
    """The value type of a friend's attribute; for a plain mapping, the snake-cased name."""
    return friend.type_of(attribute) if isinstance(friend, Friend) else _snake(attribute)


# ---------------------------------------------------------------------------
# Checked access to the raw record: errors name the field's path
# ---------------------------------------------------------------------------


def _get(obj: Any, key: str, path: str) -> Any:
    """``obj[key]``; a missing key is an :class:`InputError` naming the whole path."""
    return required(obj, key, path)


def _friend(names: Any, values: Any, types: Mapping[str, str], what: str) -> Friend:
    names = list_field(names, f"{what} attribute names")
    values = list_field(values, f"{what} values")
    if len(names) != len(values):
        raise ValueError(f"{what} has {len(names)} attribute names but {len(values)} values")
    pairs = {
        text_field(n, f"{what} attribute name"): text_field(v, f"{what} value")
        for n, v in zip(names, values)
    }
    return Friend(pairs, types)


def _two_kbs(kbs: Any, what: str) -> list[list[Any]]:
    kbs = list_field(kbs, what)
    if len(kbs) != 2:
        raise ValueError(f"{what} must hold 2 knowledge bases, got {len(kbs)}")
    return [list_field(kb, f"{what}[{a}]") for a, kb in enumerate(kbs)]


def _attribute_types(attributes: Any, what: str) -> dict[str, str]:
    """Attribute name -> value type, from either layout.

    From a list of ``{name, value_type}`` objects or the HuggingFace columns ``{name: [...],
    value_type: [...]}``; absent: none known."""
    if attributes is None:
        return {}
    if isinstance(attributes, Mapping):
        names = list_field(attributes.get("name", []), f"{what}.name")
        kinds = list_field(attributes.get("value_type", []), f"{what}.value_type")
        if len(names) != len(kinds):
            raise ValueError(f"{what} has {len(names)} names but {len(kinds)} value types")
        pairs = list(zip(names, kinds))
    else:
        pairs = []
        for n, attribute in enumerate(list_field(attributes, what)):
            if not isinstance(attribute, Mapping):
                raise TypeError(f"{what}[{n}] must be a JSON object")
            pairs.append((attribute.get("name"), attribute.get("value_type")))
    return {
        text_field(name, f"{what} name"): text_field(kind, f"{what} value_type")
        for name, kind in pairs
        if kind is not None
    }


def _outcome(reward: Any, extra: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
    if reward is None and not extra:
        return None
    if reward is not None and (isinstance(reward, bool) or not isinstance(reward, int | float)):
        raise TypeError(f"the outcome reward must be a number, got {reward!r}")
    # Cocoa's controller rewards 0 or 1; eval scores against it, so 0.5 or NaN is no reward
    # to round, but an error.
    if reward is not None and reward not in (0, 1):
        # (A float as it is; an integer of any size without turning it into text.)
        got = repr(reward) if isinstance(reward, float) else "another whole number"
        raise ValueError(f"the outcome reward must be 0 or 1, got {got}")
    out = dict(extra or {})
    out["reward"] = None if reward is None else int(reward)
    return out


# ---------------------------------------------------------------------------
# The two layouts
# ---------------------------------------------------------------------------


def is_hf_export(raw: Mapping[str, Any]) -> bool:
    """Whether a MutualFriends record is in the HuggingFace layout.

    ``False``: a Cocoa transcript; a record of neither layout is a ``ValueError``."""
    if "scenario_kbs" in raw:
        return True
    if "scenario" in raw:
        return False
    raise ValueError(
        "not a MutualFriends record: expected 'scenario_kbs' (HuggingFace export) or "
        "'scenario' (Cocoa transcript)"
    )


def _dialogue_from_hf(raw: Mapping[str, Any]) -> Dialogue:
    types = _attribute_types(raw.get("scenario_attributes"), "scenario_attributes")
    parties = []
    for a, kb in enumerate(_two_kbs(raw["scenario_kbs"], "scenario_kbs")):
        friends = []
        for n, row in enumerate(kb):
            what = f"scenario_kbs[{a}][{n}]"
            row = list_field(row, what)
            if len(row) != 2:
                raise ValueError(f"{what} must be [attribute names, values], got {len(row)} items")
            friends.append(_friend(row[0], row[1], types, what))
        parties.append(Party(kb=tuple(friends)))
    events = _get(raw, "events", "events")
    actions = list_field(_get(events, "actions", "events.actions"), "events.actions")
    agents = list_field(_get(events, "agents", "events.agents"), "events.agents")
    messages = list_field(
        _get(events, "data_messages", "events.data_messages"), "events.data_messages"
    )
    selects = _select_rows(_get(events, "data_selects", "events.data_selects"))
    for name, column in (
        ("agents", agents),
        ("data_messages", messages),
        ("data_selects", selects),
    ):
        if len(column) != len(actions):
            raise ValueError(
                f"events.actions has {len(actions)} entries but events.{name} has {len(column)}"
            )
    turns = []
    for i, action in enumerate(actions):
        agent = agent_index(agents[i], f"events.agents[{i}]")
        if action == "message":
            text = text_field(messages[i], f"events.data_messages[{i}]")
            turns.append(Turn(i, agent, "message", text))
        elif action == "select":
            names, values = selects[i]
            if not names:
                raise ValueError(f"event {i}: a select without a friend in events.data_selects")
            friend = _friend(names, values, types, f"events.data_selects[{i}]")
            turns.append(Turn(i, agent, "select", data=friend))
        else:
            raise ValueError(f"event {i}: unknown action {action!r} (expected message or select)")
    return Dialogue(
        turns=tuple(turns),
        parties=(parties[0], parties[1]),
        id=raw.get("uuid"),
        corpus=CORPUS,
        outcome=_outcome(raw.get("outcome_reward")),
    )


def _select_rows(selects: Any) -> list[tuple[Any, Any]]:
    """``(attribute names, values)`` per event, from either layout.

    From the export's columns ``{attributes: [...], values: [...]}`` or from a list of
    ``{attributes, values}``."""
    if isinstance(selects, Mapping):
        names = list_field(
            _get(selects, "attributes", "events.data_selects.attributes"), "attributes"
        )
        values = list_field(_get(selects, "values", "events.data_selects.values"), "values")
        if len(names) != len(values):
            raise ValueError(
                f"events.data_selects has {len(names)} attribute lists but "
                f"{len(values)} value lists"
            )
        return list(zip(names, values))
    rows = []
    for i, row in enumerate(list_field(selects, "events.data_selects")):
        where = f"events.data_selects[{i}]"
        rows.append(
            (_get(row, "attributes", f"{where}.attributes"), _get(row, "values", f"{where}.values"))
        )
    return rows


def _dialogue_from_cocoa(raw: Mapping[str, Any]) -> Dialogue:
    scenario = _get(raw, "scenario", "scenario")
    types = _attribute_types(
        scenario.get("attributes") if isinstance(scenario, Mapping) else None, "scenario.attributes"
    )
    parties = []
    for a, kb in enumerate(_two_kbs(_get(scenario, "kbs", "scenario.kbs"), "scenario.kbs")):
        friends = []
        for n, row in enumerate(kb):
            what = f"scenario.kbs[{a}][{n}]"
            if not isinstance(row, Mapping):
                raise TypeError(f"{what} must be a JSON object (attribute -> value)")
            friends.append(_friend(list(row), list(row.values()), types, what))
        parties.append(Party(kb=tuple(friends)))
    turns = []
    for i, event in enumerate(list_field(_get(raw, "events", "events"), "events")):
        action = _get(event, "action", f"events[{i}].action")
        agent = agent_index(_get(event, "agent", f"events[{i}].agent"), f"events[{i}].agent")
        data = event.get("data")
        if action == "message":
            turns.append(Turn(i, agent, "message", text_field(data, f"events[{i}].data")))
        elif action == "select":
            if not isinstance(data, Mapping) or not data:
                raise ValueError(f"event {i}: a select needs the friend as an object in 'data'")
            friend = _friend(list(data), list(data.values()), types, f"events[{i}].data")
            turns.append(Turn(i, agent, "select", data=friend))
        else:
            raise ValueError(f"event {i}: unknown action {action!r} (expected message or select)")
    outcome = raw.get("outcome")
    if outcome is not None and not isinstance(outcome, Mapping):
        raise TypeError("outcome must be a JSON object")
    extra = {k: v for k, v in (outcome or {}).items() if k != "reward"}
    return Dialogue(
        turns=tuple(turns),
        parties=(parties[0], parties[1]),
        id=raw.get("uuid"),
        corpus=CORPUS,
        outcome=_outcome((outcome or {}).get("reward"), extra),
    )


@record_reader
def dialogue_from_mutualfriends(raw: Mapping[str, Any]) -> Dialogue:
    """A :class:`~actparse.models.Dialogue` from a MutualFriends record, in either layout.

    HuggingFace export: ``scenario_kbs`` (each friend ``[attribute names, values]``),
    ``scenario_attributes``, ``events`` with parallel lists ``actions``, ``agents``,
    ``data_messages``, ``data_selects {attributes, values}``, and ``outcome_reward``.
    Cocoa transcript: ``scenario.kbs`` (friends as objects), ``scenario.attributes``,
    ``events`` of ``{action, agent, data}``, ``outcome.reward``. Friends become
    :class:`Friend` mappings carrying their value types. Malformed input raises
    :class:`~actparse.errors.InputError` (naming a missing field's path).
    """
    if not isinstance(raw, Mapping):
        raise TypeError(f"a MutualFriends record must be a JSON object, got {json_kind(raw)}")
    return _dialogue_from_hf(raw) if is_hf_export(raw) else _dialogue_from_cocoa(raw)
