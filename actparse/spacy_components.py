"""actparse inside a spaCy pipeline: Cocoa's tokenizer and two rule components.

The components wrap the same functions the batch labeller calls, so a ``Doc`` and the
fast path always agree. Docs hold Cocoa's tokens (lowercased, ``"`` as ````` / ``''``),
so ``doc.text`` is the normalized text, not the input::

    nlp = actparse.spacy_components.blank_pipeline()
    doc = nlp("Would you take $250?")
    doc._.prices, doc._.tags
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import spacy
from spacy.language import Language
from spacy.tokens import Doc
from spacy.util import registry
from spacy.vocab import Vocab

from actparse.corpora.craigslist.lexicon import PriceLexicon, load_lexicon
from actparse.corpora.craigslist.linking import ListingContext, find_prices
from actparse.corpora.craigslist.parser import PRICE_TYPES, RULE_TAGS, TAG_RULES, load_tag_rules
from actparse.engine.rulefiles import shipped
from actparse.engine.tags import RuleSet, load_rules
from actparse.engine.tokenizer import tokenize
from actparse.extensions import register_extensions

__all__ = ["CocoaTokenizer", "PriceLinker", "Tagger", "blank_pipeline"]

LEXICON_FILE = "price_lexicon.json"
RULES_FILE = "rules.yaml"


class CocoaTokenizer:
    """A spaCy tokenizer producing Cocoa's tokens."""

    def __init__(self, vocab: Vocab) -> None:
        self.vocab = vocab

    def __call__(self, text: str) -> Doc:
        words = tokenize(text)
        doc = Doc(self.vocab, words=words, spaces=[True] * len(words))
        # Text rules (vague-price is case-sensitive) need the message as written.
        doc.user_data["raw_text"] = text
        return doc

    def pipe(self, texts: Iterable[str], batch_size: int = 1000) -> Iterable[Doc]:
        for text in texts:
            yield self(text)

    # Nothing to save: the tokenizer is code, fixed by Cocoa compatibility.
    def to_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> None:
        Path(path).mkdir(parents=True, exist_ok=True)

    def from_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> CocoaTokenizer:
        return self

    def to_bytes(self, *, exclude: Iterable[str] = ()) -> bytes:
        return b""

    def from_bytes(self, data: bytes, *, exclude: Iterable[str] = ()) -> CocoaTokenizer:
        return self


@registry.tokenizers("actparse.CocoaTokenizer.v1")  # type: ignore[untyped-decorator]
def create_cocoa_tokenizer() -> Callable[[Language], CocoaTokenizer]:
    """Config entry: ``[nlp.tokenizer] @tokenizers = "actparse.CocoaTokenizer.v1"``."""

    def make(nlp: Language) -> CocoaTokenizer:
        return CocoaTokenizer(nlp.vocab)

    return make


class PriceLinker:
    """Finds prices with the price-context lexicon; listing checks when ``doc._.listing`` is set."""

    def __init__(
        self, nlp: Language, name: str = "actparse_price_linker", *, lexicon_path: str | None = None
    ) -> None:
        register_extensions()
        self.name = name
        self.lexicon: PriceLexicon = load_lexicon(lexicon_path)

    def __call__(self, doc: Doc) -> Doc:
        listing = doc._.listing
        context = ListingContext(listing) if listing is not None else None
        doc._.prices = find_prices([t.text for t in doc], self.lexicon, context)
        return doc

    def to_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> None:
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        self.lexicon.save(path / LEXICON_FILE)

    def from_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> PriceLinker:
        self.lexicon = load_lexicon(Path(path) / LEXICON_FILE)
        return self


class Tagger:
    """Sets Cocoa's message tags (question, greeting, negative, vague-price, agree, has_price).

    Price types other than ``has_price`` need the dialogue state, which a single ``Doc``
    does not have; :class:`~actparse.corpora.craigslist.parser.CraigslistParser` adds them.
    """

    def __init__(
        self, nlp: Language, name: str = "actparse_tagger", *, rules_path: str | None = None
    ) -> None:
        register_extensions()
        self.name = name
        self.rules_path = rules_path
        self.rules: RuleSet = load_tag_rules(rules_path)

    def __call__(self, doc: Doc) -> Doc:
        words = [t.text for t in doc]
        raw = doc.user_data.get("raw_text", doc.text)
        tags = [tag for tag in RULE_TAGS if self.rules.has(tag, words, raw)]
        prices = doc._.prices
        if prices:
            tags.extend(t for t in PRICE_TYPES if any(m.type == t for m in prices))
            tags.append("has_price")
        doc._.tags = tuple(tags)
        return doc

    def to_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> None:
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        source = Path(self.rules_path) if self.rules_path else None
        text = source.read_text(encoding="utf-8") if source else _default_rules_text()
        (path / RULES_FILE).write_text(text, encoding="utf-8")

    def from_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> Tagger:
        self.rules = load_rules(Path(path) / RULES_FILE)
        return self


def _default_rules_text() -> str:
    return shipped(*TAG_RULES).read_text(encoding="utf-8")


@Language.factory(
    "actparse_price_linker",
    assigns=["doc._.prices"],
    default_config={"lexicon_path": None},
)
def make_price_linker(nlp: Language, name: str, lexicon_path: str | None) -> PriceLinker:
    """Factory of the price linker (``nlp.add_pipe("actparse_price_linker")``)."""
    return PriceLinker(nlp, name, lexicon_path=lexicon_path)


@Language.factory(
    "actparse_tagger",
    assigns=["doc._.tags"],
    requires=["doc._.prices"],
    default_config={"rules_path": None},
)
def make_tagger(nlp: Language, name: str, rules_path: str | None) -> Tagger:
    """Factory of the tagger (``nlp.add_pipe("actparse_tagger")``)."""
    return Tagger(nlp, name, rules_path=rules_path)


def blank_pipeline(**config: Any) -> Language:
    """A blank English pipeline with Cocoa's tokenizer, the price linker and the tagger."""
    nlp = spacy.blank("en")
    nlp.tokenizer = CocoaTokenizer(nlp.vocab)
    nlp.add_pipe("actparse_price_linker", config=config.get("price_linker", {}))
    nlp.add_pipe("actparse_tagger", config=config.get("tagger", {}))
    return nlp
