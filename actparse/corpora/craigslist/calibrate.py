"""Calibrating the price lexicon from reference acts.

Cocoa's price lexicon came from a split we do not have, so the weakly supervised one
(:func:`~actparse.corpora.craigslist.lexicon.train_lexicon`) misses some word contexts
Cocoa knew and holds some it never saw. Reference acts tell them apart, one message at a time:

* A bare number (no `$`) that passes every check of the price tracker but the context
  check is a price exactly when both its neighbours are in the lexicon.
* With the dialogue state the *reference* acts build (so that an earlier disagreement
  does not ripple into the evidence), each choice of which of a message's bare numbers
  count as prices gives one act. The choices that reproduce the reference act are the
  message's *patterns*.
* A context pair counted in every pattern is positive evidence: both neighbours were in
  Cocoa's lexicon. A pair counted in none is negative evidence: at least one of them
  was not.

:func:`calibrate` adds the neighbours of positive evidence and, for each negative pair
the lexicon would still count, removes one neighbour by a general rule: a word known to
be a context (positive evidence anywhere) stays, so the other goes; otherwise a greedy
set cover removes the word that explains the most negative pairs, and among equals the
one with the weaker weak-supervision count. A change needs ``min_support`` occurrences.
Only word contexts are learned: no utterance, number or dialogue is kept.

:func:`~actparse.corpora.craigslist.training.cross_validate` estimates how the
calibration carries over to dialogues it never saw.
"""

from __future__ import annotations

import datetime
import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import regex

from actparse.corpora.craigslist.evaluate import same_price
from actparse.corpora.craigslist.hf import shortest_float32
from actparse.corpora.craigslist.lexicon import PriceLexicon, describe_source
from actparse.corpora.craigslist.linking import ListingContext, bare_numbers, find_prices
from actparse.corpora.craigslist.numbers import END, START
from actparse.corpora.craigslist.parser import NO_LISTING, CraigslistParser, DialogueState
from actparse.engine.tokenizer import tokenize
from actparse.io.records import Record
from actparse.models import Act, Dialogue, PriceMention, ReferenceAct, Turn

__all__ = [
    "Calibration",
    "ContextStats",
    "DialogueEvidence",
    "MessageEvidence",
    "calibrate",
    "collect_evidence",
    "context_stats",
    "expand",
]

Pair = tuple[str, str]

#: A message with more distinct bare-number contexts than this gives no evidence: the
#: patterns are enumerated, 2**n acts per message.
MAX_PAIRS = 10

_DIGIT = regex.compile(r"\d")
# find_prices with no contexts at all returns the `$`-marked prices only.
_NO_CONTEXTS = PriceLexicon(left=frozenset(), right=frozenset())


@dataclass(frozen=True)
class MessageEvidence:
    """What one reference act says about the lexicon.

    ``pairs`` are the distinct (left, right) neighbours of the message's bare numbers;
    each pattern is a set of indices into ``pairs``: counting exactly those as prices
    reproduces the reference act.
    """

    pairs: tuple[Pair, ...]
    patterns: tuple[frozenset[int], ...]

    def forced_in(self) -> list[Pair]:
        """Pairs counted in every pattern: both neighbours are contexts."""
        return [p for i, p in enumerate(self.pairs) if all(i in s for s in self.patterns)]

    def forced_out(self) -> list[Pair]:
        """Pairs counted in no pattern: at least one neighbour is not a context."""
        return [p for i, p in enumerate(self.pairs) if not any(i in s for s in self.patterns)]

    def holds(self, lexicon: PriceLexicon) -> bool:
        """Whether the lexicon reproduces the reference act of this message."""
        counted = frozenset(
            i for i, (lw, rw) in enumerate(self.pairs) if lexicon.is_price_context(lw, rw)
        )
        return counted in self.patterns


@dataclass(frozen=True)
class DialogueEvidence:
    """The informative messages of one reference dialogue."""

    where: str
    messages: tuple[MessageEvidence, ...]


def _same_act(act: Act, ref: ReferenceAct) -> bool:
    # As the Craigslist evaluation scores, so that calibrating on a labelled file agrees.
    return (act.intent or "") == ref.intent and same_price(act, ref)


def _closed(subset: Sequence[int], pairs: Sequence[Pair]) -> bool:
    # A lexicon counts a pair when it holds both words: counting (a, x) and (b, y) means
    # counting (a, y) and (b, x) too, so a pattern must be closed under that product.
    lefts = {pairs[i][0] for i in subset}
    rights = {pairs[i][1] for i in subset}
    chosen = set(subset)
    return all(i in chosen for i, (lw, rw) in enumerate(pairs) if lw in lefts and rw in rights)


def collect_evidence(
    records: Iterable[Record], parser: CraigslistParser | None = None
) -> list[DialogueEvidence]:
    """The lexicon evidence of every dialogue the reference parsed.

    Each message is read with the dialogue state built from the reference acts of the
    turns before it. Messages whose act does not depend on the lexicon, or that no choice
    of prices reproduces (a disagreement of another kind), are left out.
    """
    parser = parser or CraigslistParser()
    out: list[DialogueEvidence] = []
    for record in records:
        dialogue = record.dialogue()
        reference = dialogue.reference
        if reference is None or all(not r.intent for r in reference):
            continue
        listings = [ListingContext(p.listing or NO_LISTING) for p in dialogue.parties]
        state = DialogueState()
        messages: list[MessageEvidence] = []
        for turn, ref in zip(dialogue.turns, reference):
            if turn.is_message:
                evidence = _message_evidence(parser, dialogue, turn, ref, listings, state)
                if evidence is not None:
                    messages.append(evidence)
            price = shortest_float32(ref.price) if ref.price is not None else None
            state.update(turn.agent, ref.intent or None, price)
        if messages:
            out.append(DialogueEvidence(record.where, tuple(messages)))
    return out


def _message_evidence(
    parser: CraigslistParser,
    dialogue: Dialogue,
    turn: Turn,
    ref: ReferenceAct,
    listings: Sequence[ListingContext],
    state: DialogueState,
) -> MessageEvidence | None:
    toks = tokenize(turn.text)
    listing = listings[1 - turn.agent]
    bare = bare_numbers(toks, listing)
    pairs = tuple(dict.fromkeys((b.left, b.right) for b in bare))
    if not pairs or len(pairs) > MAX_PAIRS:
        return None
    marked = find_prices(toks, _NO_CONTEXTS, listing)
    patterns: list[frozenset[int]] = []
    n_subsets = 0
    for size in range(len(pairs) + 1):
        for subset in itertools.combinations(range(len(pairs)), size):
            if not _closed(subset, pairs):
                continue
            n_subsets += 1
            counted = {pairs[i] for i in subset}
            found = marked + [
                PriceMention(b.surface, b.value, b.token)
                for b in bare
                if (b.left, b.right) in counted
            ]
            found.sort(key=lambda m: m.token)
            act = parser.message_act(dialogue, turn, toks, found, listing.price, state)
            if _same_act(act, ref):
                patterns.append(frozenset(subset))
    if not patterns or len(patterns) == n_subsets:
        return None
    return MessageEvidence(pairs, tuple(patterns))


@dataclass(frozen=True)
class ContextStats:
    """How often each word occurs in the weak-supervision messages, and next to a bare number.

    Next to means just left or just right of a bare number (no `$`)."""

    tokens: Counter[str] = field(default_factory=Counter)
    bare_left: Counter[str] = field(default_factory=Counter)
    bare_right: Counter[str] = field(default_factory=Counter)


def context_stats(messages: Iterable[str]) -> ContextStats:
    """Word and bare-number-neighbour counts of raw messages (``<s>``/``</s>`` padded)."""
    stats = ContextStats()
    for text in messages:
        tokens = [START, *tokenize(text), END]
        stats.tokens.update(tokens)
        for b in bare_numbers(tokens[1:-1]):
            stats.bare_left[b.left] += 1
            stats.bare_right[b.right] += 1
    return stats


#: Candidate thresholds of the frequency rule (see :func:`expand`): a word must occur at
#: least ``min_count`` times, and at most ``max_number_share`` of its occurrences may be
#: next to a bare number. :func:`calibrate` picks the pair the reference evidence favours.
MIN_COUNTS = (20, 50, 100, 200, 500)
MAX_NUMBER_SHARES = (0.02, 0.05, 0.1)


def expand(
    base: PriceLexicon, stats: ContextStats, min_count: int, max_number_share: float
) -> tuple[PriceLexicon, frozenset[str], frozenset[str]]:
    """Add the frequent words that seldom stand beside a number, on each side.

    Cocoa's lexicon came from a larger split: a frequent word (a function word, a verb)
    that our smaller corpus never showed beside a `$` price was most likely beside one
    there. Words that mostly stand beside numbers are units ("years", "miles", "bedroom"):
    they are beside numbers that are not prices, so they are left out.
    """

    def frequent(counts: Counter[str], known: frozenset[str]) -> frozenset[str]:
        # Words only: a number beside a number, or a padding symbol on the wrong side,
        # says nothing about how people write prices.
        return frozenset(
            w
            for w, n in stats.tokens.items()
            if n >= min_count
            and counts[w] <= max_number_share * n
            and w not in known
            and w not in (START, END)
            and _DIGIT.search(w) is None
        )

    left = frequent(stats.bare_left, base.left)
    right = frequent(stats.bare_right, base.right)
    lexicon = PriceLexicon(
        left=base.left | left,
        right=base.right | right,
        provenance=base.provenance,
        left_counts={**dict.fromkeys(left, 0), **base.left_counts},
        right_counts={**dict.fromkeys(right, 0), **base.right_counts},
    )
    return lexicon, left, right


def _best_expansion(
    base: PriceLexicon, stats: ContextStats, messages: Sequence[MessageEvidence]
) -> tuple[PriceLexicon, dict[str, Any]]:
    """The expansion that reproduces the most evidence messages; the smallest on ties."""
    best = (sum(m.holds(base) for m in messages), 0)
    chosen: tuple[PriceLexicon, dict[str, Any]] = (base, {"rule": None, "messages_held": best[0]})
    for min_count, share in itertools.product(MIN_COUNTS, MAX_NUMBER_SHARES):
        lexicon, left, right = expand(base, stats, min_count, share)
        score = (sum(m.holds(lexicon) for m in messages), -(len(left) + len(right)))
        if score > best:
            best = score
            chosen = (
                lexicon,
                {
                    "rule": "frequent words seldom next to a number",
                    "min_count": min_count,
                    "max_number_share": share,
                    "messages_held": score[0],
                    "left": sorted(left),
                    "right": sorted(right),
                },
            )
    chosen[1]["messages_held_before"] = sum(m.holds(base) for m in messages)
    return chosen


@dataclass(frozen=True)
class Calibration:
    """A calibrated lexicon and the changes that made it, with their evidence counts."""

    lexicon: PriceLexicon
    added_left: dict[str, int] = field(default_factory=dict)
    added_right: dict[str, int] = field(default_factory=dict)
    removed_left: dict[str, int] = field(default_factory=dict)
    removed_right: dict[str, int] = field(default_factory=dict)
    #: Negative pairs left counted: both words have positive evidence, or too little support.
    unresolved: int = 0

    def summary(self) -> dict[str, Any]:
        """The changes, as kept in the lexicon's provenance."""
        return _changes(
            self.added_left,
            self.added_right,
            self.removed_left,
            self.removed_right,
            self.unresolved,
        )


def _changes(
    added_left: dict[str, int],
    added_right: dict[str, int],
    removed_left: dict[str, int],
    removed_right: dict[str, int],
    unresolved: int,
) -> dict[str, Any]:
    return {
        "added_left": dict(sorted(added_left.items())),
        "added_right": dict(sorted(added_right.items())),
        "removed_left": dict(sorted(removed_left.items())),
        "removed_right": dict(sorted(removed_right.items())),
        "unresolved_negative_pairs": unresolved,
    }


def calibrate(
    base: PriceLexicon,
    evidence: Iterable[DialogueEvidence],
    *,
    stats: ContextStats | None = None,
    min_support: int = 1,
    reference: str | Path | None = None,
) -> Calibration:
    """Combine the weakly supervised ``base`` lexicon with reference-act evidence.

    With ``stats`` (of the weak-supervision messages), first expands ``base`` with the
    frequency rule whose thresholds reproduce the most evidence messages (see
    :func:`expand`). Then adds each neighbour of positive evidence seen at least
    ``min_support`` times, and resolves negative evidence (see the module docstring).
    ``reference`` (the evidence's file) is described in the provenance.
    """
    dialogues = list(evidence)
    messages = [m for d in dialogues for m in d.messages]
    expansion: dict[str, Any] = {"rule": None}
    if stats is not None:
        base, expansion = _best_expansion(base, stats, messages)
    pos_left, pos_right = _positive_evidence(messages)
    left = set(base.left)
    right = set(base.right)
    added_left = {w: n for w, n in pos_left.items() if n >= min_support and w not in left}
    added_right = {w: n for w, n in pos_right.items() if n >= min_support and w not in right}
    left |= added_left.keys()
    right |= added_right.keys()

    negatives = _negative_evidence(messages, left, right)
    removed_left, removed_right, unresolved = _resolve_negatives(
        negatives, pos_left, pos_right, base, min_support
    )
    left -= removed_left.keys()
    right -= removed_right.keys()

    provenance = dict(base.provenance)
    provenance["calibration"] = {
        **_calibration_record(reference, dialogues, messages, min_support, expansion),
        **_changes(added_left, added_right, removed_left, removed_right, unresolved),
    }
    lexicon = PriceLexicon(
        left=frozenset(left),
        right=frozenset(right),
        provenance=provenance,
        # Counts stay the weak-supervision counts: 0 for a context known only from the
        # reference acts (its evidence count is in the provenance).
        left_counts={w: base.left_counts.get(w, 0) for w in left},
        right_counts={w: base.right_counts.get(w, 0) for w in right},
    )
    return Calibration(
        lexicon, added_left, added_right, removed_left, removed_right, unresolved=unresolved
    )


def _positive_evidence(
    messages: Sequence[MessageEvidence],
) -> tuple[Counter[str], Counter[str]]:
    """How often each word is the left and the right neighbour of a number counted as a price."""
    pos_left: Counter[str] = Counter()
    pos_right: Counter[str] = Counter()
    for message in messages:
        for left_word, right_word in message.forced_in():
            pos_left[left_word] += 1
            pos_right[right_word] += 1
    return pos_left, pos_right


def _negative_evidence(
    messages: Sequence[MessageEvidence], left: set[str], right: set[str]
) -> Counter[Pair]:
    """The context pairs of numbers not counted as prices that the lexicon would still count."""
    negatives: Counter[Pair] = Counter()
    for message in messages:
        for pair in message.forced_out():
            if pair[0] in left and pair[1] in right:
                negatives[pair] += 1
    return negatives


def _calibration_record(
    reference: str | Path | None,
    dialogues: Sequence[DialogueEvidence],
    messages: Sequence[MessageEvidence],
    min_support: int,
    expansion: dict[str, Any],
) -> dict[str, Any]:
    """How the calibration was made, for the provenance (its changes are added after)."""
    return {
        "method": "reference acts: neighbours of bare numbers the reference counted as prices "
        "are added; of a bare number it did not count, one neighbour is removed (the other "
        "is known to be a context, or greedy set cover, then the weaker weak count)",
        "reference": describe_source(reference) if reference is not None else None,
        "dialogues_with_evidence": len(dialogues),
        "messages_with_evidence": len(messages),
        "min_support": min_support,
        "expansion": expansion,
        "created": datetime.date.today().isoformat(),
    }


def _resolve_negatives(
    negatives: Counter[Pair],
    pos_left: Counter[str],
    pos_right: Counter[str],
    base: PriceLexicon,
    min_support: int,
) -> tuple[dict[str, int], dict[str, int], int]:
    """Which neighbours to remove so that negative pairs stop counting.

    Returns the removed left and right words (with the negative pairs each explains) and
    the number of negative pair occurrences left counted.
    """
    removed_left: Counter[str] = Counter()
    removed_right: Counter[str] = Counter()
    ambiguous: Counter[Pair] = Counter()
    unresolved = 0
    # A neighbour with positive evidence is a context: the other one cannot be.
    for (lw, rw), n in negatives.items():
        if lw in pos_left and rw in pos_right:
            unresolved += n
        elif lw in pos_left:
            removed_right[rw] += n
        elif rw in pos_right:
            removed_left[lw] += n
        else:
            ambiguous[(lw, rw)] += n
    # Greedy set cover of the rest: the word that explains the most negative pairs goes
    # first, the one with the weaker weak-supervision count among equals.
    while ambiguous:
        cover: Counter[tuple[str, str]] = Counter()
        for (lw, rw), n in ambiguous.items():
            cover[("left", lw)] += n + removed_left[lw]
            cover[("right", rw)] += n + removed_right[rw]

        def rank(item: tuple[tuple[str, str], int]) -> tuple[int, int, str, str]:
            (side, word), covered = item
            weak = (base.left_counts if side == "left" else base.right_counts).get(word, 0)
            return (-covered, weak, side, word)

        (side, word), _ = min(cover.items(), key=rank)
        for pair in [p for p in ambiguous if p[0 if side == "left" else 1] == word]:
            (removed_left if side == "left" else removed_right)[word] += ambiguous.pop(pair)
    kept_left = {w: n for w, n in removed_left.items() if n >= min_support}
    kept_right = {w: n for w, n in removed_right.items() if n >= min_support}
    unresolved += sum(n for w, n in removed_left.items() if w not in kept_left)
    unresolved += sum(n for w, n in removed_right.items() if w not in kept_right)
    return kept_left, kept_right, unresolved
