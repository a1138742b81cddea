"""The decision list every corpus decides its intents with: named rules, first that holds wins.

A corpus describes what its rules see of a message as a *view* (its tags and the
dialogue state that matters, a small named tuple or dataclass) and lists its rules in
order. :class:`DecisionList` is generic in the view, so each corpus keeps its own facts
while the mechanism, the names and the fallback are one::

    RULES = DecisionList(
        (
            IntentRule("question", "inquire", lambda m: "question" in m.tags),
            IntentRule("greeting", "greet", lambda m: "greeting" in m.tags),
        ),
        fallback="unknown",
    )
    RULES.decide(view)            # -> "inquire"
    RULES.decide_with_rule(view)  # -> ("inquire", "question")

The list records, when it is built, every string its conditions name (:attr:`~DecisionList.
named`): the tags they ask for, which the corpus' parser checks against its rule files
when it is built (a misspelt tag fails loudly there instead of never holding), and
nothing per message. A string a condition compares with that is no tag (an earlier
act) is declared as ``not_tags``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from types import CodeType
from typing import Any, Generic, NamedTuple, TypeVar

__all__ = ["NO_RULE", "DecisionList", "IntentRule"]

V = TypeVar("V")
#: The rule name :meth:`DecisionList.decide_with_rule` reports when the fallback applied.
NO_RULE = "no-rule"


class IntentRule(NamedTuple, Generic[V]):
    """One rule: its name, the intent it gives, and when it holds."""

    name: str
    intent: str
    holds: Callable[[V], bool]


class DecisionList(Generic[V]):
    """Named rules evaluated in order; the intent of the first that holds wins, else the fallback.

    Rule names are unique, so a decision can always be explained."""

    __slots__ = ("_pairs", "fallback", "named", "rules")

    def __init__(
        self,
        rules: Sequence[IntentRule[V]],
        fallback: str = "unknown",
        *,
        not_tags: Collection[str] = (),
    ) -> None:
        names = [rule.name for rule in rules]
        repeated = sorted({n for n in names if names.count(n) > 1})
        if repeated:
            raise ValueError(f"decision list: rule name(s) used twice: {repeated}")
        self.rules: tuple[IntentRule[V], ...] = tuple(IntentRule(*rule) for rule in rules)
        self.fallback = fallback
        # (condition, intent) pairs: the per-turn loop touches nothing else.
        self._pairs = tuple((rule.holds, rule.intent) for rule in self.rules)
        #: The tag names the conditions ask for, read from their code once, here.
        self.named: frozenset[str] = frozenset(
            name
            for rule in self.rules
            for name in _strings(getattr(rule.holds, "__code__", None))
            if name not in not_tags
        )

    def decide(self, view: V) -> str:
        """The intent of the first rule that holds for ``view``."""
        for holds, intent in self._pairs:
            if holds(view):
                return intent
        return self.fallback

    def decide_with_rule(self, view: V) -> tuple[str, str]:
        """``(intent, rule name)``; the name is :data:`NO_RULE` when the fallback applied."""
        for rule in self.rules:
            if rule.holds(view):
                return rule.intent, rule.name
        return self.fallback, NO_RULE

    @property
    def intents(self) -> tuple[str, ...]:
        """Every intent the list can give, in rule order, the fallback last."""
        return tuple(dict.fromkeys((*(r.intent for r in self.rules), self.fallback)))

    def __iter__(self) -> Iterator[IntentRule[V]]:
        return iter(self.rules)

    def __len__(self) -> int:
        return len(self.rules)

    def __getitem__(self, name: str) -> IntentRule[V]:
        for rule in self.rules:
            if rule.name == name:
                return rule
        raise KeyError(name)


def _strings(code: CodeType | None) -> Iterator[str]:
    """The string constants of a condition's code.

    Constants in tuples and nested functions count too: the tag names it asks for,
    ``m.has("need")``, ``"question" in m.tags``."""
    if code is None:  # not a Python function (a built-in): it names no tag
        return
    stack: list[Any] = list(code.co_consts)
    while stack:
        const = stack.pop()
        if isinstance(const, str):
            yield const
        elif isinstance(const, (tuple, frozenset)):
            stack.extend(const)
        elif isinstance(const, CodeType):
            stack.extend(const.co_consts)
