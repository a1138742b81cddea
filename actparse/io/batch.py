"""Batch labelling for real workloads: streaming, parallel, and nothing lost on bad input.

JSON lines are streamed, a small batch at a time, so memory does not grow with the
input; a JSON list (Cocoa transcripts, CaSiNo) is loaded whole. A batch is labelled one
step at a time over all its records (read, tokenize, decide, write), which keeps each
step's code and data warm in the CPU caches. With ``jobs > 1`` records go to worker
processes in tasks of a few batches, two tasks in flight per worker, and come back in
input order. Workers parse the JSON text themselves and, for a JSON line whose format keeps its
acts in one field (the Craigslist HF export's ``dialogue_acts``, with actparse's own
``actparse`` beside it), send back only the new fields, which the main process splices
into the line it kept.

With ``on_error="keep"`` every input record reaches the output: a record that cannot be
labelled is written unchanged with an ``actparse_error`` field naming the file, the line
and the problem, and what the reader could not make a record of (a line that is not
JSON or not UTF-8, an element of a JSON list that is not an object, the end of a
truncated ``.gz``: see :mod:`actparse.io.sources`) is one such record with the text it
read there under ``actparse_input``. With ``on_error="stop"`` the first problem raises
:class:`~actparse.io.records.InputError`.
"""

from __future__ import annotations

import ctypes
import itertools
import json
import multiprocessing
import multiprocessing.pool
import os
import re
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass
from multiprocessing.pool import AsyncResult
from pathlib import Path
from typing import Any, NamedTuple

from actparse import registry
from actparse.engine.pipeline import pipeline, pipelines
from actparse.errors import ActparseError, OptionError
from actparse.io import deadline
from actparse.io.memory import fewer_collections, freed_memory_release
from actparse.io.messages import describe
from actparse.io.output import open_sink
from actparse.io.parquet import is_parquet, iter_parquet_rows
from actparse.io.records import InputError, Record, parse_json_line
from actparse.io.sources import open_source
from actparse.io.spans import Edit, ObjectText, apply_edits, json_object, set_fields
from actparse.io.writers import write_record
from actparse.models import SKIPPED, UNKNOWN_ACTION, Act, Dialogue

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

#: Records labelled together, one step at a time (read all, parse all, write all): few
#: enough that each step's data stays in the CPU caches.
BATCH_SIZE = 64
#: Records per task sent to a worker process (labelled BATCH_SIZE at a time): enough to
#: make the parent's share of the work (sending, receiving, waking up) small.
TASK_SIZE = 256
#: Tasks in flight per worker: one being labelled, one waiting.
IN_FLIGHT = 2

# One encoder for every output line: json.dumps with options builds a new one per call.
# Records read from JSON or Parquet cannot be circular, so that check is skipped.
_encode_json = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode
_SURROGATE = re.compile("[\ud800-\udfff]")


def encode_line(value: Any) -> str:
    """One output line. A lone surrogate (a ``"\\ud800"`` escape in the input) has no
    UTF-8 form, so it is written as the same JSON escape, which reads back as the same
    string; everything else is written as itself."""
    text = _encode_json(value)
    if text.isascii() or _SURROGATE.search(text) is None:
        return text
    return _SURROGATE.sub(lambda found: f"\\u{ord(found.group()):04x}", text)


# Items and outcomes are named tuples: they cross to worker processes and back, and
# pickle moves a tuple several times faster than a slotted dataclass.


class Item(NamedTuple):
    """One input record on its way to a parser: its JSON text, or its parsed value."""

    source: str
    line: int
    format: str
    text: str | None = None
    raw: Any = None
    #: Why the reader could not make a record of it (``text``: what it read there).
    error: str | None = None


class Outcome(NamedTuple):
    """One output record, serialized, with what the summary counts.

    When ``edits`` is set, ``line`` is empty: the output line is the input line with
    those edits (the new acts fields, :meth:`complete`), so a worker does not send back
    the input the parent process already has. :func:`label_items` yields complete outcomes.
    """

    line: str
    skipped: bool = False
    unknown_actions: int = 0
    error: str | None = None
    edits: tuple[Edit, ...] | None = None

    def complete(self, item: Item) -> Outcome:
        """The outcome with its whole output line, given the item it came from."""
        if self.edits is None or item.text is None:
            return self
        line = apply_edits(item.text, self.edits)
        return Outcome(line, self.skipped, self.unknown_actions, self.error)


def iter_items(path: str | Path, fmt: str = "auto") -> Iterator[Item]:
    """The input records of a file (``-``: standard input), as items; JSON lines stay
    unparsed text. What the reader could not read comes as an item with an ``error``,
    in its place."""
    if is_parquet(path):
        for number, row_format, row in iter_parquet_rows(path):
            yield Item(str(path), number, row_format if fmt == "auto" else fmt, raw=row)
        return
    with open_source(path, fmt) as source:
        for piece in source.pieces:
            yield Item(source.name, piece.line, source.format, piece.text, piece.raw, piece.error)


def _read(item: Item) -> tuple[Record, tuple[str, ...], ObjectText | None]:
    """The record of an item and, for a JSON line whose format writes its acts into a few
    fields (``Format.acts_field``), those fields and where everything is in the line."""
    if item.error is not None:
        raise InputError(item.error)
    if item.text is None:
        return Record(item.raw, item.format, item.source, item.line), (), None
    fields = registry.handlers(item.format).spliced_fields
    found = json_object(item.text) if fields else None
    if found is None:
        raw = parse_json_line(item.text, item.source, item.line)
        return Record(raw, item.format, item.source, item.line), (), None
    return Record(found.fields, item.format, item.source, item.line), fields, found


def _outcome(
    fields: tuple[str, ...], found: ObjectText | None, out: dict[str, Any], acts: Sequence[Act]
) -> Outcome:
    # Only the acts fields of such a line change, so the rest of the line is kept as it
    # was: encoding the whole record again would cost more than deciding its acts.
    skipped = bool(acts) and acts[0].note == SKIPPED
    unknown = sum(a.note == UNKNOWN_ACTION for a in acts)
    if found is None:
        return Outcome(encode_line(out), skipped, unknown)
    values = {name: encode_line(out[name]) for name in fields if name in out}
    return Outcome("", skipped, unknown, edits=set_fields(found, values))


def _label(item: Item, on_error: str, clock: deadline.Clock) -> Outcome:
    """Label one item within the record deadline; errors (a timeout too) become
    ``actparse_error`` records or raise, by ``on_error``."""
    where = f"{item.source}:{item.line}"
    raw: Any = item.raw
    try:
        clock.start(deadline.RECORD_DEADLINE)
        try:
            record, fields, found = _read(item)
            raw = record.raw
            dialogue = record.dialogue()
            acts = _parser_for(record.corpus).parse(dialogue)
            out = _write(record, dialogue, acts)
            outcome = _outcome(fields, found, out, acts)
        finally:
            clock.stop()
        return outcome
    except (Exception, deadline.RecordTimeout) as exc:
        message = str(exc) if str(exc).startswith(item.source) else f"{where}: {describe(exc)}"
        if on_error == "stop":
            if isinstance(exc, deadline.RecordTimeout):
                raise deadline.RecordTimedOut(message) from None
            raise InputError(message) from None
        if isinstance(raw, dict):
            kept = {**raw, "actparse_error": message}
        else:
            kept = {"actparse_error": message, "actparse_input": item.text}
        return Outcome(encode_line(kept), error=message)


# Per-process parser overrides (e.g. another price lexicon), set before labelling, and
# whether writers add the coarse acts where their format leaves them out.
_parsers: dict[str, registry.Parser] = {}
_coarse = [False]


def usable_cpus() -> int:
    """The CPUs this process may run on, the default number of workers (a container or
    ``taskset`` may allow fewer than the machine has)."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


def _init_worker(overrides: Mapping[str, registry.Parser], coarse: bool = False) -> None:
    _parsers.clear()
    _parsers.update(pipelines(overrides))
    _coarse[0] = coarse


def _init_pool_worker(overrides: Mapping[str, registry.Parser], coarse: bool = False) -> None:
    """A worker process: its parsers, and the signals of a plain process.

    A worker is forked from a parent that may have turned SIGTERM and SIGHUP into an
    exception to clean up on: the parent does the cleanup and ends the workers, so in a
    worker those signals just end it. Ctrl-C reaches every process of the terminal's
    group; the parent alone handles it, so no worker prints a traceback.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        # A signal ignored from the start (nohup) stays ignored here too.
        if sig is not None and callable(signal.getsignal(sig)):
            signal.signal(sig, signal.SIG_DFL)
    _end_with_parent()
    _init_worker(overrides, coarse)


#: Linux's prctl option that sends a signal to a process when its parent ends.
_PR_SET_PDEATHSIG = 1


def _end_with_parent() -> None:
    """On Linux, a worker ends when the main process does, even when nothing could clean
    up (the main process killed with SIGKILL): no worker is left waiting for ever."""
    if not sys.platform.startswith("linux"):
        return
    parent = multiprocessing.parent_process()
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # pragma: no cover - a libc without prctl
        return
    if parent is not None and os.getppid() != parent.pid:
        os._exit(1)  # the parent ended before the request was made


class WorkerDied(ActparseError, RuntimeError):
    """A worker process ended while labelling (killed by the system, out of memory): its
    records cannot be accounted for, so the run stops rather than wait or lose them.
    The environment's fault, not the input's: ``--jobs 1`` labels without workers."""


def _parser_for(corpus: str) -> registry.Parser:
    """The pipeline of a corpus in this labelling run: an override, else the shipped one."""
    return _parsers.get(corpus) or pipeline(corpus)


def _label_task(task: list[Item], on_error: str) -> list[Outcome]:
    """Label a worker's task, :data:`BATCH_SIZE` records at a time."""
    outcomes: list[Outcome] = []
    for start in range(0, len(task), BATCH_SIZE):
        outcomes.extend(_label_batch(task[start : start + BATCH_SIZE], on_error))
    return outcomes


def _label_batch(batch: list[Item], on_error: str) -> list[Outcome]:
    """Label a batch (:func:`_label_batch_steps`) with fewer garbage collections."""
    with fewer_collections():
        return _label_batch_steps(batch, on_error)


def _label_batch_steps(batch: list[Item], on_error: str) -> list[Outcome]:
    """Label a batch step by step: read every record, then parse them all, then write.

    When every record of the batch is of one corpus whose parser labels batches
    (``parse_many``), the batch goes to it whole; otherwise records are labelled one by
    one. If any record of the batch fails, or the batch takes longer than
    :data:`~actparse.io.deadline.BATCH_DEADLINE`, the batch is labelled again record by
    record, so each problem is reported against its own record and the good records are
    unaffected. Each record labelled alone has :data:`~actparse.io.deadline.RECORD_DEADLINE`.
    """
    corpora = {registry.handlers(item.format).corpus for item in batch}
    parser = _parser_for(corpora.pop()) if len(corpora) == 1 else None
    parse_many = getattr(parser, "parse_many", None)
    first = deadline.RECORD_DEADLINE if parse_many is None else deadline.BATCH_DEADLINE
    with deadline.clock(min(first, deadline.RECORD_DEADLINE)) as clock:
        if parse_many is not None:
            try:
                clock.start(deadline.BATCH_DEADLINE)
                try:
                    read = [_read(item) for item in batch]
                    dialogues = [record.dialogue() for record, _fields, _found in read]
                    acts: list[list[Act]] = parse_many(dialogues)
                finally:
                    clock.stop()
                return [
                    _outcome(fields, found, _write(record, d, a), a)
                    for (record, fields, found), d, a in zip(read, dialogues, acts)
                ]
            except (Exception, deadline.RecordTimeout):
                pass
        return [_label(item, on_error, clock) for item in batch]


def _write(record: Record, dialogue: Dialogue, acts: list[Act]) -> dict[str, Any]:
    return write_record(record.raw, record.format, dialogue, acts, coarse=_coarse[0])


def label_items(
    items: Iterable[Item],
    *,
    jobs: int = 1,
    on_error: str = "stop",
    overrides: Mapping[str, registry.Parser] | None = None,
    coarse: bool = False,
) -> Generator[Outcome, None, None]:
    """Label items in input order, in this process or in ``jobs`` worker processes
    (``coarse``: see :func:`~actparse.io.writers.write_record`)."""
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
        for batch in iter(lambda: list(itertools.islice(items_iter, BATCH_SIZE)), []):
            yield from _completed(batch, _label_batch(batch, on_error))
        return
    tasks = iter(lambda: list(itertools.islice(items_iter, TASK_SIZE)), [])
    # fork keeps the already loaded rules and lexicons: workers need no warm-up.
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    release_freed_memory = freed_memory_release()
    pool = context.Pool(jobs, initializer=_init_pool_worker, initargs=(overrides or {}, coarse))
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
    """End a pool's workers when the block is left, as ``with Pool`` does, without ever
    holding up an interrupted run.

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
    #: Dialogues the corpus' skip rule left unparsed (Cocoa's length rule).
    skipped: int = 0
    #: Non-message turns whose action the input lost (they get no act).
    unknown_actions: int = 0
    #: Records that could not be labelled (written unchanged, ``on_error="keep"``).
    errors: int = 0


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
    """Label every record of ``path`` into ``output`` (JSON lines, ``.gz``, or
    ``.parquet``; ``None`` or ``"-"``: standard output), one output record per input
    record, in input order; ``progress`` is called once per record written. ``coarse``
    adds the coarse acts beside the native intents where a format's output leaves them
    out (Craigslist); the output's schema is then inferred, not the input's.

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
            summary.skipped += outcome.skipped
            summary.unknown_actions += outcome.unknown_actions
            summary.errors += outcome.error is not None
            if progress is not None:
                progress()
    # A Parquet sink writes a record Arrow cannot hold (a lone surrogate) as an error.
    summary.errors += getattr(sink, "unwritable", 0)
    return summary
