"""The dialogue browser's data: every dialogue turn by turn, compact.

For the page's script to render: a few thousand dialogues would make a heavy page as HTML elements;
as data the script shows one page of them at a time.

Each turn carries the spans of its text to highlight: the prices the parser found, the
knowledge-base values it linked, and the words naming the dialogue's items.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Any

from actparse.corpora.splits.evaluate import describe_split
from actparse.engine.alignment import token_spans
from actparse.engine.tokenizer import tokenize
from actparse.html_report.collect import InputData, LabelledDialogue
from actparse.models import Act, Dialogue, Turn
from actparse.reports import Miss

__all__ = ["browser_data", "highlights"]

Span = tuple[int, int, str]


def _writer(dialogue: Dialogue, agent: int, names: tuple[str, str] | None) -> str:
    """A writer as the evaluator's misses name it, else by role, else by number."""
    role = dialogue.parties[agent].role if agent < len(dialogue.parties) else ""
    if not role and names is not None and agent in (0, 1):
        return names[agent]
    return role or f"agent {agent}"


@cache
def _item_pattern(items: tuple[str, ...]) -> re.Pattern[str]:
    words = "|".join(re.escape(i) for i in sorted(items, key=len, reverse=True))
    return re.compile(rf"\b(?:{words})(?:e?s)?\b", re.IGNORECASE)


def _items(dialogue: Dialogue, act: Act) -> tuple[str, ...]:
    names = {item.name for party in dialogue.parties for item in party.items}
    if act.split is not None:
        names |= set(act.split.items)
    return tuple(sorted(n for n in names if n))


def highlights(turn: Turn, act: Act, items: Sequence[str] = ()) -> list[Span]:
    """The character spans of a message to mark.

    ``price`` (the prices the parser found), ``entity`` (linked knowledge-base values) and ``item``
    (words naming the items)."""
    text = turn.text
    spans: list[Span] = []
    if act.mentions:
        # A mention names its token in Cocoa's tokens; the alignment finds its characters.
        places = token_spans(text, tokenize(text))
        for m in act.mentions:
            if 0 <= m.token < len(places):
                start, end = places[m.token]
                spans.append((start, end, "price"))
    spans += [(e.start, e.end, "entity") for e in act.entities if 0 <= e.start < e.end]
    if items:
        spans += [(m.start(), m.end(), "item") for m in _item_pattern(tuple(items)).finditer(text)]
    spans.sort()
    kept: list[Span] = []
    for span in spans:  # overlapping marks would nest: the first one wins
        if not kept or span[0] >= kept[-1][1]:
            kept.append(span)
    return kept


def _utf16_spans(text: str, spans: Sequence[Span]) -> list[list[Any]]:
    """``spans`` in UTF-16 code units, as the page's script slices a string.

    A character past U+FFFF (an emoji) is two of them there and one here."""
    if text.isascii() or all(ord(c) <= 0xFFFF for c in text):
        return [list(s) for s in spans]
    # Code units before each character, and one entry past the end.
    before = [0]
    for c in text:
        before.append(before[-1] + (2 if ord(c) > 0xFFFF else 1))
    return [[before[start], before[end], kind] for start, end, kind in spans]


def _arguments(act: Act, agents: tuple[str, str]) -> str:
    parts = []
    if act.price is not None:
        parts.append(f"price {act.price:g}")
    if act.split is not None:
        parts.append(describe_split(act.split, agents))
    if act.entities:
        parts.append(", ".join(f"{e.value} ({e.type})" for e in act.entities))
    return "; ".join(parts)


def _turn(
    d: LabelledDialogue, turn: Turn, act: Act, miss: Miss | None, names: tuple[str, str] | None
) -> list[Any]:
    agents = (_writer(d.dialogue, 0, names), _writer(d.dialogue, 1, names))
    text = turn.text if turn.is_message else f"<{turn.action or 'unknown action'}>"
    spans = highlights(turn, act, _items(d.dialogue, act)) if turn.is_message else []
    disagreement = None
    if miss is not None:
        for t in miss.turns:
            if t.turn == turn.index:
                disagreement = {"reference": t.reference, "ours": t.ours, "reason": t.reason}
    return [
        agents[turn.agent] if turn.agent in (0, 1) else f"agent {turn.agent}",
        text,
        act.intent or "",
        act.coarse or "",
        _arguments(act, agents),
        list(act.strategies),
        _utf16_spans(text, spans),
        disagreement,
        list(turn.labels),
    ]


def browser_data(inputs: Sequence[InputData]) -> list[dict[str, Any]]:
    """One entry per dialogue of every input.

    ``input`` (its index), ``record`` (its ``file:line``), ``where`` (with its id), ``miss`` (the
    evaluator's one-line summary, ``None`` when it reported none) and ``turns`` (writer, text,
    intent, coarse act, arguments, our strategy labels, highlights in UTF-16 code units as the
    script slices text, disagreement, and the strategy labels the corpus' annotators gave, where it
    ships them)."""
    out = []
    for k, data in enumerate(inputs):
        names = data.report.agent_names() if data.report is not None else None
        for d in data.dialogues:
            miss = data.miss_of(d)
            out.append(
                {
                    "input": k,
                    "record": d.where,
                    "where": d.where if d.dialogue.id is None else f"{d.where} ({d.dialogue.id})",
                    "miss": miss.summary if miss is not None else None,
                    "turns": [
                        _turn(d, t, a, miss, names) for t, a in zip(d.dialogue.turns, d.acts)
                    ],
                }
            )
    return out
