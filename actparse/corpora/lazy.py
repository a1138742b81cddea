"""A corpus package whose names are imported from its ``core`` module on first use.

The registry imports every corpus' ``spec`` module on every run, which runs the corpus
package's ``__init__``; a package that re-exports its reader and parser from there would
load them when another corpus is labelled. Its ``__init__`` instead sets
``__getattr__ = core_names(__name__)``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

__all__ = ["core_names"]


def core_names(package: str) -> Callable[[str], Any]:
    """A module ``__getattr__`` that takes a name from ``<package>.core``, imported on first use."""

    def names(name: str) -> Any:
        if name.startswith("__"):
            # What tools probe for (``__wrapped__``, ``__path__`` hooks) is no name of
            # core's: importing core for it would load the corpus, and add modules to the
            # corpora's package while a tool (doctest) walks it.
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.core"), name)

    return names
