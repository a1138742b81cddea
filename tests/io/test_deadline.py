"""The per-record deadline: a record is labelled or becomes an error record within a
stated time, whatever it does (a Python loop, a runaway regex), in keep and stop mode,
in this process and in worker processes, and its batch does not make it pay twice."""

from __future__ import annotations

import json
import signal
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
import regex
from corpus_fixtures import CorpusFixtures

from actparse import registry
from actparse.io import deadline
from actparse.io.batch import iter_items, label_items
from actparse.models import Act, Dialogue

#: The record deadline in these tests, and the slack a loaded machine may add to it.
LIMIT = 0.3
SLACK = 1.5
#: What makes a test parser hang: a turn with this text.
HANG = "hang here"


def _spin(how: str) -> None:
    if how == "python":
        while True:
            pass
    # A runaway match in C (quadratic: minutes on this text): regex checks for signals
    # while it backtracks.
    regex.match(r"^[\w ]*have a deal[\w ]*$", "have a deal " * 30_000 + "!")


class _Hanging:
    """The shipped parser of a corpus, except that a turn saying :data:`HANG` never ends."""

    def __init__(self, corpus: str, how: str) -> None:
        self.shipped = registry.shipped_parser(corpus)
        self.how = how

    def _check(self, dialogue: Dialogue) -> None:
        if any(turn.text == HANG for turn in dialogue.turns):
            _spin(self.how)

    def parse(self, dialogue: Dialogue) -> list[Act]:
        self._check(dialogue)
        return self.shipped.parse(dialogue)


class _HangingBatches(_Hanging):
    """The same, for a parser that labels whole batches (Craigslist)."""

    def parse_many(self, dialogues: Sequence[Dialogue]) -> list[list[Act]]:
        for dialogue in dialogues:
            self._check(dialogue)
        return [self.shipped.parse(d) for d in dialogues]


@pytest.fixture(autouse=True)
def short_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deadline, "RECORD_DEADLINE", LIMIT)
    monkeypatch.setattr(deadline, "BATCH_DEADLINE", LIMIT / 3)


def _craigslist_file(fixtures: CorpusFixtures, tmp_path: Path, hanging: int) -> Path:
    lines = (fixtures / "craigslist_validation_20.jsonl").read_text().splitlines()
    record = json.loads(lines[hanging])
    record["utterance"][0] = HANG
    lines[hanging] = json.dumps(record)
    path = tmp_path / "hang.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def _dealornodeal_file(fixtures: CorpusFixtures, tmp_path: Path, hanging: int) -> Path:
    lines = (fixtures / "dealornodeal_val_20.txt").read_text().splitlines()
    start = lines[hanging].index("<dialogue>") + len("<dialogue>")
    end = lines[hanging].index("<eos>", start)
    lines[hanging] = f"{lines[hanging][:start]} YOU: {HANG} {lines[hanging][end:]}"
    path = tmp_path / "hang.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


CORPORA = {
    "craigslist": (_craigslist_file, _HangingBatches),
    "dealornodeal": (_dealornodeal_file, _Hanging),
}


@pytest.mark.usefixtures("tasks_of_one")
@pytest.mark.parametrize("jobs", [1, 2], ids=["in-process", "two-workers"])
@pytest.mark.parametrize("how", ["python", "regex"], ids=["python-loop", "runaway-regex"])
@pytest.mark.parametrize("corpus", sorted(CORPORA))
def test_keep_mode_gives_an_error_record_within_the_deadline(
    corpus: str, how: str, jobs: int, fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    make_file, parser = CORPORA[corpus]
    path = make_file(fixtures, tmp_path, hanging=3)
    start = time.perf_counter()
    outcomes = list(
        label_items(
            iter_items(path), jobs=jobs, on_error="keep", overrides={corpus: parser(corpus, how)}
        )
    )
    took = time.perf_counter() - start
    records = len(path.read_text().splitlines())
    assert len(outcomes) == records
    errors = [o.error for o in outcomes]
    assert (
        errors[3] == f"{path}:4: labelling took longer than {LIMIT:g} s (the per-record deadline)"
    )
    assert errors[:3] + errors[4:] == [None] * (records - 1)
    # Once its own deadline, plus at most one batch deadline: not twice.
    assert took < LIMIT + deadline.BATCH_DEADLINE + SLACK


@pytest.mark.usefixtures("tasks_of_one")
@pytest.mark.parametrize("jobs", [1, 2], ids=["in-process", "two-workers"])
@pytest.mark.parametrize("corpus", sorted(CORPORA))
def test_stop_mode_names_the_record_within_the_deadline(
    corpus: str, jobs: int, fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    make_file, parser = CORPORA[corpus]
    path = make_file(fixtures, tmp_path, hanging=5)
    start = time.perf_counter()
    with pytest.raises(deadline.RecordTimedOut, match=rf"^{path}:6: labelling took longer than"):
        list(label_items(iter_items(path), jobs=jobs, overrides={corpus: parser(corpus, "python")}))
    assert time.perf_counter() - start < LIMIT + deadline.BATCH_DEADLINE + SLACK


def test_the_good_records_come_out_as_without_the_hanging_one(
    fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    path = _craigslist_file(fixtures, tmp_path, hanging=0)
    hanging = {"craigslist": _HangingBatches("craigslist", "python")}
    kept = [o.line for o in label_items(iter_items(path), on_error="keep", overrides=hanging)]
    clean = [o.line for o in label_items(iter_items(fixtures / "craigslist_validation_20.jsonl"))]
    assert kept[1:] == clean[1:]


def test_a_record_within_its_time_is_not_interrupted() -> None:
    # The timer fires at the first record's deadline; a later record started later.
    with deadline.clock(LIMIT) as clock:
        clock.start(LIMIT)
        time.sleep(LIMIT / 2)
        clock.stop()
        clock.start(LIMIT)
        time.sleep(LIMIT * 0.8)  # past the first deadline, within its own
        clock.stop()
    with deadline.clock(LIMIT) as clock, pytest.raises(deadline.RecordTimeout):
        clock.start(LIMIT)
        time.sleep(5)


def test_the_timer_and_the_handler_are_as_before_after_a_window() -> None:
    before = signal.getsignal(signal.SIGALRM)
    with deadline.clock(LIMIT):
        pass
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) is before


def test_outside_the_main_thread_the_clock_limits_nothing() -> None:
    clocks: list[deadline.Clock] = []

    def run() -> None:
        with deadline.clock(LIMIT) as clock:
            clocks.append(clock)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    assert clocks and not clocks[0].armed


def test_a_timer_of_the_caller_is_left_running() -> None:
    signal.setitimer(signal.ITIMER_REAL, 60)
    try:
        with deadline.clock(LIMIT) as clock:
            assert not clock.armed
        assert signal.getitimer(signal.ITIMER_REAL)[0] > 0
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
