"""Lines of an input: read with a bound on their length, split where Python ends a line.

Bytes are read one line (up to a newline byte) at a time, never more than the bound,
:data:`MAX_LINE_BYTES` unless :func:`line_limit` says otherwise (``--max-line-bytes``).
A longer line is one failed line, ``file:line: longer than ... bytes``, whose bytes are
skipped without being held: reading goes on with the next line.

A line may hold other line ends than the newline byte: old-Mac files end their lines
with a carriage return alone, and Python's :meth:`str.splitlines` knows more (``\\x0b``,
``\\x0c``, ``\\x1c``-``\\x1e``, ``\\x85``, U+2028, U+2029). Once the layout is known,
:func:`split_text_lines` (plain-text layouts) splits at every one of them, and
:func:`split_json_lines` (JSON lines) splits at those that a JSON value cannot hold: the
control characters, and a carriage return alone unless the text around it shows a JSON
value going on. ``\\x85``, U+2028 and U+2029 may stand inside a JSON string as they are,
so they never end a JSON line. A line cut there is given without its line end, and
lines are numbered as the splitting counts them.
"""

from __future__ import annotations

import codecs
import gzip
import os
import re
import stat
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, NamedTuple, cast

from actparse.io.suffixes import has_suffix

__all__ = [
    "GZIP_MAGIC",
    "MAX_LINE_BYTES",
    "Line",
    "count_filled_lines",
    "decoded_lines",
    "ending_at_unread",
    "line_limit",
    "max_line_bytes",
    "open_binary",
    "split_json_lines",
    "split_text_lines",
]

#: The longest line read, in bytes (its line end not counted): 64 MiB. A record of the
#: shipped corpora takes a few kilobytes.
MAX_LINE_BYTES = 64 * 1024 * 1024
#: Bytes skipped at a time past the end of a line too long to read.
_SKIP = 1 << 20

_limit = [MAX_LINE_BYTES]


def max_line_bytes() -> int:
    """The bound on a line's length now in force."""
    return _limit[0]


@contextmanager
def line_limit(limit: int | None) -> Iterator[None]:
    """Read lines of at most ``limit`` bytes inside the block (``None``: the default)."""
    previous = _limit[0]
    _limit[0] = MAX_LINE_BYTES if limit is None else limit
    try:
        yield
    finally:
        _limit[0] = previous


class Line(NamedTuple):
    """One line: its number, its text and, when it could not be read, why.

    ``text`` is the decoded line with its line end (undecodable bytes replaced when ``error``
    says so), ``""`` for a line too long to read, ``None`` when reading itself failed.
    ``problem`` is ``error`` without the place, to name it again when lines are renumbered.
    """

    number: int
    text: str | None
    error: str | None = None
    problem: str | None = None


def _failed(name: str, number: int, text: str | None, problem: str) -> Line:
    return Line(number, text, f"{name}:{number}: {problem}", problem)


def decoded_lines(stream: IO[bytes], name: str, limit: int | None = None) -> Iterator[Line]:
    """Every line up to a newline byte, decoded on its own, each at most ``limit`` bytes.

    A bad byte costs its line only, a line too long costs itself, and a read failure (a
    truncated or corrupt ``.gz``) ends the lines with one failed line."""
    bound = max_line_bytes() if limit is None else limit
    number = 0
    try:
        while data := stream.readline(bound + 1):
            number += 1
            if len(data) > bound and not data.endswith(b"\n"):
                size = len(data) + _skip_line(stream)
                yield _failed(name, number, "", _too_long(size, bound))
                continue
            if number == 1 and data.startswith(codecs.BOM_UTF8):
                data = data[len(codecs.BOM_UTF8) :]
            try:
                yield Line(number, data.decode("utf-8"))
            except UnicodeDecodeError as err:
                problem = (
                    f"not valid UTF-8: byte 0x{data[err.start]:02x} at position "
                    f"{err.start + 1} of the line"
                )
                yield _failed(name, number, data.decode("utf-8", "replace"), problem)
    except (OSError, EOFError, zlib.error) as err:
        yield _failed(name, number + 1, None, _read_problem(err))


#: The first bytes of gzip's output.
GZIP_MAGIC = b"\x1f\x8b"


def open_binary(path: str | Path) -> IO[bytes]:
    """A file opened for :func:`decoded_lines`, gzip decompressed on the fly.

    Gzip is told by a ``.gz`` name, or by gzip's first bytes in a regular file of another
    name (``val.jsonl`` compressed in place), as standard input's are told: its bytes would
    otherwise read as text no format claims."""
    if has_suffix(path, ".gz") or _starts_as_gzip(path):
        return cast(IO[bytes], gzip.open(path, "rb"))
    return open(path, "rb")


def _starts_as_gzip(path: str | Path) -> bool:
    """Whether a regular file begins with gzip's bytes (a pipe's, once read, are gone)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False
        with open(path, "rb") as head:
            return head.read(len(GZIP_MAGIC)) == GZIP_MAGIC
    except OSError:
        return False  # the open that follows says what is wrong


def count_filled_lines(stream: IO[bytes], limit: int | None = None) -> int:
    """Lines with more than blanks on them up to newline bytes, none held whole (a bar's length)."""
    bound = max_line_bytes() if limit is None else limit
    count = 0
    while data := stream.readline(bound + 1):
        if len(data) > bound and not data.endswith(b"\n"):
            _skip_line(stream)
            count += 1
        elif data.strip():
            count += 1
    return count


def ending_at_unread(lines: Iterator[Line]) -> Iterator[Line]:
    """Lines for a layout that cannot skip one (a JSON list): a line too long to read ends them.

    It becomes a failed read (``text`` ``None``), as the end of a truncated ``.gz`` is: what
    follows is not read, rather than read as if the line were not there."""
    for line in lines:
        if line.text == "" and line.error is not None:  # only a line too long has no text
            yield line._replace(text=None)
            return
        yield line


def _skip_line(stream: IO[bytes]) -> int:
    """Read past the end of the line under way, holding at most :data:`_SKIP` bytes; the count."""
    skipped = 0
    while data := stream.readline(_SKIP):
        skipped += len(data)
        if data.endswith(b"\n"):
            return skipped - 1
    return skipped


def _too_long(size: int, bound: int) -> str:
    return (
        f"line longer than {bound:,} bytes ({size:,} bytes, not read); "
        "--max-line-bytes raises the limit"
    )


def _read_problem(err: Exception) -> str:
    if isinstance(err, EOFError):
        return "the compressed file ends early (truncated); the lines before it were read"
    if isinstance(err, gzip.BadGzipFile):
        return f"not gzip data ({err})"
    if isinstance(err, zlib.error):
        return f"corrupt compressed data ({err})"
    return f"cannot be read ({err})"


# ---------------------------------------------------------------------------
# Splitting at the line ends Python knows
# ---------------------------------------------------------------------------

#: Line ends other than the newline (a ``\r\n`` ends a line as the newline does).
_TEXT_ENDS = re.compile("\r(?!\n)|[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
#: Those a JSON value cannot hold as they are (a carriage return only between tokens).
_JSON_ENDS = re.compile("\r(?!\n)|[\x0b\x0c\x1c\x1d\x1e]")
#: Around a carriage return between two tokens of one JSON value: a ``{ [ , :`` before
#: it or a ``} ] , :`` after it (blanks aside). After a whole value only these can follow.
_GOES_ON_BEFORE = re.compile(r"[{\[,:][ \t\r]*\Z")
_GOES_ON_AFTER = re.compile(r"[ \t\r]*[}\],:]")


def split_text_lines(lines: Iterator[Line], name: str) -> Iterator[Line]:
    """Lines of a plain-text layout split at every line end :meth:`str.splitlines` knows."""
    return _split(lines, name, json=False)


def split_json_lines(lines: Iterator[Line], name: str) -> Iterator[Line]:
    """Lines of JSON lines split at the line ends no JSON value holds (see the module)."""
    return _split(lines, name, json=True)


def _split(lines: Iterator[Line], name: str, json: bool) -> Iterator[Line]:
    """Each line cut at its inner line ends, every line numbered as the cuts count.

    A line that could not be read is not cut: it stays one error, renumbered."""
    ends = _JSON_ENDS if json else _TEXT_ENDS
    extra = 0  # line ends found so far inside the lines read
    for line in lines:
        number = line.number + extra
        if line.error is not None or line.text is None:
            renamed = line.error if line.problem is None else f"{name}:{number}: {line.problem}"
            yield line._replace(number=number, error=renamed)
            continue
        text = line.text
        # Most lines end once, with a newline: splitlines tells so at C speed.
        plain = len(text.splitlines()) <= 1 and text[-1:] in ("\n", "\r", "")
        if plain or ends.search(text) is None:
            yield line._replace(number=number) if extra else line
            continue
        start = 0
        for found in ends.finditer(text):
            extra += 1
            cut = found.end()
            if json and found.group() == "\r" and _goes_on(text, found.start(), cut):
                continue
            yield Line(number, text[start : found.start()])
            number = line.number + extra
            start = cut
        if start < len(text):
            yield Line(number, text[start:])


def _goes_on(text: str, end: int, after: int) -> bool:
    """Whether the carriage return at ``end`` stands between two tokens of one JSON value."""
    before = text[max(0, end - 64) : end]
    return bool(_GOES_ON_BEFORE.search(before) or _GOES_ON_AFTER.match(text, after))
