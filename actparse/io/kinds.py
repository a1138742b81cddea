"""The kinds of the per-turn table's columns: each in every form the table is written in.

A :class:`Kind` fixes a column's Arrow, pandas, ``datasets`` and CSV types in one place;
:data:`actparse.io.turns.COLUMNS` gives each column one.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = [
    "ENTITIES",
    "INTEGER",
    "LABEL",
    "LABELS",
    "NUMBER",
    "OPTIONAL_INTEGER",
    "SPLIT",
    "TEXT",
    "Kind",
]


def _no_null(value: Any) -> Any:
    return value


def _json_or_empty(value: Any) -> str:
    return "" if value is None else json.dumps(value, ensure_ascii=False)


def _from_json_or_null(text: str) -> Any:
    return None if text == "" else json.loads(text)


@dataclass(frozen=True)
class Kind:
    """A column type, in every form the table is written in.

    ``arrow`` and ``feature`` take the ``pyarrow`` and ``datasets`` modules (imported by
    the caller, so neither is needed to make rows). In CSV a null is an empty field,
    which a kind that is never null reads as its empty value.
    """

    name: str
    arrow: Callable[[Any], Any]
    #: The pandas dtype (``object`` for nested values: lists of dicts, ``None`` as null).
    pandas: str
    feature: Callable[[Any], Any]
    to_csv: Callable[[Any], str]
    from_csv: Callable[[str], Any]


def _list_of_records(name: str, fields: dict[str, str], from_csv: Callable[[str], Any]) -> Kind:
    """A column of lists of records (JSON text in CSV).

    ``fields`` maps each field to its type, as Arrow and ``datasets`` both name it
    (``string``, ``int64``)."""
    return Kind(
        name,
        lambda pa: pa.list_(pa.struct([pa.field(f, getattr(pa, t)()) for f, t in fields.items()])),
        "object",
        # A one-element list is a list feature in every datasets version (List is new in 4).
        lambda ds: [{f: ds.Value(t) for f, t in fields.items()}],
        _json_or_empty,
        from_csv,
    )


#: Text that is never null (an event with no text has ``""``).
TEXT = Kind(
    "text",
    lambda pa: pa.string(),
    "string",
    lambda ds: ds.Value("string"),
    _no_null,
    _no_null,
)
#: A name that may be missing (never ``""``: a missing name is null).
LABEL = Kind(
    "label",
    lambda pa: pa.string(),
    "string",
    lambda ds: ds.Value("string"),
    lambda v: "" if v is None else v,
    lambda s: s or None,
)
#: A whole number that is never null.
INTEGER = Kind(
    "integer",
    lambda pa: pa.int64(),
    "int64",
    lambda ds: ds.Value("int64"),
    str,
    int,
)
#: A whole number that may be missing (a turn a deal move names; ``Int64`` in pandas,
#: which holds a null without turning the column into floats).
OPTIONAL_INTEGER = Kind(
    "optional integer",
    lambda pa: pa.int64(),
    "Int64",
    lambda ds: ds.Value("int64"),
    lambda v: "" if v is None else str(int(v)),
    lambda s: None if s == "" else int(s),
)
#: A number that may be missing (``repr`` in CSV, which reads back as the same float).
NUMBER = Kind(
    "number",
    lambda pa: pa.float64(),
    "Float64",
    lambda ds: ds.Value("float64"),
    lambda v: "" if v is None else repr(float(v)),
    lambda s: None if s == "" else float(s),
)
#: An item split: per item, what each agent gets (a count is null where a partial
#: proposal left it open); the whole column is null for a turn without a split.
SPLIT = _list_of_records(
    "split", {"item": "string", "agent_0": "int64", "agent_1": "int64"}, _from_json_or_null
)
#: Knowledge-base values a turn mentions or selects (``[]`` when none).
ENTITIES = _list_of_records(
    "entities",
    {"surface": "string", "value": "string", "type": "string"},
    lambda s: json.loads(s) if s else [],
)


#: Labels of a turn (its strategies, what its split assumed; ``[]`` when none).
LABELS = Kind(
    "labels",
    lambda pa: pa.list_(pa.string()),
    "object",
    lambda ds: [ds.Value("string")],
    _json_or_empty,
    lambda s: json.loads(s) if s else [],
)
