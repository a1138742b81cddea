"""Words a regular expression cannot match without: a cheap test before the regex call.

A pattern such as ``\\b(i|we)\\b[^.!?]*\\b(need|want)\\b`` matches no text that contains
neither "need" nor "want". :func:`required_literals` finds such a set of strings from the
pattern's syntax tree, so that a text containing none of them is known not to match with
a few substring tests instead of a regex search: the answer is the same, by
construction. Patterns the standard library parses in a way the ``regex`` module might
read differently (anything it warns about, braces it takes as text, inline flags) get no
prefilter and are always searched.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable, Sequence
from functools import reduce
from operator import or_
from typing import Any

__all__ = [
    "ASCII_LOWER",
    "BOUNDARY",
    "NeedIndex",
    "bits",
    "pattern_tree",
    "required_literals",
    "strip_boundaries",
]

#: Lowercases ASCII letters only, as ``regex``'s IGNORECASE folds the literals the rules
#: use: the tag matcher and the index fold texts the same way.
ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")

#: A set of strings a part of a pattern matches exactly grows by concatenation; past this
#: size the part is cut into shorter runs.
_MAX_STRINGS = 64
#: At most this many requirements are kept per pattern (the most selective).
_MAX_REQUIREMENTS = 3

#: Marks a word boundary (``\\b``) at either end of a required string, with
#: ``required_literals(..., bounds=True)``: a noncharacter, which no text holds, and a
#: pattern that holds it gets no requirement at all.
BOUNDARY = "\ufdd0"

#: A set of strings one of which every match contains.
_Requirement = frozenset[str]
#: (exact, required): the strings a part matches, when finite (``None`` when not), and
#: requirements that all hold for every match of the part.
_Analysis = tuple[frozenset[str] | None, list[_Requirement]]


def pattern_tree(pattern: str, *, strict: bool = False) -> tuple[Any, Any] | None:
    """The standard library's parser module (private, hence imported by name) and its
    syntax tree of ``pattern``, for the analyses that read a pattern's structure.

    ``None`` when ``re`` cannot read it, when it sets a global inline flag (``(?i)``,
    ``(?x)``: the tree would not say how its parts match) or, with ``strict``, when ``re``
    warns about it ("possible nested set" and the like: ``regex`` may read it otherwise).
    """
    try:
        parser: Any = importlib.import_module("re._parser")
        with warnings.catch_warnings():
            warnings.simplefilter("error" if strict else "ignore")
            tree = parser.parse(pattern)
    except Exception:
        return None
    if tree.state.flags & ~parser.SRE_FLAG_UNICODE:
        return None
    return parser, tree


def required_literals(
    pattern: str, ascii_only: bool = False, *, bounds: bool = False
) -> tuple[tuple[str, ...], ...]:
    """Sets of strings such that every text ``pattern`` matches (searched for anywhere)
    contains a string of each set; empty when none is known.

    With ``ascii_only`` (for patterns compiled with ASCII case folding: the caller
    compares lowercased literals with lowercased text) sets with a non-ASCII string are
    left out. With ``bounds``, a string the pattern puts a word boundary (``\\b``) in
    front of or after starts or ends with :data:`BOUNDARY` (``\\bnot\\b`` needs
    "not" as a word, not inside "nothing"); :func:`strip_boundaries` gives the plain
    strings, which are the strings without ``bounds``.

    >>> required_literals(r"\\bnot (going to )?work\\b")
    (('work',), ('not ',))
    >>> required_literals(r"\\b(need|want)\\b[^.]*\\?")
    (('need', 'want'), ('?',))
    >>> required_literals(r"\\w+")
    ()
    """
    parsed = pattern_tree(pattern, strict=True)
    if parsed is None:  # anything re cannot read, or reads with a doubt, stays unfiltered
        return ()
    parser, tree = parsed
    if bounds and BOUNDARY in pattern:
        return ()  # the mark would be read as a boundary
    analysis = _Analyzer(parser, bounds=bounds)
    _exact, required = analysis.sequence(list(tree))
    if analysis.doubtful:
        return ()
    if bounds:
        required = [frozenset(map(_edge_marks, r)) for r in required]
    kept = [
        _minimal(r)
        for r in required
        if (not ascii_only or all(s.isascii() for s in r)) and not _too_common(r)
    ]
    unique = {tuple(sorted(r)): r for r in kept}
    ranked = sorted(unique, key=lambda key: (_selectivity(unique[key]), key), reverse=True)
    return tuple(ranked[:_MAX_REQUIREMENTS])


def strip_boundaries(needs: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
    """``needs`` of ``required_literals(..., bounds=True)`` as plain strings."""
    return tuple(tuple(dict.fromkeys(w.replace(BOUNDARY, "") for w in ws)) for ws in needs)


def _edge_marks(string: str) -> str:
    """``string`` with a boundary mark kept only at its ends, once: a mark inside it says
    nothing a substring test could use."""
    core = string.strip(BOUNDARY).replace(BOUNDARY, "")
    return (
        (BOUNDARY if string.startswith(BOUNDARY) else "")
        + core
        + (BOUNDARY if string.endswith(BOUNDARY) else "")
    )


def _too_common(requirement: _Requirement) -> bool:
    """A single letter, digit or space among the strings: nearly every text has one, so
    the test is not worth making."""
    return any(
        len(s) == 1 and (s.isalnum() or s.isspace())
        for s in (t.strip(BOUNDARY) for t in requirement)
    )


def _minimal(requirement: _Requirement) -> _Requirement:
    """Leave out strings that contain another of the set ("needs" holds "need")."""
    return frozenset(s for s in requirement if not any(t != s and t in s for t in requirement))


def _selectivity(requirement: _Requirement) -> tuple[int, int, int]:
    """A guess at what rules out most texts for least work: strings of four characters
    or more are rare enough, so then fewer strings (fewer substring tests) first."""
    shortest = min(len(s.strip(BOUNDARY)) for s in requirement)
    return min(shortest, 4), -len(requirement), shortest


def _best(requirements: list[_Requirement]) -> _Requirement | None:
    return max(requirements, key=_selectivity) if requirements else None


def _as_required(exact: frozenset[str] | None) -> list[_Requirement]:
    """A finite set of exact matches is itself a requirement, unless it holds "" (or
    nothing but word boundaries)."""
    if exact is None or any(not s.strip(BOUNDARY) for s in exact):
        return []
    return [exact]


class _Analyzer:
    """Walks a syntax tree of :mod:`re._parser`; the opcodes are looked up once."""

    def __init__(self, parser: Any, *, bounds: bool = False) -> None:
        self.p = parser
        #: A ``\\b`` reads as :data:`BOUNDARY` (else as "", like every anchor).
        self.boundary = BOUNDARY if bounds else ""
        #: Set when the tree holds something regex may read differently (literal braces:
        #: regex's fuzzy-matching syntax).
        self.doubtful = False

    def sequence(self, items: Sequence[tuple[Any, Any]]) -> _Analysis:
        """Consecutive parts with finite exact sets concatenate into runs; every run and
        every requirement of the other parts holds for a match of the sequence."""
        run: frozenset[str] = frozenset({""})
        whole: frozenset[str] | None = frozenset({""})
        required: list[_Requirement] = []
        text = ""  # the current stretch of plain text (" not " in "(can|will) not (do|go)")
        for op, arg in items:
            exact, inner = self.element(op, arg)
            if exact is not None and len(exact) == 1:
                text += next(iter(exact))
            else:
                required += _as_required(frozenset({text}))
                text = ""
            if exact is not None and whole is not None:
                whole = frozenset(a + b for a in whole for b in exact)
                if len(whole) > _MAX_STRINGS:
                    whole = None
            else:
                whole = None
            if exact is not None:
                required += _as_required(exact)  # each part on its own is needed too
                joined = frozenset(a + b for a in run for b in exact)
                if len(joined) <= _MAX_STRINGS:
                    run = joined
                    continue
                required += _as_required(run)
                run = exact
                continue
            required += _as_required(run)
            required += inner
            run = frozenset({""})
        required += _as_required(run)
        required += _as_required(frozenset({text}))
        return whole, required

    def element(self, op: Any, arg: Any) -> _Analysis:
        """The exact strings and the requirements of one node of the tree."""
        p = self.p
        if op is p.LITERAL:
            if chr(arg) in "{}":
                self.doubtful = True
            return frozenset({chr(arg)}), []
        if op is p.AT:  # \b, ^, $: zero width, so the parts around it are adjacent
            return frozenset({self.boundary if arg is p.AT_BOUNDARY else ""}), []
        if op is p.IN:
            if all(item_op is p.LITERAL for item_op, _ in arg):
                chars = frozenset(chr(code) for _, code in arg)
                if chars & set("{}"):
                    self.doubtful = True
                return chars, []
            return None, []
        if op is p.SUBPATTERN:
            _group, add_flags, del_flags, body = arg
            if add_flags or del_flags:
                self.doubtful = True
                return None, []
            return self.sequence(list(body))
        if op is p.BRANCH:
            analyses = [self.sequence(list(branch)) for branch in arg[1]]
            exacts = [exact for exact, _ in analyses]
            union: frozenset[str] | None = None
            if all(e is not None for e in exacts):
                union = frozenset(s for e in exacts if e is not None for s in e)
                if len(union) > _MAX_STRINGS:
                    union = None
            # Each alternative's best requirement: a match holds one of their strings.
            bests = [_best(required + _as_required(exact)) for exact, required in analyses]
            if any(b is None for b in bests):
                return union, []
            return union, [frozenset(s for b in bests if b is not None for s in b)]
        if op in (p.MAX_REPEAT, p.MIN_REPEAT, p.POSSESSIVE_REPEAT):
            low, _high, body = arg
            exact, required = self.sequence(list(body))
            if low < 1:
                return None, []
            return None, required + _as_required(exact)
        if op is p.ATOMIC_GROUP:
            exact, required = self.sequence(list(arg))
            return None, required + _as_required(exact)
        # Any character, classes, back references, lookarounds, conditionals: no
        # requirement, and the parts around them are not adjacent.
        return None, []


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
    """The rarest stretch of ``word`` without whitespace (:func:`_rarity`): a text holding
    ``word`` holds it within one of its whitespace-separated chunks, at the chunk's start when
    whitespace comes before it in ``word`` (at its end when after) and at a word
    boundary where ``word`` has a :data:`BOUNDARY` mark."""
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
    """How few chunks a piece is likely in, for :func:`max`: not a common word, then
    long, then placed on more sides (at a word boundary or its chunk's edge)."""
    core, left, right = piece
    placed = (left != _ANYWHERE) + (right != _ANYWHERE)
    return core.strip("'?.,!") not in _COMMON_WORDS, len(core), placed


def _is_word(char: str) -> bool:
    """A word character of the rules' ``\\w`` (ASCII): a pattern whose ``\\b`` is
    Unicode's has a boundary wherever this has one, so the test stays a superset."""
    return char.isascii() and (char.isalnum() or char == "_")


def _stands(chunk: str, core: str, left: int, right: int) -> bool:
    """Whether ``core`` occurs in ``chunk`` placed as ``left`` and ``right`` say (the
    chunk's edges are whitespace or the text's ends: no word character)."""
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
    """Whether one side of an occurrence is placed as ``side`` asks: ``at_edge`` of the
    chunk, with a word character beside it or not, ``own`` its character on that side."""
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
    """Chunk -> mask, worked out by the index on a chunk's first look-up, so that a
    text's masks come from one ``map`` over its chunks.

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
