"""Corpus folders: an input that is a directory of files (a ConvoKit corpus), read and written.

A format with a folder layout (``Format.folder_detect``, ``folder_reader``,
``folder_writer`` in :mod:`actparse.registry`) reads a whole folder as a stream of pieces,
as a file is read (:func:`~actparse.io.sources.open_source` asks :func:`open_folder`),
and writes its labelled records as a NEW folder (:class:`FolderSink`, which
:func:`~actparse.io.output.open_sink` gives for a folder input): never into the input
folder, never over a folder that holds anything. The folder is written under a temporary
name beside it and renamed when complete, so a failed run leaves nothing that looks whole.
This module names no corpus: the registry says which format reads a folder.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from actparse import registry
from actparse.errors import InputError
from actparse.io.destination import OutputError, keep_owner, temporary_path

__all__ = ["FOLDER", "FolderSink", "folder_format", "is_folder", "open_folder"]

#: The layout name of a folder input (beside JSON lines, a JSON list, plain text).
FOLDER = "folder"


def is_folder(path: str | Path) -> bool:
    """Whether an input path is a directory (``-``, standard input, never is)."""
    return str(path) != "-" and Path(path).is_dir()


def folder_format(path: str | Path, fmt: str = "auto") -> str:
    """The format that reads the folder ``path``: ``fmt``, or the one whose detection claims it.

    A folder no format reads (or two claim, or ``fmt`` reads files only) is an
    :class:`InputError` naming it.
    """
    folders = {n: f for n, f in registry.formats().items() if f.folder_detect is not None}
    if fmt != "auto":
        if fmt not in folders:
            registry.format_spec(fmt)  # an unknown name says so
            raise InputError(f"{path}: is a directory, and format {fmt!r} reads files only")
        return fmt
    found = [name for name, spec in folders.items() if _claims(spec, Path(path))]
    if len(found) == 1:
        return found[0]
    if found:
        raise InputError(f"{path}: the folder fits the formats {found}; pass --format")
    known = ", ".join(f"{name} ({spec.help})" for name, spec in folders.items()) or "none"
    raise InputError(f"{path}: is a directory that no format reads; folder formats: {known}")


def _claims(spec: registry.Format, path: Path) -> bool:
    detect: Callable[[Path], bool] | None = spec.folder_detect
    return detect is not None and detect(path)


def open_folder(path: str | Path, fmt: str = "auto") -> tuple[str, str, Iterator[Any]]:
    """The folder's format, the name of the file its pieces are numbered in, and its pieces."""
    name = folder_format(path, fmt)
    reader = _loaded(name, "folder_reader")
    source, pieces = reader(Path(path))
    return name, source, pieces


def _loaded(fmt: str, what: str) -> Any:
    target = getattr(registry.format_spec(fmt), what)
    if target is None:
        raise InputError(f"format {fmt!r} declares a folder layout without its {what}")
    return registry.resolve(target)


class FolderSink:
    """Collects the output lines of a folder's labelling, then writes the new folder.

    ``with FolderSink(output, source): sink.write(line)``: a line per labelled record
    (JSON; lone newlines between them are ignored). The output is refused at once when it
    is the input folder or inside it, or an existing file or non-empty folder.
    """

    def __init__(self, output: str | Path, source: str | Path) -> None:
        self.output = Path(output)
        self.source = Path(source)
        self.format = folder_format(source)
        self._lines: list[str] = []
        self._check()
        self.temporary = temporary_path(self.output)

    def _check(self) -> None:
        out, src = Path(os.path.realpath(self.output)), Path(os.path.realpath(self.source))
        if out == src or src in out.parents:
            raise OutputError(
                f"{self.output}: is inside the input folder {self.source}; actparse never "
                "writes into its input, so name a new folder"
            )
        if self.output.is_dir() and any(self.output.iterdir()):
            raise OutputError(f"{self.output}: is a folder that holds files; name a new folder")
        if self.output.exists() and not self.output.is_dir():
            raise OutputError(f"{self.output}: is a file; a {self.format} corpus is a folder")
        if not out.parent.is_dir():
            raise OutputError(f"{self.output}: directory {out.parent} does not exist")

    def __enter__(self) -> FolderSink:
        return self

    def write(self, text: str) -> None:
        """Keep one output line (the separating newlines are not kept)."""
        if text.strip():
            self._lines.append(text)

    def records(self) -> Iterable[dict[str, Any]]:
        """The labelled records written so far, parsed."""
        return (json.loads(line) for line in self._lines)

    def _take_place_of_folder(self) -> None:
        """Give the new folder the empty folder's owner, group and mode, then remove it.

        The folder was made for the output (by its owner, maybe for root to fill): its
        owner keeps the folder and what is in it, as far as the process may give them."""
        found = os.stat(self.output)
        for path in (self.temporary, *self.temporary.rglob("*")):
            keep_owner(path, found.st_uid, found.st_gid)
        os.chmod(self.temporary, stat.S_IMODE(found.st_mode))
        self.output.rmdir()  # empty, as checked: the new folder takes its place

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if exc_type is not None:
            return
        writer = _loaded(self.format, "folder_writer")
        shutil.rmtree(self.temporary, ignore_errors=True)
        try:
            self.temporary.mkdir()
            writer(self.source, self.temporary, self.records())
            if self.output.is_dir():
                self._take_place_of_folder()
            os.replace(self.temporary, self.output)
        except OSError as err:
            shutil.rmtree(self.temporary, ignore_errors=True)
            raise OutputError(f"{self.output}: cannot write there ({err.strerror})") from None
        except BaseException:
            shutil.rmtree(self.temporary, ignore_errors=True)
            raise
