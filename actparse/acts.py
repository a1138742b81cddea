"""The shared coarse act space, read from ``rules/acts.yaml``."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from actparse.rules import RuleError, line_loader, rules_dir

__all__ = ["CORPORA", "ActSpace", "CoarseAct", "coarse_act", "load_act_space"]

CORPORA = ("craigslist", "dealornodeal", "casino", "mutualfriends")
_ALLOWED = frozenset({"name", "definition", *CORPORA})


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


def parse_act_space(text: str, source: str) -> ActSpace:
    """Parse and check an act-space document; errors name the file and line."""
    try:
        doc: Any = yaml.load(text, Loader=line_loader())
    except yaml.YAMLError as err:
        raise RuleError(f"{source}: not valid YAML: {err}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("acts"), list):
        raise RuleError(f"{source}:1: expected a mapping with an 'acts' list")
    acts: list[CoarseAct] = []
    seen: dict[tuple[str, str], str] = {}
    for record in doc["acts"]:
        line = record.pop("__line__", "?") if isinstance(record, dict) else "?"
        if not isinstance(record, dict) or "name" not in record or "definition" not in record:
            raise RuleError(f"{source}:{line}: each act needs a 'name' and a 'definition'")
        where = f"{source}:{line}: act '{record['name']}'"
        extra = set(record) - _ALLOWED
        if extra:
            raise RuleError(f"{where}: unknown key(s) {sorted(extra)}; allowed: {sorted(_ALLOWED)}")
        native: dict[str, tuple[str, ...]] = {}
        for corpus in CORPORA:
            intents = record.get(corpus, [])
            if not isinstance(intents, list) or not all(isinstance(i, str) for i in intents):
                raise RuleError(f"{where}: '{corpus}' must be a list of intents")
            for intent in intents:
                if (corpus, intent) in seen:
                    raise RuleError(
                        f"{where}: {corpus} intent {intent!r} already maps to "
                        f"'{seen[(corpus, intent)]}'"
                    )
                seen[(corpus, intent)] = record["name"]
            native[corpus] = tuple(intents)
        acts.append(CoarseAct(str(record["name"]), str(record["definition"]), native))
    return ActSpace(acts)


def load_act_space(path: str | Path | None = None) -> ActSpace:
    """Load an act space (default: the shipped ``rules/acts.yaml``)."""
    if path is None:
        return _default()
    return parse_act_space(Path(path).read_text(encoding="utf-8"), str(path))


@functools.cache
def _default() -> ActSpace:
    text = rules_dir().joinpath("acts.yaml").read_text(encoding="utf-8")
    return parse_act_space(text, "rules/acts.yaml")


def coarse_act(corpus: str, intent: str | None) -> str | None:
    """The coarse act of a native intent, from the shipped act space."""
    return _default().coarse(corpus, intent)
