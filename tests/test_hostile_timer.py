"""Issue 28, the deadline's own timer: it never raises outside the timing of a record.

After a :class:`RecordTimeout` (and after :meth:`Clock.stop`) nothing is timed, the limit is
infinite, and the next firing set the timer with ``setitimer(inf)``: an ``OverflowError``
out of whatever the program was doing (encoding a large error record), a traceback and
the run lost. A firing with nothing timed now only sets the timer again.
"""

from __future__ import annotations

import math
import signal
import time

import pytest

from actparse.io import deadline
from actparse.io.deadline import RecordTimeout, clock

pytestmark = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs setitimer")


def _spin(seconds: float) -> None:
    """Busy Python code for ``seconds`` (signals are handled between bytecodes)."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


def test_a_firing_after_a_timeout_with_nothing_timed_raises_nothing() -> None:
    """The reported case, deterministically: the handler itself, called after a timeout."""
    with clock(0.05) as timer:
        timer.start(0.0)
        with pytest.raises(RecordTimeout):
            timer._on_alarm(signal.SIGALRM, None)
        timer._on_alarm(signal.SIGALRM, None)  # was: OverflowError from setitimer(inf)
        assert 0 < signal.getitimer(signal.ITIMER_REAL)[0] <= 0.05


def test_a_firing_after_stop_raises_nothing() -> None:
    with clock(0.05) as timer:
        timer.start(10.0)
        timer.stop()
        timer._on_alarm(signal.SIGALRM, None)
        assert 0 < signal.getitimer(signal.ITIMER_REAL)[0] <= 0.05


@pytest.mark.parametrize("limit", [1e300, math.inf, math.nan], ids=["1e300", "inf", "nan"])
def test_a_limit_past_what_the_system_takes_raises_nothing(limit: float) -> None:
    with clock(0.05) as timer:
        timer.start(limit)
        timer._on_alarm(signal.SIGALRM, None)
        assert 0 < signal.getitimer(signal.ITIMER_REAL)[0] <= 0.05


def test_a_real_timer_keeps_firing_harmlessly_after_a_timeout() -> None:
    """The real timer: a record times out, then the program works on, untimed, while the
    timer fires again several times (each set with ``setitimer(inf)`` before)."""
    fired = 0
    with clock(0.02) as timer:
        handler = signal.getsignal(signal.SIGALRM)

        def counting(signum: int, frame: object) -> None:
            nonlocal fired
            fired += 1
            handler(signum, frame)  # type: ignore[operator]

        signal.signal(signal.SIGALRM, counting)
        timer.start(0.01)
        with pytest.raises(RecordTimeout):
            _spin(5.0)
        _spin(0.3)  # untimed work: say, encoding a large error record
    assert fired >= 5


def test_a_zero_first_limit_still_sets_the_timer() -> None:
    with clock(0.0) as timer:
        assert timer.armed
        assert signal.getitimer(signal.ITIMER_REAL)[0] > 0


def test_the_timer_is_off_after_the_window() -> None:
    with clock(0.05):
        pass
    assert signal.getitimer(signal.ITIMER_REAL)[0] == 0
    assert deadline.RECORD_DEADLINE > 0
