"""Offer-price recall: how well each price mode finds the price a dialogue agreed on."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from actparse.corpora.craigslist.finder import PRICE_MODES, PriceFinder
from actparse.corpora.craigslist.lexicon import PriceLexicon, load_lexicon
from actparse.corpora.craigslist.linking import ListingContext
from actparse.engine.tokenizer import tokenize
from actparse.models import Dialogue, Listing

__all__ = ["PriceRecall", "offer_price_recall"]

_NO_LISTING = Listing(title="", description="", price=None)


@dataclass(frozen=True)
class PriceRecall:
    """How well one price mode finds the prices of a set of dialogues.

    Ground truth the data already has: a dialogue that ends with an accepted offer names
    the agreed price, so that price should be among the prices found in its messages.
    """

    mode: str
    #: Dialogues ending with an accepted offer that carries a price.
    dialogues: int
    #: Those whose offer price is among the prices found in their messages.
    found: int
    #: Messages read (in every dialogue).
    messages: int
    #: Messages where this mode finds a price.
    with_price: int
    #: Messages where this mode finds a price and no other mode compared does.
    only: int

    @property
    def recall(self) -> float:
        """Share of accepted offers whose price was found."""
        return self.found / self.dialogues if self.dialogues else 1.0


def _accepted_offer(dialogue: Dialogue) -> float | None:
    turns = [t for t in dialogue.turns if t.action is not None]
    if not turns or turns[-1].action != "accept":
        return None
    offers = [t for t in turns if t.action == "offer"]
    return offers[-1].offer_price if offers else None


def offer_price_recall(
    dialogues: Iterable[Dialogue],
    lexicon: PriceLexicon | None = None,
    modes: Sequence[str] = PRICE_MODES,
) -> dict[str, PriceRecall]:
    """Offer-price recall of each price mode, and how often one finds what others do not.

    Each message is read with its reader's listing, as the parser reads it. Prices match
    within 1e-6 (offers of the HuggingFace export were stored as float32).
    """
    lexicon = lexicon or load_lexicon()
    finders = {mode: PriceFinder(lexicon, mode) for mode in modes}
    counts = {mode: Counter[str]() for mode in modes}
    for dialogue in dialogues:
        offer = _accepted_offer(dialogue)
        listings = [ListingContext(p.listing or _NO_LISTING) for p in dialogue.parties]
        seen: dict[str, list[float]] = {mode: [] for mode in modes}
        for turn in dialogue.turns:
            if not turn.is_message or turn.agent not in (0, 1):
                continue
            tokens = tokenize(turn.text)
            found = {m: finders[m].find(tokens, listings[1 - turn.agent]) for m in modes}
            for mode in modes:
                counts[mode]["messages"] += 1
                if found[mode]:
                    counts[mode]["with_price"] += 1
                    counts[mode]["only"] += not any(found[o] for o in modes if o != mode)
                    seen[mode].extend(p.value for p in found[mode])
        if offer is None:
            continue
        for mode in modes:
            counts[mode]["dialogues"] += 1
            counts[mode]["found"] += any(
                math.isclose(v, offer, rel_tol=1e-6, abs_tol=1e-6) for v in seen[mode]
            )
    return {
        mode: PriceRecall(
            mode,
            dialogues=c["dialogues"],
            found=c["found"],
            messages=c["messages"],
            with_price=c["with_price"],
            only=c["only"],
        )
        for mode, c in counts.items()
    }
