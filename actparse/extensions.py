"""Every custom ``Doc`` attribute actparse sets, registered in one place.

:func:`register_extensions` is safe to call any number of times (each spaCy component
calls it when built).
"""

from __future__ import annotations

from spacy.tokens import Doc

__all__ = ["DOC_EXTENSIONS", "register_extensions"]

#: Name -> meaning of each ``Doc._`` attribute.
DOC_EXTENSIONS: dict[str, str] = {
    "listing": "the reader's Listing, set by the caller; enables the listing price checks",
    "prices": "price mentions found by actparse_price_linker (list of PriceMention)",
    "tags": "Cocoa's message tags found by actparse_tagger (tuple of str)",
}


def register_extensions() -> None:
    """Register the ``Doc`` extensions that are not registered yet."""
    for name in DOC_EXTENSIONS:
        if not Doc.has_extension(name):
            Doc.set_extension(name, default=None)
