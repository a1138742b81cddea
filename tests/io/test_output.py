"""``-o`` never destroys anything: links are written through, FIFOs and devices written
directly, a directory and the input itself refused, and a failed write leaves the old file
and no temporary behind."""

from __future__ import annotations

import gzip
import os
import resource
import signal
import stat
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from corpus_fixtures import CorpusFixtures
from typer.testing import CliRunner

from actparse.cli import app
from actparse.io.batch import TASK_SIZE
from actparse.io.output import OutputError, count_records, open_output

runner = CliRunner()
RULES = Path(__file__).resolve().parents[2] / "rules"
SOURCE_NAME = "craigslist_validation_20.jsonl"
OLD = "old contents\n"


def run_cli(*args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    """The command as a user runs it, in its own process."""
    return subprocess.run(
        [sys.executable, "-m", "actparse", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        **kwargs,  # type: ignore[arg-type]
    )


def leftovers(folder: Path) -> list[str]:
    """Temporaries a run left in a folder."""
    return sorted(p.name for p in folder.glob(".*.part"))


@pytest.fixture
def source(fixtures: CorpusFixtures, tmp_path: Path) -> Path:
    copy = tmp_path / SOURCE_NAME
    copy.write_bytes((fixtures / SOURCE_NAME).read_bytes())
    return copy


def _to_symlink(tmp_path: Path, source: Path) -> tuple[Path, Path]:
    target = tmp_path / "target.jsonl"
    target.write_text(OLD)
    link = tmp_path / "link.jsonl"
    link.symlink_to(target.name)
    return link, target


def _to_dangling_symlink(tmp_path: Path, source: Path) -> tuple[Path, Path]:
    link = tmp_path / "link.jsonl"
    link.symlink_to("new.jsonl")
    return link, tmp_path / "new.jsonl"


def _to_symlink_in_another_folder(tmp_path: Path, source: Path) -> tuple[Path, Path]:
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "target.jsonl"
    target.write_text(OLD)
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    return link, target


@pytest.mark.parametrize(
    "make",
    [_to_symlink, _to_dangling_symlink, _to_symlink_in_another_folder],
    ids=["symlink", "dangling-symlink", "symlink-to-another-folder"],
)
def test_a_symlink_is_written_through_to_its_target(
    make: Callable[[Path, Path], tuple[Path, Path]], source: Path, tmp_path: Path
) -> None:
    link, target = make(tmp_path, source)
    result = runner.invoke(app, ["label", str(source), "-o", str(link)])
    assert result.exit_code == 0, result.output
    assert link.is_symlink(), "the link must stay a link"
    assert link.resolve() == target.resolve()
    assert len(target.read_text().splitlines()) == 20
    assert leftovers(tmp_path) == [] and leftovers(target.parent) == []


def test_an_existing_file_keeps_its_permissions(source: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text(OLD)
    out.chmod(0o640)
    result = runner.invoke(app, ["label", str(source), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert len(out.read_text().splitlines()) == 20


def _the_input(tmp_path: Path, source: Path) -> Path:
    return source


def _a_symlink_to_the_input(tmp_path: Path, source: Path) -> Path:
    link = tmp_path / "link.jsonl"
    link.symlink_to(source)
    return link


def _a_hard_link_to_the_input(tmp_path: Path, source: Path) -> Path:
    link = tmp_path / "hard.jsonl"
    os.link(source, link)
    return link


def _the_input_by_another_path(tmp_path: Path, source: Path) -> Path:
    return tmp_path / "." / source.name


@pytest.mark.parametrize(
    "make",
    [_the_input, _a_symlink_to_the_input, _a_hard_link_to_the_input, _the_input_by_another_path],
    ids=["same-path", "symlink-to-input", "hard-link-to-input", "other-spelling"],
)
def test_the_input_itself_is_refused(
    make: Callable[[Path, Path], Path], source: Path, tmp_path: Path
) -> None:
    before = source.read_bytes()
    out = make(tmp_path, source)
    result = runner.invoke(app, ["label", str(source), "-o", str(out)])
    assert result.exit_code == 2
    assert "is the input file" in result.output and "write to another file" in result.output
    assert source.read_bytes() == before
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("suffix", [".jsonl", ".jsonl.gz", ".parquet"], ids=str)
def test_a_directory_is_refused_before_any_work(suffix: str, source: Path, tmp_path: Path) -> None:
    folder = tmp_path / f"out{suffix}"
    folder.mkdir()
    result = runner.invoke(app, ["label", str(source), "-o", str(folder)])
    assert result.exit_code == 2
    assert f"out{suffix}: is a directory" in result.output
    assert "Errno" not in result.output
    assert leftovers(tmp_path) == [] and list(folder.iterdir()) == []


def test_a_missing_folder_is_named(source: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["label", str(source), "-o", str(tmp_path / "no" / "o.jsonl")])
    assert result.exit_code == 2
    assert "does not exist" in result.output and "Errno" not in result.output


#: The prefix of a corpus fixture's name in a command of the tables below.
FIXTURE = "FIXTURE:"


def _file(name: str, fixtures: CorpusFixtures) -> Path:
    """``FIXTURE:NAME``: a corpus fixture; another name: a file of ``rules/``."""
    return fixtures / name.removeprefix(FIXTURE) if name.startswith(FIXTURE) else RULES / name


def _arguments(command: list[str], source: Path, fixtures: CorpusFixtures) -> list[str]:
    """A command of the tables below as given: ``SOURCE`` and the fixtures made paths."""
    return [
        str(source) if a == "SOURCE" else str(_file(a, fixtures)) if a.startswith(FIXTURE) else a
        for a in command
    ]


#: Each command that writes a file, without its -o.
WRITERS = {
    "label": ["label", "SOURCE"],
    "label-per-turn": ["label", "SOURCE", "--per-turn"],
    "report": ["report", "SOURCE"],
    "train-prices": ["train-prices", "FIXTURE:craigslist_transcripts_20.json"],
}


@pytest.mark.parametrize(
    ("exists", "said"),
    [(False, "no such folder"), (True, "is a directory")],
    ids=["missing-folder", "existing-folder"],
)
@pytest.mark.parametrize("command", list(WRITERS.values()), ids=list(WRITERS))
def test_a_name_ending_in_a_slash_names_a_folder_and_is_refused(
    command: list[str],
    exists: bool,
    said: str,
    source: Path,
    tmp_path: Path,
    fixtures: CorpusFixtures,
) -> None:
    """``-o new/`` wrote a file ``new`` (exit 0) where ``new`` was no folder: a file
    output is never a folder, existing or not."""
    folder = tmp_path / "new"
    if exists:
        folder.mkdir()
    out = f"{folder}{os.sep}"
    args = _arguments(command, source, fixtures)
    result = runner.invoke(app, [*args, "-o", out])
    assert result.exit_code == 2, result.output
    assert f"{out}: {said}" in result.output
    assert folder.is_dir() if exists else not folder.exists()
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("exists", [False, True], ids=["new-folder", "empty-folder"])
def test_a_folder_output_may_end_in_a_slash(
    exists: bool, fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    """A corpus folder is labelled into a folder: ``new/`` names it as well as ``new``."""
    folder = tmp_path / "new"
    if exists:
        folder.mkdir()
    corpus = str(fixtures / "convokit_corpus")
    result = runner.invoke(app, ["label", corpus, "-o", f"{folder}{os.sep}"])
    assert result.exit_code == 0, result.output
    assert (folder / "utterances.jsonl").is_file()


def test_train_prices_refuses_to_write_over_its_input(
    fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    transcripts = tmp_path / "transcripts.json"
    transcripts.write_bytes((fixtures / "craigslist_transcripts_20.json").read_bytes())
    before = transcripts.read_bytes()
    result = runner.invoke(app, ["train-prices", str(transcripts), "-o", str(transcripts)])
    assert result.exit_code == 2
    assert "is the input file" in result.output
    assert transcripts.read_bytes() == before


#: A command with an option that names a file the run reads (``FILE``), from ``rules/``
#: (``FIXTURE:``: a corpus fixture), written over by ``-o FILE``: each is refused.
OPTION_FILES = {
    "label-rules": (["label", "SOURCE", "--rules"], "craigslist/tags.yaml"),
    "label-lexicon": (["label", "SOURCE", "--lexicon"], "craigslist/price_lexicon.json"),
    "label-acts": (["label", "SOURCE", "--acts"], "acts.yaml"),
    "label-strategies": (["label", "SOURCE", "--strategies"], "strategies.yaml"),
    "label-per-turn-rules": (["label", "SOURCE", "--per-turn", "--rules"], "craigslist/tags.yaml"),
    "report-lexicon": (["report", "SOURCE", "--lexicon"], "craigslist/price_lexicon.json"),
    "train-prices-calibrate": (
        ["train-prices", "FIXTURE:craigslist_transcripts_20.json", "--calibrate"],
        f"FIXTURE:{SOURCE_NAME}",
    ),
}


def _option_run(
    case: str, source: Path, tmp_path: Path, fixtures: CorpusFixtures
) -> tuple[list[str], Path]:
    """The command of an :data:`OPTION_FILES` case, and a copy of the file its option names."""
    command, read = OPTION_FILES[case]
    read_file = tmp_path / f"mine-{Path(read).name}"
    read_file.write_bytes(_file(read, fixtures).read_bytes())
    args = _arguments(command, source, fixtures)
    return [*args, str(read_file)], read_file


@pytest.mark.parametrize("case", list(OPTION_FILES), ids=list(OPTION_FILES))
def test_a_file_an_option_names_is_refused_as_the_output(
    case: str, source: Path, tmp_path: Path, fixtures: CorpusFixtures
) -> None:
    """A rule file, lexicon, act space, strategy file or --calibrate file is read by the
    run: -o naming it would replace it with the output (exit 0, no word, before)."""
    args, read_file = _option_run(case, source, tmp_path, fixtures)
    before = read_file.read_bytes()
    result = runner.invoke(app, [*args, "-o", str(read_file)])
    assert result.exit_code == 2, result.output
    option = args[-2]
    assert f"{read_file}: is the {option} file {read_file};" in result.output
    assert "Traceback" not in result.output
    assert read_file.read_bytes() == before
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize(
    "make",
    [_a_symlink_to_the_input, _a_hard_link_to_the_input, _the_input_by_another_path],
    ids=["symlink-to-rules", "hard-link-to-rules", "other-spelling"],
)
def test_a_rule_file_is_refused_as_the_output_by_any_name(
    make: Callable[[Path, Path], Path], source: Path, tmp_path: Path, fixtures: CorpusFixtures
) -> None:
    args, read_file = _option_run("label-rules", source, tmp_path, fixtures)
    before = read_file.read_bytes()
    result = runner.invoke(app, [*args, "-o", str(make(tmp_path, read_file))])
    assert result.exit_code == 2, result.output
    assert f"is the --rules file {read_file};" in result.output
    assert read_file.read_bytes() == before


def test_a_fifo_is_written_directly(source: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "out.jsonl"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    result = run_cli("label", str(source), "-o", str(fifo))
    reader.join(timeout=60)
    assert result.returncode == 0, result.stderr
    assert stat.S_ISFIFO(fifo.lstat().st_mode), "the FIFO must stay a FIFO"
    assert len(received[0].decode().splitlines()) == 20
    assert leftovers(tmp_path) == []


def test_parquet_to_a_fifo_is_refused_before_any_work(source: Path, tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    fifo = tmp_path / "out.parquet"
    os.mkfifo(fifo)
    result = runner.invoke(app, ["label", str(source), "-o", str(fifo)])
    assert result.exit_code == 2
    assert "out.parquet: is a pipe" in result.output
    assert stat.S_ISFIFO(fifo.lstat().st_mode) and leftovers(tmp_path) == []


def _device(tmp_path: Path, name: str, minor: int) -> Path:
    """A character device node like /dev/null (minor 3) or /dev/full (7), made here so
    that a failing test can never replace the system's own."""
    if os.geteuid() != 0:
        pytest.skip("making a device node needs root")
    node = tmp_path / name
    os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, minor))
    return node


@pytest.mark.parametrize("suffix", [".jsonl", ".jsonl.gz", ".parquet"], ids=str)
def test_a_null_device_is_written_and_stays_a_device(
    suffix: str, source: Path, tmp_path: Path
) -> None:
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    node = _device(tmp_path, f"null{suffix}", 3)
    result = run_cli("label", str(source), "-o", str(node))
    assert result.returncode == 0, result.stderr
    assert stat.S_ISCHR(node.lstat().st_mode)
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("via_link", [False, True], ids=["device", "symlink-to-device"])
@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"], ids=str)
def test_a_full_device_fails_with_a_message_and_stays_a_device(
    suffix: str, via_link: bool, source: Path, tmp_path: Path
) -> None:
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    node = _device(tmp_path, f"full{suffix}", 7)
    out = node
    if via_link:
        out = tmp_path / f"link{suffix}"
        out.symlink_to(node)
    result = run_cli("label", str(source), "-o", str(out))
    assert result.returncode == 2
    assert f"{out.name}: cannot write (no space left on device)" in result.stderr
    assert "Traceback" not in result.stderr
    assert stat.S_ISCHR(node.lstat().st_mode), "the device must not be replaced"
    assert leftovers(tmp_path) == []


def test_a_full_standard_output_is_named(source: Path, tmp_path: Path) -> None:
    """``label > /dev/full`` said only "no space left on device"."""
    node = _device(tmp_path, "full", 7)
    with node.open("w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "actparse", "label", str(source)],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
            timeout=120,
        )
    assert (result.returncode, result.stderr) == (
        2,
        "error: <stdout>: no space left on device\n",
    )


@pytest.mark.parametrize("jobs", ["1", "2"], ids=["jobs-1", "jobs-2"])
@pytest.mark.parametrize("suffix", [".jsonl", ".jsonl.gz"], ids=str)
def test_a_write_error_leaves_the_old_file_and_no_temporary(
    jobs: str, suffix: str, fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    # A file size limit makes every write past 4 KB fail (EFBIG), as a full disk would.
    def limit_file_size() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    out = tmp_path / f"out{suffix}"
    out.write_text(OLD)
    # More than one task's records: an input of one task is labelled without workers.
    source = tmp_path / "in.jsonl"
    source.write_bytes((fixtures / SOURCE_NAME).read_bytes() * (TASK_SIZE // 20 + 1))
    result = run_cli(
        "label", str(source), "-o", str(out), "--jobs", jobs, preexec_fn=limit_file_size
    )
    assert result.returncode == 2
    assert f"out{suffix}: cannot write (file too large)" in result.stderr
    assert "Traceback" not in result.stderr
    assert out.read_text() == OLD
    assert leftovers(tmp_path) == []


def test_an_error_while_labelling_removes_the_temporary(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text(OLD)
    with pytest.raises(RuntimeError), open_output(out) as sink:
        sink.write("{}\n")
        assert leftovers(tmp_path)  # written under a temporary name...
        raise RuntimeError("stop")
    assert out.read_text() == OLD and leftovers(tmp_path) == []  # ...and removed


def test_open_output_refuses_a_directory_before_opening_anything(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="is a directory"):
        open_output(tmp_path)
    assert leftovers(tmp_path.parent) == []


@pytest.mark.parametrize("redirect", [">", ">>"], ids=["truncate", "append"])
def test_dev_stdout_is_written_as_the_caller_opened_it(
    redirect: str, source: Path, tmp_path: Path
) -> None:
    log = tmp_path / "log.jsonl"
    log.write_text(OLD)
    command = f"{sys.executable} -m actparse label {source} -o /dev/stdout {redirect} {log}"
    result = subprocess.run(["bash", "-c", command], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    lines = log.read_text().splitlines()
    assert lines[:1] == (["old contents"] if redirect == ">>" else lines[:1])
    assert len(lines) == 20 + (redirect == ">>")
    assert leftovers(tmp_path) == []


def test_dev_stdout_to_a_pipe_is_written_directly(source: Path) -> None:
    command = f"{sys.executable} -m actparse label {source} -o /dev/stdout | wc -l"
    result = subprocess.run(["bash", "-c", command], capture_output=True, text=True, check=False)
    assert result.stdout.strip() == "20", result.stderr


def _truncated_gz(data: bytes) -> bytes:
    packed = gzip.compress(data)
    return packed[: len(packed) // 2]


@pytest.mark.parametrize(
    ("name", "damage"),
    [
        pytest.param("in.jsonl.gz", _truncated_gz, id="truncated-gz"),
        pytest.param("in.jsonl", lambda data: b"\xff" + data, id="not-utf8"),
    ],
)
def test_the_progress_count_never_fails_a_run(
    name: str, damage: Callable[[bytes], bytes], source: Path, tmp_path: Path
) -> None:
    """The count only sizes a progress bar: an input it cannot read gives no count (the
    run itself reports the damage in its place)."""
    damaged = tmp_path / name
    damaged.write_bytes(damage(source.read_bytes()))
    assert count_records(damaged) is None


def test_a_gz_output_keeps_its_own_name_in_the_gzip_header(
    fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    """The output is written to a temporary name and renamed; gzip's header names the
    output ('gunzip -N' restores labelled.jsonl), not the temporary file."""
    out = tmp_path / "labelled.jsonl.gz"
    done = CliRunner().invoke(app, ["label", str(fixtures / "casino_20.json"), "-o", str(out)])
    assert done.exit_code == 0, done.output
    header = out.read_bytes()[:64]
    assert header[3] & 0x08  # FNAME is set
    name = header[10 : header.index(b"\0", 10)]
    assert name == b"labelled.jsonl"
    assert len(gzip.decompress(out.read_bytes()).splitlines()) == 20
