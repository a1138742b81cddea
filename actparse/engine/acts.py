"""The shared coarse act inventory (``rules/acts.yaml``) and each corpus' coarse map.

The inventory lists every coarse act with its definition. Each corpus maps its native
intents onto those acts in ``coarse.yaml`` of its rule folder (``Corpus.rules``:
actparse's own ``rules/<corpus>`` or a folder a plug-in ships), read the first time the
corpus is parsed and checked against the inventory. For backward compatibility an act
file may still list, under each act, the native intents of a corpus (``craigslist:
[intro]``): that corpus' map is then the file's, not its folder's.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from actparse import registry
from actparse.engine.rulefiles import (
    RuleError,
    check_keys,
    display,
    load_file,
    read_document,
    rule_folder,
    shown,
    string_list,
    where,
)

__all__ = [
    "ACTS_FILE",
    "COARSE_FILE",
    "ActSpace",
    "CoarseAct",
    "CoarseMap",
    "coarse_act",
    "load_act_space",
    "parse_coarse_map",
]

#: The shipped act inventory, under ``rules/``.
ACTS_FILE = ("acts.yaml",)
#: A corpus' coarse map, in its rule folder.
COARSE_FILE = "coarse.yaml"


@dataclass(frozen=True)
class CoarseAct:
    """One coarse act: its definition and the native intents each corpus maps to it.

    The intents come only from an act file that still carries them (empty for the shipped
    inventory)."""

    name: str
    definition: str
    native: dict[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class CoarseMap:
    """One corpus' native intent -> coarse act map, and the file it was read from."""

    corpus: str
    source: str
    acts: dict[str, str]

    def coarse(self, intent: str | None) -> str | None:
        """The coarse act of a native intent (``None`` for no intent)."""
        if intent is None:
            return None
        try:
            return self.acts[intent]
        except KeyError:
            raise KeyError(
                f"no coarse act for {self.corpus} intent {intent!r} in {self.source}"
            ) from None

    def check_covers(self, intents: Collection[str]) -> None:
        """A :class:`RuleError` naming the file if any of ``intents`` is unmapped.

        ``intents`` are what a parser can give."""
        missing = [i for i in intents if i not in self.acts]
        if missing:
            raise RuleError(
                f"{self.source}: no coarse act for the {self.corpus} intent(s) "
                f"{', '.join(repr(i) for i in missing)}; map each onto an act of the inventory"
            )


class ActSpace:
    """The coarse act inventory, and the coarse map of each corpus (read on first use)."""

    def __init__(self, acts: list[CoarseAct], source: str = "rules/acts.yaml") -> None:
        self.acts = tuple(acts)
        self.source = source
        self._maps: dict[tuple[str, str], CoarseMap | None] = {}
        inline: dict[str, dict[str, str]] = {}
        for act in acts:
            for corpus, intents in act.native.items():
                inline.setdefault(corpus, {}).update(dict.fromkeys(intents, act.name))
        self._inline = {c: CoarseMap(c, source, mapping) for c, mapping in inline.items()}

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.acts)

    def coarse_map(self, corpus: str) -> CoarseMap | None:
        """The coarse map of a corpus, from this file or the corpus' own ``coarse.yaml``.

        This file's own lists for the corpus come first; ``None`` when it has neither."""
        if corpus in self._inline:
            return self._inline[corpus]
        spec = registry.get(corpus).rules
        # By folder too: a corpus registered again may name another one.
        if (corpus, spec) not in self._maps:
            folder = rule_folder(spec)
            file = folder.joinpath(COARSE_FILE) if folder is not None else None
            found = None
            if file is not None and file.is_file():
                found = parse_coarse_map(read_document(file), display(file), corpus, self)
            self._maps[(corpus, spec)] = found
        return self._maps[(corpus, spec)]

    def coarse(self, corpus: str, intent: str | None) -> str | None:
        """The coarse act of a native intent (``None`` for no intent)."""
        if intent is None:
            return None
        found = self.coarse_map(corpus)
        if found is None:
            raise KeyError(f"no coarse map for {corpus}: no {COARSE_FILE} in its rule folder")
        return found.coarse(intent)

    def native(self, corpus: str) -> set[str]:
        """Every native intent of a corpus that its coarse map maps."""
        found = self.coarse_map(corpus)
        return set(found.acts) if found is not None else set()


def parse_act_space(doc: Any, source: str) -> ActSpace:
    """Check a parsed act inventory; errors name the file and line.

    An act may also list the native intents of any registered corpus (a key per corpus
    name), the layout before each corpus had its own ``coarse.yaml``.
    """
    if not isinstance(doc, dict) or not isinstance(doc.get("acts"), list):
        raise RuleError(f"{source}:1: expected a mapping with an 'acts' list")
    check_keys(doc, ("description", "acts"), f"{source}:1", "the act file")
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
        if any(act.name == str(record["name"]) for act in acts):
            # The second would be unreachable: coarse maps and lookups find the first.
            raise RuleError(f"{at}: {what} is already in the inventory")
        native: dict[str, tuple[str, ...]] = {}
        for corpus in corpora:
            if corpus not in record:
                continue
            intents = record[corpus]
            if not isinstance(intents, list) or not all(isinstance(i, str) for i in intents):
                raise RuleError(f"{at}: {what}: '{corpus}' must be a list of intents")
            for intent in intents:
                if (corpus, intent) in seen:
                    raise RuleError(
                        f"{at}: {what}: {corpus} intent {shown(intent)} already maps to "
                        f"'{seen[(corpus, intent)]}'"
                    )
                seen[(corpus, intent)] = record["name"]
            native[corpus] = tuple(intents)
        acts.append(CoarseAct(str(record["name"]), str(record["definition"]), native))
    return ActSpace(acts, source)


def parse_coarse_map(doc: Any, source: str, corpus: str, space: ActSpace) -> CoarseMap:
    """Check a parsed ``coarse.yaml`` against the inventory of ``space``.

    Errors name the file and line: an act not in the inventory, an intent mapped twice."""
    top = check_keys(doc, ("description", "coarse"), f"{source}:1", "the coarse map", ("coarse",))
    table = top["coarse"]
    at = where(source, table)
    if not isinstance(table, dict):
        raise RuleError(f"{at}: 'coarse' must map coarse acts to lists of native intents")
    acts: dict[str, str] = {}
    for act, intents in table.items():
        if act == "__line__":
            continue
        if act not in space.names:
            raise RuleError(
                f"{at}: coarse act {shown(act)} is not in the act inventory ({space.source}): "
                f"one of {', '.join(space.names)}"
            )
        for intent in string_list(intents, at, str(act)):
            if intent in acts:
                raise RuleError(
                    f"{at}: {corpus} intent {shown(intent)} maps to both "
                    f"{shown(acts[intent])} and {shown(act)}"
                )
            acts[intent] = str(act)
    return CoarseMap(corpus, source, acts)


def load_act_space(path: str | Path | Traversable | None = None) -> ActSpace:
    """Load an act inventory (default: the shipped ``rules/acts.yaml``, loaded once)."""
    return load_file(path, ACTS_FILE, parse_act_space)


def coarse_act(corpus: str, intent: str | None) -> str | None:
    """The coarse act of a native intent, from the corpus' shipped coarse map."""
    return load_act_space().coarse(corpus, intent)
