"""The held-out resampling of benchmarks/strategy_baseline.py: how far the macro F1 of
the same rules could move on other dialogues like the held-out ones."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from actparse.corpora.strategy_eval import StrategyScores
from actparse.engine.strategies import LABELS, PAPER_LABELS

ROOT = Path(__file__).resolve().parent.parent


def _benchmark() -> ModuleType:
    path = ROOT / "benchmarks" / "strategy_baseline.py"
    spec = importlib.util.spec_from_file_location("strategy_baseline", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("strategy_baseline", module)
    spec.loader.exec_module(module)
    return module


def _dialogue(*rows: tuple[tuple[str, ...], tuple[str, ...]]) -> StrategyScores:
    scores = StrategyScores()
    for gold, predicted in rows:
        scores.add(gold, predicted, "text")
    return scores


RIGHT = _dialogue((("small-talk",), ("small-talk",)), (("self-need",), ("self-need",)))
WRONG = _dialogue((("small-talk",), ("non-strategic",)), (("self-need",), ("no-need",)))


def test_merged_counts_are_the_sum_of_the_dialogues() -> None:
    bench = _benchmark()
    both = bench.merged([RIGHT, WRONG])
    assert both.utterances == 4 and both.exact == 2
    assert both.true_pos["small-talk"] == 1 and both.false_neg["small-talk"] == 1
    assert both.false_pos["no-need"] == 1


def test_the_interval_holds_the_figure_and_resampling_is_repeatable() -> None:
    bench = _benchmark()
    dialogues = [RIGHT, WRONG, RIGHT, RIGHT, WRONG, RIGHT]
    whole = bench.merged(dialogues)
    first = bench.bootstrap({"rules": dialogues, "baseline": [WRONG] * 6}, 200)
    low, high = first["rules"]["strategy_macro_f1_10"]
    assert low <= round(whole.macro_f1(LABELS), 3) <= high
    assert first["rules"]["strategy_macro_f1_7"][0] <= round(whole.macro_f1(PAPER_LABELS), 3)
    assert first["resamples"] == 200 and first["dialogues"] == 6
    # Some right dialogue is drawn in nearly every resample: the rules are above.
    assert first["rules_above_baseline"]["strategy_macro_f1_10"] > 0.95
    assert bench.bootstrap({"rules": dialogues, "baseline": [WRONG] * 6}, 200) == first


def test_a_model_is_never_above_itself() -> None:
    bench = _benchmark()
    dialogues = [RIGHT, WRONG, RIGHT]
    out = bench.bootstrap({"rules": dialogues, "baseline": dialogues}, 50)
    assert out["rules_above_baseline"] == {"strategy_macro_f1_7": 0.0, "strategy_macro_f1_10": 0.0}
    assert out["rules"] == out["baseline"]
