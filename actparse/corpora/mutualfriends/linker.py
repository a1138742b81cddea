"""Entity linking, per dialogue.

The knowledge-base values a message mentions, and the lists a selected friend is in.

:class:`Linker` indexes one scenario's values by the shapes of their names
(:mod:`.names`) and finds them in messages, with typos of long words tolerated and
negations noted. :class:`FriendLists` checks a selected friend against both agents'
lists; the parser and the writer both ask it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from actparse.corpora.mutualfriends.names import BREAKS, Names, Shape, fold, link_tokens
from actparse.corpora.mutualfriends.reader import attribute_type, friend_key
from actparse.models import EntityMention, Party, Turn

__all__ = [
    "FUZZY_MIN_LENGTH",
    "FUZZY_TWO_EDITS_LENGTH",
    "PHRASE_TIMEOUT",
    "FriendLists",
    "Link",
    "Linker",
    "selected_friend",
]

#: Seconds a set-phrase pattern may take on one message.
PHRASE_TIMEOUT = 1.0
#: A typo is corrected only in a word at least this long (one edit)...
FUZZY_MIN_LENGTH = 7
#: ...or this long (two edits). Shorter words collide with real ones ("scared"/"sacred").
FUZZY_TWO_EDITS_LENGTH = 10


# ---------------------------------------------------------------------------
# Selected friends
# ---------------------------------------------------------------------------


def selected_friend(turn: Turn) -> Mapping[str, str]:
    """The friend a ``select`` turn chose; a select without one is a ``ValueError``."""
    friend = turn.data
    if not isinstance(friend, Mapping) or not friend:
        raise ValueError(f"turn {turn.index}: a select needs the chosen friend in its data")
    return friend


class FriendLists:
    """Both agents' friend lists of one dialogue, to check selected friends against."""

    __slots__ = ("_keys",)

    def __init__(self, parties: Sequence[Party]):
        self._keys = [frozenset(friend_key(f) for f in p.kb) for p in parties]

    def selection(self, friend: Mapping[str, str], writer: int) -> tuple[bool, bool]:
        """``(in the reader's list, in the writer's list)`` for a friend ``writer`` selected.

        ``writer`` is the agent that selected the friend. The reader is the other agent: Cocoa's
        parser reads its partner's selection against its own list."""
        key = friend_key(friend)
        return key in self._keys[1 - writer], key in self._keys[writer]


# ---------------------------------------------------------------------------
# Values in messages
# ---------------------------------------------------------------------------


def _osa_distance(a: str, b: str, limit: int) -> int:
    """Edit distance with transpositions (optimal string alignment), capped at limit+1."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                best = min(best, previous2[j - 2] + 1)
            current[j] = best
        if min(current) > limit:
            return limit + 1
        previous2, previous = previous, current
    return previous[-1]


@dataclass(frozen=True, slots=True)
class Link:
    """A mention with the number of its value and whether a negation governs it."""

    value: int
    mention: EntityMention
    negated: bool


class Linker:
    """Finds the values of one scenario's knowledge bases in messages."""

    def __init__(self, names: Names, parties: Sequence[Party]):
        self.words = names.words
        values: list[tuple[str, str]] = []
        seen: dict[tuple[str, str], int] = {}
        self.party_values: list[frozenset[int]] = []
        for party in parties:
            mine: set[int] = set()
            for friend in party.kb:
                for attribute, value in friend.items():
                    key = (fold(value).strip(), attribute_type(friend, attribute))
                    if not key[0]:
                        continue
                    if key not in seen:
                        seen[key] = len(values)
                        values.append((value, key[1]))
                    mine.add(seen[key])
            self.party_values.append(frozenset(mine))
        self.values = values
        self.by_text: dict[str, list[int]] = {}
        for number, (value, _type) in enumerate(values):
            self.by_text.setdefault(fold(value).strip(), []).append(number)
        self.index: dict[str, list[tuple[Shape, int]]] = {}
        for number, (value, _type) in enumerate(values):
            for shape in names.shapes(value):
                self.index.setdefault(shape.tokens[0], []).append((shape, number))
        for entries in self.index.values():
            entries.sort(key=lambda e: -len(e[0].tokens))
        self.vocabulary = frozenset(
            t for entries in self.index.values() for shape, _ in entries for t in shape.tokens
        )
        # Typo targets: distinctive words long enough that one edit rarely makes another
        # English word, grouped by first letter (typos seldom hit the first letter).
        self.fuzzy_targets: dict[str, list[str]] = {}
        for token in sorted(self.vocabulary):
            if len(token) >= FUZZY_MIN_LENGTH and names.distinctive(token):
                self.fuzzy_targets.setdefault(token[0], []).append(token)
        self._canonical: dict[str, str | None] = {}

    def canonical(self, word: str) -> str | None:
        """The knowledge-base word a message word stands for, if any (cached)."""
        try:
            return self._canonical[word]
        except KeyError:
            found = self._canonical[word] = self._find_canonical(word)
            return found

    def _find_canonical(self, word: str) -> str | None:
        if word in self.vocabulary:
            return word
        w = self.words
        if len(word) < 3 or word in w.stop or word in w.connector or word in BREAKS:
            return None
        # Inflection: "indoors" for "indoor", "Tully" for "Tully's", "Highland".
        variants = [word + "s", word + "es"]
        if word.endswith("es"):
            variants.insert(0, word[:-2])
        if word.endswith("s"):
            variants.insert(0, word[:-1])
        for variant in variants:
            if len(variant) >= 3 and variant in self.vocabulary:
                return variant
        if len(word) < FUZZY_MIN_LENGTH - 1:
            return None
        best: list[str] = []
        best_distance = 3
        for target in self.fuzzy_targets.get(word[0], ()):
            limit = 2 if len(target) >= FUZZY_TWO_EDITS_LENGTH else 1
            distance = _osa_distance(word, target, limit)
            if distance > limit or distance > best_distance:
                continue
            if distance < best_distance:
                best, best_distance = [target], distance
            else:
                best.append(target)
        # Two equally close targets: the typo is ambiguous, leave it.
        return best[0] if len(best) == 1 else None

    def _fits(self, word: str, canonical: str | None, wanted: str) -> bool:
        if canonical == wanted:
            return True
        # Inside a name, an abbreviated word ("Sacred Heart Univ", "Salisbury St").
        return len(word) >= 2 and wanted not in self.words.connector and wanted.startswith(word)

    def link(self, text: str, writer: int, mentioned: set[int]) -> list[Link]:
        """The values mentioned in ``text``, in order.

        ``mentioned`` (value numbers already mentioned in the dialogue) breaks ties between
        candidates."""
        tokens = link_tokens(text)
        if not tokens or not self.index:
            return []
        canonical = [self.canonical(w) for w, _, _ in tokens]
        # The phrases come from an editable rule file: bound their time on hostile text.
        fixed = [
            m.span()
            for p in self.words.set_phrases
            for m in p.finditer(text, timeout=PHRASE_TIMEOUT)
        ]
        links: list[Link] = []
        negated = self._negations(tokens)
        i = 0
        while i < len(tokens):
            entries = self.index.get(canonical[i] or "")
            if not entries:
                i += 1
                continue
            length, found = self._longest(text, tokens, canonical, i, entries)
            if not found:
                i += 1
                continue
            number = self._resolve(found, writer, mentioned)
            start, end = tokens[i][1], tokens[i + length - 1][2]
            inside_phrase = any(s <= start and end <= e for s, e in fixed)
            if number is not None and not inside_phrase:
                value, type_ = self.values[number]
                mention = EntityMention(text[start:end], value, type_, start, end)
                links.append(Link(number, mention, negated[i]))
            i += length
        return links

    def _longest(
        self,
        text: str,
        tokens: list[tuple[str, int, int]],
        canonical: list[str | None],
        i: int,
        entries: list[tuple[Shape, int]],
    ) -> tuple[int, list[tuple[Shape, int]]]:
        """The longest shapes that match at token ``i`` (entries are sorted longest first)."""
        found: list[tuple[Shape, int]] = []
        length = 0
        for shape, number in entries:
            size = len(shape.tokens)
            if size < length:
                break
            if i + size > len(tokens):
                continue
            if not all(
                self._fits(tokens[i + k][0], canonical[i + k], shape.tokens[k])
                for k in range(1, size)
            ):
                continue
            if shape.case_sensitive and text[tokens[i][1] : tokens[i][2]] != self.values[number][0]:
                continue
            length = size
            found.append((shape, number))
        return length, found

    def _resolve(
        self, found: list[tuple[Shape, int]], writer: int, mentioned: set[int]
    ) -> int | None:
        """One value for a stretch of text, or ``None`` when it stays ambiguous.

        A whole name beats a partial one; then a value in the writer's own list (people
        mostly describe their own friends); then a value already mentioned.
        """
        exact = {number for shape, number in found if shape.exact}
        pool = sorted(exact or {number for _, number in found})
        for prefer in (self.party_values[writer], mentioned):
            if len(pool) == 1:
                break
            narrowed = [v for v in pool if v in prefer]
            if narrowed:
                pool = narrowed
        return pool[0] if len(pool) == 1 else None

    def _negations(self, tokens: list[tuple[str, int, int]]) -> list[bool]:
        """For each token, whether a negation precedes it in its clause (one pass).

        A clause ends at punctuation or a contrast word ("no, but I have one at X"). A
        reply word opening a clause and followed by a pronoun answers the partner and
        negates nothing ("no I have two at X").
        """
        w = self.words
        out: list[bool] = []
        active = False
        clause_start = 0
        for j, (word, _, _) in enumerate(tokens):
            out.append(active)
            if word in BREAKS or word in w.contrast:
                active, clause_start = False, j + 1
            elif word in w.negation and not active:
                is_reply = (
                    j == clause_start
                    and word in w.reply
                    and j + 1 < len(tokens)
                    and tokens[j + 1][0] in w.pronoun
                )
                active = not is_reply
        return out
