"""The exit statuses of every ``actparse`` command, defined once.

The commands exit with these constants, and the table in every command's ``--help`` and
in the README is rendered from :data:`EXIT_STATUSES` (:func:`exit_table`), so what a
script reads and what the help says cannot drift apart. The scheme is ``diff``'s and
``grep``'s: 0 done, 1 the run finished but its result fails what was asked, 2 trouble;
above 128, the run was ended from outside (128 + the signal number).
"""

from __future__ import annotations

import signal
from dataclasses import dataclass

__all__ = [
    "CLOSED_PIPE",
    "EXIT_STATUSES",
    "FAILED",
    "OK",
    "TROUBLE",
    "ExitStatus",
    "exit_table",
    "signal_status",
]

#: Done (for ``eval --min-agreement``: the headline figure holds).
OK = 0
#: The run finished, but its result fails what was asked: ``eval``'s headline figure is
#: below ``--min-agreement``; ``label --on-error keep`` could label no record.
FAILED = 1
#: Trouble: a usage error, an unreadable or invalid input, a rule or lexicon file that
#: does not load, a bad record (unless ``label --on-error keep``), an output that cannot
#: be written, a bug. Click's usage errors exit with 2 too.
TROUBLE = 2
#: The reader of standard output went away (``| head``): 128 + SIGPIPE, as ``cat`` ends.
CLOSED_PIPE = 128 + 13  # signal.SIGPIPE is missing on Windows


def signal_status(signum: int) -> int:
    """The status of a run a signal ended: 128 + its number, as a shell reports it."""
    return 128 + signum


@dataclass(frozen=True)
class ExitStatus:
    """One row of the table of exit statuses: the status, what it means, and per command.

    ``status`` may name several statuses; ``per_command`` says what one means for a command where
    that differs (``commands``: the commands it applies to, empty for all)."""

    status: str
    meaning: str
    commands: tuple[str, ...] = ()
    per_command: tuple[tuple[str, str], ...] = ()

    def applies_to(self, command: str | None) -> bool:
        return command is None or not self.commands or command in self.commands

    def text(self, command: str | None) -> str:
        """What the status means, for one command or (``None``) for all."""
        details = [(name, what) for name, what in self.per_command if command in (None, name)]
        if not details:
            return self.meaning
        if command is not None:
            return f"{self.meaning}: {details[0][1]}"
        return f"{self.meaning}: " + "; ".join(f"`{name}`: {what}" for name, what in details)


#: The signals that end a run, with their numbers where the platform has none.
_ENDING = (("SIGINT", 2), ("SIGTERM", 15), ("SIGHUP", 1))

#: The exit statuses, in the order the help lists them.
EXIT_STATUSES: tuple[ExitStatus, ...] = (
    ExitStatus(
        str(OK),
        "done",
        per_command=(("eval", "with `--min-agreement`, the headline figure is at or above it"),),
    ),
    ExitStatus(
        str(FAILED),
        "the run finished, but its result fails what was asked",
        commands=("label", "eval"),
        per_command=(
            (
                "label",
                "with `--on-error keep`, no record could be labelled (every record "
                "is still written, with its `actparse_error`)",
            ),
            ("eval", "the headline figure is below `--min-agreement`"),
        ),
    ),
    ExitStatus(
        str(TROUBLE),
        "trouble: a usage error, an unreadable or invalid input, a rule or lexicon file "
        "that does not load, a bad record (unless `label --on-error keep`), an output that "
        "cannot be written, a worker process killed; a message on stderr says which (a bug: "
        "a traceback)",
    ),
    ExitStatus(
        ", ".join(str(signal_status(getattr(signal, name, n))) for name, n in _ENDING),
        "ended by "
        + ", ".join(name for name, _ in _ENDING)
        + " (Ctrl-C is SIGINT): 128 + the signal's number; the temporary output and "
        "the workers are removed",
    ),
    ExitStatus(
        str(CLOSED_PIPE),
        "the reader of standard output went away (`head` had its lines): 128 + SIGPIPE, "
        "with no message",
    ),
)


def exit_table(command: str | None = None) -> str:
    """The exit statuses as a Markdown table: those of one command, or (``None``) all."""
    rows = [
        f"| {row.status} | {row.text(command)} |"
        for row in EXIT_STATUSES
        if row.applies_to(command)
    ]
    return "\n".join(["| exit status | meaning |", "| --- | --- |", *rows])
