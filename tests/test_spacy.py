"""actparse inside a blank spaCy pipeline."""

from __future__ import annotations

from pathlib import Path

import spacy

from actparse.engine.tokenizer import tokenize
from actparse.extensions import DOC_EXTENSIONS, register_extensions
from actparse.models import Listing
from actparse.spacy_components import CocoaTokenizer, blank_pipeline


def test_tokenizer_gives_cocoa_tokens() -> None:
    nlp = spacy.blank("en")
    nlp.tokenizer = CocoaTokenizer(nlp.vocab)
    text = "I can't do $1,200.. maybe 1100$?"
    assert [t.text for t in nlp(text)] == tokenize(text)


def test_components_set_prices_and_tags() -> None:
    nlp = blank_pipeline()
    assert nlp.pipe_names == ["actparse_price_linker", "actparse_tagger"]
    doc = nlp("Would you take $250? That is the lowest I can go")
    assert [m.value for m in doc._.prices] == [250.0]
    assert doc._.tags == ("question", "vague-price", "price", "has_price")


def test_listing_checks_apply_when_the_listing_is_given() -> None:
    nlp = blank_pipeline()
    doc = nlp.make_doc("i can do 900 .")
    doc._.listing = Listing(title="", description="", price=100.0)
    for _, proc in nlp.pipeline:
        doc = proc(doc)
    assert doc._.prices == []


def test_extensions_register_idempotently() -> None:
    register_extensions()
    register_extensions()
    from spacy.tokens import Doc

    assert all(Doc.has_extension(name) for name in DOC_EXTENSIONS)


def test_pipeline_round_trips_through_disk(tmp_path: Path) -> None:
    nlp = blank_pipeline()
    nlp.to_disk(tmp_path / "nlp")
    assert (tmp_path / "nlp" / "actparse_price_linker" / "price_lexicon.json").is_file()
    assert (tmp_path / "nlp" / "actparse_tagger" / "rules.yaml").is_file()
    again = spacy.blank("en")
    again.tokenizer = CocoaTokenizer(again.vocab)
    again.add_pipe("actparse_price_linker")
    again.add_pipe("actparse_tagger")
    again.from_disk(tmp_path / "nlp")
    text = "is $300 ok?"
    assert again(text)._.tags == nlp(text)._.tags
