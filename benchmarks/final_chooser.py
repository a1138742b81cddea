"""Could a learned chooser pick the final proposal better than the tracked deal does?

The rules take as the final split the proposal the tracked deal stands on before the
formal deal (:mod:`actparse.engine.deals`). This benchmark trains a small
learned alternative on the same proposals: a conditional logit over each dialogue's
proposals (which one is final), on features of the tracked state (the one the deal
stands on, the last made, agreed to, by both, restated, its parse's doubts, partial,
how many came after and whether those were agreed or unsure, how long before the
formal deal it was last seen, its status). It is trained on the odd dialogues of the
development part of each corpus and scored on the even ones beside the rules::

    pip install -e '.[benchmark]'
    python benchmarks/final_chooser.py            # $ACTPARSE_DATA or ../shared/data

Development part: Deal or No Deal ``train.txt`` lines 1-8000 and ``val.txt``, CaSiNo
``casino_train.json`` dialogues 1-700 (the held-out parts are not read). Needs numpy
(the ``benchmark`` extra brings it); actparse itself never imports it.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
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
from actparse.engine.deals import PROPOSAL_STATUSES, DealTrack, Proposal, track_deals
from actparse.engine.pipeline import pipeline
from actparse.io.records import read_records
from actparse.models import Dialogue, ItemSplit


def features(track: DealTrack, before: int, proposal: Proposal) -> list[float]:
    """What the chooser sees of one proposal of a dialogue."""
    made = sorted(track.proposals.values(), key=lambda p: p.turn)
    after = [p for p in made if p.turn > proposal.turn]
    last_agreement = max((t for p in made for _, t in p.agreed), default=-1)
    split = proposal.split
    values = [
        1.0,
        float(track.final is proposal),
        float(made[-1] is proposal),
        float(bool(proposal.agreed)),
        float(bool(proposal.agreed) and proposal.agreed[-1][1] == last_agreement),
        float(len(proposal.agreed) > 1),
        float(proposal.last_seen > proposal.turn and not proposal.agreed),
        float(bool(split.uncertain)),
        float(any(c is None for side in split.counts for c in side)),
        math.log1p(len(after)),
        float(bool(after) and all(p.split.uncertain for p in after)),
        float(any(p.agreed for p in after)),
        math.log1p(max(0, before - proposal.last_seen)),
    ]
    return values + [float(proposal.status == s) for s in PROPOSAL_STATUSES]


def candidates(path: str, corpus: str) -> Iterator[tuple[np.ndarray, np.ndarray, int] | None]:
    """Per agreed dialogue: its proposals' features, which are right, the rules' pick."""
    parse = pipeline(corpus).parse
    seen: set[Any] = set()
    for record in read_records(path):
        expected: ItemSplit | None = None
        formal: int | None = None
        if corpus == "casino":
            dialogue: Dialogue = dialogue_from_casino(record.raw)
            deal = final_deal(dialogue)
            if deal is not None:
                formal, expected = deal[0].index, deal[1]
        else:
            dialogue = dialogue_from_dealornodeal(record.raw)
            key = dialogue_key(dialogue)
            if key in seen:  # each dialogue is in the file twice, once from each side
                continue
            seen.add(key)
            expected = final_split(dialogue)
            formal = next((t.index for t in dialogue.turns if t.action == "select"), None)
        if expected is None or formal is None:
            continue
        track = track_deals(parse(dialogue), formal)
        made = list(track.proposals.values())
        if not made:
            yield None
            continue
        x = np.array([features(track, formal, p) for p in made])
        y = np.array([p.split.counts == expected.counts for p in made], dtype=float)
        yield x, y, made.index(track.final) if track.final is not None else 0


def train(rows: list[tuple[np.ndarray, np.ndarray, int]], steps: int = 1500) -> np.ndarray:
    """The weights of a conditional logit that puts the mass on the right proposals."""
    usable = [(x, y / y.sum()) for x, y, _ in rows if y.any()]
    weights = np.zeros(usable[0][0].shape[1])
    for _ in range(steps):
        gradient = 0.01 * weights
        for x, target in usable:
            scores = x @ weights
            p = np.exp(scores - scores.max())
            gradient -= x.T @ (target - p / p.sum()) / len(usable)
        weights -= gradient
    return weights


def score(
    rows: list[tuple[np.ndarray, np.ndarray, int] | None], weights: np.ndarray
) -> dict[str, float]:
    """Final split accuracy of the rules and of the chooser over agreed dialogues."""
    rules = learned = 0
    for row in rows:
        if row is None:
            continue
        x, y, pick = row
        rules += bool(y[pick])
        learned += bool(y[int(np.argmax(x @ weights))])
    return {"dialogues": len(rows), "rules": rules / len(rows), "learned": learned / len(rows)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=os.environ.get("ACTPARSE_DATA", "../shared/data"))
    args = parser.parse_args()
    data = Path(args.data)
    with tempfile.TemporaryDirectory() as tmp:
        dev = Path(tmp) / "train_1_8000.txt"
        with open(data / "dealornodeal/train.txt", encoding="utf-8") as lines:
            dev.write_text("".join(itertools.islice(lines, 8000)), encoding="utf-8")
        casino = Path(tmp) / "casino_train_1_700.json"
        train_dialogues = json.loads((data / "casino/casino_train.json").read_text("utf-8"))
        casino.write_text(json.dumps(train_dialogues[:700]), encoding="utf-8")
        parts = {
            "dealornodeal train.txt 1-8000": list(candidates(str(dev), "dealornodeal")),
            "dealornodeal val.txt": list(
                candidates(str(data / "dealornodeal/val.txt"), "dealornodeal")
            ),
            "casino train 1-700": list(candidates(str(casino), "casino")),
        }
    odd = [row for rows in parts.values() for row in rows[1::2] if row is not None]
    weights = train(odd)
    print("| development part | even dialogues | rules | learned chooser |")
    print("| --- | ---: | ---: | ---: |")
    for name, rows in parts.items():
        got = score(rows[0::2], weights)
        print(f"| {name} | {got['dialogues']} | {got['rules']:.1%} | {got['learned']:.1%} |")


if __name__ == "__main__":
    main()
