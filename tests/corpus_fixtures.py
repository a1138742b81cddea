"""The small corpus excerpts the tests read. Each lives in its corpus' folder,
``tests/corpora/<corpus>/fixtures/``, and is found by its name alone, ``FIXTURES / name``,
so that a test reading several corpora stays readable. ``tests/fixtures/README.md`` is
their index: the source and licence of each."""

from __future__ import annotations

from pathlib import Path

CORPORA_TESTS = Path(__file__).resolve().parent / "corpora"


class CorpusFixtures:
    """The fixture files of every ``<corpora>/*/fixtures/`` folder, by name."""

    def __init__(self, corpora: Path) -> None:
        self.corpora = corpora

    def folders(self) -> list[Path]:
        return sorted(p for p in self.corpora.glob("*/fixtures") if p.is_dir())

    def paths(self) -> list[Path]:
        """Every fixture, in the order of their names: a file, or a folder that is one
        fixture (a ConvoKit corpus)."""
        files = (p for folder in self.folders() for p in folder.iterdir())
        return sorted(files, key=lambda p: p.name)

    def __truediv__(self, name: str) -> Path:
        """The fixture file ``name``; a name no folder holds, or more than one does, fails
        loudly rather than leaving a test with a path to nothing."""
        found = [folder / name for folder in self.folders() if (folder / name).exists()]
        if len(found) != 1:
            where = f"{self.corpora}/*/fixtures/"
            why = "no" if not found else f"{len(found)} ({', '.join(map(str, found))})"
            raise FileNotFoundError(f"fixture {name!r}: {why} file of that name in {where}")
        return found[0]


FIXTURES = CorpusFixtures(CORPORA_TESTS)
