"""Hostile inputs for every corpus and layout: a few good records of a fixture with one
thing broken at the reader level (bytes, layout, JSON shape) or wrong but readable
(counts, a missing task_data, a string for a list).

Each :class:`Case` says how many output records ``--on-error keep`` must write (one per
input record, line or list element), how many of them are errors, and the line the first
error names (what ``--on-error stop`` must report).
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from corpus_fixtures import FIXTURES

GOOD = 3  # good records each case starts from


@dataclass(frozen=True)
class Case:
    """One hostile input: its file name (the suffix matters), bytes, and what to expect."""

    id: str
    name: str
    content: bytes
    records: int
    errors: int
    #: What the first error names after ``file:`` (a regular expression): the line, and
    #: for an element of a JSON list the line and the element.
    first_error: str | None = None
    #: --format to pass (``auto`` otherwise).
    fmt: str = "auto"


def _hf_lines() -> list[str]:
    return (FIXTURES / "craigslist_validation_20.jsonl").read_text().splitlines()[:GOOD]


def _dond_lines() -> list[str]:
    return (FIXTURES / "dealornodeal_val_20.txt").read_text().splitlines()[:GOOD]


def _list(name: str) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads((FIXTURES / name).read_text())
    return data[:GOOD]


def _jsonl(lines: list[str]) -> bytes:
    return ("\n".join(lines) + "\n").encode()


def _dumps(value: Any) -> str:
    # ensure_ascii keeps a lone surrogate as its escape, as a real file would have it.
    return json.dumps(value, indent=1)


def _truncated_gz(text: bytes, keep: float) -> tuple[bytes, int]:
    """A gzip of ``text`` cut at ``keep`` of its size, and how many whole lines the cut
    stream still holds."""
    packed = gzip.compress(text)
    cut = packed[: int(len(packed) * keep)]
    return cut, _gunzip_prefix(cut).count(b"\n")


def _with_casino_submission(change: Callable[[dict[str, Any]], None]) -> list[dict[str, Any]]:
    """The CaSiNo records with ``change`` applied to the first Submit-Deal."""
    records = _list("casino_20.json")
    for log in records[0]["chat_logs"]:
        if log["text"] == "Submit-Deal":
            change(log)
            return records
    raise AssertionError("the fixture's first dialogue has no Submit-Deal")


def _food(count: Any) -> Callable[[dict[str, Any]], None]:
    def change(log: dict[str, Any]) -> None:
        log["task_data"]["issue2youget"]["Food"] = count

    return change


def _dond_hf_record(line: str) -> dict[str, Any]:
    from actparse.corpora.dealornodeal import text_line_to_record

    return text_line_to_record(line)


def hf_cases() -> list[Case]:
    lines = _hf_lines()
    good = json.loads(lines[0])
    bad_byte = lines[1].replace("a", "\udcff", 1).encode("utf-8", "surrogateescape")
    gz, whole = _truncated_gz(_jsonl(_hf_lines() * 5), 0.5)
    return [
        Case("invalid-utf8-line", "t.jsonl", _jsonl(lines) + b"\xff\n", 4, 1, "4"),
        Case(
            "invalid-utf8-in-record",
            "t.jsonl",
            _jsonl(lines[:1]) + bad_byte + b"\n" + _jsonl(lines[2:]),
            3,
            1,
            "2",
        ),
        Case("bom", "t.jsonl", b"\xef\xbb\xbf" + _jsonl(lines), 3, 0),
        Case("first-line-json-list", "t.jsonl", _jsonl(["[1,2]", *lines]), 4, 1, "1"),
        Case("first-line-null", "t.jsonl", _jsonl(["null", *lines]), 4, 1, "1"),
        Case("line-not-json", "t.jsonl", _jsonl([lines[0], "{broken", *lines[1:]]), 4, 1, "2"),
        Case(
            "utterance-a-string",
            "t.jsonl",
            _jsonl([json.dumps({**good, "utterance": "ab", "agent_turn": [0, 1]}), *lines]),
            4,
            1,
            "1",
        ),
        Case(
            "utterance-an-int",
            "t.jsonl",
            _jsonl([json.dumps({**good, "utterance": [5, *good["utterance"][1:]]}), *lines]),
            4,
            1,
            "1",
        ),
        Case(
            "lone-surrogate",
            "t.jsonl",
            _jsonl([json.dumps({**good, "utterance": ["\ud800", *good["utterance"][1:]]})]),
            1,
            0,
        ),
        Case("truncated-gz", "t.jsonl.gz", gz, whole + 1, 1, str(whole + 1)),
        Case("not-gzip", "t.jsonl.gz", _jsonl(lines), 1, 1, "1", fmt="hf"),
    ]


def cocoa_cases() -> list[Case]:
    records = _list("craigslist_transcripts_20.json")
    text = _dumps(records)
    surrogate = json.loads(text)
    surrogate[0]["events"][0]["data"] = "\ud800 hello"
    half = text.encode()[: len(text) * 2 // 3]
    return [
        Case(
            "null-element",
            "t.json",
            _dumps([records[0], None, *records[1:]]).encode(),
            4,
            1,
            r"\d+: dialogue 2",
        ),
        Case(
            "number-element",
            "t.json",
            _dumps([records[0], 5, *records[1:]]).encode(),
            4,
            1,
            r"\d+: dialogue 2",
        ),
        Case("list-element", "t.json", _dumps([[1], *records]).encode(), 4, 1, r"\d+: dialogue 1"),
        Case("bom", "t.json", b"\xef\xbb\xbf" + text.encode(), 3, 0),
        Case(
            "invalid-utf8-in-element",
            "t.json",
            text.replace('"buyer"', '"buy\udcffer"', 1).encode("utf-8", "surrogateescape"),
            3,
            1,
        ),
        Case("lone-surrogate", "t.json", _dumps(surrogate).encode(), 3, 0),
        Case("cut-short", "t.json", half, _whole_elements(half) + 1, 1),
        Case("text-after-the-list", "t.json", text.encode() + b"\nhello\n", 4, 1),
        Case("missing-comma", "t.json", text.replace("},\n {", "}\n {", 1).encode(), 2, 1),
    ]


def casino_cases() -> list[Case]:
    records = _list("casino_20.json")
    surrogate = _list("casino_20.json")
    surrogate[1]["chat_logs"][0]["text"] = "\ud800 hello"
    gz, _whole = _truncated_gz(_dumps(records * 4).encode(), 0.6)

    def no_task(log: dict[str, Any]) -> None:
        del log["task_data"]

    return [
        Case("null-element", "c.json", _dumps([None, *records]).encode(), 4, 1, r"\d+: dialogue 1"),
        Case(
            "string-element", "c.json", _dumps([*records, "x"]).encode(), 4, 1, r"\d+: dialogue 4"
        ),
        Case("lone-surrogate", "c.json", _dumps(surrogate).encode(), 3, 0),
        Case(
            "submit-count-negative",
            "c.json",
            _dumps(_with_casino_submission(_food(-5))).encode(),
            3,
            1,
            "1",
        ),
        Case(
            "submit-count-99",
            "c.json",
            _dumps(_with_casino_submission(_food(99))).encode(),
            3,
            1,
            "1",
        ),
        Case(
            "submit-count-fraction",
            "c.json",
            _dumps(_with_casino_submission(_food(1.5))).encode(),
            3,
            1,
            "1",
        ),
        Case(
            "submit-without-task-data",
            "c.json",
            _dumps(_with_casino_submission(no_task)).encode(),
            3,
            1,
            "1",
        ),
        Case("truncated-gz", "c.json.gz", gz, _whole_elements(_gunzip_prefix(gz)) + 1, 1),
    ]


def _gunzip_prefix(gz: bytes) -> bytes:
    return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(gz)


def _whole_elements(data: bytes) -> int:
    """Whole elements at the start of a JSON list cut short."""
    text = data.decode("utf-8", "replace")
    decoder, pos, count = json.JSONDecoder(), text.index("[") + 1, 0
    while True:
        while pos < len(text) and text[pos] in " \t\r\n,":
            pos += 1
        try:
            _value, pos = decoder.raw_decode(text, pos)
        except json.JSONDecodeError:
            return count
        count += 1


def dond_cases() -> list[Case]:
    lines = _dond_lines()
    head = "<input> 1 6 3 0 2 2 </input> <dialogue> YOU: hi <eos> THEM: <selection> </dialogue>"
    partner = "<partner_input> 1 6 3 0 2 2 </partner_input>"
    agreed = "<output> item0=99 item1=0 item2=0 item0=0 item1=3 item2=2 </output>"
    negative = head.replace("1 6 3 0 2 2", "-1 6 3 0 2 2")
    negative_partner = partner.replace("1 6 3 0 2 2", "-1 6 3 0 2 2")
    hf = _dond_hf_record(lines[0])
    hf["input"]["count"] = [-1, 3, 2]
    hf["partner_input"]["count"] = [-1, 3, 2]
    return [
        Case("missing-output", "d.txt", _jsonl([*lines, f"{head} {partner}"]), 4, 1, "4"),
        Case(
            "five-numbers",
            "d.txt",
            _jsonl(
                [
                    *lines,
                    head.replace("1 6 3 0 2 2", "1 6 3 0 2")
                    + f" <output> <disagree> </output> {partner}",
                ]
            ),
            4,
            1,
            "4",
        ),
        Case(
            "non-integer",
            "d.txt",
            _jsonl(
                [
                    lines[0],
                    head.replace(" 6 ", " x ") + f" <output> <disagree> </output> {partner}",
                    *lines[1:],
                ]
            ),
            4,
            1,
            "2",
        ),
        Case("junk-line", "d.txt", _jsonl([*lines[:2], "<junk", lines[2]]), 4, 1, "3"),
        Case(
            "negative-counts",
            "d.txt",
            _jsonl([f"{negative} <output> <disagree> </output> {negative_partner}", *lines]),
            4,
            1,
            "1",
        ),
        Case(
            "output-out-of-range",
            "d.txt",
            _jsonl([*lines, f"{head} {agreed} {partner}"]),
            4,
            1,
            "4",
        ),
        Case(
            "invalid-utf8",
            "d.txt",
            _jsonl(lines[:1]) + b"<input \xff\n" + _jsonl(lines[1:]),
            4,
            1,
            "2",
        ),
        Case("bom", "d.txt", b"\xef\xbb\xbf" + _jsonl(lines), 3, 0),
        Case("hf-layout-negative-count", "d.jsonl", _jsonl([json.dumps(hf)]), 1, 1, "1"),
    ]


def mutualfriends_cases() -> list[Case]:
    lines = (FIXTURES / "mutualfriends_handmade.jsonl").read_text().splitlines()
    lines = [line for line in lines if line.strip()]
    return [
        Case(
            "null-line", "m.jsonl", _jsonl([*lines, "null"]), len(lines) + 1, 1, str(len(lines) + 1)
        ),
        Case(
            "invalid-utf8-line",
            "m.jsonl",
            _jsonl(lines) + b"\xfe\xff\n",
            len(lines) + 1,
            1,
            str(len(lines) + 1),
        ),
    ]


CORPUS_CASES = {
    "hf": hf_cases,
    "cocoa": cocoa_cases,
    "casino": casino_cases,
    "dealornodeal": dond_cases,
    "mutualfriends": mutualfriends_cases,
}


def all_cases() -> list[tuple[str, Case]]:
    """``(corpus-format, case)`` for every case."""
    return [(corpus, case) for corpus, build in CORPUS_CASES.items() for case in build()]
