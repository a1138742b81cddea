"""A time limit on labelling one record, at no cost per record.

The guard (:mod:`actparse.engine.guard`) limits one pattern call; a record makes many
calls, and quantulum3 makes none the guard sees. A :class:`Clock` limits a record as a
whole: it arms one real-time interval timer (``signal.setitimer``) per batch of records,
and a record just notes when it starts (:meth:`Clock.start`, a time read), so the
system calls are paid per batch, not per record. When the timer fires, its handler
looks at the record in progress: past its limit, the record is interrupted with
:class:`RecordTimeout` (Python code and ``regex``/``re`` matching both check for
signals); within it, the timer is set again for the rest of that record's time.

Signals reach only the main thread of a process, and ``setitimer`` is POSIX: in another
thread, where it is missing (Windows), or while the caller has a real-time timer of its
own running (which a clock would cancel), a clock measures nothing and only the guard's
per-call limit applies.
"""

from __future__ import annotations

import contextlib
import math
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

from actparse.errors import InputError

__all__ = [
    "BATCH_DEADLINE",
    "RECORD_DEADLINE",
    "Clock",
    "RecordTimedOut",
    "RecordTimeout",
    "clock",
]

#: Seconds of labelling after which one record becomes an error record.
RECORD_DEADLINE = 10.0
#: Seconds a batch labelled together (``parse_many``) may take before its records are
#: labelled one at a time, each under :data:`RECORD_DEADLINE`. A batch of 64 records
#: takes milliseconds, so this is reached only when one of them is hostile, and it is
#: short so that such a record pays little more than its own deadline.
BATCH_DEADLINE = 1.0


class RecordTimeout(BaseException):
    """A record ran out of time: raised inside the parser by the clock's timer.

    A ``BaseException``, so that no ``except Exception`` in the code it interrupts can
    take it for an ordinary error and carry on; for the same reason it is no
    :class:`~actparse.errors.ActparseError` (the root is an ``Exception``). It never
    leaves the labelling of a batch: there it becomes an error record
    (``--on-error keep``) or a :class:`RecordTimedOut` (``stop``).
    """

    def __init__(self, limit: float) -> None:
        super().__init__(f"labelling took longer than {limit:g} s (the per-record deadline)")
        self.limit = limit


class RecordTimedOut(InputError):
    """A record took longer to label than :data:`RECORD_DEADLINE`.

    A hostile record, with ``on_error="stop"``: what a :class:`RecordTimeout` becomes for the
    caller. An :class:`~actparse.errors.InputError`, whose message names the file and the line."""


class Clock:
    """The time limit of the record being labelled (see the module's docstring)."""

    def __init__(self, armed: bool, period: float = RECORD_DEADLINE) -> None:
        #: Whether a timer backs this clock (else :meth:`start` limits nothing).
        self.armed = armed
        #: The shortest limit of the window: the timer never waits longer than this
        #: past the deadline of a record that starts when it is set.
        self._period = period
        self._started = 0.0
        self._limit = math.inf

    def start(self, limit: float) -> None:
        """Begin a record (or a batch) that may take ``limit`` seconds.

        A limit shorter than the first one of the clock's window is enforced only from
        the timer's next firing: the window arms the timer with the shortest limit.
        """
        self._started = time.perf_counter()
        self._limit = limit

    def stop(self) -> None:
        """Nothing is being labelled: the timer interrupts nothing until :meth:`start`."""
        self._limit = math.inf

    def _on_alarm(self, _signum: int, _frame: FrameType | None) -> None:
        """The timer fired: interrupt a record past its limit, else set the timer again.

        It raises nothing but :class:`RecordTimeout`, and that only while a record is
        timed: with nothing timed (after :meth:`stop` or a timeout) it just sets the timer
        for the records that follow.
        """
        if not self.armed:  # the window is closing: leave the timer off
            return
        remaining = self._limit - (time.perf_counter() - self._started)
        timed_out = remaining <= 0
        # Set the timer again: for the rest of the record's time when it has some left
        # (it started after the timer was set), else for the records that follow.
        _set_timer(self._period if timed_out else remaining, self._period)
        if timed_out:
            limit, self._limit = self._limit, math.inf
            raise RecordTimeout(limit)


#: The shortest time the timer is set for: ``setitimer`` counts in microseconds, and a
#: time that rounds to 0 would turn the timer off instead of setting it.
_SHORTEST = 0.001


def _set_timer(seconds: float, longest: float) -> None:
    """Set the timer for ``seconds``, within ``[_SHORTEST, longest]``, never raising.

    ``seconds`` is infinite when nothing is timed (``setitimer(inf)`` raises
    :class:`OverflowError`) and may be past what the system takes (a limit of 1e300): the
    timer then fires after ``longest`` and looks again, which costs one system call. The
    handler runs between any two bytecodes of the program, so an error here would come
    out of code that has nothing to do with timing.
    """
    wait = max(min(longest if math.isnan(seconds) else seconds, longest), _SHORTEST)
    # No timer when the system refuses one: the guard's limits per call still hold.
    with contextlib.suppress(OverflowError, ValueError, OSError):
        signal.setitimer(signal.ITIMER_REAL, wait)


_UNARMED = Clock(armed=False)

#: The longest time the timer is set for at once (a day): a longer limit is checked
#: again at each firing.
_LONGEST = 86_400.0


@contextmanager
def clock(first_limit: float) -> Iterator[Clock]:
    """A clock for a batch.

    The timer is armed on entry for ``first_limit`` seconds (the shortest limit the batch will
    :meth:`~Clock.start`) and disarmed on exit."""
    if (
        not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
        or signal.getitimer(signal.ITIMER_REAL)[0] > 0  # the caller's own timer is running
    ):
        yield _UNARMED
        return
    current = Clock(armed=True, period=min(first_limit, _LONGEST))
    previous: Any = signal.signal(signal.SIGALRM, current._on_alarm)
    try:
        _set_timer(first_limit, current._period)
        yield current
    finally:
        current.armed = False  # a signal already on its way must not set the timer again
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
