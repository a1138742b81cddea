"""CraigslistBargains as the registry knows it: its two formats, how each is detected.

Only this module is imported to know the corpus (through the ``actparse_corpora`` entry
point); the reader, writer, parser and evaluator are dotted paths, imported on first use.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from actparse.io.layouts import cocoa_kbs_are_mappings
from actparse.registry import Corpus, Format

__all__ = ["SPEC", "is_cocoa", "is_hf"]

_CL = "actparse.corpora.craigslist"


def is_hf(raw: Mapping[str, Any]) -> bool:
    """Whether a record is in the HuggingFace layout (its turns' agents and texts)."""
    return "agent_turn" in raw or "utterance" in raw


def is_cocoa(raw: Mapping[str, Any]) -> bool:
    """Whether a record is a Cocoa transcript of a sale (knowledge bases are mappings)."""
    return cocoa_kbs_are_mappings(raw) is True


SPEC = Corpus(
    name="craigslist",
    title="CraigslistBargains",
    order=10,
    formats=(
        Format(
            name="hf",
            help="Craigslist HuggingFace JSON lines, streamed",
            detect=is_hf,
            reader=f"{_CL}.hf:dialogue_from_hf",
            writer=f"{_CL}.hf:write_hf",
            acts_field="dialogue_acts",
            added_fields=("actparse",),
            coarse_writer=f"{_CL}.hf:write_hf_coarse",
        ),
        Format(
            name="cocoa",
            help="Craigslist Cocoa transcripts, a JSON list loaded whole",
            detect=is_cocoa,
            reader=f"{_CL}.cocoa:dialogue_from_cocoa",
            writer=f"{_CL}.cocoa:write_cocoa",
            coarse_writer=f"{_CL}.cocoa:write_cocoa_coarse",
        ),
    ),
    parser=f"{_CL}.parser:default_parser",
    evaluator=f"{_CL}.evaluate:evaluate",
    headline="message_joint_agreement",
    rules="craigslist",
)
