"""The shared coarse act space, read from ``rules/acts.yaml``."""

from __future__ import annotations

from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from actparse import registry
from actparse.engine.rulefiles import RuleError, check_keys, load_file, where

__all__ = ["ACTS_FILE", "ActSpace", "CoarseAct", "coarse_act", "load_act_space"]

#: The shipped act space, under ``rules/``.
ACTS_FILE = ("acts.yaml",)


@dataclass(frozen=True)
class CoarseAct:
    """One coarse act: its definition and the native intents each corpus maps to it."""

    name: str
    definition: str
    native: dict[str, tuple[str, ...]]


class ActSpace:
    """The coarse acts and the native -> coarse mapping of every corpus."""

    def __init__(self, acts: list[CoarseAct]) -> None:
        self.acts = tuple(acts)
        self._map: dict[tuple[str, str], str] = {}
        for act in acts:
            for corpus, intents in act.native.items():
                for intent in intents:
                    self._map[(corpus, intent)] = act.name

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.acts)

    def coarse(self, corpus: str, intent: str | None) -> str | None:
        """The coarse act of a native intent (``None`` for no intent)."""
        if intent is None:
            return None
        try:
            return self._map[(corpus, intent)]
        except KeyError:
            raise KeyError(f"no coarse act for {corpus} intent {intent!r} in acts.yaml") from None

    def native(self, corpus: str) -> set[str]:
        """Every native intent of a corpus that the act space maps."""
        return {intent for (c, intent) in self._map if c == corpus}


def parse_act_space(doc: Any, source: str) -> ActSpace:
    """Check a parsed act-space document; errors name the file and line.

    Each act maps the native intents of any registered corpus (a key per corpus name).
    """
    if not isinstance(doc, dict) or not isinstance(doc.get("acts"), list):
        raise RuleError(f"{source}:1: expected a mapping with an 'acts' list")
    corpora = registry.names()
    allowed = frozenset({"name", "definition", *corpora})
    acts: list[CoarseAct] = []
    seen: dict[tuple[str, str], str] = {}
    for record in doc["acts"]:
        at = where(source, record)
        if not isinstance(record, dict) or "name" not in record or "definition" not in record:
            raise RuleError(f"{at}: each act needs a 'name' and a 'definition'")
        what = f"act '{record['name']}'"
        check_keys(record, allowed, at, what)
        native: dict[str, tuple[str, ...]] = {}
        for corpus in corpora:
            intents = record.get(corpus, [])
            if not isinstance(intents, list) or not all(isinstance(i, str) for i in intents):
                raise RuleError(f"{at}: {what}: '{corpus}' must be a list of intents")
            for intent in intents:
                if (corpus, intent) in seen:
                    raise RuleError(
                        f"{at}: {what}: {corpus} intent {intent!r} already maps to "
                        f"'{seen[(corpus, intent)]}'"
                    )
                seen[(corpus, intent)] = record["name"]
            native[corpus] = tuple(intents)
        acts.append(CoarseAct(str(record["name"]), str(record["definition"]), native))
    return ActSpace(acts)


def load_act_space(path: str | Path | Traversable | None = None) -> ActSpace:
    """Load an act space (default: the shipped ``rules/acts.yaml``, loaded once)."""
    return load_file(path, ACTS_FILE, parse_act_space)


def coarse_act(corpus: str, intent: str | None) -> str | None:
    """The coarse act of a native intent, from the shipped act space."""
    return load_act_space().coarse(corpus, intent)
