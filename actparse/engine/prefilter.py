"""Which of many guarded patterns a text can match: an index of the words they need.

A rule set's patterns are filed by the words :mod:`actparse.engine.literals` finds they
cannot match without (:class:`NeedIndex`), so that a text is worked out once, chunk by
chunk, into the few patterns worth a regex search. The analysis's names are importable
from here too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import reduce
from operator import or_

from actparse.engine.literals import (
    ASCII_LOWER,
    BOUNDARY,
    pattern_tree,
    required_literals,
    strip_boundaries,
)

__all__ = [
    "ASCII_LOWER",
    "BOUNDARY",
    "NeedIndex",
    "bits",
    "pattern_tree",
    "required_literals",
    "strip_boundaries",
]


#: The chunk cache of a :class:`NeedIndex` starts again past this many entries: a bound
#: on memory (a corpus' vocabulary stays well below it).
_CHUNK_CACHE_SIZE = 1 << 16
#: Longer chunks are worked out each time, not cached: the cache is keyed by the chunk,
#: so its bound on entries is one on memory only while they are words.
_CACHED_CHUNK_LENGTH = 64


#: Where a piece must stand in a chunk, on either side: anywhere, at a word boundary
#: (the need has :data:`BOUNDARY` there), or at the chunk's edge (whitespace there).
_ANYWHERE, _WORD_EDGE, _CHUNK_EDGE = 0, 1, 2
#: A stretch of a need without whitespace, and where it stands on its left and right.
_Piece = tuple[str, int, int]


def _piece(word: str) -> _Piece:
    """The rarest stretch of ``word`` without whitespace (:func:`_rarity`).

    A text holding ``word`` holds it within one of its whitespace-separated chunks, at
    the chunk's start when whitespace comes before it in ``word`` (at its end when after)
    and at a word boundary where ``word`` has a :data:`BOUNDARY` mark.
    """
    plain = word.replace(BOUNDARY, "")
    parts = plain.split()
    if not parts:
        return "", _ANYWHERE, _ANYWHERE
    first = _CHUNK_EDGE if plain[0].isspace() else _WORD_EDGE if word[0] == BOUNDARY else 0
    last = _CHUNK_EDGE if plain[-1].isspace() else _WORD_EDGE if word[-1] == BOUNDARY else 0
    pieces = [
        (
            part,
            first if k == 0 else _CHUNK_EDGE,
            last if k == len(parts) - 1 else _CHUNK_EDGE,
        )
        for k, part in enumerate(parts)
    ]
    return max(pieces, key=_rarity)


#: The commonest English words: a stretch that is one of them is in nearly every text,
#: so of a need's stretches ("you too") the index files another ("too"). A guess at
#: frequency that only decides how fast the index is, never what it finds.
_COMMON = (
    "a an the i me my we us our you your he she it they them his her its this that these "
    "those is am are was were be been being have has had do does did will would can could "
    "shall should may might must to of in on at for with by from as and or but if so not "
    "no yes what how why when where who which there here all any some just very"
)
_COMMON_WORDS = frozenset(_COMMON.split())


def _rarity(piece: _Piece) -> tuple[bool, int, int]:
    """How few chunks a piece is likely in, for :func:`max`.

    Not a common word, then long, then placed on more sides (at a word boundary or its
    chunk's edge).
    """
    core, left, right = piece
    placed = (left != _ANYWHERE) + (right != _ANYWHERE)
    return core.strip("'?.,!") not in _COMMON_WORDS, len(core), placed


def _is_word(char: str) -> bool:
    """Whether ``char`` is a word character of the rules' ``\\w`` (ASCII).

    A pattern whose ``\\b`` is Unicode's has a boundary wherever this has one, so the
    test stays a superset.
    """
    return char.isascii() and (char.isalnum() or char == "_")


def _stands(chunk: str, core: str, left: int, right: int) -> bool:
    """Whether ``core`` occurs in ``chunk`` placed as ``left`` and ``right`` say.

    The chunk's edges are whitespace or the text's ends: no word character.
    """
    start = chunk.find(core)
    while start >= 0:
        stop = start + len(core)
        if _fits(left, start == 0, start > 0 and _is_word(chunk[start - 1]), core[0]) and _fits(
            right, stop == len(chunk), stop < len(chunk) and _is_word(chunk[stop]), core[-1]
        ):
            return True
        start = chunk.find(core, start + 1)
    return False


def _fits(side: int, at_edge: bool, word_beside: bool, own: str) -> bool:
    """Whether one side of an occurrence is placed as ``side`` asks.

    ``at_edge``: at the chunk's edge; ``word_beside``: with a word character beside it
    or not; ``own``: its character on that side.
    """
    if side == _CHUNK_EDGE:
        return at_edge
    if side == _WORD_EDGE:
        return word_beside != _is_word(own)
    return True


def bits(mask: int) -> list[int]:
    """The positions of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class _ChunkTable(dict[str, int]):
    """Chunk -> mask, worked out by the index on a chunk's first look-up.

    That way a text's masks come from one ``map`` over its chunks.

    Equal masks are one object: a corpus' few thousand chunks have a few hundred masks
    of several hundred bits, and shared, the ones a text ORs together stay in the CPU
    caches (about 2% of Craigslist labelling)."""

    def __init__(self, work_out: Callable[[str], int]) -> None:
        super().__init__()
        self._work_out = work_out
        self._masks: dict[int, int] = {}

    def __missing__(self, chunk: str) -> int:
        mask = self._work_out(chunk)
        if len(chunk) <= _CACHED_CHUNK_LENGTH:
            if len(self) >= _CHUNK_CACHE_SIZE:
                self.clear()
                self._masks.clear()
            mask = self._masks.setdefault(mask, mask)
            self[chunk] = mask
        return mask


class NeedIndex:
    """Which of many guarded patterns a text can match, from its ~20 chunks.

    Testing every pattern's needs on every text (substring tests per pattern) costs
    about what the prefilter saves once there are a hundred patterns. Here every group
    of a pattern's needs (:func:`required_literals`, as the caller compares them:
    lowercased for a pattern that ignores case) is filed under its words, each cut to
    its rarest stretch without whitespace. Such a stretch lies inside one
    whitespace-separated chunk of any text that holds the word, so a pattern with a
    group none of whose stretches is in any chunk of a text cannot match it:
    :meth:`candidates` is a superset of the patterns that can.

    Each chunk is worked out once (cached) into one integer: a bit per pattern whose
    most selective group the chunk touches, and above those a bit per group it touches.
    A text's mask is the OR of its chunks' (one C-level ``map`` and ``reduce``); a
    pattern with several groups is then kept only when the text touches them all.
    Callers still test the full needs of a candidate before searching.
    """

    def __init__(self, patterns: Sequence[tuple[tuple[tuple[str, ...], ...], bool]]) -> None:
        """``patterns[k]``: the needs of pattern ``k`` and whether it ignores case."""
        n = len(patterns)
        always = 0
        by_piece: dict[tuple[_Piece, bool], int] = {}
        #: Per pattern bit: the bit of its most selective group's pattern (itself).
        primary: dict[int, int] = {}
        several: dict[int, int] = {}
        proven = 0
        next_group = 0
        for k, (needs, folded) in enumerate(patterns):
            groups = [
                frozenset(_piece(w) for w in words)
                for words in needs
                if words and all(_piece(w)[0] for w in words)
            ]
            if not groups:
                always |= 1 << k  # nothing to file it under: always a candidate
                continue
            ids = range(next_group, next_group + len(groups))
            next_group += len(groups)
            for gid, group in zip(ids, groups):
                for piece in group:
                    key = (piece, folded)
                    by_piece[key] = by_piece.get(key, 0) | (1 << (n + gid))
            # The group whose commonest piece is rarest: the fewest texts hold it; of
            # groups alike, the one with fewer pieces to look for.
            best = max(zip(ids, groups), key=lambda g: (min(map(_rarity, g[1])), -len(g[1])))
            primary[best[0]] = k
            if len(groups) > 1:
                several[k] = sum(1 << gid for gid in ids)
            plain = strip_boundaries(needs)
            if len(groups) == len(needs) and all(w.split() == [w] for ws in plain for w in ws):
                # Every word is its own stretch, and a text holds a word without
                # whitespace exactly when one of its chunks does: candidacy proves the needs
                # (as substrings: their boundaries are the pattern's to test).
                proven |= 1 << k
        # A chunk touching a pattern's primary group also sets the pattern's own bit.
        self._pieces = tuple(
            (core, left, right, folded, mask | _primary_bits(mask >> n, primary))
            for ((core, left, right), folded), mask in sorted(by_piece.items())
        )
        self._n = n
        self._pattern_bits = (1 << n) - 1
        #: Per pattern of several groups, the bits of all of them, in a chunk mask's
        #: places (a list by pattern number: faster to index than big bits to hash).
        self._several = [need << n if (need := several.get(k)) else 0 for k in range(n)]
        self._several_bits = sum(1 << k for k in several)
        #: Patterns that are candidates for every text.
        self.always_mask = always
        #: Patterns whose needs hold in every text they are a candidate of: the caller
        #: need not test them again.
        self.proven_mask = proven
        self._table = _ChunkTable(self._chunk)

    def _chunk(self, chunk: str) -> int:
        """The mask of ``chunk``: the patterns by primary group, and the groups."""
        # Python 2's ASCII case folding, as the matcher lowercases the whole text.
        lowered = chunk.lower() if chunk.isascii() else chunk.translate(ASCII_LOWER)
        mask = 0
        for core, left, right, folded, piece_mask in self._pieces:
            subject = lowered if folded else chunk
            if core in subject and (not (left or right) or _stands(subject, core, left, right)):
                mask |= piece_mask
        return mask

    def candidate_mask(self, text: str) -> int:
        """The patterns that may match ``text`` as a mask: bit ``k`` for pattern ``k``."""
        mask = reduce(or_, map(self._table.__getitem__, text.split()), 0)
        hits = mask & self._pattern_bits
        check = hits & self._several_bits
        if check:
            several = self._several
            while check:
                k = check.bit_length() - 1
                bit = 1 << k
                need = several[k]
                if mask & need != need:
                    hits ^= bit
                check ^= bit
        return hits | self.always_mask

    def candidates(self, text: str) -> frozenset[int]:
        """The patterns that may match ``text`` (a superset of those that do)."""
        return frozenset(bits(self.candidate_mask(text)))


def _primary_bits(groups: int, primary: dict[int, int]) -> int:
    """The pattern bits of the groups in ``groups`` that are a pattern's primary one."""
    return sum(1 << primary[gid] for gid in bits(groups) if gid in primary)
