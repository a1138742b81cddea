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

It also says how far the held-out figures could move on other dialogues like them: the
macro F1 over 1,000 resamples of the held-out dialogues (drawn with replacement, a fixed
seed), its 95% interval, and in how many resamples the rules beat the baseline
(``--bootstrap N`` sets the number, 0 leaves it out).

Needs scikit-learn (the ``benchmark`` extra); actparse itself never imports it.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from actparse.corpora.casino import CasinoParser
from actparse.corpora.strategy_eval import StrategyScores
from actparse.engine.strategies import (
    LABELS,
    NON_STRATEGIC,
    PAPER_LABELS,
    StrategyTagger,
    default_tagger,
)

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


def fit(train: Sequence[Utterance]) -> tuple[Any, dict[str, Any]]:
    """The vectorizer and a logistic regression per strategic label, fitted on ``train``."""
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
    return vectorizer, models


def baseline(train: Sequence[Utterance]) -> Callable[[str], Sequence[str]]:
    """A bag-of-words logistic regression per label, trained on ``train``."""
    vectorizer, models = fit(train)

    def predict(text: str) -> Sequence[str]:
        row = vectorizer.transform([text])
        found = [label for label, model in models.items() if model.predict_proba(row)[0][1] >= 0.5]
        return found or [NON_STRATEGIC]

    return predict


#: Decimals the exported weights keep.
DECIMALS = 5


def export(train: Sequence[Utterance], provenance: dict[str, Any]) -> dict[str, Any]:
    """The baseline fitted on ``train`` as a strategy lexicon
    (:mod:`actparse.engine.strategy_lexicon`): per word or word pair, its weight for
    each label, and each label's intercept."""
    import sklearn

    vectorizer, models = fit(train)
    labels = list(models)
    grams = vectorizer.get_feature_names_out()
    columns = [models[label].coef_[0] for label in labels]
    return {
        "description": (
            "CaSiNo strategy labels from word and word-pair weights: one logistic "
            "regression per label, as benchmarks/strategy_baseline.py fits its baseline."
        ),
        "provenance": {**provenance, "scikit-learn": sklearn.__version__},
        "token_pattern": vectorizer.token_pattern,
        "ngrams": list(vectorizer.ngram_range),
        "labels": labels,
        "intercepts": [round(float(models[label].intercept_[0]), DECIMALS) for label in labels],
        "weights": {
            str(gram): [round(float(column[k]), DECIMALS) for column in columns]
            for k, gram in enumerate(grams)
        },
    }


def merged(parts: Sequence[StrategyScores]) -> StrategyScores:
    """The counts of several dialogues' scores together (examples left out)."""
    out = StrategyScores()
    for part in parts:
        out.true_pos.update(part.true_pos)
        out.false_pos.update(part.false_pos)
        out.false_neg.update(part.false_neg)
        out.utterances += part.utterances
        out.exact += part.exact
    return out


def bootstrap(
    by_model: dict[str, list[StrategyScores]], rounds: int, seed: int = 0
) -> dict[str, Any]:
    """Macro F1 of each model over ``rounds`` resamples of the same dialogues (with
    replacement, the same draw for every model): the 2.5th and 97.5th percentiles, and
    the share of resamples in which the first model's figure is the higher."""
    draw = random.Random(seed)
    n = len(next(iter(by_model.values())))
    figures: dict[str, dict[str, list[float]]] = {
        model: {"strategy_macro_f1_7": [], "strategy_macro_f1_10": []} for model in by_model
    }
    for _ in range(rounds):
        picks = [draw.randrange(n) for _ in range(n)]
        for model, dialogues in by_model.items():
            scores = merged([dialogues[k] for k in picks])
            figures[model]["strategy_macro_f1_7"].append(scores.macro_f1(PAPER_LABELS))
            figures[model]["strategy_macro_f1_10"].append(scores.macro_f1(LABELS))
    first, *others = by_model
    out: dict[str, Any] = {"resamples": rounds, "dialogues": n}
    for model, by_figure in figures.items():
        out[model] = {
            name: [round(_percentile(values, 2.5), 3), round(_percentile(values, 97.5), 3)]
            for name, values in by_figure.items()
        }
    for other in others:
        out[f"{first}_above_{other}"] = {
            name: round(
                sum(a > b for a, b in zip(figures[first][name], figures[other][name])) / rounds,
                3,
            )
            for name in figures[first]
        }
    return out


def _provenance(path: Path, dialogues: int, utterances: int) -> dict[str, Any]:
    return {
        "data": (
            f"the first {dialogues} annotated dialogues of {path.name} ({utterances} "
            f"utterances); the last {HELD_OUT} annotated ones and casino_valid.json were "
            "not used"
        ),
        "corpus": (
            "CaSiNo (Chawla et al., 2021, 'CaSiNo: A Corpus of Campsite Negotiation "
            "Dialogues for Automatic Negotiation Systems'), CC BY 4.0"
        ),
        "model": (
            "CountVectorizer(lowercase, word unigrams and bigrams, min_df=2, binary); "
            "LogisticRegression(C=1.0, max_iter=2000) per label; untuned"
        ),
        "written_by": "python benchmarks/strategy_baseline.py --export PATH",
    }


def _percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q``-th percentile (the 25th of 1,000 values for 2.5)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))]


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
    parser.add_argument(
        "--bootstrap", type=int, default=1000, help="resamples of the held-out dialogues"
    )
    parser.add_argument(
        "--export",
        type=Path,
        help="write the baseline, fitted on the development dialogues, as a strategy "
        "lexicon JSON (rules/casino/strategy_lexicon.json) and stop",
    )
    args = parser.parse_args(argv)
    folder = Path(args.data) / "casino"
    train_file, valid_file = folder / "casino_train.json", folder / "casino_valid.json"
    if not train_file.is_file():
        print(f"{train_file}: not found (set ACTPARSE_DATA)", file=sys.stderr)
        return 1
    dialogues = annotated(train_file)
    dev = [u for d in dialogues[:-HELD_OUT] for u in d]
    if args.export:
        lexicon = export(dev, _provenance(train_file, len(dialogues) - HELD_OUT, len(dev)))
        text = json.dumps(lexicon, ensure_ascii=False, separators=(",", ":"))
        args.export.write_text(text + "\n", encoding="utf-8")
        print(f"wrote {args.export}: {len(lexicon['weights'])} words and pairs", file=sys.stderr)
        return 0
    held_out = [u for d in dialogues[-HELD_OUT:] for u in d]
    valid = [u for d in annotated(valid_file) for u in d] if valid_file.is_file() else []
    # The rules alone; CaSiNo's default, the rules and the shipped lexicon (learned
    # on the development dialogues as the baseline is, so its development figure is
    # its own fit); the baseline fitted here.
    models = {
        "rules": StrategyTagger().tag,
        "rules+lex": default_tagger(CasinoParser.strategy_lexicon).tag,
        "baseline": baseline(dev),
    }
    parts = {"dev": dev, "held_out_100": held_out, "valid": valid}
    out: dict[str, Any] = {model: {} for model in models}
    for name, utterances in parts.items():
        for model, predict in models.items():
            if name != "dev" or model == "rules":  # the others' training data
                out[model][name] = figures(score(utterances, predict))
    if args.bootstrap > 0:
        held_dialogues = dialogues[-HELD_OUT:]
        out["held_out_100_bootstrap"] = bootstrap(
            {
                model: [score(d, predict) for d in held_dialogues]
                for model, predict in models.items()
            },
            args.bootstrap,
        )
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{'part':14s} {'model':9s} {'utts':>5s} {'macro7':>7s} {'macro10':>8s} {'exact':>6s}")
    for model in models:
        for name, f in out[model].items():
            print(
                f"{name:14s} {model:9s} {f['utterances']:5d} {f['strategy_macro_f1_7']:7.3f} "
                f"{f['strategy_macro_f1_10']:8.3f} {f['exact']:6.3f}"
            )
    print()
    header = "rules, F1:".ljust(22) + "".join(f"{p[:10]:>12s}" for p in parts)
    print(header + "   rules+lex held-out F1 (P/R)   baseline held-out F1")
    for label in LABELS:
        cells = "".join(f"{out['rules'][p]['per_label'][label]['f1']:12.3f}" for p in parts)
        both = out["rules+lex"]["held_out_100"]["per_label"][label]
        base = out["baseline"]["held_out_100"]["per_label"][label]["f1"]
        star = "*" if label in PAPER_LABELS else " "
        print(
            f"{label + star:22s}{cells}   {both['f1']:8.3f} ({both['precision']:.2f}/"
            f"{both['recall']:.2f})     {base:8.3f}"
        )
    print("* the seven labels of strategy_macro_f1_7")
    if "held_out_100_bootstrap" in out:
        boot = out["held_out_100_bootstrap"]
        print(
            f"\nheld-out 100, {boot['resamples']} resamples of its {boot['dialogues']} "
            "dialogues: 95% interval of macro F1"
        )
        for model in models:
            seven, ten = boot[model]["strategy_macro_f1_7"], boot[model]["strategy_macro_f1_10"]
            print(
                f"  {model:9s} 7 labels {seven[0]:.3f}-{seven[1]:.3f}   "
                f"10 labels {ten[0]:.3f}-{ten[1]:.3f}"
            )
        for other in list(models)[1:]:
            above = boot[f"rules_above_{other}"]
            print(
                f"  rules above {other} in {above['strategy_macro_f1_7']:.1%} (7 labels) and "
                f"{above['strategy_macro_f1_10']:.1%} (10 labels) of the resamples"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
