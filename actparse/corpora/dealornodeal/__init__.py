"""Deal or No Deal (Lewis et al., 2017): what the registry reads, and the corpus itself.

:mod:`.spec` is its registry entry, :mod:`.core` its reader, parser and evaluation.
The names of :mod:`.core` are importable from here, imported on first use: the registry
imports :mod:`.spec` of every corpus on every run, and that must not load this corpus'
reader and parser when another corpus is labelled.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from actparse.corpora.lazy import core_names

if TYPE_CHECKING:
    from actparse.corpora.dealornodeal.core import *  # noqa: F403

__getattr__ = core_names(__name__)
