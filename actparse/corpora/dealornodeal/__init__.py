"""Deal or No Deal (Lewis et al., 2017): what the registry reads, and the corpus itself.

:mod:`.spec` is its registry entry, :mod:`.core` its reader, parser and evaluation.
The names of :mod:`.core` are importable from here, imported on first use: the registry
imports :mod:`.spec` of every corpus on every run, and that must not load this corpus'
reader and parser when another corpus is labelled.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from actparse.corpora.dealornodeal.core import *  # noqa: F403


def __getattr__(name: str) -> Any:
    """A name of :mod:`.core`, imported on first use."""
    if name.startswith("__"):
        # What tools probe for (``__wrapped__``, ``__path__`` hooks) is no name of core's:
        # importing core for it would load the corpus, and add modules mid-iteration.
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.core"), name)
