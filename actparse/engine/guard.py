"""Time limits on pattern matching, so hostile text becomes an error, never a stuck worker.

Every ``regex`` call of the per-turn path passes ``timeout=timeout_for(text)``. Setting
up the timer costs about as much as a short match itself, and the shipped patterns run
in time linear in their input (the tokenizer's are checked on 200,000-character
inputs), so the limit is armed only for texts long enough to take noticeable time.
"""

from __future__ import annotations

__all__ = ["GUARD_LENGTH", "TIMEOUT", "timeout_for"]

#: Seconds one pattern call may take on a long text before it raises ``TimeoutError``.
TIMEOUT = 2.0
#: Texts longer than this many characters are matched under :data:`TIMEOUT`.
GUARD_LENGTH = 1000


def timeout_for(text: str) -> float | None:
    """The ``timeout`` argument for a regex call on ``text``."""
    return TIMEOUT if len(text) > GUARD_LENGTH else None
