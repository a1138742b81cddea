"""Every custom spaCy attribute actparse sets, registered in one place.

:func:`register_extensions` is safe to call any number of times (each spaCy component
and the dialogue entry call it). Every value is stored in ``doc.user_data`` or
``doc.spans`` in a form msgpack keeps as it is (strings, numbers, lists), so it
survives ``nlp.pipe(..., n_process=2)`` and ``DocBin``; the getters give it back as the
documented type.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any, cast

from spacy.tokens import Doc, Span

from actparse.models import Listing, PriceMention

__all__ = ["DOC_EXTENSIONS", "PRICES", "SPAN_EXTENSIONS", "register_extensions"]

#: The ``doc.spans`` key of the price mentions.
PRICES = "prices"

#: Name -> meaning of each ``Doc._`` attribute.
DOC_EXTENSIONS: dict[str, str] = {
    "listing": "the reader's Listing, set by the caller; enables the listing price checks",
    "prices": "price mentions (list of PriceMention), a view of doc.spans['prices']",
    "tags": "Cocoa's message tags found by actparse_tagger (tuple of str)",
    "intent": "the turn's native intent, set by parse_docs (str or None)",
    "coarse": "the turn's coarse act, set by parse_docs (str or None)",
    "act": "the turn's act as the label output writes it (Act.to_dict()), set by parse_docs",
}

#: Name -> meaning of each ``Span._`` attribute.
SPAN_EXTENSIONS: dict[str, str] = {
    "price": "the value of a price span of doc.spans['prices'] (float)",
}

# user_data keys of the values the getters decode.
_LISTING = ("actparse", "listing")
_TAGS = ("actparse", "tags")
_ACT = ("actparse", "act")


def _data(doc: Doc) -> dict[Any, Any]:
    # spaCy types user_data as keyed by str; its own extensions key it by tuples too.
    return cast(dict[Any, Any], doc.user_data)


def _get_listing(doc: Doc) -> Listing | None:
    fields = _data(doc).get(_LISTING)
    return Listing(**fields) if fields is not None else None


def _set_listing(doc: Doc, listing: Listing | None) -> None:
    _data(doc)[_LISTING] = asdict(listing) if listing is not None else None


def _get_prices(doc: Doc) -> list[PriceMention]:
    # The span's text is the price as written; ``token`` is the index of its first token.
    spans = doc.spans.get(PRICES, ())
    return [PriceMention(s.text, s._.price, s.start, s.label_) for s in spans]


def _get_tags(doc: Doc) -> tuple[str, ...] | None:
    tags = _data(doc).get(_TAGS)
    return tuple(tags) if tags is not None else None


def _set_tags(doc: Doc, tags: tuple[str, ...] | None) -> None:
    _data(doc)[_TAGS] = list(tags) if tags is not None else None


def _get_act(doc: Doc) -> dict[str, Any] | None:
    # Kept as JSON text: msgpack turns nested lists into tuples on the way back.
    text = _data(doc).get(_ACT)
    return json.loads(text) if text is not None else None


def _set_act(doc: Doc, act: dict[str, Any] | None) -> None:
    _data(doc)[_ACT] = json.dumps(act) if act is not None else None


def register_extensions() -> None:
    """Register the ``Doc`` and ``Span`` extensions that are not registered yet."""
    doc_extensions: dict[str, dict[str, Any]] = {
        "listing": {"getter": _get_listing, "setter": _set_listing},
        "prices": {"getter": _get_prices},
        "tags": {"getter": _get_tags, "setter": _set_tags},
        "intent": {"default": None},
        "coarse": {"default": None},
        "act": {"getter": _get_act, "setter": _set_act},
    }
    for name, how in doc_extensions.items():
        if not Doc.has_extension(name):
            Doc.set_extension(name, **how)
    if not Span.has_extension("price"):
        Span.set_extension("price", default=None)
