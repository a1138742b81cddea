"""What single words tell the split scans.

The side a pronoun names, and what the scans build from a lexicon once rather than once per message.

:func:`person` gives a pronoun's side; :data:`PRONOUNS` and :data:`SUBJECT_PRONOUNS` are
the word classes for which it gives one, so that a scan that already holds a token's
classes can test them instead of calling it. :func:`per_lexicon` keeps a table derived
from a lexicon (such as the set of words a scan acts on) for as long as the lexicon
lives; :func:`message_classes` hands the word classes of a message to each step that
reads the message after the first.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import TypeVar, cast

from actparse.corpora.splits.lexicon import SplitLexicon

__all__ = [
    "EITHER",
    "OTHER",
    "PRONOUNS",
    "SELF",
    "SUBJECT_PRONOUNS",
    "message_classes",
    "per_lexicon",
    "person",
]

#: Sides of a split, relative to the writer of a message.
SELF = 0
OTHER = 1
#: Either side (a reference to "the original deal" that does not say whose).
EITHER = -1

#: The word classes of the words :func:`person` gives a side as an object, or as a
#: subject with "me" read as an object: every pronoun.
PRONOUNS = frozenset({"other", "self", "self_object", "we"})
#: The word classes of the words :func:`person` gives a side as a subject with no words
#: after it: "me" alone is no subject, "we" alone is the writer.
SUBJECT_PRONOUNS = frozenset({"other", "self", "we"})


def person(token: str, lexicon: SplitLexicon, subject: bool, nxt: str = "") -> int | None:
    """The side a pronoun names.

    "i"/"you" anywhere; "me" only where an object counts or before a verb of having ("me getting 2
    food"); "we" unless both sides are meant ("we each", "we both", "we split")."""
    classes = lexicon.classes_of(token)
    if "other" in classes:
        return OTHER
    if "self" in classes:
        return SELF
    if "self_object" not in classes and "we" not in classes:
        return None  # the rules below tell the sides of "me" and "we"
    ahead = nxt.split()
    first = ahead[0] if ahead else ""
    if "self_object" in classes and (
        not subject or any(lexicon.has("possess", t) for t in ahead) or _lists_after(first, lexicon)
    ):
        return SELF
    if "we" in classes and not any(
        lexicon.has("each", t) or lexicon.has("all", t) or lexicon.has("half", t)
        for t in nxt.split()
    ):
        return SELF
    return None


def _lists_after(token: str, lexicon: SplitLexicon) -> bool:
    """A pronoun heading a list: "me: 3 water", "me - 3 water", "me 3 water"."""
    return token in (":", "-", "=") or lexicon.number(token) is not None


_T = TypeVar("_T")
#: Tables by the function that builds them and their lexicon's identity (a lexicon is an
#: unhashable frozen dataclass); an entry goes when its lexicon is collected, so lexicons
#: built by tests or plug-ins do not keep their tables alive.
_TABLES: dict[tuple[Callable[[SplitLexicon], object], int], object] = {}


def per_lexicon(lexicon: SplitLexicon, build: Callable[[SplitLexicon], _T]) -> _T:
    """What ``build`` makes of ``lexicon``, built on first use and kept while it lives.

    ``build`` must be a module-level function: it is part of the key."""
    key = (build, id(lexicon))
    table = _TABLES.get(key)
    if table is None:
        table = _TABLES[key] = build(lexicon)
        weakref.finalize(lexicon, _TABLES.pop, key, None)
    return cast(_T, table)


#: The message whose word classes were looked up last: its tokens, a weak reference to
#: its lexicon, and the classes.
_last: tuple[tuple[str, ...], weakref.ref[SplitLexicon], list[frozenset[str]]] | None = None


def message_classes(tokens: Sequence[str], lexicon: SplitLexicon) -> list[frozenset[str]]:
    """``lexicon.token_classes(tokens)``, looked up once for consecutive steps.

    Consecutive steps on the same message: :func:`~actparse.corpora.splits.mentions.find_mentions`
    and then :func:`~actparse.corpora.splits.sides.assign_sides` read the same tokens. The list is
    shared between them: no caller may change it."""
    # One slot, replaced whole (never changed in place), so threads see a whole entry.
    global _last
    last = _last
    if last is not None and last[0] is tokens and last[1]() is lexicon:
        return last[2]
    classes = lexicon.token_classes(tokens)
    if isinstance(tokens, tuple):  # a list may change between two steps
        _last = (tokens, weakref.ref(lexicon), classes)
    return classes
