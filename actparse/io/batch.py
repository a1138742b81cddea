"""Batch labelling for real workloads: streaming, parallel, and nothing lost on bad input.

JSON lines are streamed, a small batch at a time, so memory does not grow with the
input; a JSON list (Cocoa transcripts, CaSiNo) is loaded whole. A batch is labelled one
step at a time over all its records (read, tokenize, decide, write), which keeps each
step's code and data warm in the CPU caches. With ``jobs > 1`` records go to worker
processes in tasks of a few batches, two tasks in flight per worker, and come back in
input order; an input of one task or less is labelled in this process, as with
``jobs=1``, since one task goes to one worker anyway. Workers parse the JSON text
themselves and, for a JSON line whose format keeps its acts in one field (the Craigslist
HF export's ``dialogue_acts``, with actparse's own ``actparse`` beside it), send back only
the new fields, which the main process splices into the line it kept.

With ``on_error="keep"`` every input record reaches the output: a record that cannot be
labelled is written unchanged with an ``actparse_error`` field naming the file, the line
and the problem, and what the reader could not make a record of (a line that is not
JSON or not UTF-8, an element of a JSON list that is not an object, the end of a
truncated ``.gz``: see :mod:`actparse.io.sources`) is one such record with the text it
read there under ``actparse_input``. With ``on_error="stop"`` the first problem raises
:class:`~actparse.io.records.InputError`.
"""

from __future__ import annotations

import itertools
import multiprocessing
import multiprocessing.pool
import os
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass
from multiprocessing.pool import AsyncResult
from pathlib import Path

from actparse import registry
from actparse.errors import ActparseError, OptionError
from actparse.io.grouping import Group, Row, group_units, row_spec
from actparse.io.labelling import (
    BATCH_SIZE,
    Item,
    Outcome,
    _init_pool_worker,
    _init_worker,
    _label_batch,
    _label_task,
    encode_line,
    pool_signals_held,
)
from actparse.io.memory import freed_memory_release
from actparse.io.output import open_sink
from actparse.io.records import InputError, parse_json_line
from actparse.io.sources import open_source

__all__ = [
    "Item",
    "Outcome",
    "Summary",
    "WorkerDied",
    "encode_line",
    "iter_items",
    "label_items",
    "label_path",
    "usable_cpus",
]

#: Records per task sent to a worker process (labelled BATCH_SIZE at a time): enough to
#: make the parent's share of the work (sending, receiving, waking up) small. An input of
#: one task or less is labelled in the parent, without workers.
TASK_SIZE = 256
#: Tasks in flight per worker: one being labelled, one waiting.
IN_FLIGHT = 2


def iter_items(path: str | Path, fmt: str = "auto") -> Iterator[Item]:
    """The input records of a file (``-``: standard input), as items.

    JSON lines stay unparsed text. What the reader could not read comes as an item with
    an ``error``, in its place. The rows of a turn table come as one item per dialogue
    (:mod:`actparse.io.grouping`): its record, or, where its rows make none, the rows
    as a list with the ``error`` saying why.
    """
    with open_source(path, fmt) as source:
        items = (
            Item(source.name, piece.line, source.format, piece.text, piece.raw, piece.error)
            for piece in source.pieces
        )
        yield from (items if row_spec(source.format) is None else _grouped_items(items))


def _grouped_items(items: Iterable[Item]) -> Iterator[Item]:
    for unit in group_units(items, _item_row):
        if isinstance(unit, Group):
            raw = unit.rows if unit.raw is None else unit.raw
            yield Item(unit.source, unit.line, unit.format, raw=raw, error=unit.error)
        else:
            yield unit


def _item_row(item: Item) -> Row | None:
    """An item as a row of a turn table (``None``: not a row, or a line not JSON).

    A row the reader found wrong but could read (``raw`` a dict) is a row still, with
    its error: it belongs to its dialogue, which it spoils whole."""
    if row_spec(item.format) is None:
        return None
    if item.error is not None:
        if isinstance(item.raw, dict):
            return Row(item.source, item.line, item.format, item.raw, item.error)
        return None
    raw = item.raw
    if item.text is not None:
        try:
            raw = parse_json_line(item.text, item.source, item.line)
        except InputError:
            return None  # labelled in its place: an error record, as any such line
    return Row(item.source, item.line, item.format, raw) if isinstance(raw, dict) else None


def usable_cpus() -> int:
    """The CPUs this process may run on, the default number of workers.

    A container or ``taskset`` may allow fewer than the machine has.
    """
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


class WorkerDied(ActparseError, RuntimeError):
    """A worker process ended while labelling (killed by the system, out of memory).

    Its records cannot be accounted for, so the run stops rather than wait or lose them.
    The environment's fault, not the input's: ``--jobs 1`` labels without workers.
    """


def label_items(
    items: Iterable[Item],
    *,
    jobs: int = 1,
    on_error: str = "stop",
    overrides: Mapping[str, registry.Parser] | None = None,
    coarse: bool = False,
) -> Generator[Outcome, None, None]:
    """Label items in input order, in this process or in ``jobs`` worker processes.

    Workers start only for an input of more than one task (:data:`TASK_SIZE` records);
    the output is the same either way. ``coarse``: see
    :func:`~actparse.io.writers.write_record`.
    """
    if on_error not in ("stop", "keep"):
        raise OptionError(f"on_error must be 'stop' or 'keep', got {on_error!r}")
    _init_worker(overrides or {}, coarse)
    for parser in (overrides or {}).values():
        # What a parser loads on first use (quantulum3: seconds) is loaded now, once for
        # every worker, rather than inside the deadline of the first record that needs it.
        prepare = getattr(parser, "prepare", None)
        if prepare is not None:
            prepare()
    items_iter = iter(items)
    if jobs <= 1:
        yield from _in_process(items_iter, on_error)
        return
    tasks = iter(lambda: list(itertools.islice(items_iter, TASK_SIZE)), [])
    # One task goes to one worker, so an input of one task gains no speed from a pool,
    # only the pool's start and stop: it is labelled here instead, as with jobs=1.
    first = list(itertools.islice(tasks, 2))
    if len(first) < 2:
        yield from _in_process(itertools.chain.from_iterable(first), on_error)
        return
    yield from _in_pool(itertools.chain(first, tasks), jobs, on_error, overrides or {}, coarse)


def _in_process(items: Iterator[Item], on_error: str) -> Iterator[Outcome]:
    """Label items in this process, :data:`BATCH_SIZE` at a time."""
    for batch in iter(lambda: list(itertools.islice(items, BATCH_SIZE)), []):
        yield from _completed(batch, _label_batch(batch, on_error))


def _in_pool(
    tasks: Iterator[list[Item]],
    jobs: int,
    on_error: str,
    overrides: Mapping[str, registry.Parser],
    coarse: bool,
) -> Iterator[Outcome]:
    """Label tasks in ``jobs`` worker processes, ``jobs * IN_FLIGHT`` tasks in flight."""
    # fork keeps the already loaded rules and lexicons: workers need no warm-up.
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    release_freed_memory = freed_memory_release()
    with pool_signals_held():
        pool = context.Pool(jobs, initializer=_init_pool_worker, initargs=(overrides, coarse))
    # The pool replaces a worker that died, but the task it held is lost and its result
    # never comes: the workers started here are watched while the parent waits.
    workers = list(getattr(pool, "_pool", ()))
    with _ended(pool):
        window: deque[tuple[list[Item], AsyncResult[list[Outcome]]]] = deque()
        for task in tasks:
            window.append((task, pool.apply_async(_label_task, (task, on_error))))
            if len(window) >= jobs * IN_FLIGHT:
                done, result = window.popleft()
                yield from _completed(done, _get(result, workers, done))
                release_freed_memory()
        while window:
            done, result = window.popleft()
            yield from _completed(done, _get(result, workers, done))


#: How often the parent wakes while it waits for a worker (seconds).
WAKE_SECONDS = 0.25


def _get(
    result: AsyncResult[list[Outcome]],
    workers: Sequence[multiprocessing.process.BaseProcess] = (),
    task: Sequence[Item] = (),
) -> list[Outcome]:
    """A task's outcomes, waited for in slices.

    A signal sent to this process may be taken by one of the pool's threads; Python
    runs its handler only in the main thread, and only once that thread wakes. A wait
    without a timeout would not wake when the workers died of the same signal. Each
    wake also looks at the ``workers``: one that ended while the run goes on took its
    task with it, which raises :class:`WorkerDied` naming the records of ``task``.
    """
    while not result.ready():
        result.wait(WAKE_SECONDS)
        dead = next((w for w in workers if w.exitcode is not None), None)
        if dead is not None and not result.ready():
            code = dead.exitcode or 0
            how = f"was killed by signal {-code}" if code < 0 else f"exited with status {code}"
            where = f"{task[0].source}:{task[0].line}" if task else "the input"
            raise WorkerDied(
                f"a worker process {how} (out of memory?) while the records from {where} "
                "on were being labelled, so the run stopped; --jobs 1 labels without "
                "worker processes"
            )
    return result.get()


#: How long an interrupted run waits for its worker processes to be ended.
POOL_STOP_SECONDS = 3.0


@contextmanager
def _ended(pool: multiprocessing.pool.Pool) -> Iterator[None]:
    """End a pool's workers when the block is left, as ``with Pool`` does.

    It does so without ever holding up an interrupted run.

    ``Pool.terminate`` first takes the lock a worker holds while it waits for a task. A
    signal sent to the whole process group (``kill -TERM -PGID``, ``timeout``) ends the
    workers as well as the parent, and a worker ended while holding that lock leaves
    ``terminate`` waiting for ever. So when the block is left by an exception (a signal,
    a write error, a consumer that stopped), ``terminate`` gets a few seconds in a thread
    and the run goes on to its own cleanup; workers still alive at exit are ended by
    multiprocessing's exit handler.
    """
    try:
        yield
    except BaseException:
        stopper = threading.Thread(target=pool.terminate, name="pool-stop", daemon=True)
        stopper.start()
        stopper.join(POOL_STOP_SECONDS)
        raise
    # A run that ended well lets its idle workers end by themselves: ``terminate`` signals
    # them, and a worker still starting up (on a loaded machine) can lose that signal in
    # the moment after its fork, leaving ``terminate`` waiting for it for ever.
    pool.close()
    pool.join()


def _completed(batch: list[Item], outcomes: list[Outcome]) -> Iterator[Outcome]:
    return (outcome.complete(item) for item, outcome in zip(batch, outcomes))


@dataclass
class Summary:
    """What :func:`label_path` did: records written, and what the user should know."""

    records: int = 0
    #: Rows written for the dialogues of turn tables (one per input row; 0: none such).
    rows: int = 0
    #: Of :attr:`rows`, those written back with an ``actparse_error``.
    error_rows: int = 0
    #: Dialogues the corpus' skip rule left unparsed (Cocoa's length rule).
    skipped: int = 0
    #: Non-message turns whose action the input lost (they get no act).
    unknown_actions: int = 0
    #: Records that could not be labelled (written unchanged, ``on_error="keep"``).
    errors: int = 0
    #: Of :attr:`records`, those that are one side's view of a dialogue (a corpus that
    #: lists each dialogue once from each side): they count records, not dialogues.
    sides: int = 0


def label_path(
    path: str | Path,
    output: str | Path | None = None,
    *,
    fmt: str = "auto",
    jobs: int = 1,
    on_error: str = "stop",
    overrides: Mapping[str, registry.Parser] | None = None,
    progress: Callable[[], object] | None = None,
    coarse: bool = False,
) -> Summary:
    """Label every record of ``path`` into ``output``, one output record per input record.

    ``output`` is JSON lines, ``.gz``, or ``.parquet`` (``None`` or ``"-"``: standard
    output; a ``.csv`` name is refused: the per-turn table is the CSV output); the
    records are written in input order, and ``progress`` is called once per line
    written. A turn table's dialogue is written as its rows, one line each.
    ``coarse`` adds the coarse acts beside the native intents where a
    format's output leaves them out (Craigslist); the output's schema is then inferred,
    not the input's.

    A file is written under a temporary name and renamed when complete, so a failed run
    leaves nothing that looks whole.
    """
    summary = Summary()
    items = iter_items(path, fmt)
    with (
        open_sink(output, path, keep_errors=on_error == "keep", keep_schema=not coarse) as sink,
        # closing: an error or a signal while writing ends the worker processes at once
        closing(
            label_items(items, jobs=jobs, on_error=on_error, overrides=overrides, coarse=coarse)
        ) as outcomes,
    ):
        for outcome in outcomes:
            sink.write(outcome.line)
            sink.write("\n")
            summary.records += 1
            summary.rows += outcome.rows
            summary.skipped += outcome.skipped
            summary.unknown_actions += outcome.unknown_actions
            summary.errors += outcome.error is not None
            summary.sides += outcome.side
            summary.error_rows += outcome.rows if outcome.error is not None else 0
            if progress is not None:
                # Once per output line: the bar's length is the input's lines.
                for _line in range(max(outcome.rows, 1)):
                    progress()
    # A Parquet sink writes a record Arrow cannot hold (a lone surrogate) as an error.
    summary.errors += getattr(sink, "unwritable", 0)
    return summary
