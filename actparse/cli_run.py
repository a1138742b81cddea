"""How every ``actparse`` command runs, reads standard input and shows a bug.

Three things: :func:`run`, after which a signal that ends a command, or a reader that closes the
pipe, leaves nothing behind and prints no traceback; whether ``label`` with no INPUT reads standard
input (:func:`stdin_is_data`); and how a bug is shown (:func:`report_bug`)."""

from __future__ import annotations

import _thread
import io
import os
import signal
import stat
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import typer
from rich.console import Console

from actparse import __version__
from actparse.cli_exits import CLOSED_PIPE, signal_status

__all__ = ["ISSUES_URL", "StdoutConsole", "report_bug", "run", "silence_stdout", "stdin_is_data"]

#: Where a bug is reported: the ``Issues`` URL of ``[project.urls]`` in pyproject.toml
#: (tests/test_errors.py checks that the two agree).
ISSUES_URL = "https://github.com/actparse/actparse/issues"


class _Signalled(BaseException):
    """SIGINT, SIGTERM or SIGHUP arrived: unwind (removing temporaries) and exit."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


_ENDING_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


@contextmanager
def run() -> Iterator[None]:
    """What every command shares: a clean end on a signal or a closed pipe.

    Neither leaves anything behind or prints a traceback.

    SIGINT, SIGTERM and SIGHUP raise :class:`_Signalled` in the main process, so every
    ``with`` block unwinds (an output's temporary is removed, worker processes are
    terminated) and the run exits with 128 + the signal number, as a shell reports a
    process the signal ended. A signal the run was started with ignored (``nohup``, a
    background job of a script) stays ignored. A closed pipe on stdout (``actparse
    label f | head -1``) ends the run quietly with 141 (128 + SIGPIPE), the status
    ``cat`` or ``yes`` end with there, so ``set -o pipefail`` still sees the output
    was cut short.
    """
    previous: dict[int, Any] = {}
    fired: list[int] = []
    # Signals a finalizer swallowed, not raised yet; whether the run is closing.
    pending: list[int] = []
    closing = [False]
    lock = threading.Lock()
    hook = sys.unraisablehook
    main = threading.main_thread().ident

    def unwind(signum: int, _frame: object) -> None:
        # A second signal must not interrupt the cleanup. It is let pass here rather than
        # by ignoring the signals: a worker forked during the cleanup would inherit the
        # ignoring, and then not end when the pool ends it.
        if not fired and not closing[0]:
            fired.append(signum)
            raise _Signalled(signum)

    def deliver(signum: int) -> None:
        # A real signal, not interrupt_main: it also breaks a blocked read (a pipe).
        with lock:
            if not closing[0] and main is not None:
                signal.pthread_kill(main, signum)

    def swallowed(unraisable: Any) -> None:
        # The signal landed in a finalizer (a __del__ the garbage collector runs), which
        # swallows what it raises and hands it here: not fired after all, and delivered
        # again from another thread, so that it is raised outside the finalizer (or, if
        # the run ends first, at its end). Printed, never.
        if not isinstance(unraisable.exc_value, _Signalled):
            hook(unraisable)
            return
        fired.clear()
        pending.append(unraisable.exc_value.signum)
        _thread.start_new_thread(deliver, (unraisable.exc_value.signum,))

    if threading.current_thread() is threading.main_thread():
        for sig in _ENDING_SIGNALS:
            if signal.getsignal(sig) is not signal.SIG_IGN:
                previous[sig] = signal.signal(sig, unwind)
        sys.unraisablehook = swallowed
    try:
        yield
        sys.stdout.flush()  # a closed pipe shows here at the latest, not at exit
        if pending:
            fired.append(pending[0])  # so that its delivery, if it lands now, passes
            raise _Signalled(pending[0])
    except BrokenPipeError:
        silence_stdout()
        raise typer.Exit(code=CLOSED_PIPE) from None
    except _Signalled as signalled:
        raise typer.Exit(code=signal_status(signalled.signum)) from None
    finally:
        closing[0] = True  # set without a call, so no signal is handled between
        with lock:  # a delivery under way is done (and ignored: the run is over)
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            if sys.unraisablehook is swallowed:
                sys.unraisablehook = hook


class StdoutConsole(Console):
    """Tables on stdout: a closed pipe ends the run as it does for JSON lines (141)."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError  # rich would exit with 1; run ends quietly with 141


def silence_stdout() -> None:
    # Python flushes stdout once more at exit and would complain of the closed pipe again.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, io.UnsupportedOperation):  # no file descriptor (tests)
        pass


def stdin_is_data() -> bool:
    """Whether standard input holds dialogues to read, for ``label`` with no INPUT.

    Yes for a pipe (``cat val.txt | actparse label``) and for a regular file, even an
    empty one (``actparse label < val.txt``); no for a terminal, ``/dev/null`` or another
    device, a socket, or no standard input at all, where the bundled sample is shown
    instead. Told from the kind of file, never by reading: a
    pipe may have nothing in it yet, and a shell with no input (CI's, ``cron``'s) must
    still see the sample. A stream with no file descriptor (a test's) is data unless it
    says it is a terminal.
    """
    stream = sys.stdin
    if stream is None:
        return False
    try:
        fd = stream.fileno()
    except (OSError, ValueError, io.UnsupportedOperation):
        try:
            return not stream.isatty()
        except ValueError:  # closed
            return False
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISFIFO(mode):
            return True
        if stat.S_ISREG(mode):
            # A file given with '<' is the input, even an empty one: 0 dialogues, not
            # the sample in place of the output the user redirected it to.
            return True
    except OSError:
        return False
    return False


def report_bug(bug: BaseException) -> None:
    """Show an exception that is no ActparseError for what it is: a bug in actparse.

    Shown: the traceback (typer's hook, which leaves out the records in its locals), then a line
    saying where to report it."""
    sys.excepthook(type(bug), bug, bug.__traceback__)
    print(
        f"this is a bug in actparse {__version__}: please report it at {ISSUES_URL}, "
        "with the command and the traceback above",
        file=sys.stderr,
    )
