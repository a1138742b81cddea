"""Learn the final-split chooser of Deal or No Deal and CaSiNo, and say what it gains.

The rules take as the final split the proposal the tracked deal stands on before the
formal deal (:mod:`actparse.engine.deals`). The chooser
(:mod:`actparse.engine.final_chooser`) scores every division of the items by named
features of the tracked proposals and of the parties' item values; this script fits its
weights (a conditional logit: which division is the final split) on the development part
of each corpus, reports five-fold cross-validated accuracy beside the rules', and with
``--write`` writes each corpus' ``rules/<corpus>/final_chooser.json``::

    pip install -e '.[benchmark]'
    python benchmarks/final_chooser.py                  # figures only
    python benchmarks/final_chooser.py --write rules    # and the weights

Development part: Deal or No Deal ``train.txt`` lines 1-8000 and ``val.txt``, CaSiNo
``casino_train.json`` dialogues 1-700; the held-out parts (``train.txt`` from line 8001,
CaSiNo train from dialogue 701, ``casino_valid.json``) are never read. Needs numpy (the
``benchmark`` extra); actparse itself never imports it.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from actparse.corpora.casino.core import dialogue_from_casino, final_deal
from actparse.corpora.dealornodeal.core import (
    dialogue_from_dealornodeal,
    dialogue_key,
    final_split,
)
from actparse.engine.deals import track_deals
from actparse.engine.final_chooser import FEATURES, ChoiceContext, FinalChooser, items_off
from actparse.engine.pipeline import pipeline
from actparse.io.records import read_records
from actparse.models import Dialogue, ItemSplit

NAMES = tuple(FEATURES)
IS_FINAL = NAMES.index("is_final")
#: Fitting: full-batch gradient steps on the mean log-likelihood, an L2 penalty.
STEPS, RATE, L2 = 3000, 0.5, 0.001
FOLDS = 5

Row = tuple[np.ndarray, np.ndarray, int] | None


def agreed(path: str, corpus: str) -> Iterator[tuple[Dialogue, ItemSplit, int]]:
    """Each agreed dialogue once, with its final split and the formal turn."""
    seen: set[Any] = set()
    for record in read_records(path):
        if corpus == "casino":
            dialogue = dialogue_from_casino(record.raw)
            deal = final_deal(dialogue)
            if deal is not None:
                yield dialogue, deal[1], deal[0].index
            continue
        dialogue = dialogue_from_dealornodeal(record.raw)
        key = dialogue_key(dialogue)
        if key in seen:  # each dialogue is in the file twice, once from each side
            continue
        seen.add(key)
        expected = final_split(dialogue)
        formal = next((t.index for t in dialogue.turns if t.action == "select"), None)
        if expected is not None and formal is not None:
            yield dialogue, expected, formal


def rows(path: str, corpus: str) -> Iterator[Row]:
    """Per agreed dialogue: its divisions' features, which is right, the rules' pick."""
    parse = pipeline(corpus).parse
    for dialogue, expected, formal in agreed(path, corpus):
        context = ChoiceContext.of(track_deals(parse(dialogue), formal), dialogue.parties)
        if context is None:
            yield None
            continue
        divisions = list(context.divisions())
        x = np.array([[context.features(d)[n] for n in NAMES] for d in divisions])
        y = np.array([d == expected.counts for d in divisions], dtype=float)
        final = context.final.split.counts
        complete = None not in final[0] and None not in final[1]
        pick = next(
            (i for i, d in enumerate(divisions) if complete and items_off(d, final) == 0), -1
        )
        yield x, y, pick


def fit(data: list[Row]) -> np.ndarray:
    """The weights of a conditional logit that puts the mass on the right divisions."""
    usable = [(x, y / y.sum()) for x, y, _ in (r for r in data if r is not None) if y.any()]
    # All dialogues' divisions stacked; each dialogue's softmax runs over its own segment.
    x = np.vstack([x for x, _ in usable])
    target = np.concatenate([t for _, t in usable])
    starts = np.cumsum([0] + [len(t) for _, t in usable[:-1]])
    segment = np.repeat(np.arange(len(usable)), [len(t) for _, t in usable])
    weights = np.zeros(len(NAMES))
    for _ in range(STEPS):
        scores = x @ weights
        p = np.exp(scores - np.maximum.reduceat(scores, starts)[segment])
        p /= np.add.reduceat(p, starts)[segment]
        gradient = L2 * weights - x.T @ (target - p) / len(usable)
        weights -= RATE * gradient
    return weights


def right(data: list[Row], weights: np.ndarray | None) -> int:
    """How many dialogues the rules (``None``) or the weights get right."""
    got = 0
    for row in data:
        if row is None:
            continue
        x, y, pick = row
        if weights is None:
            got += pick >= 0 and bool(y[pick])
            continue
        scores = x @ weights
        # Ties go to the tracked final, as the chooser breaks them.
        best = max(range(len(scores)), key=lambda i: (scores[i], x[i, IS_FINAL]))
        got += bool(y[best])
    return got


def cross_validate(data: list[Row]) -> dict[str, Any]:
    """Rules and chooser over ``FOLDS`` folds (each fold scored by weights fit without it)."""
    rules = learned = 0
    folds = []
    for k in range(FOLDS):
        test = data[k::FOLDS]
        train = [r for i, r in enumerate(data) if i % FOLDS != k]
        weights = fit(train)
        r, w = right(test, None), right(test, weights)
        folds.append({"dialogues": len(test), "rules": r, "chooser": w})
        rules, learned = rules + r, learned + w
    return {"dialogues": len(data), "rules": rules, "chooser": learned, "folds": folds}


def development(data: Path, tmp: Path) -> dict[str, list[tuple[str, str]]]:
    """The development files of each corpus, written to ``tmp`` where they are a part."""
    dond = tmp / "train_1_8000.txt"
    with open(data / "dealornodeal/train.txt", encoding="utf-8") as lines:
        dond.write_text("".join(itertools.islice(lines, 8000)), encoding="utf-8")
    casino = tmp / "casino_train_1_700.json"
    train_dialogues = json.loads((data / "casino/casino_train.json").read_text("utf-8"))
    casino.write_text(json.dumps(train_dialogues[:700]), encoding="utf-8")
    return {
        "dealornodeal": [
            ("train.txt lines 1-8000", str(dond)),
            ("val.txt", str(data / "dealornodeal/val.txt")),
        ],
        "casino": [("casino_train.json dialogues 1-700", str(casino))],
    }


def provenance(corpus: str, parts: list[str], cv: dict[str, Any]) -> dict[str, Any]:
    """Where the weights come from, written beside them."""
    held = {
        "dealornodeal": "train.txt from line 8001",
        "casino": "casino_train.json from dialogue 701, casino_valid.json",
    }[corpus]
    return {
        "data": f"the agreed dialogues of {', '.join(parts)} ({cv['dialogues']} dialogues)",
        "not_used": held,
        "model": f"conditional logit over every division of the items; {STEPS} gradient steps, "
        f"rate {RATE}, L2 {L2}",
        "cross_validated": f"{FOLDS} folds of the same dialogues: rules {cv['rules']}, "
        f"chooser {cv['chooser']} right of {cv['dialogues']}",
        "written_by": "python benchmarks/final_chooser.py --write rules",
        "date": datetime.date.today().isoformat(),
        "numpy": np.__version__,
    }


def main() -> None:
    """Print the cross-validated figures; with ``--write``, fit on all and write the weights."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=os.environ.get("ACTPARSE_DATA", "../shared/data"))
    parser.add_argument("--write", type=Path, help="rules folder to write the weights into")
    args = parser.parse_args()
    print("| corpus | development dialogues | rules | chooser (5-fold) |")
    print("| --- | ---: | ---: | ---: |")
    with tempfile.TemporaryDirectory() as tmp:
        for corpus, parts in development(Path(args.data), Path(tmp)).items():
            data = [row for _, path in parts for row in rows(path, corpus)]
            cv = cross_validate(data)
            n = cv["dialogues"]
            print(
                f"| {corpus} | {n} | {cv['rules'] / n:.2%} ({cv['rules']}) | "
                f"{cv['chooser'] / n:.2%} ({cv['chooser']}) |"
            )
            if args.write is None:
                continue
            weights = fit(data)
            chooser = FinalChooser(
                {name: round(float(w), 4) for name, w in zip(NAMES, weights)},
                description="The final split of the text: every division of the items scored "
                "by the tracked proposals and the parties' item values "
                "(actparse.engine.final_chooser).",
                provenance=provenance(corpus, [name for name, _ in parts], cv),
            )
            (args.write / corpus).mkdir(parents=True, exist_ok=True)
            chooser.to_disk(args.write / corpus / "final_chooser.json")


if __name__ == "__main__":
    main()
