"""Offer-price recall of the price modes: how often the agreed price was found.

    python benchmarks/price_recall.py [FILE ...] [--lexicon FILE]

In a dialogue that ends with an accepted offer, the offer's price should be among the
prices found in the messages. For each file and each price mode (``cocoa``, the
default, and ``extended``) this prints that recall, and how many messages each mode
finds a price in where the other finds none. FILE defaults to the shared Craigslist
validation split and transcripts_extra.json (their offers and accepts are recorded;
the HF test split has lost them).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from actparse.corpora.craigslist.finder import PRICE_MODES
from actparse.corpora.craigslist.lexicon import load_lexicon
from actparse.corpora.craigslist.recall import offer_price_recall
from actparse.io.records import read_records

DATA = Path(
    os.environ.get("ACTPARSE_DATA", Path(__file__).resolve().parents[2] / "shared" / "data")
)
DEFAULT_FILES = (
    DATA / "craigslist" / "validation.jsonl",
    DATA / "craigslist" / "transcripts_extra.json",
)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("files", nargs="*", type=Path, default=list(DEFAULT_FILES))
    parser.add_argument("--lexicon", type=Path, help="price lexicon (default: the shipped one)")
    args = parser.parse_args()
    missing = [f for f in args.files if not f.is_file()]
    if missing:
        sys.exit(f"no such file: {missing[0]} (pass files or set ACTPARSE_DATA)")
    lexicon = load_lexicon(args.lexicon)

    head = (
        f"{'file':<24} {'accepted offers':>15} "
        + " ".join(f"{'recall ' + m:>16}" for m in PRICE_MODES)
        + f" {'messages':>9} "
        + " ".join(f"{'only ' + m:>14}" for m in PRICE_MODES)
        + f" {'seconds':>8}"
    )
    print(head)
    print("-" * len(head))
    for path in args.files:
        start = time.perf_counter()
        dialogues = (record.dialogue() for record in read_records(path))
        result = offer_price_recall(dialogues, lexicon, PRICE_MODES)
        seconds = time.perf_counter() - start
        first = result[PRICE_MODES[0]]
        recalls = " ".join(
            f"{f'{r.recall:.2%} ({r.found})':>16}" for r in (result[m] for m in PRICE_MODES)
        )
        only = " ".join(f"{result[m].only:>14}" for m in PRICE_MODES)
        print(
            f"{path.name:<24} {first.dialogues:>15} {recalls} {first.messages:>9} {only} "
            f"{seconds:>8.1f}"
        )


if __name__ == "__main__":
    main()
