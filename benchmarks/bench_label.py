"""Labelling throughput: message turns per second and peak memory, in one process.

    python benchmarks/bench_label.py [FILE] [--repeat N]

FILE defaults to the shared Craigslist validation split. Rules and the lexicon load
before the clock starts; reading, parsing and serializing every record are timed.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path

from actparse.api import default_parser, label_records
from actparse.readers import read_records
from actparse.writers import apply_acts

DEFAULT = Path(
    os.environ.get("ACTPARSE_DATA", Path(__file__).resolve().parents[2] / "shared" / "data")
)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "file", nargs="?", type=Path, default=DEFAULT / "craigslist" / "validation.jsonl"
    )
    parser.add_argument("--repeat", type=int, default=5, help="passes over the file (best is kept)")
    args = parser.parse_args()
    if not args.file.is_file():
        sys.exit(f"no such file: {args.file} (pass a file or set ACTPARSE_DATA)")

    cocoa = default_parser()
    best = float("inf")
    messages = dialogues = 0
    for _ in range(args.repeat):
        start = time.perf_counter()
        messages = dialogues = 0
        for record, dialogue, acts in label_records(read_records(args.file), cocoa):
            json.dumps(apply_acts(record.raw, record.format, dialogue, acts))
            dialogues += 1
            messages += sum(t.is_message for t in dialogue.turns)
        best = min(best, time.perf_counter() - start)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"file: {args.file}")
    print(f"dialogues: {dialogues}, message turns: {messages}")
    print(f"best of {args.repeat}: {best:.3f} s")
    print(f"message turns per second: {messages / best:,.0f}")
    print(f"peak memory (max RSS): {peak_mb:.0f} MB")


if __name__ == "__main__":
    main()
