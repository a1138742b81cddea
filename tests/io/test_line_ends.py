"""Issue 28: text that is not one record per newline-ended line.

Before: a Deal or No Deal file with old-Mac line ends (a carriage return alone) was one
line, read as its first dialogue: 50 dialogues became 1 labelled record, exit 0, no
error; two dialogues on one line gave the first, the second vanished. Now plain-text
layouts split at every line end :meth:`str.splitlines` knows, JSON lines at those no
JSON value can hold (:mod:`actparse.io.lines`), and a line with a section tag twice is
an error naming the file and the line. Keep and stop mode, ``--jobs 1`` and ``2``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from corpus_fixtures import CorpusFixtures
from typer.testing import CliRunner

from actparse.cli import app
from actparse.io.lines import Line, split_json_lines, split_text_lines

runner = CliRunner()
#: Every line end of str.splitlines, and the newline itself.
ENDS = {
    "lf": "\n",
    "crlf": "\r\n",
    "cr": "\r",
    "vt": "\x0b",
    "ff": "\x0c",
    "fs": "\x1c",
    "gs": "\x1d",
    "rs": "\x1e",
    "nel": "\x85",
    "ls": "\u2028",
    "ps": "\u2029",
}
#: Those that can stand inside a JSON string as they are: never a JSON line's end.
JSON_TEXT = {"nel", "ls", "ps"}
TAGS = [f"<{n}>" for n in ("input", "dialogue", "output", "partner_input")]
TAGS += [f"</{n}>" for n in ("input", "dialogue", "output", "partner_input")]


def _label(path: Path, out: Path, mode: str, jobs: int) -> tuple[int, str, list[dict]]:
    args = ["label", str(path), "-o", str(out), "--on-error", mode, "--jobs", str(jobs)]
    result = runner.invoke(app, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    records = []
    if out.exists():
        text = out.read_bytes().decode("utf-8")  # as written: U+2028 may be in a string
        records = [json.loads(x) for x in text.split("\n") if x]
    return result.exit_code, " ".join(result.output.split()), records


def _dond_lines(fixtures: CorpusFixtures) -> list[str]:
    return (fixtures / "dealornodeal_val_20.txt").read_text(encoding="utf-8").splitlines()


def _expected(tmp_path: Path, lines: list[str], name: str) -> list[dict]:
    plain = tmp_path / f"plain-{name}"
    plain.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    code, output, records = _label(plain, tmp_path / f"plain-out-{name}.jsonl", "stop", 1)
    assert code == 0, output
    return records


@pytest.mark.usefixtures("tasks_of_one")
@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("mode", ["keep", "stop"])
@pytest.mark.parametrize("end", sorted(ENDS))
def test_dealornodeal_text_reads_every_line_end(
    end: str, mode: str, jobs: int, fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    lines = _dond_lines(fixtures)
    path = tmp_path / "dond.txt"
    path.write_bytes("".join(line + ENDS[end] for line in lines).encode("utf-8"))
    code, output, records = _label(path, tmp_path / "out.jsonl", mode, jobs)
    assert code == 0, output
    assert records == _expected(tmp_path, lines, "dond.txt")


@pytest.mark.parametrize("mode", ["keep", "stop"])
def test_old_mac_file_names_the_line_of_a_broken_dialogue(
    mode: str, fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    lines = _dond_lines(fixtures)
    lines[2] = lines[2].replace("</output>", "")
    path = tmp_path / "mac.txt"
    path.write_bytes("\r".join(lines).encode("utf-8") + b"\r")
    code, output, records = _label(path, tmp_path / "out.jsonl", mode, 1)
    if mode == "stop":
        assert code == 2 and f"error: {path}:3: no <output>" in output, output
        return
    assert code == 0, output
    assert len(records) == len(lines)
    errors = [r["actparse_error"] for r in records if "actparse_error" in r]
    assert len(errors) == 1 and errors[0].startswith(f"{path}:3: no <output>"), errors


@pytest.mark.usefixtures("tasks_of_one")
@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("mode", ["keep", "stop"])
def test_two_dialogues_on_one_line_is_an_error(
    mode: str, jobs: int, fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    lines = _dond_lines(fixtures)
    joined = [lines[0], f"{lines[1]} {lines[2]}", *lines[3:]]
    path = tmp_path / "two.txt"
    path.write_text("\n".join(joined) + "\n", encoding="utf-8")
    code, output, records = _label(path, tmp_path / "out.jsonl", mode, jobs)
    if mode == "stop":
        assert code == 2, output
        assert re.search(
            rf"error: {re.escape(str(path))}:2: section tag <input> appears 2 times", output
        )
        return
    assert code == 0, output
    assert len(records) == len(joined)
    error = records[1]["actparse_error"]
    assert error.startswith(f"{path}:2: section tag <input> appears 2 times"), error
    assert records[1]["actparse_input"] == joined[1] + "\n"


@pytest.mark.parametrize("mode", ["keep", "stop"])
@pytest.mark.parametrize("tag", TAGS)
def test_every_section_tag_twice_is_an_error(
    tag: str, mode: str, fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    lines = _dond_lines(fixtures)[:3]
    lines[1] = f"{lines[1]} {tag}"
    path = tmp_path / "tag.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, output, records = _label(path, tmp_path / "out.jsonl", mode, 1)
    expected = f"{path}:2: section tag {tag} appears 2 times: one dialogue per line"
    if mode == "stop":
        assert code == 2 and f"error: {expected}" in output, output
    else:
        assert code == 0, output
        assert [("actparse_error" in r) for r in records] == [False, True, False]
        assert records[1]["actparse_error"].startswith(expected)


def _craigslist_lines(fixtures: CorpusFixtures) -> list[str]:
    return (fixtures / "craigslist_validation_20.jsonl").read_text(encoding="utf-8").splitlines()


@pytest.mark.usefixtures("tasks_of_one")
@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("mode", ["keep", "stop"])
@pytest.mark.parametrize("end", sorted(set(ENDS) - JSON_TEXT))
def test_json_lines_read_every_line_end_json_cannot_hold(
    end: str, mode: str, jobs: int, fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    lines = _craigslist_lines(fixtures)
    path = tmp_path / "cl.jsonl"
    path.write_bytes("".join(line + ENDS[end] for line in lines).encode("utf-8"))
    code, output, records = _label(path, tmp_path / "out.jsonl", mode, jobs)
    assert code == 0, output
    assert records == _expected(tmp_path, lines, "cl.jsonl")


@pytest.mark.parametrize("mode", ["keep", "stop"])
@pytest.mark.parametrize("end", sorted(JSON_TEXT))
def test_json_line_ends_a_string_may_hold_are_an_error_between_records(
    end: str, mode: str, fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    lines = _craigslist_lines(fixtures)[:3]
    path = tmp_path / "cl.jsonl"
    path.write_text(f"{lines[0]}\n{lines[1]}{ENDS[end]}{lines[2]}\n", encoding="utf-8")
    code, output, records = _label(path, tmp_path / "out.jsonl", mode, 1)
    if mode == "stop":
        assert code == 2 and f"error: {path}:2: not valid JSON" in output, output
    else:
        assert code == 0, output
        assert [("actparse_error" in r) for r in records] == [False, True]
        assert records[1]["actparse_error"].startswith(f"{path}:2: not valid JSON")


@pytest.mark.usefixtures("tasks_of_one")
@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("mode", ["keep", "stop"])
def test_valid_json_lines_holding_line_ends_are_not_broken(
    mode: str, jobs: int, fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    """U+2028, U+2029 and NEL raw in a string, a carriage return between tokens: one record."""
    lines = _craigslist_lines(fixtures)[:4]
    records = [json.loads(line) for line in lines]
    records[0]["utterance"][0] += " a\u2028b\u2029c\x85d"
    texts = [json.dumps(r, ensure_ascii=False) for r in records]
    texts[1] = texts[1].replace('{"', '{\r"', 1).replace(", ", ",\r ", 3)
    texts[2] = texts[2].replace(": ", "\r: ", 2)
    texts[3] = texts[3][:-1] + "\r}"
    path = tmp_path / "cl.jsonl"
    path.write_text("\n".join(texts) + "\n", encoding="utf-8")
    code, output, labelled = _label(path, tmp_path / "out.jsonl", mode, jobs)
    assert code == 0, output
    assert len(labelled) == 4 and not any("actparse_error" in r for r in labelled)
    assert labelled[0]["utterance"][0].endswith(" a\u2028b\u2029c\x85d")


def test_lines_are_numbered_as_the_line_ends_count() -> None:
    lines = iter([Line(1, "a\rb\x0cc\n"), Line(2, "d\u2028e\n"), Line(3, "f")])
    split = [(line.number, line.text) for line in split_text_lines(lines, "f")]
    assert split == [(1, "a"), (2, "b"), (3, "c\n"), (4, "d"), (5, "e\n"), (6, "f")]
    lines = iter([Line(1, '{"a":\r1}\r{"b": 2}\n'), Line(2, "x\u2028y\n"), Line(3, "{}")])
    split = [(line.number, line.text) for line in split_json_lines(lines, "f")]
    assert split == [(1, '{"a":\r1}'), (3, '{"b": 2}\n'), (4, "x\u2028y\n"), (5, "{}")]


def test_a_last_line_ending_otherwise_is_cut_too() -> None:
    for split in (split_text_lines, split_json_lines):
        lines = [(x.number, x.text) for x in split(iter([Line(1, "{}\n"), Line(2, "{}\x0c")]), "f")]
        assert lines == [(1, "{}\n"), (2, "{}")]


def test_an_unreadable_line_is_renumbered_not_split() -> None:
    bad = Line(2, "x\r\ufffd\n", "f:2: not valid UTF-8", "not valid UTF-8")
    split = list(split_text_lines(iter([Line(1, "a\rb\n"), bad]), "f"))
    assert [(x.number, x.error) for x in split] == [
        (1, None),
        (2, None),
        (3, "f:3: not valid UTF-8"),
    ]
