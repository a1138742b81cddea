"""Deal or No Deal (Lewis et al., 2017): reader, parser and the final-split evaluation.

Two layouts are read. The original text format has one dialogue per line, seen from one
side (``YOU``)::

    <input> c0 v0 c1 v1 c2 v2 </input> <dialogue> YOU: ... <eos> THEM: ... <eos>
    ... <selection> </dialogue> <output> item0=a item1=b item2=c item0=.. </output>
    <partner_input> c0 v0 c1 v1 c2 v2 </partner_input>

:func:`text_line_to_record` turns such a line into the HuggingFace record layout
(``input`` and ``partner_input`` as ``{count, value}``, ``dialogue`` and ``output`` as
strings), which :func:`dialogue_from_dealornodeal` reads; :mod:`actparse.io.records`
reads the files (the registry names this function for lines starting with ``<``).
Agent 0 is ``YOU``, agent 1 ``THEM``; items are book, hat, ball (``item0..item2``).

The parser gives every message one native intent (``propose``, ``insist``, ``agree``,
``disagree``, ``inquire``, ``greet``, ``inform``, ``unknown``) and the ``<selection>``
turn ``select``; proposals carry their :class:`~actparse.models.ItemSplit`, parsed by
:mod:`actparse.corpora.splits`.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable, Mapping, Sequence
from functools import cached_property
from typing import Any

from actparse.corpora.splits.dialogue import (
    SPLIT_INTENT_RULES,
    DealState,
    MessageView,
    SplitDialogueParser,
)
from actparse.corpora.splits.evaluate import SplitReport
from actparse.corpora.splits.views import ViewMemo
from actparse.engine.decisions import DecisionList, IntentRule
from actparse.engine.pipeline import pipeline
from actparse.io.fields import MAX_COUNT, count_field, list_field, record_reader
from actparse.io.records import Record
from actparse.models import Act, Dialogue, Item, ItemSplit, Party, Turn
from actparse.registry import Parser
from actparse.reports import located

__all__ = [
    "CORPUS",
    "INTENT_RULES",
    "ITEMS",
    "DealOrNoDealParser",
    "dialogue_from_dealornodeal",
    "dialogue_key",
    "evaluate_dealornodeal",
    "final_split",
    "parse_output",
    "text_line_to_record",
]

CORPUS = "dealornodeal"
ITEMS = ("book", "hat", "ball")
#: The agents as the corpus names them: agent 0 is ``YOU``, agent 1 ``THEM``.
AGENTS = ("YOU", "THEM")
SPEAKERS = {name: agent for agent, name in enumerate(AGENTS)}
SELECTION = "<selection>"

_SECTIONS = ("input", "dialogue", "output", "partner_input")
#: The tags that open and close the sections: each appears once in a line.
_TAGS = tuple(tag for name in _SECTIONS for tag in (f"<{name}>", f"</{name}>"))
_ITEM_COUNT = re.compile(r"^item(\d+)=(\d+)$")


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------


def _counts_values(numbers: Sequence[str], what: str) -> dict[str, list[int]]:
    if len(numbers) != 2 * len(ITEMS):
        raise ValueError(f"{what}: expected {2 * len(ITEMS)} numbers, got {len(numbers)}")
    try:
        values = [int(x) for x in numbers]
    except ValueError:
        raise ValueError(f"{what}: expected integers, got {' '.join(numbers)!r}") from None
    return {"count": values[0::2], "value": values[1::2]}


def _section(line: str, name: str) -> str | None:
    """What lies between the first ``<name>`` and the ``</name>`` after it, if any.

    The same as searching ``<name>(.*?)</name>`` (DOTALL), in linear time: that search
    scans to the end of the line from every ``<name>``, quadratic on a line of many
    ``<name>`` and no closing tag. The first opening tag with a closing tag after it is
    the first opening tag, so two ``find`` calls say the same.
    """
    opening, closing = f"<{name}>", f"</{name}>"
    start = line.find(opening)
    if start < 0:
        return None
    start += len(opening)
    end = line.find(closing, start)
    return None if end < 0 else line[start:end]


@record_reader
def text_line_to_record(line: str) -> dict[str, Any]:
    """One line of the original text format as a HuggingFace-layout record.

    A malformed line is a ``ValueError`` saying what is wrong (the reader adds file and line),
    a section tag seen twice too: two dialogues on one line (their line end lost) would
    otherwise be read as the first alone."""
    for tag in _TAGS:
        if line.count(tag) > 1:
            raise ValueError(
                f"section tag {tag} appears {line.count(tag)} times: one dialogue per "
                "line (was a line end lost?)"
            )
    sections: dict[str, str] = {}
    for name in _SECTIONS:
        found = _section(line, name)
        if found is None:
            raise ValueError(f"no <{name}>...</{name}> section")
        sections[name] = found.strip()
    return {
        "input": _counts_values(sections["input"].split(), "<input>"),
        "dialogue": sections["dialogue"],
        "output": sections["output"],
        "partner_input": _counts_values(sections["partner_input"].split(), "<partner_input>"),
    }


def parse_output(output: str) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The agreed split of an ``<output>``, or ``None`` without agreement.

    The split is YOU's counts, THEM's counts. No agreement: ``<disagree>``, ``<no_agreement>``,
    ``<disconnect>``."""
    tokens = output.split()
    if tokens and tokens[0].startswith("<") and tokens[0].endswith(">"):
        return None
    if len(tokens) != 2 * len(ITEMS):
        raise ValueError(f"output: expected {2 * len(ITEMS)} item counts, got {output!r}")
    counts: list[int] = []
    for k, token in enumerate(tokens):
        found = _ITEM_COUNT.match(token)
        if found is None or int(found.group(1)) != k % len(ITEMS):
            raise ValueError(f"output: expected item{k % len(ITEMS)}=N, got {token!r}")
        counts.append(int(found.group(2)))
    n = len(ITEMS)
    return tuple(counts[:n]), tuple(counts[n:])


def _party(raw: Any, what: str) -> Party:
    if not isinstance(raw, Mapping):
        raise TypeError(f"{what} must be a mapping with 'count' and 'value'")
    counts = list_field(raw["count"], f"{what}.count")
    values = list_field(raw["value"], f"{what}.value")
    if len(counts) != len(ITEMS) or len(values) != len(ITEMS):
        raise ValueError(f"{what}: expected {len(ITEMS)} counts and values")
    counts, values = _whole(counts, f"{what} count"), _whole(values, f"{what} value")
    return Party(items=tuple(Item(name, c, float(v)) for name, c, v in zip(ITEMS, counts, values)))


def _whole(numbers: list[Any], what: str) -> list[int]:
    """Counts or values: whole numbers from 0.

    Each is checked, naming its item, only when one of them is not a plain one: this runs for every
    record."""
    if all(type(n) is int and 0 <= n <= MAX_COUNT for n in numbers):
        return numbers
    return [count_field(n, f"{what} of {name}") for name, n in zip(ITEMS, numbers)]


def _check_split(agreed: tuple[tuple[int, ...], tuple[int, ...]], totals: Sequence[int]) -> None:
    """An agreed split gives out at most the items there are."""
    for name, you, them, total in zip(ITEMS, agreed[0], agreed[1], totals):
        if you + them > total:
            raise ValueError(
                f"output: {you} + {them} of item {name!r} agreed but there are only {total}"
            )


@record_reader
def dialogue_from_dealornodeal(raw: dict[str, Any]) -> Dialogue:
    """A :class:`Dialogue` from a record in the HuggingFace layout.

    Raises :class:`~actparse.errors.InputError` for a missing or malformed field.
    """
    parties = (_party(raw["input"], "input"), _party(raw["partner_input"], "partner_input"))
    if [i.count for i in parties[0].items] != [i.count for i in parties[1].items]:
        raise ValueError("input and partner_input disagree on the item counts")
    dialogue = raw["dialogue"]
    if not isinstance(dialogue, str):
        raise TypeError("dialogue must be a string")
    output = raw["output"]
    if not isinstance(output, str):
        raise TypeError("output must be a string")
    agreed = parse_output(output)
    if agreed is not None:
        _check_split(agreed, [i.count for i in parties[0].items])
    turns: list[Turn] = []
    for segment in dialogue.split("<eos>"):
        segment = segment.strip()
        if not segment:
            continue
        speaker, sep, text = segment.partition(":")
        if not sep or speaker.strip() not in SPEAKERS:
            raise ValueError(f"dialogue: expected 'YOU:' or 'THEM:', got {segment[:40]!r}")
        agent = SPEAKERS[speaker.strip()]
        text = text.strip()
        if text == SELECTION:
            data = {"counts": list(agreed[agent])} if agreed is not None else None
            turns.append(Turn(len(turns), agent, "select", "", data=data))
        else:
            turns.append(Turn(len(turns), agent, "message", text))
    status = "agreed" if agreed is not None else output.split()[0].strip("<>")
    outcome: dict[str, Any] = {"status": status, "output": output}
    if agreed is not None:
        outcome["split"] = ItemSplit(ITEMS, agreed).to_dict()
    return Dialogue(
        turns=tuple(turns), parties=parties, corpus=CORPUS, outcome=outcome, id=raw.get("id")
    )


def final_split(dialogue: Dialogue) -> ItemSplit | None:
    """The split both agents selected, or ``None`` when they did not agree."""
    outcome = dialogue.outcome or {}
    split = outcome.get("split")
    if not split:
        return None
    counts = tuple(tuple(int(split[str(a)][name]) for name in ITEMS) for a in (0, 1))
    return ItemSplit(ITEMS, (counts[0], counts[1]))


def dialogue_key(dialogue: Dialogue) -> Hashable:
    """The same key for both views of one dialogue.

    Each dialogue appears once from each side. The key: the messages in order, who wrote each
    relative to the first writer, and the two parties' items starting with the first writer's."""
    first = dialogue.turns[0].agent if dialogue.turns else 0
    order = (first, 1 - first)
    return (
        tuple((t.agent == first, t.action, t.text) for t in dialogue.turns),
        tuple(dialogue.parties[a].items for a in order),
    )


# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------


#: The decision list: the first rule that holds wins, else ``unknown``.
INTENT_RULES: DecisionList[MessageView] = DecisionList(
    (
        *SPLIT_INTENT_RULES,
        IntentRule("refusal", "disagree", lambda m: m.has("disagree")),
        IntentRule("assent", "agree", lambda m: m.has("agree")),
        # "hi how are you ?" asks nothing about the items: small talk is greet.
        IntentRule(
            "small-talk",
            "greet",
            lambda m: m.has("smalltalk") and not m.has("need") and not m.names_items,
        ),
        IntentRule("question", "inquire", lambda m: m.has("question")),
        IntentRule("greeting", "greet", lambda m: m.has("greeting")),
        IntentRule("needs-or-items", "inform", lambda m: m.has("need") or m.names_items),
    ),
    fallback="unknown",
)
RULE_TAGS = ("agree", "disagree", "question", "greeting", "need", "smalltalk")


class DealOrNoDealParser(SplitDialogueParser):
    """Parses Deal or No Deal dialogues into acts with item splits.

    One act per turn, the ``<selection>`` turn ``select`` with the split the agents chose."""

    corpus = CORPUS
    formal_intents = ("select",)
    items = ITEMS
    rule_tags = RULE_TAGS
    intent_rules = INTENT_RULES
    # What the shared turn loop asks of this corpus' tags and words.
    refusal_tag = "disagree"
    need_tag = "need"
    need_subject = "self"
    concession = "concession"
    refusal_intents = frozenset({"disagree"})
    answer_intents = frozenset({"inform"})
    # The final split weighed by the item values (learned on train.txt 1-8000, val.txt).
    final_chooser_file = (CORPUS, "final_chooser.json")
    #: How many dialogues the parser remembers to mirror for their other view (0: none).
    view_memo_size = 2

    @cached_property
    def _views(self) -> ViewMemo:
        """The dialogues this parser remembers, to mirror for their other view.

        One memo per parser: the base class's constructor serves as it is."""
        return ViewMemo(self.view_memo_size)

    def _acts(self, dialogue: Dialogue) -> list[Act]:
        """The acts of the turns, mirrored for a dialogue's second view.

        Mirroring (:mod:`~actparse.corpora.splits.views`) gives the same acts as parsing the second
        view. The strategies are added after, by :meth:`parse` or :meth:`parse_many`: they depend on
        a turn's text alone."""
        return self._views.parse(dialogue, super()._acts)

    def formal_act(self, turn: Turn, totals: Sequence[int], state: DealState) -> Act | None:
        """The ``select`` act of the selection turn (with the agreed split, if any)."""
        if turn.action != "select":
            return super().formal_act(turn, totals, state)
        counts = (turn.data or {}).get("counts")
        split = None
        if counts is not None:
            other = tuple(t - c for t, c in zip(totals, counts))
            pair = (tuple(counts), other) if turn.agent == 0 else (other, tuple(counts))
            split = ItemSplit(ITEMS, pair)
        return Act(turn.index, turn.agent, "select", split=split)


# ---------------------------------------------------------------------------
# Evaluation
# ---------------------------------------------------------------------------


def evaluate_dealornodeal(
    items: Iterable[Record | Dialogue], parser: Parser | None = None
) -> SplitReport:
    """Score the final-split accuracy over dialogues (records or bare dialogues), each counted once.

    The corpus has every dialogue twice, once from each side; the second view is skipped
    (:func:`dialogue_key`). A dialogue counts as agreed when its output has item counts;
    the text's final deal before the selection (the proposal the tracked deal stands on)
    must equal the final split from the right side.
    """
    parser = pipeline(CORPUS, parser)  # the coarse acts set, as every path sets them
    report = SplitReport(
        corpus=CORPUS, agents=AGENTS, chooser=getattr(parser, "final_chooser", None)
    )
    seen: set[Hashable] = set()
    for where, dialogue in located(items):
        key = dialogue_key(dialogue)
        if key in seen:
            continue
        seen.add(key)
        acts = parser.parse(dialogue)
        expected = final_split(dialogue)
        formal = next((t.index for t in dialogue.turns if t.action == "select"), None)
        report.add(dialogue, acts, where, expected, formal)
    return report
