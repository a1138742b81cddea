"""actparse: rule-based dialogue acts for negotiation dialogues.

The Craigslist parser reproduces Stanford Cocoa's ``parse_dialogue`` acts; Deal or No
Deal, CaSiNo and MutualFriends go through the same pipeline onto one coarse act space::

    import actparse
    acts = actparse.parse_dialogue(record)      # one Act per turn, any supported corpus
    labelled = actparse.label_record(record)    # the record with its acts filled in
    dataset = dataset.map(actparse.label_batch, batched=True)

Corpus-specific names (``CraigslistParser``, the price lexicon) are imported on first
use, so ``import actparse`` loads no corpus.
"""

from typing import TYPE_CHECKING, Any

from actparse.api import (
    evaluate_path,
    iter_turn_rows,
    label_batch,
    label_file,
    label_record,
    parse_dialogue,
    to_frame,
    turn_features,
    turns_batch,
)
from actparse.engine.rulefiles import RuleError
from actparse.engine.tags import load_rules
from actparse.engine.tokenizer import tokenize
from actparse.io.records import InputError, read_records
from actparse.models import Act, Dialogue, Listing, Party, PriceMention, Turn
from actparse.registry import Corpus, Format, register
from actparse.reports import Report

if TYPE_CHECKING:
    from actparse.corpora.craigslist.lexicon import PriceLexicon, load_lexicon, train_lexicon
    from actparse.corpora.craigslist.parser import CraigslistParser

__version__ = "0.1.0"

# Name -> where it lives, for the names imported on first use (PEP 562).
_LAZY = {
    "CraigslistParser": "actparse.corpora.craigslist.parser:CraigslistParser",
    "PriceLexicon": "actparse.corpora.craigslist.lexicon:PriceLexicon",
    "load_lexicon": "actparse.corpora.craigslist.lexicon:load_lexicon",
    "train_lexicon": "actparse.corpora.craigslist.lexicon:train_lexicon",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from actparse.registry import resolve

        return resolve(_LAZY[name])
    raise AttributeError(f"module 'actparse' has no attribute {name!r}")


__all__ = [
    "Act",
    "Corpus",
    "CraigslistParser",
    "Dialogue",
    "Format",
    "InputError",
    "Listing",
    "Party",
    "PriceLexicon",
    "PriceMention",
    "Report",
    "RuleError",
    "Turn",
    "__version__",
    "evaluate_path",
    "iter_turn_rows",
    "label_batch",
    "label_file",
    "label_record",
    "load_lexicon",
    "load_rules",
    "parse_dialogue",
    "read_records",
    "register",
    "to_frame",
    "tokenize",
    "train_lexicon",
    "turn_features",
    "turns_batch",
]
