"""Labelling throughput and memory.

Two modes:

``python benchmarks/bench_label.py [FILE]``
    Labels FILE (default: the shared Craigslist validation split) in this process, as
    ``actparse label --jobs 1`` does, best of ``--repeat`` passes: reading, parsing and
    serializing are timed. Prints
    message turns per second and peak memory.

``python benchmarks/bench_label.py --corpora``
    Labels one shared file of each corpus in this process (Craigslist validation, Deal
    or No Deal val.txt, CaSiNo casino_train.json, the MutualFriends sample), best of
    ``--repeat`` passes, and prints each with its own floor: reading the same file into
    dialogues and tokenizing every message with the tokenizer its parser uses (Cocoa's,
    or the split parser's for Deal or No Deal and CaSiNo), so each
    corpus' labelling shows as a fraction of what reading and tokenizing cost.

``python benchmarks/bench_label.py --corpora --baseline REF [--rounds 3]``
    The same figures before and after a change, in one run: REF is a git revision
    (exported with ``git archive`` into a temporary directory) or the path of another
    checkout. Each round measures REF and then this checkout, each in a fresh process
    whose ``PYTHONPATH`` is that tree, and every figure is the best over ``--rounds``
    rounds, so a slow spell of a shared machine hits both alike. Prints, per corpus, the
    floor and labelled turns per second with the share of the floor before and after,
    the speed-up, and each side's peak memory. ``--corpus`` picks corpora.

``python benchmarks/bench_label.py --scale 50000 200000 [--jobs 1 2] [--rounds 3]``
    Builds inputs of that many dialogues by repeating the shared test split, then runs
    ``actparse label INPUT -o OUTPUT --jobs J`` for each size and job count, sampling the
    resident memory of the whole process tree. Also measures the floor: reading the
    same file with ``json`` and tokenizing every utterance with the tokenizer alone, so
    labelling throughput shows as a fraction of it. Each time is the best of
    ``--rounds`` rounds (peak memory the highest): a shared machine has slow spells.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import actparse
from actparse.corpora.craigslist.parser import default_parser
from actparse.corpora.splits.lexicon import SplitLexicon
from actparse.corpora.splits.tokens import tokenize as split_tokenize
from actparse.engine.pipeline import pipeline
from actparse.engine.tokenizer import tokenize
from actparse.io.batch import iter_items, label_items
from actparse.io.records import read_records
from actparse.registry import shipped_parser

DATA = Path(
    os.environ.get("ACTPARSE_DATA", Path(__file__).resolve().parents[2] / "shared" / "data")
)
#: The checkout this script belongs to: the "after" side of ``--baseline``.
CHECKOUT = Path(__file__).resolve().parents[1]


def in_process(path: Path, repeat: int) -> None:
    """Label one file in this process, as ``actparse label --jobs 1`` does, and print the
    figures."""
    default_parser()  # loading rules and lexicon is not part of the time
    dialogues = sum(1 for _ in read_records(path))
    messages = sum(t.is_message for r in read_records(path) for t in r.dialogue().turns)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _outcome in label_items(iter_items(path), jobs=1):
            pass
        best = min(best, time.perf_counter() - start)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"file: {path}")
    print(f"dialogues: {dialogues}, message turns: {messages}")
    print(f"best of {repeat}: {best:.3f} s")
    print(f"message turns per second: {messages / best:,.0f}")
    print(f"peak memory (max RSS): {peak_mb:.0f} MB")


#: One shared file per corpus for ``--corpora``.
CORPUS_FILES = {
    "craigslist": ("craigslist", "validation.jsonl"),
    "dealornodeal": ("dealornodeal", "val.txt"),
    "casino": ("casino", "casino_train.json"),
    "mutualfriends": ("mutualfriends", "sample.jsonl"),
}


def _best(repeat: int, run: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def _tokenizer(corpus: str) -> Callable[[str], object]:
    """The tokenizer the corpus' parser reads messages with."""
    lexicon = getattr(shipped_parser(corpus), "lexicon", None)
    if isinstance(lexicon, SplitLexicon):  # Deal or No Deal, CaSiNo: the split parser's
        return lambda text: split_tokenize(text, lexicon)
    return tokenize  # Craigslist, MutualFriends: Cocoa's


def corpus_floor(path: Path, tokenizer: Callable[[str], object]) -> None:
    """Read a file into dialogues and tokenize every message with the corpus' own
    tokenizer: the floor of ``--corpora``."""
    for record in read_records(path):
        for turn in record.dialogue().turns:
            if turn.is_message:
                tokenizer(turn.text)


def measure_corpora(repeat: int, corpora: list[str]) -> dict[str, Any]:
    """Label one shared file of each corpus and read it for the floor, in this process.

    Returns per corpus its file, dialogues, message turns, labelled and floor turns per
    second (``None`` figures for a missing file), the peak memory of the process and
    which ``actparse`` was measured.
    """
    figures: dict[str, dict[str, Any]] = {}
    for corpus in corpora:
        path = DATA.joinpath(*CORPUS_FILES[corpus])
        if not path.is_file():
            figures[corpus] = {"file": path.name, "missing": True}
            continue
        records = list(read_records(path))
        messages = sum(t.is_message for r in records for t in r.dialogue().turns)
        pipeline(corpus)  # loading rules (and the coarse map) is not part of the time
        passes = repeat if messages > 1000 else repeat * 20

        def label(path: Path = path) -> None:
            for _outcome in label_items(iter_items(path), jobs=1):
                pass

        tokenizer = _tokenizer(corpus)

        def read(path: Path = path, tokenizer: Callable[[str], object] = tokenizer) -> None:
            corpus_floor(path, tokenizer)

        labelled = messages / _best(passes, label)
        floor_rate = messages / _best(passes, read)
        figures[corpus] = {
            "file": path.name,
            "dialogues": len(records),
            "messages": messages,
            "labelled": labelled,
            "floor": floor_rate,
        }
    return {
        "actparse": str(Path(actparse.__file__).resolve()),
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "corpora": figures,
    }


def per_corpus(repeat: int, corpora: list[str]) -> None:
    """The --corpora report: each corpus' labelling throughput against its own floor."""
    print(
        "| corpus | file | dialogues | message turns | labelled turns/s | floor turns/s "
        "| of floor |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    measured = measure_corpora(repeat, corpora)
    for corpus, row in measured["corpora"].items():
        if row.get("missing"):
            print(f"| {corpus} | {row['file']} | missing | | | | |")
            continue
        print(
            f"| {corpus} | {row['file']} | {row['dialogues']:,} | {row['messages']:,} | "
            f"{row['labelled']:,.0f} | {row['floor']:,.0f} | "
            f"{row['labelled'] / row['floor']:.0%} |"
        )
    print(f"\npeak memory (max RSS) of the whole run: {measured['peak_mb']:.0f} MB")


def export_tree(ref: str, into: Path) -> Path:
    """The source tree of ``ref``: a directory as it is, else a git revision of this
    checkout's repository exported into ``into`` (``git archive``, no worktree added)."""
    if Path(ref).is_dir():
        return Path(ref).resolve()
    git = ["git", "-C", str(CHECKOUT)]
    found = subprocess.run(
        [*git, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"],
        capture_output=True,
        text=True,
    )
    if found.returncode != 0:
        sys.exit(f"--baseline {ref}: neither a directory nor a git revision")
    commit = found.stdout.strip()
    archive = into / "baseline.tar"
    subprocess.run([*git, "archive", "--format=tar", "-o", str(archive), commit], check=True)
    tree = into / commit[:12]
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    archive.unlink()
    return tree


def measure_tree(tree: Path, repeat: int, corpora: list[str]) -> dict[str, Any]:
    """:func:`measure_corpora` in a fresh process that imports ``actparse`` from ``tree``."""
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--corpora",
        "--emit-json",
        "--repeat",
        str(repeat),
        "--corpus",
        *corpora,
    ]
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"measuring {tree} failed:\n{done.stderr}")
    measured: dict[str, Any] = json.loads(done.stdout)
    if not Path(measured["actparse"]).is_relative_to(tree):
        sys.exit(f"measuring {tree} imported actparse from {measured['actparse']}")
    return measured


def _keep_best(best: dict[str, Any] | None, new: dict[str, Any]) -> dict[str, Any]:
    """Merge one round into the best so far: the highest rates, the highest peak."""
    if best is None:
        return new
    best["peak_mb"] = max(best["peak_mb"], new["peak_mb"])
    for corpus, row in new["corpora"].items():
        kept = best["corpora"][corpus]
        if not row.get("missing"):
            kept["labelled"] = max(kept["labelled"], row["labelled"])
            kept["floor"] = max(kept["floor"], row["floor"])
    return best


def compare(ref: str, repeat: int, rounds: int, corpora: list[str]) -> None:
    """The --corpora --baseline report: every corpus before (``ref``) and after (this
    checkout), each against its own floor, from the best of ``rounds`` rounds."""
    with tempfile.TemporaryDirectory(prefix="bench-baseline-") as tmp:
        trees = {"before": export_tree(ref, Path(tmp)), "after": CHECKOUT}
        best: dict[str, dict[str, Any] | None] = dict.fromkeys(trees)
        for _ in range(rounds):
            for side, tree in trees.items():
                best[side] = _keep_best(best[side], measure_tree(tree, repeat, corpora))
    before, after = best["before"], best["after"]
    assert before is not None and after is not None
    print(f"before: {ref} ({trees['before'].name}); after: this checkout ({CHECKOUT})")
    print(f"best of {rounds} rounds, each the best of {repeat} passes; rates in turns/s\n")
    print(
        "| corpus | file | message turns | floor before | labelled before | of floor "
        "| floor after | labelled after | of floor | speed-up |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for corpus in corpora:
        old, new = before["corpora"][corpus], after["corpora"][corpus]
        if old.get("missing") or new.get("missing"):
            print(f"| {corpus} | {new['file']} | missing | | | | | | | |")
            continue
        print(
            f"| {corpus} | {new['file']} | {new['messages']:,} | {old['floor']:,.0f} | "
            f"{old['labelled']:,.0f} | {old['labelled'] / old['floor']:.0%} | "
            f"{new['floor']:,.0f} | {new['labelled']:,.0f} | "
            f"{new['labelled'] / new['floor']:.0%} | "
            f"{new['labelled'] / old['labelled']:.2f}x |"
        )
    print(
        f"\npeak memory (max RSS) of one process: before {before['peak_mb']:.0f} MB, "
        f"after {after['peak_mb']:.0f} MB"
    )


def build_input(size: int, into: Path) -> tuple[Path, int]:
    """A JSON lines file of ``size`` dialogues repeating the test split; its message count."""
    lines = (DATA / "craigslist" / "test.jsonl").read_text(encoding="utf-8").splitlines()
    path = into / f"craigslist_{size}.jsonl"
    messages = 0
    per_line = [sum(1 for u in json.loads(line)["utterance"] if u) for line in lines]
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(size):
            fh.write(lines[i % len(lines)] + "\n")
            messages += per_line[i % len(lines)]
    return path, messages


def _tree_rss_kb(pid: int) -> int:
    """Resident memory of a process and all its descendants, from /proc."""
    total = 0
    stack = [pid]
    while stack:
        current = stack.pop()
        try:
            with open(f"/proc/{current}/status") as fh:
                for line in fh:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
            with open(f"/proc/{current}/task/{current}/children") as fh:
                stack.extend(int(c) for c in fh.read().split())
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
    return total


def run_cli(path: Path, jobs: int, out: Path) -> tuple[float, float]:
    """Wall seconds and peak tree RSS (MB) of one ``actparse label`` run."""
    command = [
        sys.executable,
        "-m",
        "actparse",
        "label",
        str(path),
        "-o",
        str(out),
        "--jobs",
        str(jobs),
    ]
    start = time.perf_counter()
    process = subprocess.Popen(command, stderr=subprocess.DEVNULL)
    peak = 0
    while process.poll() is None:
        peak = max(peak, _tree_rss_kb(process.pid))
        time.sleep(0.05)
    wall = time.perf_counter() - start
    if process.returncode != 0:
        sys.exit(f"actparse label failed with status {process.returncode}")
    return wall, peak / 1024


def floor(path: Path) -> float:
    """Seconds to read the file with json and tokenize every utterance."""
    start = time.perf_counter()
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            for utterance in json.loads(line)["utterance"]:
                if utterance:
                    tokenize(utterance)
    return time.perf_counter() - start


def scaled(sizes: list[int], jobs_list: list[int], repeat: int) -> None:
    """The --scale report: for each figure the best of ``repeat`` rounds.

    A round measures the floor and then each job count, so a slow spell of a shared
    machine hits one round rather than one configuration.
    """
    print("| dialogues | jobs | message turns/s | wall (s) | peak RSS (MB) | of floor |")
    print("| --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            path, messages = build_input(size, Path(tmp))
            floor_best = float("inf")
            runs: dict[int, tuple[float, float]] = {}
            for _ in range(repeat):
                floor_best = min(floor_best, floor(path))
                for jobs in jobs_list:
                    wall, peak = run_cli(path, jobs, Path(tmp) / "out.jsonl")
                    best_wall, top_peak = runs.get(jobs, (float("inf"), 0.0))
                    runs[jobs] = (min(best_wall, wall), max(top_peak, peak))
            floor_rate = messages / floor_best
            print(f"| {size:,} | floor (json + tokenize) | {floor_rate:,.0f} | | | 100% |")
            rates = {}
            for jobs in jobs_list:
                wall, peak = runs[jobs]
                rates[jobs] = messages / wall
                print(
                    f"| {size:,} | {jobs} | {rates[jobs]:,.0f} | {wall:.1f} | {peak:.0f} | "
                    f"{rates[jobs] / floor_rate:.0%} |"
                )
            if 1 in rates and 2 in rates:
                print(f"| {size:,} | speed-up 2 vs 1 | {rates[2] / rates[1]:.2f}x | | | |")
            path.unlink()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "file", nargs="?", type=Path, default=DATA / "craigslist" / "validation.jsonl"
    )
    parser.add_argument("--repeat", type=int, default=5, help="passes over FILE (best is kept)")
    parser.add_argument(
        "--scale",
        type=int,
        nargs="+",
        metavar="DIALOGUES",
        help="build inputs of these sizes and run the command line on them",
    )
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument(
        "--corpora",
        action="store_true",
        help="label one shared file of each corpus, each against its own floor",
    )
    parser.add_argument(
        "--corpus",
        nargs="+",
        choices=list(CORPUS_FILES),
        default=list(CORPUS_FILES),
        help="with --corpora: the corpora to measure (default: all)",
    )
    parser.add_argument(
        "--baseline",
        metavar="REF",
        help="with --corpora: also measure REF (a git revision or a checkout's path)",
    )
    # The child process of --baseline: the figures as JSON instead of the table.
    parser.add_argument("--emit-json", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="with --scale or --baseline: rounds; each figure is the best of them",
    )
    args = parser.parse_args()
    if args.corpora and args.emit_json:
        print(json.dumps(measure_corpora(args.repeat, args.corpus)))
        return
    if args.corpora and args.baseline:
        compare(args.baseline, args.repeat, args.rounds, args.corpus)
        return
    if args.corpora:
        per_corpus(args.repeat, args.corpus)
        return
    if args.scale:
        scaled(args.scale, args.jobs, args.rounds)
        return
    if not args.file.is_file():
        sys.exit(f"no such file: {args.file} (pass a file or set ACTPARSE_DATA)")
    in_process(args.file, args.repeat)


if __name__ == "__main__":
    main()
