"""How every ``actparse`` command runs, reads standard input and shows a bug.

Three things: :func:`run`, after which a signal that ends a command, or a reader that closes the
pipe, leaves nothing behind and prints no traceback; whether ``label`` with no INPUT reads standard
input (:func:`stdin_is_data`); and how a bug is shown (:func:`report_bug`)."""

from __future__ import annotations

import _thread
import io
import os
import select
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


class _Unwinder:
    """The signal handling of one run: an ending signal unwinds the main thread, once.

    Its methods are the handlers :func:`run` installs; its state is shared between them
    and the run (the signals fired or pending, whether the run is closing)."""

    def __init__(self) -> None:
        self.previous: dict[int, Any] = {}
        self.fired: list[int] = []
        # Signals a finalizer swallowed, not raised yet; whether the run is closing.
        self.pending: list[int] = []
        self.closing = False
        self.lock = threading.Lock()
        self.hook = sys.unraisablehook
        self.main = threading.main_thread().ident
        # One bound method, so that the hook installed is recognised when restored.
        self.swallowed_hook = self.swallowed

    def unwind(self, signum: int, _frame: object) -> None:
        """Raise :class:`_Signalled` for the first ending signal, unless the run is closing."""
        # A second signal must not interrupt the cleanup. It is let pass here rather than
        # by ignoring the signals: a worker forked during the cleanup would inherit the
        # ignoring, and then not end when the pool ends it.
        if not self.fired and not self.closing:
            self.fired.append(signum)
            raise _Signalled(signum)

    def deliver(self, signum: int) -> None:
        """Send ``signum`` to the main thread again, unless the run is closing."""
        # A real signal, not interrupt_main: it also breaks a blocked read (a pipe).
        with self.lock:
            if not self.closing and self.main is not None:
                signal.pthread_kill(self.main, signum)

    def swallowed(self, unraisable: Any) -> None:
        """The unraisable hook: a signal a finalizer swallowed is delivered again."""
        # The signal landed in a finalizer (a __del__ the garbage collector runs), which
        # swallows what it raises and hands it here: not fired after all, and delivered
        # again from another thread, so that it is raised outside the finalizer (or, if
        # the run ends first, at its end). Printed, never.
        if not isinstance(unraisable.exc_value, _Signalled):
            self.hook(unraisable)
            return
        self.fired.clear()
        self.pending.append(unraisable.exc_value.signum)
        _thread.start_new_thread(self.deliver, (unraisable.exc_value.signum,))

    def install(self) -> None:
        """Handle the ending signals the run was not started ignoring, and swallowed ones."""
        if threading.current_thread() is threading.main_thread():
            for sig in _ENDING_SIGNALS:
                if signal.getsignal(sig) is not signal.SIG_IGN:
                    self.previous[sig] = signal.signal(sig, self.unwind)
            sys.unraisablehook = self.swallowed_hook

    def restore(self) -> None:
        """Put back the handlers and the unraisable hook the run found (once closing)."""
        with self.lock:  # a delivery under way is done (and ignored: the run is over)
            for sig, handler in self.previous.items():
                signal.signal(sig, handler)
            if sys.unraisablehook is self.swallowed_hook:
                sys.unraisablehook = self.hook


#: Set once a command's :func:`run` begins: its exit status is the command's from then on.
_began = threading.Event()


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
    _began.set()
    unwinder = _Unwinder()
    unwinder.install()
    try:
        yield
        sys.stdout.flush()  # a closed pipe shows here at the latest, not at exit
        if unwinder.pending:
            # So that its delivery, if it lands now, passes.
            unwinder.fired.append(unwinder.pending[0])
            raise _Signalled(unwinder.pending[0])
    except BrokenPipeError:
        silence_stdout()
        raise typer.Exit(code=CLOSED_PIPE) from None
    except _Signalled as signalled:
        raise typer.Exit(code=signal_status(signalled.signum)) from None
    finally:
        unwinder.closing = True  # set without a call, so no signal is handled between
        unwinder.restore()


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


def stdout_pipe() -> tuple[int, int] | None:
    """Standard output's pipe (device and inode), ``None`` when it is not a pipe."""
    try:
        fd = sys.__stdout__.fileno() if sys.__stdout__ is not None else -1
        found = os.fstat(fd) if fd >= 0 else None
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return None  # no descriptor (a test's stream)
    if found is None or not stat.S_ISFIFO(found.st_mode):
        return None
    return found.st_dev, found.st_ino


def stdout_pipe_closed(pipe: tuple[int, int] | None) -> bool:
    """Whether ``pipe``, standard output's at the start, lost its reader before a command ran.

    Only what is printed before a command's :func:`run` (``--help | head -1``) is asked
    about: ``eval`` below its floor ends with 1 even if its reader has gone since.

    Asked of the descriptor, never by writing. The pipe is closed when polling it says
    so, or when standard output is no longer that pipe: rich, meeting the closed pipe
    while it prints help, points the descriptor at ``/dev/null`` (as
    :func:`silence_stdout` does) before it exits."""
    if pipe is None or _began.is_set():  # a command's run() said how it ended
        return False
    if stdout_pipe() != pipe:
        return True
    try:
        poll = select.poll()
        poll.register(sys.__stdout__.fileno(), select.POLLOUT)  # type: ignore[union-attr]
        return any(events & select.POLLERR for _, events in poll.poll(0))
    except (OSError, ValueError, AttributeError):  # no poll (not POSIX)
        return False


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
