"""actparse: rule-based dialogue acts for negotiation dialogues.

The Craigslist parser reproduces Stanford Cocoa's ``parse_dialogue`` acts; Deal or No
Deal, CaSiNo and MutualFriends go through the same pipeline onto one coarse act space::

    import actparse
    acts = actparse.parse_dialogue(record)      # one Act per turn, any supported corpus
    labelled = actparse.label_record(record)    # the record with its acts filled in
    dataset = dataset.map(actparse.label_batch, batched=True)

Corpus-specific names (the parsers, the price lexicon) and the spaCy entries
(``blank_pipeline``, ``parse_docs``) are imported on first use, so ``import actparse``
loads no corpus and no spaCy.
"""

from typing import TYPE_CHECKING, Any

from actparse.api import (
    evaluate_path,
    iter_turn_rows,
    label_batch,
    label_file,
    label_record,
    parse_dialogue,
    parser_for,
    to_frame,
    turn_features,
    turns_batch,
)
from actparse.engine.acts import ActSpace, load_act_space
from actparse.engine.rulefiles import RuleError
from actparse.engine.tags import load_rules
from actparse.engine.tokenizer import tokenize
from actparse.errors import ActparseError
from actparse.io.records import InputError, read_records
from actparse.models import (
    Act,
    DealMove,
    Dialogue,
    EntityMention,
    Item,
    ItemSplit,
    Listing,
    Party,
    PriceMention,
    ReferenceAct,
    Turn,
)
from actparse.registry import Corpus, Format, register
from actparse.reports import Report

if TYPE_CHECKING:
    from actparse.corpora.casino import CasinoParser
    from actparse.corpora.craigslist.lexicon import PriceLexicon, load_lexicon, train_lexicon
    from actparse.corpora.craigslist.parser import CraigslistParser
    from actparse.corpora.dealornodeal import DealOrNoDealParser
    from actparse.corpora.mutualfriends.parser import MutualFriendsParser
    from actparse.engine.deals import track_deals
    from actparse.spacy_components import blank_pipeline, parse_docs

__version__ = "0.1.0"

# Name -> where it lives, for the names imported on first use (PEP 562): the corpora,
# and spaCy (a second of imports) for its two entries.
_LAZY = {
    "CasinoParser": "actparse.corpora.casino:CasinoParser",
    "CraigslistParser": "actparse.corpora.craigslist.parser:CraigslistParser",
    "DealOrNoDealParser": "actparse.corpora.dealornodeal:DealOrNoDealParser",
    "MutualFriendsParser": "actparse.corpora.mutualfriends.parser:MutualFriendsParser",
    "blank_pipeline": "actparse.spacy_components:blank_pipeline",
    "parse_docs": "actparse.spacy_components:parse_docs",
    "track_deals": "actparse.engine.deals:track_deals",
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
    "ActSpace",
    "ActparseError",
    "CasinoParser",
    "Corpus",
    "CraigslistParser",
    "DealMove",
    "DealOrNoDealParser",
    "Dialogue",
    "EntityMention",
    "Format",
    "InputError",
    "Item",
    "ItemSplit",
    "Listing",
    "MutualFriendsParser",
    "Party",
    "PriceLexicon",
    "PriceMention",
    "ReferenceAct",
    "Report",
    "RuleError",
    "Turn",
    "__version__",
    "blank_pipeline",
    "evaluate_path",
    "iter_turn_rows",
    "label_batch",
    "label_file",
    "label_record",
    "load_act_space",
    "load_lexicon",
    "load_rules",
    "parse_dialogue",
    "parse_docs",
    "parser_for",
    "read_records",
    "register",
    "to_frame",
    "tokenize",
    "track_deals",
    "train_lexicon",
    "turn_features",
    "turns_batch",
]
