"""actparse: rule-based dialogue acts for negotiation dialogues.

The Craigslist parser reproduces Stanford Cocoa's ``parse_dialogue`` acts::

    import actparse
    acts = actparse.parse_dialogue(record)      # one Act per turn
    labelled = actparse.label_record(record)    # the record with dialogue_acts filled
    dataset = dataset.map(actparse.label_batch, batched=True)
"""

from actparse.api import label_batch, label_file, label_record, parse_dialogue
from actparse.craigslist import CraigslistParser
from actparse.models import Act, Dialogue, Listing, Party, PriceMention, Turn
from actparse.prices import PriceLexicon, load_lexicon, train_lexicon
from actparse.readers import InputError, read_records
from actparse.rules import RuleError, load_rules
from actparse.tokenizer import tokenize

__version__ = "0.1.0"

__all__ = [
    "Act",
    "CraigslistParser",
    "Dialogue",
    "InputError",
    "Listing",
    "Party",
    "PriceLexicon",
    "PriceMention",
    "RuleError",
    "Turn",
    "__version__",
    "label_batch",
    "label_file",
    "label_record",
    "load_lexicon",
    "load_rules",
    "parse_dialogue",
    "read_records",
    "tokenize",
    "train_lexicon",
]
