"""Labelling one record, a batch at a time, in this process or in a worker process.

What :mod:`actparse.io.batch` hands a batch or a worker's task to: the items and outcomes
that cross to worker processes and back, reading and labelling an item within its
deadline, and a worker's set-up. The functions a pool is given stay at module level, so
that they pickle.
"""

from __future__ import annotations

import ctypes
import json
import multiprocessing
import os
import re
import signal
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple

from actparse import registry
from actparse.engine.pipeline import pipeline, pipelines
from actparse.io import deadline
from actparse.io.arrow_values import to_json
from actparse.io.bounds import nesting_problem
from actparse.io.grouping import row_spec
from actparse.io.memory import fewer_collections
from actparse.io.messages import describe
from actparse.io.records import InputError, Record, parse_json_line
from actparse.io.spans import Edit, ObjectText, apply_edits, json_object, set_fields
from actparse.io.writers import write_record
from actparse.models import SKIPPED, UNKNOWN_ACTION, Act, Dialogue

__all__ = ["BATCH_SIZE", "Item", "Outcome", "encode_line", "encode_rows"]

#: Records labelled together, one step at a time (read all, parse all, write all): few
#: enough that each step's data stays in the CPU caches.
BATCH_SIZE = 64

# One encoder for every output line: json.dumps with options builds a new one per call.
# Records read from JSON or Parquet cannot be circular, so that check is skipped.
# A value JSON has no type for (a Parquet timestamp, bytes, a decimal) is written by the
# rules of actparse.io.arrow_values.
_encode_json = json.JSONEncoder(ensure_ascii=False, check_circular=False, default=to_json).encode
_SURROGATE = re.compile("[\ud800-\udfff]")


def encode_line(value: Any) -> str:
    """One output line.

    A lone surrogate (a ``"\\ud800"`` escape in the input) has no UTF-8 form, so it is
    written as the same JSON escape, which reads back as the same string; everything
    else is written as itself.
    """
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
    #: For a dialogue of a turn table: its rows, each one line of ``line`` (0: a record).
    rows: int = 0
    #: Whether the record is one side's view of a dialogue, its corpus listing each
    #: dialogue once from each side (``Corpus.view_key``).
    side: bool = False

    def complete(self, item: Item) -> Outcome:
        """The outcome with its whole output line, given the item it came from."""
        if self.edits is None or item.text is None:
            return self
        line = apply_edits(item.text, self.edits)
        return self._replace(line=line, edits=None)


def _read(item: Item) -> tuple[Record, tuple[str, ...], ObjectText | None]:
    """The record of an item, and for some JSON lines where its acts fields are.

    For a JSON line whose format writes its acts into a few fields
    (``Format.acts_field``): those fields and where everything is in the line.
    """
    if item.error is not None:
        raise InputError(item.error)
    if item.text is None:
        return Record(item.raw, item.format, item.source, item.line), (), None
    fields = registry.handlers(item.format).spliced_fields
    found = json_object(item.text) if fields else None
    if found is None:
        raw = parse_json_line(item.text, item.source, item.line)
        return Record(raw, item.format, item.source, item.line), (), None
    problem = nesting_problem(found.fields, item.text)
    if problem is not None:
        raise InputError(f"{item.source}:{item.line}: {problem}")
    return Record(found.fields, item.format, item.source, item.line), fields, found


def encode_rows(rows: Sequence[Any]) -> str:
    """A turn table's dialogue as output lines, one per row (joined by newlines).

    JSON escapes every line break inside a value, so each row stays one line."""
    return "\n".join(encode_line(row) for row in rows)


def _outcome(
    record: Record,
    fields: tuple[str, ...],
    found: ObjectText | None,
    out: dict[str, Any] | list[dict[str, Any]],
    acts: Sequence[Act],
) -> Outcome:
    # Only the acts fields of such a line change, so the rest of the line is kept as it
    # was: encoding the whole record again would cost more than deciding its acts.
    skipped = bool(acts) and acts[0].note == SKIPPED
    unknown = sum(a.note == UNKNOWN_ACTION for a in acts)
    side = registry.get(record.corpus).view_key is not None
    if isinstance(out, list):  # a turn table's writer: one labelled row per input row
        return Outcome(encode_rows(out), skipped, unknown, rows=len(out), side=side)
    if found is None:
        return Outcome(encode_line(out), skipped, unknown, side=side)
    values = {name: encode_line(out[name]) for name in fields if name in out}
    return Outcome("", skipped, unknown, edits=set_fields(found, values), side=side)


def _label(item: Item, on_error: str, clock: deadline.Clock) -> Outcome:
    """Label one item within the record deadline.

    Errors (a timeout too) become ``actparse_error`` records or raise, by ``on_error``.
    """
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
            outcome = _outcome(record, fields, found, out, acts)
        finally:
            clock.stop()
        return outcome
    except (Exception, deadline.RecordTimeout) as exc:
        message = str(exc) if str(exc).startswith(item.source) else f"{where}: {describe(exc)}"
        if on_error == "stop":
            if isinstance(exc, deadline.RecordTimeout):
                raise deadline.RecordTimedOut(message) from None
            raise InputError(message) from None
        return _kept(item, raw, message)


def _kept(item: Item, raw: Any, message: str) -> Outcome:
    """The output of an item that could not be labelled: its input with the error.

    A turn table's dialogue is written back as its rows (those it was grouped from, or
    when they made no dialogue those read), each with the error: nothing is lost."""
    spec = row_spec(item.format) if isinstance(raw, dict | list) else None
    try:
        if spec is not None:
            rows = raw if isinstance(raw, list) else spec.rows_of(raw)
            kept_rows = [{**row, "actparse_error": message} for row in rows]
            return Outcome(encode_rows(kept_rows), error=message, rows=len(kept_rows))
        if isinstance(raw, dict):
            return Outcome(encode_line({**raw, "actparse_error": message}), error=message)
    except (ValueError, TypeError, RecursionError, InputError) as err:  # JSON cannot hold it
        message = f"{message}; it cannot be written back as JSON: {describe(err)}"
    kept = {"actparse_error": message, "actparse_input": item.text}
    return Outcome(encode_line(kept), error=message)


# Per-process parser overrides (e.g. another price lexicon), set before labelling, and
# whether writers add the coarse acts where their format leaves them out.
_parsers: dict[str, registry.Parser] = {}
_coarse = [False]


def _init_worker(overrides: Mapping[str, registry.Parser], coarse: bool = False) -> None:
    _parsers.clear()
    _parsers.update(pipelines(overrides))
    _coarse[0] = coarse


#: The signals a worker handles otherwise than the parent (:func:`_init_pool_worker`).
_WORKER_SIGNALS = frozenset(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


@contextmanager
def pool_signals_held() -> Iterator[None]:
    """Block the signals a worker resets while a pool forks its workers.

    A forked worker runs the parent's handlers until its initializer replaces them; a
    SIGTERM in between (the pool ended at once, the input failing to open) would unwind
    the worker as the parent unwinds, printing a traceback. Blocked, it waits for the
    worker's own handlers. The pool's threads, started here, keep the signals blocked,
    so a worker they fork later to replace one is held the same way, and signals go to
    the main thread, where Python runs its handlers anyway."""
    if not hasattr(signal, "pthread_sigmask"):  # not POSIX: workers are spawned
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _WORKER_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


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
    # The pool forked this worker with these signals blocked (:func:`pool_signals_held`):
    # one sent before now waited, and now meets the plain handlers set above.
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _WORKER_SIGNALS)
    _end_with_parent()
    _init_worker(overrides, coarse)


#: Linux's prctl option that sends a signal to a process when its parent ends.
_PR_SET_PDEATHSIG = 1


def _end_with_parent() -> None:
    """On Linux, make a worker end when the main process does.

    It ends even when nothing could clean up (the main process killed with SIGKILL): no
    worker is left waiting for ever.
    """
    if not sys.platform.startswith("linux"):
        return
    parent = multiprocessing.parent_process()
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # pragma: no cover - a libc without prctl
        return
    if parent is not None and os.getppid() != parent.pid:
        os._exit(1)  # the parent ended before the request was made


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
                    _outcome(record, fields, found, _write(record, d, a), a)
                    for (record, fields, found), d, a in zip(read, dialogues, acts)
                ]
            except (Exception, deadline.RecordTimeout):
                pass
        return [_label(item, on_error, clock) for item in batch]


def _write(
    record: Record, dialogue: Dialogue, acts: list[Act]
) -> dict[str, Any] | list[dict[str, Any]]:
    return write_record(record.raw, record.format, dialogue, acts, coarse=_coarse[0])
