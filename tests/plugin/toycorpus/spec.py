"""The toy corpus as actparse's registry knows it: imported for every run, so light."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from actparse.registry import Corpus, Format

NAME = "toy"


def is_toy(raw: Mapping[str, Any]) -> bool:
    """Whether a record is in the toy layout."""
    return "toy_turns" in raw


SPEC = Corpus(
    name=NAME,
    title="Toy",
    formats=(
        Format(
            name="toy",
            help="the made-up toy layout",
            detect=is_toy,
            reader="toycorpus.corpus:read",
            writer="actparse.io.writers:write_acts",
        ),
    ),
    parser="toycorpus.corpus:ToyParser",
    evaluator="toycorpus.corpus:evaluate",
    headline="intent_agreement",
    # Its own rule folder, inside its package: tags.yaml and the coarse map coarse.yaml.
    rules="toycorpus:rules",
)
