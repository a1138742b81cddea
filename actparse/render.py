"""Rendering for people: evaluation reports and labelled dialogues as terminal tables.

Any corpus' :class:`~actparse.reports.Report` renders the same way: its tables, then
the worst dialogues, each disagreeing turn with the reference, ours and the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table as RichTable

from actparse.models import Act, Dialogue
from actparse.reports import Miss, Report, Table

__all__ = [
    "WORST",
    "print_dialogue",
    "print_misses",
    "print_report",
    "print_table",
    "progress_bar",
]


def print_table(table: Table, console: Console) -> None:
    """One report table."""
    if table.note:
        console.print(table.note, highlight=False, markup=False)
    out = RichTable(*table.columns, title=table.title, title_justify="left")
    for row in table.rows:
        out.add_row(*row)
    console.print(out)


def print_misses(misses: Sequence[Miss], console: Console) -> None:
    """Each miss: where, what went wrong, its disagreeing turns, and the dialogue."""
    for miss in misses:
        console.print(f"[bold]{miss.where}[/]: ", end="", highlight=False)
        console.print(miss.summary, highlight=False, markup=False)
        for turn in miss.turns:
            console.print(
                f"  turn {turn.turn} (agent {turn.agent}): {turn.text!r}",
                highlight=False,
                markup=False,
            )
            console.print(
                f"    reference: {turn.reference} | ours: {turn.ours}",
                highlight=False,
                markup=False,
            )
            if turn.reason:
                console.print(f"    {turn.reason}", highlight=False, markup=False)
        for line in miss.context:
            console.print(f"  | {line}", highlight=False, markup=False, style="dim")


#: How many of the worst dialogues a report shows when not told.
WORST = 5


def print_report(report: Report, console: Console, worst: int = WORST) -> None:
    """A report's tables, then its ``worst`` misses."""
    for table in report.tables():
        print_table(table, console)
    print_misses(report.misses(worst), console)


def print_dialogue(dialogue: Dialogue, acts: Sequence[Act], console: Console) -> None:
    """A labelled dialogue, one row per turn: writer, text, intent, coarse act, price."""
    roles = [p.role or f"agent {a}" for a, p in enumerate(dialogue.parties)]
    listing = dialogue.parties[0].listing
    title = ""
    if listing is not None:
        price = f" (listed at {listing.price:g})" if listing.price is not None else ""
        title = f"{listing.title}{price}"
    table = RichTable(title=title, title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("writer")
    table.add_column("utterance", overflow="fold")
    table.add_column("intent")
    table.add_column("coarse")
    table.add_column("price", justify="right")
    for turn, act in zip(dialogue.turns, acts):
        text = turn.text if turn.is_message else f"<{turn.action or 'unknown action'}>"
        price = f"{act.price:g}" if act.price is not None else ""
        table.add_row(
            str(turn.index), roles[turn.agent], text, act.intent or "", act.coarse or "", price
        )
    console.print(table)


@contextmanager
def progress_bar(
    total: int | None, console: Console, *, enabled: bool
) -> Iterator[Callable[[], None]]:
    """A labelling progress bar on ``console``.

    Yields the function that advances it (a no-op when not ``enabled``)."""
    if not enabled:
        yield lambda: None
        return
    with Progress(
        TextColumn("labelling"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task("label", total=total)
        yield lambda: progress.advance(task)
