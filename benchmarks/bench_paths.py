"""The figures of the README's "Which to use": one file labelled by each path.

``python benchmarks/bench_paths.py [FILE] [--rounds 2] [--copies K]``
    Labels FILE (default: the shared ``casino/casino_train.json``) by every path the
    README compares: ``actparse.to_frame``, ``actparse label --per-turn`` and ``actparse
    label --jobs 1/2`` (each a fresh process, imports included), ``Dataset.map(turns_batch,
    batched=True)`` with ``num_proc`` 1 and 2, and the Dask recipe on a thread cluster and
    on a two-process cluster (its start-up timed apart). Each path runs in a fresh
    process per round, so no round inherits loaded rules from another; the rounds go
    path after path, so a slow spell of a shared machine is spread over all of them.
    ``--copies K`` labels FILE repeated K times instead (a larger input of the same
    dialogues). Prints each path's best time (with the CPU seconds of its whole process
    tree in that round, imports included: what it costs the machine, which a busy machine
    changes less than the wall clock) and the load average before and after. The
    in-process paths (``to_frame``, ``map``, Dask) are timed after their imports, with
    the rules loaded on the clock, as a first call of a user's program pays them.

Needs the test extras (pandas, pyarrow, datasets, dask[distributed]).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

DATA = Path(os.environ.get("ACTPARSE_DATA", Path(__file__).resolve().parents[2] / "shared/data"))
DEFAULT = DATA / "casino" / "casino_train.json"
#: Records per Dask partition (``--partition``): 100 makes 9 partitions of casino_train.
PARTITION = [100]


def _to_frame(path: str) -> dict[str, float]:
    # Imported before the clock starts, as in the other in-process paths: to_frame
    # imports pandas on first use, which is a start-up cost, not labelling.
    import pandas  # noqa: F401

    import actparse

    start = time.perf_counter()
    actparse.to_frame(path)
    return {"seconds": time.perf_counter() - start}


def _datasets_map(path: str, num_proc: int) -> dict[str, float]:
    import datasets

    import actparse

    datasets.disable_progress_bars()
    records = [r.raw for r in actparse.read_records(path)]
    dataset = datasets.Dataset.from_list(records)
    start = time.perf_counter()
    dataset.map(
        actparse.turns_batch,
        batched=True,
        with_indices=True,
        features=actparse.turn_features(dataset.features),
        num_proc=num_proc if num_proc > 1 else None,
        load_from_cache_file=False,
    )
    return {"seconds": time.perf_counter() - start}


def _dask(path: str, processes: bool) -> dict[str, float]:
    import dask
    import dask.dataframe as dd
    from distributed import Client, LocalCluster

    import actparse

    records = list(actparse.read_records(path))
    parts = [
        dask.delayed(actparse.to_frame)(
            records[i : i + PARTITION[0]], after=records[i - 1] if i else None, start=i
        )
        for i in range(0, len(records), PARTITION[0])
    ]
    workers = 2 if processes else 1
    start = time.perf_counter()
    with (
        dask.config.set({"dataframe.convert-string": False}),
        LocalCluster(n_workers=workers, processes=processes, dashboard_address=None) as cluster,
        Client(cluster),
    ):
        started = time.perf_counter()
        dd.from_delayed(parts, meta=actparse.to_frame([])).compute()
        done = time.perf_counter()
    return {"start": started - start, "seconds": done - started}


WORKERS: dict[str, Callable[[str], dict[str, float]]] = {
    "to_frame": _to_frame,
    "map-1": lambda path: _datasets_map(path, 1),
    "map-2": lambda path: _datasets_map(path, 2),
    "dask-threads": lambda path: _dask(path, processes=False),
    "dask-2-processes": lambda path: _dask(path, processes=True),
}

#: Paths timed from outside: a fresh ``actparse`` process, imports included.
COMMANDS: dict[str, list[str]] = {
    "label --per-turn -o turns.parquet": ["--per-turn", "-o", "turns.parquet"],
    "label -o out.jsonl --jobs 1": ["-o", "out.jsonl", "--jobs", "1"],
    "label -o out.jsonl --jobs 2": ["-o", "out.jsonl", "--jobs", "2"],
}


def _children_cpu() -> float:
    """CPU seconds of the finished processes this one started, with theirs (a worker
    pool's, a cluster's): what a path costs the machine, whatever else runs on it."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(name: str, path: Path, scratch: Path, partition: int) -> dict[str, float]:
    """One path in a fresh process: its wall-clock ``seconds`` (the whole process for a
    command, the labelling alone otherwise) and the ``cpu`` of the whole process tree,
    imports included."""
    cpu = _children_cpu()
    if name in COMMANDS:
        command = [sys.executable, "-m", "actparse", "label", str(path), *COMMANDS[name]]
        start = time.perf_counter()
        subprocess.run(command, check=True, cwd=scratch, capture_output=True)
        return {"seconds": time.perf_counter() - start, "cpu": _children_cpu() - cpu}
    done = subprocess.run(
        [sys.executable, __file__, "--worker", name, str(path), "--partition", str(partition)],
        check=True,
        cwd=scratch,
        capture_output=True,
        text=True,
    )
    figures: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return {**figures, "cpu": _children_cpu() - cpu}


#: The fields a record keeps its own dialogue id in (Cocoa's, CaSiNo's).
ID_FIELDS = ("uuid", "dialogue_id")


def _copy(record: Any, k: int) -> Any:
    """Copy ``k`` of a record, its own id (if any) made distinct: a table refuses an id
    twice."""
    if k == 0 or not isinstance(record, dict):
        return record
    return {f: f"{v}-copy{k}" if f in ID_FIELDS else v for f, v in record.items()}


def _copies(path: Path, copies: int, scratch: Path) -> Path:
    """``path`` repeated ``copies`` times, in its own format: a larger input of the same
    dialogues, so that start-up costs weigh what they would on a real corpus."""
    if copies == 1:
        return path
    target = scratch / f"{copies}x-{path.name}"
    if path.suffix == ".json":  # a JSON list (Cocoa transcripts, CaSiNo)
        records = json.loads(path.read_text(encoding="utf-8"))
        copied = [_copy(r, k) for k in range(copies) for r in records]
        target.write_text(json.dumps(copied), encoding="utf-8")
    elif path.suffix == ".jsonl":  # JSON lines
        lines = path.read_text(encoding="utf-8").splitlines()
        records = [json.loads(line) for line in lines if line.strip()]
        copied = [_copy(r, k) for k in range(copies) for r in records]
        target.write_text("".join(json.dumps(r) + "\n" for r in copied), encoding="utf-8")
    else:  # a plain-text layout: no ids of its own
        target.write_text(path.read_text(encoding="utf-8") * copies, encoding="utf-8")
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--copies", type=int, default=1, help="label FILE repeated this many times")
    parser.add_argument(
        "--partition", type=int, default=PARTITION[0], help="records per Dask partition"
    )
    parser.add_argument("--worker", choices=sorted(WORKERS), help=argparse.SUPPRESS)
    args = parser.parse_args()
    PARTITION[0] = args.partition
    if args.worker:
        print(json.dumps(WORKERS[args.worker](str(args.file))))
        return
    names = ["to_frame", *COMMANDS, *(name for name in WORKERS if name != "to_frame")]
    best: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        source = _copies(args.file, args.copies, Path(scratch))
        print(f"{source}; load average before: {os.getloadavg()[0]:.1f}", flush=True)
        for round_ in range(1, args.rounds + 1):
            for name in names:
                figures = _run(name, source, Path(scratch), args.partition)
                shown = ", ".join(f"{k} {v:.1f}s" for k, v in figures.items())
                print(f"round {round_}: {name}: {shown}", flush=True)
                kept = best.setdefault(name, figures)
                if figures["seconds"] < kept["seconds"]:
                    best[name] = figures
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    print("| path | seconds (best) |\n| --- | --- |")
    for name in names:
        shown = " / ".join(f"{k} {v:.1f}" for k, v in best[name].items())
        print(f"| {name} | {shown} |")


if __name__ == "__main__":
    main()
