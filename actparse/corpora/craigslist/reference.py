"""The reference acts a Craigslist record carries, read strictly.

``eval`` scores our acts against them, and a reference it cannot read must not be scored:
an intent that is not text (a list), a price that is not a finite number (NaN, infinite,
text, a number too large for a float), or per-turn lists whose length is not the number of
turns, are errors naming the field and the turn (the reader names the record). Absent acts
(no ``dialogue_acts``, empty lists, events without ``metadata``) are no reference, which
``eval`` reports as such.
"""

from __future__ import annotations

import math
from numbers import Real
from typing import Any

from actparse.errors import InputError
from actparse.io.messages import json_kind
from actparse.models import ReferenceAct

__all__ = ["hf_reference", "reference_intent", "reference_price"]


def reference_intent(value: Any, what: str) -> str:
    """A reference intent: text (``""`` for none)."""
    if not isinstance(value, str):
        raise InputError(f"{what} must be an intent (text), got {json_kind(value)}")
    return value


def reference_price(value: Any, what: str, *, none: float | None = None) -> float | None:
    """A reference price: ``None`` where absent, else a finite number.

    ``none`` is the layout's "no price" (the HF export's ``-1``), read as ``None``."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, Real):
        raise InputError(f"{what} must be a number, got {json_kind(value)}")
    try:
        price = float(value)
    except OverflowError:
        raise InputError(f"{what}: {_digits(value)}-digit number, too large for a price") from None
    if not math.isfinite(price):
        raise InputError(f"{what} must be a finite number, got {price}")
    return None if none is not None and price == none else price


def _digits(value: Any) -> int:
    """How many digits a whole number has, without turning it into text (which may fail)."""
    return max(1, math.ceil(abs(int(value)).bit_length() * math.log10(2)))


def hf_reference(acts: Any, turns: int, *, no_price: float) -> tuple[ReferenceAct, ...] | None:
    """The reference acts of a HuggingFace export record's ``dialogue_acts``.

    ``None`` where it has none (absent, ``{}``, empty lists for turns): the record is then
    labelled as any other, and ``eval`` says it has no reference acts. Lists of the wrong
    length, or an entry that is not an intent or a price, are an :class:`InputError`."""
    if acts is None:
        return None
    if not isinstance(acts, dict):
        raise InputError(f"dialogue_acts must be an object, got {json_kind(acts)}")
    intents, prices = acts.get("intent"), acts.get("price")
    for name, found in (("intent", intents), ("price", prices)):
        if found is not None and not isinstance(found, list):
            raise InputError(f"dialogue_acts.{name} must be a list, got {json_kind(found)}")
    intents, prices = intents or [], prices or []
    if not intents and not prices and turns:
        return None
    if len(intents) != turns or len(prices) != turns:
        raise InputError(
            f"dialogue_acts has {len(intents)} intents and {len(prices)} prices for "
            f"{turns} turns; give one of each per turn"
        )
    return tuple(
        ReferenceAct(
            reference_intent(i, f"dialogue_acts.intent[{k}]"),
            reference_price(p, f"dialogue_acts.price[{k}]", none=no_price),
        )
        for k, (i, p) in enumerate(zip(intents, prices))
    )
