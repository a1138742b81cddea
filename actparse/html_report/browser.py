"""The dialogue browser's data: every dialogue turn by turn, compact.

For the page's script to render: a few thousand dialogues would make a heavy page as HTML elements;
as data the script shows one page of them at a time.

Each turn carries the spans of its text to highlight: the prices the parser found, the
knowledge-base values it linked, and the words naming the dialogue's items. Where the acts
follow the deal on the table (``Act.deal``: Deal or No Deal, CaSiNo), each turn says what
it does to the deal ("proposes #4 (agreed)", "refuses #4") and what its split assumed,
and the dialogue the split it ends on and how sure that is
(:func:`~actparse.corpora.splits.evaluate.confidence`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Any, NamedTuple

from actparse.corpora.splits.evaluate import describe_split
from actparse.engine.alignment import token_spans
from actparse.engine.deals import track_deals
from actparse.engine.final_chooser import FinalChooser, final_choice
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


#: How each deal move reads in the browser, before the proposal's number.
_MOVE_WORDS = {
    "propose": "proposes",
    "restate": "restates",
    "agree": "agrees to",
    "confirm": "confirms",
    "refuse": "refuses",
}


class _Deal(NamedTuple):
    """A dialogue's tracked deal: each proposal's status by its turn, and the final split."""

    statuses: dict[int, str]
    final: dict[str, Any] | None


def _tracked(
    d: LabelledDialogue, agents: tuple[str, str], chooser: FinalChooser | None
) -> _Deal | None:
    """The deal of a dialogue whose acts follow one, as the shared tracker reads it.

    Its final split is ``chooser``'s, the rules' when it is ``None``."""
    if all(act.deal is None for act in d.acts):
        return None
    track = track_deals(d.acts)
    statuses = {turn: p.status for turn, p in track.proposals.items()}
    choice = final_choice(track, d.dialogue.parties, chooser)
    final, level = choice.proposal, choice.confidence
    tracked = choice.tracked
    if tracked is None or choice.split is None:
        return _Deal(statuses, {"proposal": None, "split": "", "confidence": level, "why": ""})
    why = "agreed in text" if tracked.status == "agreed" else "not agreed in text"
    if choice.by != "rules":
        why = f"the item values favour it over {describe_split(tracked.split, agents)}"
    elif tracked.split.uncertain:
        why += "; assumed: " + ", ".join(tracked.split.uncertain)
    shown = {
        "proposal": None if final is None else final.turn,
        "split": describe_split(choice.split, agents),
        "confidence": level,
        "why": why,
    }
    return _Deal(statuses, shown)


def _move(act: Act, deal: _Deal | None) -> str:
    """What the turn does to the deal, as people read it ("" for no move)."""
    if act.deal is None:
        return ""
    words = f"{_MOVE_WORDS.get(act.deal.move, act.deal.move)} #{act.deal.proposal}"
    status = None if deal is None else deal.statuses.get(act.deal.proposal)
    if act.deal.move == "propose" and status is not None:
        words += f" ({status})"
    return words


def _turn(
    d: LabelledDialogue,
    turn: Turn,
    act: Act,
    miss: Miss | None,
    names: tuple[str, str] | None,
    deal: _Deal | None = None,
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
        _move(act, deal),
        [] if act.split is None else list(act.split.uncertain),
    ]


def browser_data(inputs: Sequence[InputData]) -> list[dict[str, Any]]:
    """One entry per dialogue of every input.

    ``input`` (its index), ``record`` (its ``file:line``), ``where`` (with its id), ``miss`` (the
    evaluator's one-line summary, ``None`` when it reported none), ``deal`` (where the acts follow
    the deal: the final split's ``proposal`` turn, the ``split`` as people read it, its
    ``confidence`` and ``why``; ``None`` otherwise) and ``turns`` (writer, text, intent, coarse
    act, arguments, our strategy labels, highlights in UTF-16 code units as the script slices
    text, disagreement, the strategy labels the corpus' annotators gave, where it ships them,
    the turn's deal move with its proposal's end, and what its split assumed)."""
    out = []
    for k, data in enumerate(inputs):
        names = data.report.agent_names() if data.report is not None else None
        for d in data.dialogues:
            miss = data.miss_of(d)
            agents = (_writer(d.dialogue, 0, names), _writer(d.dialogue, 1, names))
            deal = _tracked(d, agents, data.final_chooser)
            out.append(
                {
                    "input": k,
                    "record": d.where,
                    "where": d.where if d.dialogue.id is None else f"{d.where} ({d.dialogue.id})",
                    "miss": miss.summary if miss is not None else None,
                    "deal": None if deal is None else deal.final,
                    "turns": [
                        _turn(d, t, a, miss, names, deal) for t, a in zip(d.dialogue.turns, d.acts)
                    ],
                }
            )
    return out
