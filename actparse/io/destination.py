"""Where an output file goes, checked before any work, so that writing it never destroys anything.

A regular file (or a new name) is written under a temporary name beside it and renamed
over it when complete: an interrupted or failed run leaves the old file as it was and no
temporary behind. The temporary name fits the file system whatever the output's name
(:func:`temporary_path`), and a file replaced keeps its permission bits, and its owner and
group where the process may give them (:func:`keep_owner`).

A symbolic link is followed, so the file it points to is replaced and the link stays a
link. A FIFO or a device (``/dev/null``, ``/dev/full``, a terminal) is written directly:
renaming a file over it would replace the device, not write to it; so is an open
descriptor named as a file (``/dev/stdout``, ``/dev/fd/3``), which the caller may have
opened to append. A directory, a name ending in ``/`` (which names one, existing or not),
and the input file itself (under any name, and standard input when it is that file:
``- < out``) are refused, as is a file an option names (``--rules``, ``--lexicon``: read
by the run, so an input too).
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path

from actparse.errors import ActparseError
from actparse.io.messages import os_reason

__all__ = ["NAME_MAX", "Destination", "OutputError", "keep_owner", "temporary_path"]

#: The longest file name (in bytes) the usual file systems take (ext4, XFS, Btrfs, APFS).
NAME_MAX = 255
#: The input name that means standard input (as :data:`actparse.io.sources.STDIN`).
STDIN = "-"
#: What a name that names a folder ends with (``new/``).
_SEPARATORS = tuple(sep for sep in (os.sep, os.altsep) if sep)


class OutputError(ActparseError, ValueError):
    """An output the run will not write to, or could not write.

    Not written to: a directory, the input itself, a pipe for Parquet. Could not write: a full disk.
    The message names it."""


class Destination:
    """One output file: where to write (:attr:`write_path`), then :meth:`commit` or :meth:`discard`.

    ``inputs`` are the files the run reads: writing over one of them is refused, since
    the run would destroy what it is reading (e.g. the reference acts of an HF file).
    ``options`` are the files the run's options name, by option (``{"--rules": path}``;
    ``None``: not given): refused the same way, the option named in the message.
    ``seekable``: the format is written with seeks (Parquet), so a pipe is refused.
    """

    def __init__(
        self,
        path: str | Path,
        inputs: Iterable[str | Path] = (),
        *,
        options: Mapping[str, str | Path | None] | None = None,
        seekable: bool = False,
    ) -> None:
        self.path = Path(path)
        # Through symbolic links to the file itself: the temporary goes beside the real
        # file and replaces it, and the link is left pointing at it.
        self.target = Path(os.path.realpath(path))
        try:
            # The path as given, links followed by the system: /dev/stdout names the
            # pipe or terminal behind it, which has no name realpath could give.
            found: os.stat_result | None = os.stat(path)
        except FileNotFoundError:
            found = None
        except OSError as err:
            raise OutputError(f"{path}: cannot write there ({err.strerror})") from None
        mode = None if found is None else found.st_mode
        if mode is not None and stat.S_ISDIR(mode):
            raise OutputError(f"{path}: is a directory; give the name of a file to write")
        if found is None and str(path).endswith(_SEPARATORS):
            # 'new/' names a folder; realpath drops the '/', which would write a file 'new'.
            raise OutputError(f"{path}: no such folder; give the name of a file to write")
        #: Written directly (FIFO, device, a descriptor the caller opened such as
        #: /dev/stdout, maybe to append): nothing to rename, nothing to remove.
        #: Opened to append: a descriptor the caller opened (``>>`` or ``>``, which has
        #: emptied it already) keeps what it holds.
        self.append = mode is not None and _names_a_descriptor(self.path)
        self.direct = mode is not None and (not stat.S_ISREG(mode) or self.append)
        if self.direct:
            self.target = self.path
        if seekable and mode is not None and (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
            raise OutputError(
                f"{path}: is a pipe; this format is written with seeks, so write it to a file"
            )
        self._mode = stat.S_IMODE(mode) if mode is not None and not self.direct else None
        #: The owner and group of a file being replaced, given to its replacement.
        self._owner: tuple[int, int] | None = None
        if found is not None and not self.direct:
            _refuse_inputs(path, self.target, inputs, options or {})
            self._owner = (found.st_uid, found.st_gid)
        if not self.target.parent.is_dir():
            raise OutputError(f"{path}: directory {self.target.parent} does not exist")
        self.temporary = None if self.direct else temporary_path(self.target)

    @property
    def write_path(self) -> Path:
        """The file to open for writing: the temporary, or the FIFO or device itself."""
        return self.temporary or self.target

    def failed(self, err: OSError) -> OutputError:
        """The error to raise for a write to this output that failed, naming it."""
        return OutputError(f"{self.path}: cannot write ({os_reason(err)})")

    def commit(self) -> None:
        """Put the complete output in place.

        A regular file replaced keeps its permission bits, and its owner and group as far as
        the process may give them (see :func:`keep_owner`)."""
        if self.temporary is None:
            return
        if self._owner is not None:
            keep_owner(self.temporary, *self._owner)
        if self._mode is not None:  # after chown, which may clear set-user-ID bits
            os.chmod(self.temporary, self._mode)
        os.replace(self.temporary, self.target)

    def discard(self) -> None:
        """Remove the temporary of a run that did not complete; the target is untouched."""
        if self.temporary is not None:
            self.temporary.unlink(missing_ok=True)


#: /dev/fd/N, /proc/self/fd/N: an open file descriptor, by name.
_DESCRIPTOR = re.compile(r"/(?:dev|proc/[^/]+)/fd/\d+")


def _names_a_descriptor(path: Path) -> bool:
    """Whether a path leads, through links, to an open file descriptor.

    ``/dev/stdout`` is ``/proc/self/fd/1``. That file was opened by the caller, perhaps to append,
    and renaming a new file over it would throw away what it held."""
    current = os.path.abspath(path)
    for _hop in range(40):  # the system's own limit on links in a row
        if _DESCRIPTOR.fullmatch(current):
            return True
        if not os.path.islink(current):
            return False
        current = os.path.normpath(os.path.join(os.path.dirname(current), os.readlink(current)))
    return False


def _refuse_inputs(
    path: str | Path,
    target: Path,
    inputs: Iterable[str | Path],
    options: Mapping[str, str | Path | None],
) -> None:
    """Refuse an output that is one of the run's inputs, whatever names either goes by.

    An input is named as such (or as standard input), an option's file by its option."""
    for source in inputs:
        if _same_file(source, target):
            what = "standard input" if str(source) == STDIN else f"the input file {source}"
            raise OutputError(
                f"{path}: is {what}; writing the output over it would destroy the input, "
                "so write to another file"
            )
    for option, named in options.items():
        if named is not None and _same_file(named, target):
            raise OutputError(
                f"{path}: is the {option} file {named}; writing the output over it would "
                "destroy it, so write to another file"
            )


def _same_file(source: str | Path, target: Path) -> bool:
    """Whether an input is the file ``target``, by identity (device and inode), not by name.

    ``-`` is standard input: the file open on descriptor 0 (``< file``), whatever it was
    opened as."""
    try:
        found = os.fstat(0) if str(source) == STDIN else os.stat(source)
        there = os.stat(target)
    except OSError:  # no standard input, an input that is gone: not the same
        return False
    return (found.st_dev, found.st_ino) == (there.st_dev, there.st_ino)


def keep_owner(path: str | Path, uid: int, gid: int) -> None:
    """Give ``path`` an owner and group, as far as the process may.

    Root may give both. Another user may give a group it belongs to, and keeps its own
    user: a file it replaces then changes owner, as any editor's save does. A file system
    without owners (or a refusal) leaves the file as it was created."""
    for user in (uid, -1):
        try:
            os.chown(path, user, gid)
            return
        except PermissionError:
            continue
        except OSError as err:
            if err.errno in (errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EROFS):
                return
            raise


def temporary_path(target: Path) -> Path:
    """The temporary name beside ``target``, a name the file system takes whatever ``target`` is.

    ``.{name}.{pid}.part``; where that passes :data:`NAME_MAX` bytes (the name is near the
    limit, or long in UTF-8), the name is cut on a character boundary and a hash of the whole
    name keeps two long names that share a beginning apart."""
    suffix = f".{os.getpid()}.part"
    name = f".{target.name}{suffix}"
    encoded = os.fsencode(name)
    if len(encoded) <= NAME_MAX:
        return target.with_name(name)
    whole = os.fsencode(target.name)
    digest = hashlib.sha256(whole).hexdigest()[:16]
    cut = NAME_MAX - len(os.fsencode(f"..{digest}{suffix}"))
    while cut > 0 and whole[cut] & 0xC0 == 0x80:  # not inside a UTF-8 character
        cut -= 1
    stem = os.fsdecode(whole[:cut])
    return target.with_name(f".{stem}.{digest}{suffix}")
