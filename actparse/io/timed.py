"""The record deadline for the commands that label in their own loop: eval, report, train-prices.

``label`` times each record where it labels it (:mod:`actparse.io.labelling`). An
evaluator, the HTML report and the price calibration run their own loops over records,
so :func:`each_in_time` times the loop's consumer instead: it hands out the records one
at a time, and the work done on one, from when it is handed out to when the next is asked
for (reading its dialogue, parsing it, scoring it), has
:data:`~actparse.io.deadline.RECORD_DEADLINE`, as in ``label``. Reading the next record is
not timed. A record past its deadline ends the loop with
:class:`~actparse.io.deadline.RecordTimedOut`, an :class:`~actparse.errors.InputError`
naming its file and line: these commands have no keep mode, and a record that cannot be
labelled stops them as any bad record does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from actparse.io import deadline

__all__ = ["call_in_time", "each_in_time", "name_of"]

T = TypeVar("T")
R = TypeVar("R")


def name_of(item: Any, number: int) -> str:
    """How an item is named in a timeout: a record's ``file:line``, else a dialogue's id."""
    where = getattr(item, "where", None)
    if isinstance(where, str):
        return where
    found = getattr(item, "id", None)
    return str(found) if found is not None else f"dialogue {number}"


@contextmanager
def each_in_time(items: Iterable[T]) -> Iterator[Iterator[T]]:
    """``items`` one at a time, the work on each bounded by the record deadline.

    Inside the block, a record past its deadline raises
    :class:`~actparse.io.deadline.RecordTimedOut` naming it; on leaving, the timer is off.
    """
    current = [""]
    with deadline.clock(deadline.RECORD_DEADLINE) as clock:

        def timed() -> Iterator[T]:
            for number, item in enumerate(items, start=1):
                current[0] = name_of(item, number)
                clock.start(deadline.RECORD_DEADLINE)
                try:
                    yield item
                finally:
                    clock.stop()  # the next record is read untimed

        try:
            yield timed()
        except deadline.RecordTimeout as exc:
            raise deadline.RecordTimedOut(f"{current[0]}: {exc}") from None
        finally:
            clock.stop()


def call_in_time(where: str, call: Callable[..., R], *args: Any) -> R:
    """``call(*args)`` with the record deadline, or :class:`RecordTimedOut` naming ``where``.

    For a loop that hands its records on as it goes (``label --per-turn``'s table): only the
    call is timed, and the timer is set and taken back around it."""
    with deadline.clock(deadline.RECORD_DEADLINE) as clock:
        clock.start(deadline.RECORD_DEADLINE)
        try:
            return call(*args)
        except deadline.RecordTimeout as exc:
            raise deadline.RecordTimedOut(f"{where}: {exc}") from None
        finally:
            clock.stop()
