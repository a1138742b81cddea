"""Time limits on pattern matching, so hostile text becomes an error, never a stuck worker.

Every ``regex`` call of the per-turn path passes ``timeout=timeout_for(text)``. Setting
up the timer costs about as much as a short match itself, and the shipped patterns run
in time linear in their input (``tests/test_linear_patterns.py`` times each on adversarial
texts of growing length), so the limit is armed only for texts long enough to take
noticeable time. It limits one call; a record as a whole is limited by
:mod:`actparse.io.deadline`.
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
