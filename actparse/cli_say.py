"""What the commands say on standard error: summaries, notes and errors, in words.

One console, so that every line goes to stderr the same way (file names and record ids
are not markup); the commands of :mod:`actparse.cli` call these and nothing else prints.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import typer
from rich.console import Console
from rich.text import Text

from actparse.cli_exits import FAILED, TROUBLE
from actparse.io.batch import Summary
from actparse.io.messages import describe

if TYPE_CHECKING:  # imported when the command runs: the corpus' training loads only then
    from actparse.corpora.craigslist.training import Training

__all__ = ["count", "err", "fail", "say", "say_calibration", "say_labelled", "table_summary"]

err = Console(stderr=True, soft_wrap=True)


def say(message: str) -> None:
    """Print a message to stderr as it is: file names and record ids are not markup."""
    err.print(message, markup=False, highlight=False)


def fail(exc: Exception) -> NoReturn:
    """End the run with a message in words (exit 2); a closed pipe ends it quietly."""
    if isinstance(exc, BrokenPipeError):
        raise exc  # for run(): not an error of the run
    err.print(Text.assemble(("error:", "bold red"), " ", describe(exc)), highlight=False)
    raise typer.Exit(code=TROUBLE)


def count(n: int, noun: str) -> str:
    """``1 dialogue``, ``2 dialogues``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def table_summary(turns: int, dialogues: int, without_turns: int) -> str:
    """``wrote 102 turns of 14 dialogues (1 dialogue has no turns, so no rows)``."""
    said = f"wrote {count(turns, 'turn')} of {count(dialogues, 'dialogue')}"
    if without_turns:
        verb = "has" if without_turns == 1 else "have"
        said += f" ({count(without_turns, 'dialogue')} {verb} no turns, so no rows)"
    return said


def say_labelled(summary: Summary, where: str) -> None:
    """The summary lines of a labelling run; exit FAILED when no record was labelled."""
    # Only Craigslist dialogues are ever skipped (Cocoa's rule): other corpora's runs
    # say nothing of it.
    skipped = f" ({summary.skipped} skipped by Cocoa's length rule)" if summary.skipped else ""
    # With records kept unlabelled (--on-error keep), say how many of them were labelled.
    done = f"{summary.records - summary.errors} of " if summary.errors else ""
    # A turn table's dialogue is written as its rows: say both.
    rows = f" ({count(summary.rows, 'row')})" if summary.rows else ""
    # Records of a corpus that lists each dialogue from both sides are not dialogues:
    # counted as such, Deal or No Deal's val.txt made 1087 of its 562.
    if summary.sides:
        labelled = f"{count(summary.records, 'record')} (each one side's view of a dialogue)"
    else:
        labelled = count(summary.records, "dialogue")
    say(f"labelled {done}{labelled}{rows} to {where}{skipped}")
    if summary.errors:
        if summary.rows:  # a turn table: its dialogues are written back as their rows
            what = f"dialogues ({summary.error_rows} of {summary.rows} rows)"
            them = "their rows were"
        else:
            what, them = "records", "they were"
        say(
            f"{summary.errors} of {summary.records} {what} could not be labelled; "
            f"{them} written unchanged with an 'actparse_error' field"
        )
        if summary.errors == summary.records:
            say("error: no record could be labelled")
            raise typer.Exit(code=FAILED)
    if summary.unknown_actions:
        say(
            f"note: {summary.unknown_actions} non-message turns have no recorded action (an "
            "HF export without acts); they got no act (intent '', price -1). Label Cocoa "
            "transcripts when offers and accepts matter."
        )


def say_calibration(training: Training, calibrate_on: Path | None, folds: int) -> None:
    """Say what the calibration changed and, with ``folds``, its held-out agreement."""
    if training.calibration is not None:
        say(f"calibration: {json.dumps(training.calibration.summary())}")
    cv = training.cross_validation
    if cv is not None and calibrate_on is not None:
        say(
            f"{folds}-fold cross-validation on {calibrate_on.name} "
            f"({cv.messages} messages): message_joint_agreement {cv.baseline:.5f} "
            f"uncalibrated, {cv.calibrated:.5f} calibrated (held-out)"
        )
