"""A run ended by a signal or by a reader that closed the pipe leaves nothing behind and
prints no traceback, with one worker process or several.

These run the command in its own process on a long input (the Craigslist test split,
repeated) and signal it while it writes; they skip when the corpora are absent.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from corpus_fixtures import CorpusFixtures

from actparse.io.batch import TASK_SIZE

OLD = "old contents\n"
#: Copies of the test split (838 dialogues each): long enough to be mid-run when signalled.
COPIES = 30


@pytest.fixture(scope="module")
def long_input(data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    split = (data_dir / "craigslist" / "test.jsonl").read_bytes()
    path = tmp_path_factory.mktemp("long") / "long.jsonl"
    path.write_bytes(split * COPIES)
    return path


def _wait_for(condition: object, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if callable(condition) and condition():
            return
        time.sleep(0.05)
    pytest.fail(f"timed out waiting for {what}")


def _group_is_gone(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.parametrize(
    ("signum", "jobs", "whom"),
    [
        (signal.SIGINT, "1", "process"),
        (signal.SIGTERM, "1", "process"),
        (signal.SIGHUP, "1", "process"),
        (signal.SIGINT, "2", "group"),  # Ctrl-C: the terminal signals every process
        (signal.SIGTERM, "2", "group"),
        (signal.SIGHUP, "2", "group"),  # the terminal closed
        (signal.SIGINT, "2", "parent"),
        (signal.SIGTERM, "2", "parent"),  # kill PID: the workers are not told
        (signal.SIGHUP, "2", "parent"),
    ],
    ids=lambda v: v.name if isinstance(v, signal.Signals) else f"jobs{v}" if v in "12" else v,
)
def test_a_signal_leaves_nothing_behind(
    signum: signal.Signals, jobs: str, whom: str, long_input: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text(OLD)
    run = subprocess.Popen(
        [sys.executable, "-m", "actparse", "label", str(long_input), "-o", str(out), "-j", jobs],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a shell job has
    )
    try:
        # Signalled once output is being written: the run (and its workers) is under way.
        _wait_for(
            lambda: any(p.stat().st_size > 0 for p in tmp_path.glob(".out.jsonl.*.part")),
            90,
            "the run to start writing",
        )
        if whom == "group":
            os.killpg(run.pid, signum)
        else:
            os.kill(run.pid, signum)
        _stdout, stderr = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    assert run.returncode == 128 + signum, stderr
    assert "Traceback" not in stderr and "Error" not in stderr, stderr
    assert out.read_text() == OLD, "the old output must be left as it was"
    assert list(tmp_path.glob(".*.part")) == []
    _wait_for(lambda: _group_is_gone(run.pid), 30, "the worker processes to end")


@pytest.mark.parametrize("jobs", ["1", "2"], ids=["jobs1", "jobs2"])
def test_a_closed_pipe_ends_the_run_quietly(jobs: str, data_dir: Path) -> None:
    split = data_dir / "craigslist" / "test.jsonl"
    command = (
        f"{sys.executable} -m actparse label {split} --jobs {jobs} | head -1 | wc -l; "
        'echo "status ${PIPESTATUS[0]}"'
    )
    result = subprocess.run(
        ["bash", "-c", command], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.stdout.split() == ["1", "status", "141"]  # 128 + SIGPIPE, as cat gives
    assert result.stderr == ""  # no "Broken pipe", no summary, no traceback


def test_a_signal_ignored_at_the_start_stays_ignored(long_input: Path, tmp_path: Path) -> None:
    # As under nohup: SIGHUP is ignored, so the run goes on to the end.
    split = long_input.parent / "one.jsonl"
    split.write_bytes(long_input.read_bytes()[: long_input.stat().st_size // COPIES])
    out = tmp_path / "out.jsonl"
    run = subprocess.Popen(
        [sys.executable, "-m", "actparse", "label", str(split), "-o", str(out), "-j", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN),
    )
    try:
        _wait_for(lambda: any(tmp_path.glob(".out.jsonl.*.part")), 90, "the run to start writing")
        os.killpg(run.pid, signal.SIGHUP)
        _stdout, stderr = run.communicate(timeout=120)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    assert run.returncode == 0, stderr
    assert len(out.read_text().splitlines()) == len(split.read_text().splitlines())


@pytest.mark.parametrize(
    "args",
    [
        ["label", "{craigslist}"],
        ["label", "{tasks}", "-j", "2"],  # more than one task: workers start
        ["label"],  # the bundled sample, as a table
        ["eval", "{craigslist}"],
        ["eval", "{craigslist}", "--json"],
        ["--help"],  # printed by click before any command runs
        ["label", "--help"],
        ["--version"],
    ],
    ids=[
        "label-json-lines",
        "label-jobs2",
        "label-sample-table",
        "eval-table",
        "eval-json",
        "help",
        "command-help",
        "version",
    ],
)
def test_a_pipe_closed_before_any_output_ends_every_command_quietly(
    args: list[str], fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    craigslist = fixtures / "craigslist_validation_20.jsonl"
    tasks = tmp_path / "tasks.jsonl"  # an input of one task is labelled without workers
    tasks.write_bytes(craigslist.read_bytes() * (TASK_SIZE // 20 + 1))
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first write: always EPIPE
    try:
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "actparse",
                *(a.format(craigslist=craigslist, tasks=tasks) for a in args),
            ],
            stdin=subprocess.DEVNULL,  # not data: 'label' alone shows the sample
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write_end)
    assert (result.returncode, result.stderr) == (141, "")


def _children(pid: int) -> list[int]:
    """The process ids whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")


def _start_two_workers(long_input: Path, out: Path) -> tuple[subprocess.Popen[str], list[int]]:
    run = subprocess.Popen(
        [sys.executable, "-m", "actparse", "label", str(long_input), "-o", str(out), "-j", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    _wait_for(
        lambda: any(p.stat().st_size > 0 for p in out.parent.glob(f".{out.name}.*.part")),
        90,
        "the run to start writing",
    )
    return run, _children(run.pid)


@needs_proc
def test_a_worker_killed_by_the_system_stops_the_run_with_a_message(
    long_input: Path, tmp_path: Path
) -> None:
    """A worker ended by SIGKILL (as the out-of-memory killer does) takes its task with
    it: the run says so and stops, rather than wait for ever for its records."""
    out = tmp_path / "out.jsonl"
    out.write_text(OLD)
    run, workers = _start_two_workers(long_input, out)
    try:
        assert workers, "the run has worker processes"
        os.kill(workers[0], signal.SIGKILL)
        _stdout, stderr = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    assert run.returncode == 2, stderr
    assert "worker process was killed by signal 9" in stderr
    assert "Traceback" not in stderr
    assert out.read_text() == OLD
    assert list(tmp_path.glob(".*.part")) == []


@needs_proc
def test_workers_end_with_a_main_process_killed_by_sigkill(
    long_input: Path, tmp_path: Path
) -> None:
    """Nothing can clean up after SIGKILL, but no worker is left behind waiting for ever."""
    run, workers = _start_two_workers(long_input, tmp_path / "out.jsonl")
    try:
        assert workers
        os.kill(run.pid, signal.SIGKILL)
        run.communicate(timeout=60)
        _wait_for(
            lambda: not any(Path(f"/proc/{pid}").exists() for pid in workers),
            30,
            "the workers to end with their parent",
        )
    finally:
        if run.poll() is None or not _group_is_gone(run.pid):
            os.killpg(run.pid, signal.SIGKILL)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="workers are forked on POSIX only")
def test_a_sigterm_before_a_workers_own_handlers_waits_for_them() -> None:
    """A worker forked with the run's handlers (a SIGTERM unwinds, with a traceback) holds
    an early SIGTERM until its initializer has put the plain handlers in: it ends quietly,
    killed by the signal, as a pool ended at once (the input failing to open) ends it."""
    from actparse.cli_run import run
    from actparse.io.labelling import _init_pool_worker, pool_signals_held

    with run(), pool_signals_held():
        pid = os.fork()
        if pid == 0:  # the worker: nothing of it may return into pytest
            try:
                os.kill(os.getpid(), signal.SIGTERM)
                _init_pool_worker({})
            finally:
                os._exit(1)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGTERM
