"""Outputs (issue 28): standard input is refused as the output by the identity of the open
file, whatever it is named; a temporary name always fits the file system; a replaced file
keeps its owner and group.

Each command that writes a file is run as a user runs it (its own process, ``< file``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from corpus_fixtures import FIXTURES, CorpusFixtures

from actparse.io.destination import NAME_MAX, Destination, OutputError, temporary_path

SOURCE_NAME = "craigslist_validation_20.jsonl"
CORPUS = FIXTURES / "convokit_corpus"
ROOT = os.geteuid() == 0
#: Not the test's own user or group: a file "owned by someone else".
SOMEONE = 12345


def run_from(stdin: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``actparse ARGS < stdin``, in its own process."""
    with open(stdin, "rb") as fh:
        return subprocess.run(
            [sys.executable, "-m", "actparse", *args],
            stdin=fh,
            capture_output=True,
            text=True,
            check=False,
            timeout=300,
        )


@pytest.fixture
def source(fixtures: CorpusFixtures, tmp_path: Path) -> Path:
    copy = tmp_path / SOURCE_NAME
    copy.write_bytes((fixtures / SOURCE_NAME).read_bytes())
    return copy


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob(".*.part"))


# -- standard input from the output file --------------------------------------------------

#: Each command that writes, reading standard input (by a name it takes), writing to OUT.
WRITERS = {
    "label-dash": ["label", "-", "-o", "OUT"],
    "label-dash-jobs-2": ["label", "-", "-o", "OUT", "--jobs", "2"],
    "label-dash-keep": ["label", "-", "-o", "OUT", "--on-error", "keep"],
    "label-dev-stdin": ["label", "/dev/stdin", "-o", "OUT"],
    "label-dev-fd-0": ["label", "/dev/fd/0", "-o", "OUT"],
    "label-per-turn": ["label", "-", "--per-turn", "-o", "OUT"],
    "label-per-turn-csv": ["label", "-", "--per-turn", "-o", "OUT.csv"],
    "label-parquet": ["label", "-", "-o", "OUT.parquet"],
    "report": ["report", "-", "-o", "OUT"],
    "train-prices": ["train-prices", "/dev/stdin", "-o", "OUT"],
    "train-prices-calibrate": [
        "train-prices",
        "TRANSCRIPTS",
        "--calibrate",
        "/dev/fd/0",
        "-o",
        "OUT",
    ],
}


@pytest.mark.parametrize("command", list(WRITERS.values()), ids=list(WRITERS))
def test_standard_input_from_the_output_file_is_refused(
    command: list[str], source: Path, tmp_path: Path, fixtures: CorpusFixtures
) -> None:
    transcripts = tmp_path / "transcripts.json"
    transcripts.write_bytes((fixtures / "craigslist_transcripts_20.json").read_bytes())
    # The output file holds the input, under the name the command writes to.
    out = tmp_path / "out"
    args = [a.replace("OUT", str(out)).replace("TRANSCRIPTS", str(transcripts)) for a in command]
    target = Path(args[args.index("-o") + 1])
    target.write_bytes(source.read_bytes())
    before = target.read_bytes()
    result = run_from(target, *args)
    assert result.returncode == 2, result.stderr
    # The --calibrate file is named as such ("is the --calibrate file /dev/fd/0").
    assert "writing the output over it would destroy" in result.stderr
    assert "Traceback" not in result.stderr
    assert target.read_bytes() == before, "the reference acts of the input must survive"
    assert _leftovers(tmp_path) == []


def test_standard_input_by_dash_is_named_as_standard_input(source: Path) -> None:
    result = run_from(source, "label", "-", "-o", str(source))
    assert result.returncode == 2
    assert f"{source}: is standard input;" in result.stderr


def test_a_hard_link_to_the_output_as_standard_input_is_refused(
    source: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other-name.jsonl"
    os.link(source, other)
    before = source.read_bytes()
    result = run_from(other, "label", "-", "-o", str(source))
    assert result.returncode == 2 and "is standard input" in result.stderr
    assert source.read_bytes() == before


def test_standard_input_from_another_file_is_labelled(source: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text("old\n")
    result = run_from(source, "label", "-", "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert len(out.read_text().splitlines()) == 20


def test_a_folder_output_is_checked_against_its_input_folder(tmp_path: Path) -> None:
    """The ConvoKit folder output exists only for a folder input (never standard input),
    and is refused inside it (tests/corpora/chat/test_convokit_folder.py): a new name."""
    corpus = Path(shutil.copytree(CORPUS, tmp_path / "corpus"))
    with open(corpus / "utterances.jsonl", "rb") as fh:
        result = subprocess.run(
            [sys.executable, "-m", "actparse", "label", str(corpus), "-o", str(corpus / "x")],
            stdin=fh,
            capture_output=True,
            text=True,
            check=False,
            timeout=300,
        )
    assert result.returncode == 2 and "is inside the input folder" in result.stderr


def test_the_library_refuses_standard_input_as_the_output(source: Path) -> None:
    with open(source, "rb") as fh:
        saved = os.dup(0)
        os.dup2(fh.fileno(), 0)
        try:
            with pytest.raises(OutputError, match="is standard input"):
                Destination(source, ["-"])
        finally:
            os.dup2(saved, 0)
            os.close(saved)


def test_no_standard_input_at_all_is_not_the_output(source: Path) -> None:
    saved = os.dup(0)
    os.close(0)
    try:
        Destination(source, ["-"])  # fstat(0) fails: nothing to compare, no error
    finally:
        os.dup2(saved, 0)
        os.close(saved)


# -- a legal output name near NAME_MAX ----------------------------------------------------


def _longest(stem: str, suffix: str) -> str:
    """The longest name of ``stem`` characters repeated, ending in ``suffix``, that fits."""
    room = NAME_MAX - len(suffix.encode())
    return stem * (room // len(stem.encode())) + suffix


LONG_NAMES = {
    "ascii-255-bytes": _longest("a", ".jsonl"),
    "utf8-2-byte": _longest("é", ".jsonl"),
    "utf8-3-byte": _longest("語", ".jsonl"),
    "utf8-4-byte": _longest("😀", ".jsonl.gz"),
    "parquet": _longest("b", ".parquet"),
    "csv": _longest("c", ".csv"),
    "html": _longest("d", ".html"),
}


@pytest.mark.parametrize("name", list(LONG_NAMES.values()), ids=list(LONG_NAMES))
def test_a_name_near_name_max_is_written(name: str, source: Path, tmp_path: Path) -> None:
    assert len(os.fsencode(name)) <= NAME_MAX
    out = tmp_path / name
    if name.endswith(".html"):
        args = ["report", str(source), "-o", str(out)]
    elif name.endswith(".csv"):
        args = ["label", str(source), "--per-turn", "-o", str(out)]
    else:
        args = ["label", str(source), "-o", str(out)]
    result = run_from(source, *args)
    assert result.returncode == 0, result.stderr
    assert out.is_file() and out.stat().st_size > 0
    assert _leftovers(tmp_path) == []


def test_the_temporary_name_always_fits_and_stays_text() -> None:
    for name in LONG_NAMES.values():
        temporary = temporary_path(Path("/x") / name)
        encoded = os.fsencode(temporary.name)
        assert len(encoded) <= NAME_MAX
        encoded.decode("utf-8")  # cut on a character, never inside one
        assert temporary.name.startswith(".") and temporary.name.endswith(".part")
    # Two long names with the same beginning do not share a temporary.
    first, second = ("x" * 250 + end for end in ("1.csv", "2.csv"))
    assert temporary_path(Path(first)) != temporary_path(Path(second))
    # A short name keeps the plain form.
    assert temporary_path(Path("/x/out.jsonl")).name == f".out.jsonl.{os.getpid()}.part"


def test_a_folder_output_near_name_max_is_written(tmp_path: Path) -> None:
    out = tmp_path / ("f" * NAME_MAX)
    result = run_from(CORPUS / "utterances.jsonl", "label", str(CORPUS), "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert (out / "utterances.jsonl").is_file()


# -- replacing a file owned by someone else -----------------------------------------------

needs_root = pytest.mark.skipif(not ROOT, reason="giving a file to another user needs root")


def _owned(path: Path, mode: int = 0o640) -> Path:
    path.write_text("old\n")
    os.chown(path, SOMEONE, SOMEONE + 1)
    path.chmod(mode)
    return path


@needs_root
@pytest.mark.parametrize(
    "suffix", [".jsonl", ".jsonl.gz", ".parquet", ".csv", ".html", ".json"], ids=str
)
def test_a_replaced_file_keeps_its_owner_group_and_mode(
    suffix: str, source: Path, tmp_path: Path, fixtures: CorpusFixtures
) -> None:
    out = _owned(tmp_path / f"out{suffix}")
    if suffix == ".html":
        args = ["report", str(source), "-o", str(out)]
    elif suffix == ".csv":
        args = ["label", str(source), "--per-turn", "-o", str(out)]
    elif suffix == ".json":
        args = ["train-prices", str(fixtures / "craigslist_transcripts_20.json"), "-o", str(out)]
    else:
        args = ["label", str(source), "-o", str(out), "--jobs", "2"]
    result = run_from(source, *args)
    assert result.returncode == 0, result.stderr
    found = out.stat()
    assert (found.st_uid, found.st_gid) == (SOMEONE, SOMEONE + 1)
    assert found.st_mode & 0o7777 == 0o640
    assert out.read_bytes() != b"old\n"


@needs_root
def test_a_replaced_file_through_a_link_keeps_its_owner(source: Path, tmp_path: Path) -> None:
    target = _owned(tmp_path / "target.jsonl", 0o600)
    link = tmp_path / "link.jsonl"
    link.symlink_to(target.name)
    result = run_from(source, "label", str(source), "-o", str(link))
    assert result.returncode == 0, result.stderr
    assert link.is_symlink()
    assert (target.stat().st_uid, target.stat().st_gid) == (SOMEONE, SOMEONE + 1)


@needs_root
def test_an_empty_folder_output_keeps_its_owner(tmp_path: Path) -> None:
    out = tmp_path / "labelled"
    out.mkdir()
    os.chown(out, SOMEONE, SOMEONE)
    out.chmod(0o750)
    result = run_from(CORPUS / "utterances.jsonl", "label", str(CORPUS), "-o", str(out))
    assert result.returncode == 0, result.stderr
    for path in (out, *out.rglob("*")):
        assert (path.stat().st_uid, path.stat().st_gid) == (SOMEONE, SOMEONE), path
    assert out.stat().st_mode & 0o7777 == 0o750


def test_a_new_file_is_the_process_own(source: Path, tmp_path: Path) -> None:
    out = tmp_path / "new.jsonl"
    result = run_from(source, "label", str(source), "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert out.stat().st_uid == os.geteuid()


def test_a_refused_chown_leaves_the_file_as_created(
    source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process that may not give the owner (not root) still writes the file."""
    calls: list[tuple[int, int]] = []

    def refuse(path: object, uid: int, gid: int) -> None:
        calls.append((uid, gid))
        raise PermissionError(1, "Operation not permitted")

    out = tmp_path / "out.jsonl"
    out.write_text("old\n")
    monkeypatch.setattr(os, "chown", refuse)
    destination = Destination(out, [source])
    destination.write_path.write_text("new\n")
    destination.commit()
    assert out.read_text() == "new\n"
    mine = out.stat()
    assert calls == [(mine.st_uid, mine.st_gid), (-1, mine.st_gid)]
