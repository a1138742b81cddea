"""Issue 28, signals: a signal that lands in a finalizer still ends the run.

The handler raises :class:`_Signalled`; when the signal lands while a finalizer runs
(regex's ``Group.__del__``, called by the cyclic garbage collector), Python swallows the
exception ("Exception ignored in ...") and the run went on to exit 0, while the handler,
marked as fired, ignored every later signal. Now the swallowed raise is taken back
(``sys.unraisablehook``), the handler is not left marked, and the signal is delivered
again outside the finalizer: the run ends with 128 + the signal number, printing nothing.
"""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest
import typer

from actparse.cli_run import run

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGTERM"), reason="needs POSIX signals")


class _Cycle:
    """Garbage only the cyclic collector frees: its ``__del__`` receives ``signum``."""

    def __init__(self, signum: int) -> None:
        self.me = self
        self.signum = signum

    def __del__(self) -> None:
        signal.raise_signal(self.signum)
        total = 0
        for n in range(1000):  # bytecodes, between which the handler runs
            total += n


def _collect_with_a_signal(signum: int) -> None:
    _Cycle(signum)
    gc.collect()
    end = time.monotonic() + 10
    while time.monotonic() < end:  # the work goes on: the signal must end it here
        pass


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_a_signal_during_a_garbage_collection_ends_the_run(
    signum: int, capfd: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(typer.Exit) as ended, run():
        _collect_with_a_signal(signum)
        pytest.fail("the run went on after the signal")
    assert ended.value.exit_code == 128 + signum
    assert capfd.readouterr().err == ""  # no "Exception ignored in ..."


def test_a_signal_after_a_swallowed_one_is_not_ignored() -> None:
    """The swallowed raise must not leave the handler marked as fired (it did: every later
    signal was ignored too); here the next signal lands in plain code, at once."""
    with pytest.raises(typer.Exit) as ended, run():
        _Cycle(signal.SIGTERM)
        gc.collect()
        signal.raise_signal(signal.SIGHUP)
        pytest.fail("the run went on after the signals")
    assert ended.value.exit_code == 128 + signal.SIGHUP


def test_a_signal_swallowed_just_before_the_end_still_ends_the_run() -> None:
    """The work ends before the signal is delivered again: the run's end raises it."""
    with pytest.raises(typer.Exit) as ended, run():
        _Cycle(signal.SIGTERM)
        gc.collect()
    assert ended.value.exit_code == 128 + signal.SIGTERM


def test_the_hooks_are_put_back_after_the_run() -> None:
    hook = sys.unraisablehook
    handler = signal.getsignal(signal.SIGTERM)
    with run():
        pass
    assert sys.unraisablehook is hook
    assert signal.getsignal(signal.SIGTERM) is handler


def test_other_unraisable_exceptions_still_reach_the_hook(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[BaseException | None] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda unraisable: seen.append(unraisable.exc_value))

    class Broken:
        def __del__(self) -> None:
            raise RuntimeError("broken finalizer")

    with run():
        Broken()
    assert [type(e) for e in seen] == [RuntimeError]


def test_a_process_signalled_during_a_collection_exits_143_quietly() -> None:
    """The whole path in a fresh process, as the command runs it."""
    script = textwrap.dedent(
        """
        import gc, signal, sys, typer
        from actparse.cli_run import run

        class Cycle:
            def __init__(self):
                self.me = self
            def __del__(self):
                signal.raise_signal(signal.SIGTERM)
                for _ in range(1000):
                    pass

        try:
            with run():
                Cycle()
                gc.collect()
                for _ in range(100_000):
                    pass
        except typer.Exit as ended:
            sys.exit(ended.exit_code)
        print("went on")
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert (done.returncode, done.stdout, done.stderr) == (143, "", "")
