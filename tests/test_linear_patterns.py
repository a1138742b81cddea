"""Every shipped pattern runs in time linear in its input: the check behind the README's
claim, and the reason the per-record deadline is seldom needed.

Each case times one pattern holder (a tag rule of a corpus, a price rule of the extended
mode, a pattern compiled in the code, the Deal or No Deal section reader) on adversarial
shapes of growing length: the pattern's own words repeated, its examples without their
sentence punctuation repeated, long runs of word characters, spaces, digits, quotes and
tags, each ending in a character no pattern accepts there. A linear pattern takes about
``GROWTH`` times longer on a text ``GROWTH`` times longer; a quadratic one ``GROWTH**2``
times. The bound is generous (a quarter of quadratic growth) because memory effects make
even linear matching slower per character on long texts, and each time is the minimum of
a few runs, so a loaded machine does not make the test flaky.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from types import ModuleType

import pytest
import regex

from actparse import registry
from actparse.corpora.craigslist import calibrate, extended, linking, numbers
from actparse.corpora.dealornodeal import core as dealornodeal
from actparse.corpora.mutualfriends import names
from actparse.corpora.splits import tokens as split_tokens
from actparse.engine import sentences, tokenizer
from actparse.engine.rulefiles import shipped
from actparse.engine.strategies import load_strategy_rules
from actparse.engine.tags import Rule, load_rules

#: Characters of the short text; the long one is GROWTH times longer.
SHORT = 500
GROWTH = 32
#: A linear pattern grows about GROWTH times (up to ~3x more from cache effects); a
#: quadratic one GROWTH**2 times.
LIMIT = GROWTH**2 / 4
#: Seconds below which the short time is not trusted (timer and call overhead).
FLOOR = 2e-5
#: Seconds one long call may take before it counts as super-linear.
LONG_CALL = 2.0

Call = Callable[[str], object]


def _units(sources: list[str], examples: tuple[str, ...] = ()) -> Iterator[tuple[str, str]]:
    """Named repeating units that make a backtracking pattern try hard and fail."""
    for k, source in enumerate(sources):
        plain = re.sub(r"\\.", " ", source)  # escapes such as \\b and \\w dropped
        # Its words ("what", "you") and its phrases ("have a deal"), each once.
        for kind, found in (("words", r"[a-z]+"), ("phrases", r"[a-z][a-z ]*[a-z]")):
            parts = list(dict.fromkeys(re.findall(found, plain)))
            if parts:
                yield f"pattern {k} {kind}", " ".join(parts) + " "
    for example in examples:
        yield f"example {example!r}", re.sub(r"[.!?]", "", example.lower()) + " "
    yield from (
        ("word characters", "a"),
        ("words and spaces", "a "),
        ("spaces", " "),
        ("digits", "9"),
        ("digits and commas", "9,"),
        ("quotes", "'"),
        ("tags", "<input>"),
    )


def _text(unit: str, length: int) -> str:
    # The final "!" is no word, no space, no "?": whole-text and question patterns fail.
    return (unit * (length // len(unit) + 1))[:length] + " !"


def _best(call: Call, text: str, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        try:
            call(text)
        except TimeoutError:  # the guard gave up: certainly not linear
            return float("inf")
        best = min(best, time.perf_counter() - start)
    return best


def _growth(call: Call, unit: str) -> float:
    """How many times longer ``call`` takes on a text GROWTH times longer."""
    short = max(_best(call, _text(unit, SHORT), 3), FLOOR)
    long_text = _text(unit, SHORT * GROWTH)
    ratio = _best(call, long_text, 1) / short
    if ratio > LIMIT:  # measure again before blaming the pattern for a busy machine
        ratio = min(ratio, _best(call, long_text, 2) / short)
    return ratio


def _search(pattern: regex.Pattern[str] | re.Pattern[str]) -> Call:
    if isinstance(pattern, re.Pattern):  # the standard library's re has no timeout
        return lambda text: list(pattern.finditer(text))
    return lambda text: list(pattern.finditer(text, timeout=LONG_CALL))


def _match(pattern: regex.Pattern[str] | re.Pattern[str]) -> Call:
    if isinstance(pattern, re.Pattern):
        return lambda text: pattern.match(text)
    return lambda text: pattern.match(text, timeout=LONG_CALL)


def _rule(rule: Rule) -> Call:
    return lambda text: rule.matches((), text)


CASES: list[object] = []
# Every corpus' tag rules, and the strategy rules (one file for every corpus).
RULE_SETS = [
    (c.name, load_rules(shipped(c.rules, "tags.yaml"))) for c in registry.corpora() if c.rules
]
RULE_SETS.append(("strategies", load_strategy_rules()))
for set_name, rules in RULE_SETS:
    for rule in rules.rules:
        if rule.match.startswith("text-"):
            CASES.append(
                pytest.param(
                    _rule(rule),
                    [*rule.values, *rule.unless],
                    rule.examples,
                    id=f"{set_name}:{rule.name}",
                )
            )
for price_rule in extended.load_extended_rules().rules:
    if price_rule.compiled is not None:
        CASES.append(
            pytest.param(
                _search(price_rule.compiled),
                [price_rule.pattern],
                tuple(text for text, _values in price_rule.examples),
                id=f"prices_extended:{price_rule.name}",
            )
        )

# Patterns compiled in the code, called as the code calls them (finditer covers search,
# sub and findall); _REALIGN is only ever matched at the start of a slice.
_MATCHED_AT_START = {(sentences, "_REALIGN")}
_MODULES: tuple[ModuleType, ...] = (
    tokenizer,
    sentences,
    numbers,
    linking,
    calibrate,
    names,
    split_tokens,
    dealornodeal,
)
for module in _MODULES:
    for attr, value in vars(module).items():
        found = value if isinstance(value, tuple) else (value,)
        for k, pattern in enumerate(p for p in found if isinstance(p, regex.Pattern | re.Pattern)):
            matched = (module, attr) in _MATCHED_AT_START
            call = _match(pattern) if matched else _search(pattern)
            name = module.__name__.rpartition(".")[2]
            CASES.append(pytest.param(call, [pattern.pattern], (), id=f"{name}.{attr}[{k}]"))


def _reader(text: str) -> object:
    try:
        return dealornodeal.text_line_to_record(text)
    except ValueError:
        return None


CASES += [
    pytest.param(_reader, ["<dialogue>", "</dialogue>"], (), id="dealornodeal:sections"),
    pytest.param(lambda t: tokenizer.tokenize(t), [], (), id="engine:tokenize"),
    pytest.param(lambda t: sentences.split_sentences(t), [], (), id="engine:split_sentences"),
]


@pytest.mark.parametrize(("call", "sources", "examples"), CASES)
def test_time_grows_linearly(call: Call, sources: list[str], examples: tuple[str, ...]) -> None:
    growth = {name: _growth(call, unit) for name, unit in _units(sources, examples)}
    worst = max(growth, key=growth.__getitem__)
    assert growth[worst] < LIMIT, (
        f"{GROWTH}x longer text took {growth[worst]:.0f}x longer on {worst} (linear: ~{GROWTH})"
    )


def test_the_old_patterns_fail_the_check() -> None:
    # The check catches what it is for: patterns this project shipped before.
    quadratic = regex.compile(r"^[\w ]*have a deal[\w ]*$", regex.ASCII | regex.IGNORECASE)
    section = re.compile(r"<input>(.*?)</input>", re.S)
    assert _growth(lambda t: quadratic.match(t, timeout=LONG_CALL), "have a deal ") > LIMIT
    assert _growth(lambda t: section.search(t), "<input>") > LIMIT
