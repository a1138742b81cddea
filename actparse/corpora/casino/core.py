"""CaSiNo (Chawla et al., 2021): reader, parser and evaluation.

The original JSON is a list of dialogues, each with ``dialogue_id``, ``chat_logs``
(``text``, ``task_data``, ``id``: ``mturk_agent_1`` or ``mturk_agent_2``),
``participant_info`` (``value2issue``: High/Medium/Low -> item, ``value2reason``,
``outcomes``) and, for some, ``annotations`` (``[text, "strategy1,strategy2"]`` per
message). Agent 0 is ``mturk_agent_1``, agent 1 ``mturk_agent_2``; items are food,
water and firewood, three of each.

Deal actions map directly: ``Submit-Deal`` (its ``task_data.issue2youget`` is the
submitter's share, ``issue2theyget`` the partner's), ``Accept-Deal``, ``Reject-Deal``,
``Walk-Away``. Messages get ``greet``, ``inquire``, ``inform``, ``propose``, ``insist``,
``agree``, ``disagree`` or ``unknown``; proposals carry a split parsed by
:mod:`actparse.corpora.splits`, merged into a running deal so that a partial offer
changes only the items it names.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from actparse.corpora.splits.dialogue import (
    SPLIT_INTENT_RULES,
    DealState,
    MessageView,
    SplitDialogueParser,
)
from actparse.corpora.splits.evaluate import SplitReport
from actparse.corpora.strategy_eval import StrategyScores
from actparse.engine.decisions import DecisionList, IntentRule
from actparse.engine.pipeline import pipeline
from actparse.io.fields import count_field, record_reader, required
from actparse.io.records import InputError, Record
from actparse.models import Act, Dialogue, Item, ItemSplit, Party, Turn
from actparse.registry import Parser
from actparse.reports import Table, located

__all__ = [
    "ACT_TARGETS",
    "CORPUS",
    "INTENT_RULES",
    "ITEMS",
    "NEED_STRATEGIES",
    "CasinoParser",
    "CasinoReport",
    "dialogue_from_casino",
    "evaluate_casino",
    "final_deal",
]

CORPUS = "casino"
ITEMS = ("food", "water", "firewood")
ITEM_COUNT = 3
#: The agents as the corpus names them: agent 0 is ``mturk_agent_1``, agent 1
#: ``mturk_agent_2``.
AGENT_NAMES = ("mturk_agent_1", "mturk_agent_2")
AGENTS = {name: agent for agent, name in enumerate(AGENT_NAMES)}
#: Deal actions as written in ``chat_logs[].text`` and the actions they become.
DEAL_ACTIONS = {
    "Submit-Deal": "submit-deal",
    "Accept-Deal": "accept-deal",
    "Reject-Deal": "reject-deal",
    "Walk-Away": "walk-away",
}
#: Points per package by priority, as the CaSiNo task paid them.
PRIORITY_VALUE = {"High": 5.0, "Medium": 4.0, "Low": 3.0}
#: The strategy labels that state needs.
NEED_STRATEGIES = ("self-need", "other-need", "no-need")
ELICIT_PREF = "elicit-pref"
SMALL_TALK = "small-talk"
#: What the coarse act of an annotated utterance should be, by what its strategy labels
#: say it does (rules/acts.yaml): small talk alone is ``greet``, a need statement that
#: is no question about preferences and carries no terms is ``inform``, a question
#: about the other's preferences ``inquire``. Family name -> the act it should get.
ACT_TARGETS = {
    "small_talk_greet": "greet",
    "need_inform": "inform",
    "elicit_pref_inquire": "inquire",
}


def _families(labels: Sequence[str], act: Act) -> list[str]:
    """The families of :data:`ACT_TARGETS` an utterance with ``labels`` and ``act`` belongs to.

    An utterance may be in two: a need statement that asks back."""
    families = []
    if tuple(labels) == (SMALL_TALK,):
        families.append("small_talk_greet")
    if ELICIT_PREF in labels:
        families.append("elicit_pref_inquire")
    elif act.split is None and any(label in NEED_STRATEGIES for label in labels):
        families.append("need_inform")
    return families


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------


def _counts(shares: Any, what: str) -> tuple[int, ...]:
    if not isinstance(shares, Mapping):
        raise TypeError(f"{what} must map items to counts")
    by_name = {str(k).lower(): v for k, v in shares.items()}
    try:
        return tuple(count_field(by_name[name], f"{what}.{name}", ITEM_COUNT) for name in ITEMS)
    except KeyError as err:
        raise InputError(f"{what}: no count for {err.args[0]!r}") from None


def _submission(task: Mapping[str, Any], what: str) -> dict[str, Any]:
    """A Submit-Deal's shares: counts from 0 to 3 that give out at most 3 of an item."""
    mine = _counts(task.get("issue2youget"), f"{what}.issue2youget")
    theirs = _counts(task.get("issue2theyget"), f"{what}.issue2theyget")
    for name, a, b in zip(ITEMS, mine, theirs):
        if a + b > ITEM_COUNT:
            raise ValueError(f"{what}: {a} + {b} {name} submitted but there are {ITEM_COUNT}")
    return {"issue2youget": list(mine), "issue2theyget": list(theirs)}


def _party(info: Any, agent: str) -> Party:
    values: dict[str, float | None] = dict.fromkeys(ITEMS)
    if isinstance(info, Mapping):
        for priority, issue in (info.get("value2issue") or {}).items():
            name = str(issue).lower()
            if name in values:
                values[name] = PRIORITY_VALUE.get(str(priority))
    elif info is not None:
        raise TypeError(f"participant_info.{agent} must be a mapping")
    return Party(items=tuple(Item(name, ITEM_COUNT, values[name]) for name in ITEMS))


def _labels_by_turn(
    messages: Sequence[tuple[int, str]], annotations: Any
) -> dict[int, tuple[str, ...]]:
    """Match annotations to messages in order by their text.

    Messages are given by index and text. A few dialogues have messages without an annotation, so
    positions alone would drift."""
    if not annotations:
        return {}
    if not isinstance(annotations, list):
        raise TypeError("annotations must be a list of [text, labels]")
    texts = [text.strip() for _, text in messages]
    labels: dict[int, tuple[str, ...]] = {}
    k = 0
    for entry in annotations:
        if not isinstance(entry, (list, tuple)) or len(entry) != 2:
            raise ValueError(f"annotation must be [text, labels], got {entry!r}")
        text, names = str(entry[0]).strip(), str(entry[1])
        j = k
        while j < len(texts) and texts[j] != text:
            j += 1
        if j == len(texts):
            continue  # an annotation of no message we have: skip it, keep our place
        labels[messages[j][0]] = tuple(n.strip() for n in names.split(",") if n.strip())
        k = j + 1
    return labels


@record_reader
def dialogue_from_casino(raw: dict[str, Any]) -> Dialogue:
    """A :class:`Dialogue` from one CaSiNo record (``chat_logs`` required).

    Raises :class:`~actparse.errors.InputError` naming the field for a missing or
    malformed one.
    """
    logs = required(raw, "chat_logs")
    if not isinstance(logs, list):
        raise TypeError("chat_logs must be a list")
    # Each turn's fields first: the labels come from matching the messages' texts, and
    # each turn is then built once, with its labels.
    fields: list[tuple[int, int, str, str, dict[str, Any] | None]] = []
    for k, entry in enumerate(logs):
        if not isinstance(entry, Mapping):
            raise TypeError(f"chat_logs[{k}] must be a mapping")
        speaker = required(entry, "id", f"chat_logs[{k}].id")
        if speaker not in AGENTS:
            raise ValueError(f"chat_logs[{k}].id must be one of {sorted(AGENTS)}, got {speaker!r}")
        text = required(entry, "text", f"chat_logs[{k}].text")
        if not isinstance(text, str):
            raise TypeError(f"chat_logs[{k}].text must be a string")
        action = DEAL_ACTIONS.get(text.strip())
        if action is None:
            fields.append((k, AGENTS[speaker], "message", text, None))
            continue
        # Every deal action of the corpus carries task_data: without it the text could
        # be a typed message or a deal action that lost its terms; neither can be told.
        task = entry.get("task_data")
        if not isinstance(task, Mapping) or not task:
            raise ValueError(f"chat_logs[{k}]: {text.strip()} without task_data")
        data: dict[str, Any] = dict(task)
        if action == "submit-deal":
            data = _submission(task, f"chat_logs[{k}]")
        fields.append((k, AGENTS[speaker], action, "", data))
    messages = [(k, text) for k, _, action, text, _ in fields if action == "message"]
    labels = _labels_by_turn(messages, raw.get("annotations"))
    turns = [
        Turn(k, agent, action, text, data=data, labels=labels.get(k, ()))
        for k, agent, action, text, data in fields
    ]
    info = raw.get("participant_info") or {}
    if not isinstance(info, Mapping):
        raise TypeError("participant_info must be a mapping")
    parties = (_party(info.get("mturk_agent_1"), "1"), _party(info.get("mturk_agent_2"), "2"))
    points = [
        ((info.get(name) or {}).get("outcomes") or {}).get("points_scored") for name in AGENTS
    ]
    outcome: dict[str, Any] = {"points": points}
    deal = _agreed_submission(turns)
    if deal is not None:
        outcome["split"] = _submitted_split(deal).to_dict()
    ident = raw.get("dialogue_id")
    return Dialogue(
        turns=tuple(turns),
        parties=parties,
        id=None if ident is None else str(ident),
        corpus=CORPUS,
        outcome=outcome,
    )


def _agreed_submission(turns: Sequence[Turn]) -> Turn | None:
    """The last Submit-Deal that the next deal action accepts."""
    agreed = None
    pending: Turn | None = None
    for turn in turns:
        if turn.action == "submit-deal":
            pending = turn
        elif turn.action == "accept-deal" and pending is not None:
            agreed, pending = pending, None
        elif turn.action in ("reject-deal", "walk-away"):
            pending = None
    return agreed


def _submitted_split(turn: Turn) -> ItemSplit:
    data = turn.data or {}
    mine = tuple(int(c) for c in data["issue2youget"])
    theirs = tuple(int(c) for c in data["issue2theyget"])
    pair = (mine, theirs) if turn.agent == 0 else (theirs, mine)
    return ItemSplit(ITEMS, pair)


def final_deal(dialogue: Dialogue) -> tuple[Turn, ItemSplit] | None:
    """The accepted submission and its split, or ``None`` when no deal was accepted."""
    turn = _agreed_submission(dialogue.turns)
    return None if turn is None else (turn, _submitted_split(turn))


# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------


#: The decision list: the first rule that holds wins, else ``unknown``. A question about
#: the reader's needs is an inquiry even when it names items ("why do you need all 3
#: firewood?"); its split, if any, stays on the act. Terms come before needs ("i need
#: water, so i take 2" proposes), needs before small talk, and small talk before a bare
#: assent: "yes, i am so excited for the trip" agrees with nothing on the table.
INTENT_RULES: DecisionList[MessageView] = DecisionList(
    (
        IntentRule(
            "asks-about-the-trip",
            "greet",
            lambda m: m.has("tripquestion") and not m.has("need") and not m.names_items,
        ),
        IntentRule("asks-preferences", "inquire", lambda m: m.has("elicit")),
        *SPLIT_INTENT_RULES,
        IntentRule(
            "asks-preferences-back",
            "inquire",
            lambda m: m.has("reciprocal") and (m.has("need") or m.names_items),
        ),
        IntentRule("states-needs", "inform", lambda m: m.has("need")),
        IntentRule("refusal", "disagree", lambda m: m.has("disagree")),
        IntentRule(
            "assent-to-terms",
            "agree",
            lambda m: (
                m.has("agree")
                and m.partner_last is not None
                and (m.has("consent") or not (m.has("smalltalk") or m.has("closing")))
            ),
        ),
        IntentRule(
            "small-talk",
            "greet",
            lambda m: (
                (m.has("smalltalk") or m.has("closing") or m.has("reciprocal"))
                and not m.names_items
            ),
        ),
        IntentRule("greeting", "greet", lambda m: m.has("greeting") and not m.names_items),
        IntentRule("assent", "agree", lambda m: m.has("agree")),
        IntentRule("question", "inquire", lambda m: m.has("question")),
        IntentRule("names-items", "inform", lambda m: m.names_items),
    ),
    fallback="unknown",
)
RULE_TAGS = (
    "agree",
    "consent",
    "disagree",
    "question",
    "greeting",
    "elicit",
    "need",
    "smalltalk",
    "closing",
    "reciprocal",
    "tripquestion",
)


class CasinoParser(SplitDialogueParser):
    """Parses CaSiNo dialogues into acts with item splits.

    One act per turn, deal actions mapped directly (a submission carries its split and goes on the
    table)."""

    corpus = CORPUS
    formal_intents = tuple(DEAL_ACTIONS.values())
    items = ITEMS
    rule_tags = RULE_TAGS
    intent_rules = INTENT_RULES
    # What the shared turn loop asks of this corpus' tags and words.
    refusal_tag = "disagree"
    need_tag = "need"
    need_subject = "self"
    concession = "concession"
    # "no" right after a proposal puts the deal before it back on the table
    # (restores-refused-deal, as in Deal or No Deal): "can i get one more water?" -
    # "nope, take it or leave it".
    refusal_intents = frozenset({"disagree"})
    # Strategies: the rules and the lexicon learned from CaSiNo's annotated dialogues
    # (README, "Negotiation strategies"), whose words are this corpus' own.
    strategy_lexicon = (CORPUS, "strategy_lexicon.json")
    # The final split weighed by the parties' priorities (learned on dialogues 1-700).
    final_chooser_file = (CORPUS, "final_chooser.json")

    def formal_act(self, turn: Turn, totals: Sequence[int], state: DealState) -> Act | None:
        """The act of a deal action (``None`` for a message)."""
        if turn.action == "submit-deal":
            split = _submitted_split(turn)
            # A formal offer is on the table like any other (a rejection keeps talking).
            state.running = split
            return Act(turn.index, turn.agent, "submit-deal", split=split)
        if turn.action in ("accept-deal", "reject-deal", "walk-away"):
            return Act(turn.index, turn.agent, turn.action)
        return super().formal_act(turn, totals, state)


# ---------------------------------------------------------------------------
# Evaluation
# ---------------------------------------------------------------------------


@dataclass
class CasinoReport(SplitReport):
    """Final-split accuracy plus how the coarse acts relate to the strategy labels."""

    #: strategy label -> coarse act -> utterances.
    strategy_acts: defaultdict[str, Counter[str]] = field(
        default_factory=lambda: defaultdict(Counter)
    )

    #: The coarse acts of the three families the act definitions speak for (see
    #: :data:`ACT_TARGETS`): family -> coarse act -> utterances.
    target_acts: defaultdict[str, Counter[str]] = field(
        default_factory=lambda: defaultdict(Counter)
    )

    #: Our strategies against the annotators' labels, utterance by utterance.
    strategy_scores: StrategyScores = field(default_factory=StrategyScores)

    def add_labels(self, dialogue: Dialogue, acts: Sequence[Act]) -> None:
        """Count the coarse act of every annotated utterance under each label and family.

        Counted under each of its labels, and under the family of :data:`ACT_TARGETS` it belongs
        to."""
        for turn, act in zip(dialogue.turns, acts):
            coarse = act.coarse or "none"
            for label in turn.labels:
                self.strategy_acts[label][coarse] += 1
            for family in _families(turn.labels, act):
                self.target_acts[family][coarse] += 1
            if turn.labels:
                self.strategy_scores.add(turn.labels, act.strategies, turn.text)

    def target_share(self, family: str) -> float:
        """The share of a family's utterances whose coarse act is the one ACT_TARGETS gives it.

        See :data:`ACT_TARGETS`."""
        counts = self.target_acts.get(family, Counter())
        total = sum(counts.values())
        return counts[ACT_TARGETS[family]] / total if total else 0.0

    def act_by_strategy(self) -> dict[str, dict[str, float]]:
        """For each strategy, the share of its utterances that get each coarse act."""
        out: dict[str, dict[str, float]] = {}
        for label in sorted(self.strategy_acts):
            counts = self.strategy_acts[label]
            total = sum(counts.values())
            out[label] = {act: n / total for act, n in counts.most_common()}
        return out

    def need_statements(self) -> dict[str, Any]:
        """How need statements are labelled.

        Need statements are ``self-need``, ``other-need`` and ``no-need``. Per strategy and pooled:
        the share of each coarse act and the most common one."""
        pooled: Counter[str] = Counter()
        out: dict[str, Any] = {}
        for label in NEED_STRATEGIES:
            counts = self.strategy_acts.get(label, Counter())
            pooled.update(counts)
            total = sum(counts.values())
            out[label] = {act: n / total for act, n in counts.most_common()} if total else {}
        total = sum(pooled.values())
        out["all"] = {act: n / total for act, n in pooled.most_common()} if total else {}
        out["inform_or_propose"] = (pooled["inform"] + pooled["propose"]) / total if total else 0.0
        out["most_common"] = pooled.most_common(1)[0][0] if pooled else None
        return out

    def summary(self) -> dict[str, Any]:
        """The figures as JSON-ready numbers (fractions in 0..1)."""
        out = super().summary()
        out["act_by_strategy"] = self.act_by_strategy()
        for family in ACT_TARGETS:
            out[family] = self.target_share(family)
        out["act_target_utterances"] = {
            family: sum(self.target_acts[family].values()) for family in ACT_TARGETS
        }
        out["need_statements"] = self.need_statements()
        out["annotated_utterances"] = sum(sum(c.values()) for c in self.strategy_acts.values())
        out.update(self.strategy_scores.summary())
        return out

    def tables(self) -> list[Table]:
        """The figures, with the strategy scores and confusions as tables of their own."""
        own = [t for t in super().tables() if t.title != "strategies"]
        return own + self.strategy_scores.tables()


def evaluate_casino(
    items: Iterable[Record | Dialogue], parser: Parser | None = None
) -> CasinoReport:
    """Score CaSiNo dialogues.

    Takes records or bare dialogues. Scores the text's final deal before the accepted Submit-Deal
    against that deal (from the right side), and the coarse acts of annotated utterances by strategy
    label."""
    parser = pipeline(CORPUS, parser)  # the coarse acts count: set as every path sets them
    report = CasinoReport(
        corpus=CORPUS, agents=AGENT_NAMES, chooser=getattr(parser, "final_chooser", None)
    )
    for where, dialogue in located(items):
        acts = parser.parse(dialogue)
        deal = final_deal(dialogue)
        formal, expected = (deal[0].index, deal[1]) if deal is not None else (None, None)
        report.add(dialogue, acts, where, expected, formal)
        report.add_labels(dialogue, acts)
    return report
