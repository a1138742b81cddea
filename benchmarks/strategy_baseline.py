"""The strategy rules against a learned baseline on the same CaSiNo dialogues.

The baseline is a bag-of-words logistic regression (word unigrams and bigrams, one
classifier per label, ``non-strategic`` where no other label passes 0.5), trained on
the annotated dialogues of ``casino_train.json`` the rules were developed on (all but
the last 100 annotated ones). Both are scored on those last 100 (kept out of sight while
the rules were written) and on ``casino_valid.json``; the rules' development figures
are printed too. One run prints everything::

    pip install -e '.[benchmark]'
    python benchmarks/strategy_baseline.py            # $ACTPARSE_DATA or ../shared/data
    python benchmarks/strategy_baseline.py --json     # the figures as one JSON object

Needs scikit-learn (the ``benchmark`` extra); actparse itself never imports it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from actparse.corpora.strategy_eval import StrategyScores
from actparse.engine.strategies import LABELS, NON_STRATEGIC, PAPER_LABELS, StrategyTagger

#: The annotated dialogues at the end of casino_train.json kept out of sight.
HELD_OUT = 100

Utterance = tuple[str, tuple[str, ...]]


def annotated(path: Path) -> list[list[Utterance]]:
    """The annotated dialogues of a CaSiNo file, each as (text, labels) per utterance."""
    dialogues = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for dialogue in dialogues:
        rows = dialogue.get("annotations") or []
        if rows:
            out.append(
                [
                    (str(text), tuple(x.strip() for x in str(labels).split(",") if x.strip()))
                    for text, labels in rows
                ]
            )
    return out


def score(
    utterances: Sequence[Utterance], predict: Callable[[str], Sequence[str]]
) -> StrategyScores:
    """The scores of a predictor over utterances."""
    scores = StrategyScores()
    for text, gold in utterances:
        scores.add(gold, predict(text), text)
    return scores


def baseline(train: Sequence[Utterance]) -> Callable[[str], Sequence[str]]:
    """A bag-of-words logistic regression per label, trained on ``train``."""
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.linear_model import LogisticRegression

    texts = [text for text, _ in train]
    vectorizer = CountVectorizer(lowercase=True, ngram_range=(1, 2), min_df=2, binary=True)
    features = vectorizer.fit_transform(texts)
    models = {}
    for label in LABELS:
        if label == NON_STRATEGIC:
            continue
        target = [label in gold for _, gold in train]
        model = LogisticRegression(max_iter=2000, C=1.0)
        model.fit(features, target)
        models[label] = model

    def predict(text: str) -> Sequence[str]:
        row = vectorizer.transform([text])
        found = [label for label, model in models.items() if model.predict_proba(row)[0][1] >= 0.5]
        return found or [NON_STRATEGIC]

    return predict


def figures(scores: StrategyScores) -> dict[str, Any]:
    """Per label F1 and the macro figures, rounded for printing."""
    summary = scores.summary()
    return {
        "utterances": scores.utterances,
        "strategy_macro_f1_7": round(summary["strategy_macro_f1_7"], 3),
        "strategy_macro_f1_10": round(summary["strategy_macro_f1_10"], 3),
        "exact": round(summary["strategy_exact_match"], 3),
        "per_label": {
            label: {k: round(v, 3) for k, v in s.items()}
            for label, s in summary["strategies"].items()
        },
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Run the comparison; prints a table (or ``--json``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=os.environ.get("ACTPARSE_DATA", "../shared/data"))
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    folder = Path(args.data) / "casino"
    train_file, valid_file = folder / "casino_train.json", folder / "casino_valid.json"
    if not train_file.is_file():
        print(f"{train_file}: not found (set ACTPARSE_DATA)", file=sys.stderr)
        return 1
    dialogues = annotated(train_file)
    dev = [u for d in dialogues[:-HELD_OUT] for u in d]
    held_out = [u for d in dialogues[-HELD_OUT:] for u in d]
    valid = [u for d in annotated(valid_file) for u in d] if valid_file.is_file() else []
    rules = StrategyTagger().tag
    learned = baseline(dev)
    parts = {"dev": dev, "held_out_100": held_out, "valid": valid}
    out: dict[str, Any] = {"rules": {}, "baseline": {}}
    for name, utterances in parts.items():
        out["rules"][name] = figures(score(utterances, rules))
        if name != "dev":  # the baseline's training data: its own fit says nothing
            out["baseline"][name] = figures(score(utterances, learned))
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{'part':14s} {'model':9s} {'utts':>5s} {'macro7':>7s} {'macro10':>8s} {'exact':>6s}")
    for model in ("rules", "baseline"):
        for name, f in out[model].items():
            print(
                f"{name:14s} {model:9s} {f['utterances']:5d} {f['strategy_macro_f1_7']:7.3f} "
                f"{f['strategy_macro_f1_10']:8.3f} {f['exact']:6.3f}"
            )
    print()
    header = "label".ljust(22) + "".join(f"{p[:10]:>12s}" for p in parts) + "  baseline(held-out)"
    print(header + "   (F1; P/R on held-out in brackets)")
    for label in LABELS:
        cells = "".join(f"{out['rules'][p]['per_label'][label]['f1']:12.3f}" for p in parts)
        held = out["rules"]["held_out_100"]["per_label"][label]
        base = out["baseline"]["held_out_100"]["per_label"][label]["f1"]
        star = "*" if label in PAPER_LABELS else " "
        print(
            f"{label + star:22s}{cells}  {base:17.3f}   "
            f"(P {held['precision']:.2f} R {held['recall']:.2f} n {int(held['support'])})"
        )
    print("* the seven labels of strategy_macro_f1_7")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
