"""What a file's name says it holds, told by its suffix whatever the suffix's case.

``.gz`` is gzip, ``.csv`` a CSV table, ``.parquet`` Parquet: ``O3.JSONL.GZ`` and
``o4.Parquet`` as much as their lower-case spellings, as other tools take them (a name
from a system that shows no case, a camera's, an old archive's). Every test of a suffix
in :mod:`actparse.io` asks :func:`has_suffix`, so that none tells a format by the case of
its name: an output would be written in another format than its name says, without a word.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["has_suffix"]


def has_suffix(path: str | Path, *suffixes: str) -> bool:
    """Whether the name of ``path`` ends with one of ``suffixes`` (lower case), in any case.

    >>> has_suffix("O3.JSONL.GZ", ".gz")
    True
    >>> has_suffix("turns.Csv.gz", ".csv", ".csv.gz")
    True
    >>> has_suffix("notes.txt", ".csv")
    False
    """
    return str(path).lower().endswith(suffixes)
