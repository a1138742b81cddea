"""Every shipped file as a turn table with the corpus parser's acts as reference columns.

The issue's recipe, on disk: each dialogue of a shipped file becomes rows of a turn
table (``dialogue_id``, ``speaker``, ``text``, ``action``, its ``role``, and as context its
``items`` and ``listing_price``), with the corpus parser's act of each message as
``reference_coarse`` and ``reference_price``, and the split the corpus records as agreed
(Deal or No Deal's output, CaSiNo's accepted deal) as ``reference_split``. Labelling such
a table is labelling it as the chat corpus, so ::

    python benchmarks/chat_tables.py --data $ACTPARSE_DATA --out tables
    actparse eval tables/casino_train.jsonl

prints how the chat parser agrees with the corpus parser (coarse acts, prices) and its
final split accuracy, to set beside ``actparse eval`` of the shipped file itself.
Craigslist is labelled with ``skip="never"`` so that every dialogue has acts; Deal or No
Deal's second view of each dialogue is left out, as its evaluation does.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from compare_chat import FILES, _final, chat_record

from actparse.corpora.craigslist.parser import CraigslistParser
from actparse.corpora.dealornodeal.core import dialogue_key
from actparse.engine.pipeline import pipeline
from actparse.io.records import read_records
from actparse.models import Act, Dialogue


def _rows(dialogue: Dialogue, acts: list[Act], corpus: str) -> Iterator[dict[str, Any]]:
    record = chat_record(dialogue)
    split = _final(corpus, dialogue)[0] if corpus != "craigslist" else None
    context = {k: record[k] for k in ("items", "listing_price") if k in record}
    for turn, act in zip(dialogue.turns, acts):
        row: dict[str, Any] = {
            "dialogue_id": dialogue.id,
            "speaker": turn.agent,
            "text": turn.text,
            "action": turn.action,
            "role": dialogue.parties[turn.agent].role or None,
            **context,
        }
        if turn.is_message:
            row["reference_coarse"] = act.coarse
            row["reference_price"] = act.price
        if split is not None:
            row["reference_split"] = {str(a): split.for_agent(a) for a in (0, 1)}
        yield row


def write_table(data: Path, corpus: str, name: str, out: Path) -> tuple[Path, int]:
    """Write the table of one shipped file; returns its path and its number of rows."""
    own = pipeline(corpus, CraigslistParser(skip="never") if corpus == "craigslist" else None)
    target = out / (Path(name).name.split(".")[0] + ".jsonl")
    seen: set[Any] = set()
    written = 0
    with target.open("w", encoding="utf-8") as sink:
        for position, record in enumerate(read_records(data / name)):
            dialogue = record.dialogue()
            if corpus == "dealornodeal":
                key = dialogue_key(dialogue)
                if key in seen:
                    continue
                seen.add(key)
            if dialogue.id is None:  # the table needs an id; the record's position is it
                dialogue = _with_id(dialogue, str(position))
            for row in _rows(dialogue, own.parse(dialogue), corpus):
                sink.write(json.dumps(row, ensure_ascii=False) + "\n")
                written += 1
    return target, written


def _with_id(dialogue: Dialogue, ident: str) -> Dialogue:
    return replace(dialogue, id=ident)


def main() -> None:
    """Write the tables of every shipped file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="the shared data folder")
    parser.add_argument("--out", type=Path, required=True, help="the folder for the tables")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    # A file split into dev and held-out parts is written whole, once.
    for corpus, name in dict.fromkeys((corpus, name) for corpus, name, *_part in FILES):
        target, rows = write_table(args.data, corpus, name, args.out)
        print(f"{target}: {rows} rows", flush=True)


if __name__ == "__main__":
    main()
