"""Step 3, after the scan: the rules that look at a mention's neighbours, in their order.

:func:`~actparse.corpora.splits.sides.assign_sides` first gives each mention the side of
the clause it is in; :func:`apply_relations` then runs the rules of
:mod:`actparse.corpora.splits.relations`, whose order matters (an exchange read after the
elliptic lists got their side reads them too).
"""

from __future__ import annotations

from collections.abc import Sequence

from actparse.corpora.splits.lexicon import SplitLexicon
from actparse.corpora.splits.mentions import Mention
from actparse.corpora.splits.relations import (
    apply_exceptions,
    apply_exchanges,
    claim_backwards,
    claim_only_things,
    drop_alternatives,
    drop_or_sentences,
    drop_scores,
    drop_value_statements,
    fill_elliptic_lists,
    settle_modal_offers,
)

__all__ = ["apply_relations"]


def apply_relations(
    tokens: Sequence[str],
    mentions: Sequence[Mention],
    lexicon: SplitLexicon,
    default_side: int,
    benefits: list[tuple[int, int]],
    subjects: list[int],
) -> None:
    """Settle the sides the neighbours of a mention decide.

    A benefit phrase after it, "everything but X", exchanges, statements of worth (unless they name
    the writer's only interest), alternatives, offers through "do", lists with no person, and
    sentences that open with "or" (see :func:`~actparse.corpora.splits.sides.assign_sides`).
    ``benefits`` and ``subjects`` are where the scan found benefit phrases (with their side) and
    subjects."""
    claim_backwards(tokens, mentions, benefits, subjects, lexicon)
    apply_exceptions(tokens, mentions, lexicon)
    apply_exchanges(tokens, mentions, lexicon)
    drop_value_statements(tokens, mentions, lexicon)
    drop_scores(tokens, mentions, lexicon)
    claim_only_things(tokens, mentions, lexicon)
    drop_alternatives(tokens, mentions, lexicon)
    settle_modal_offers(mentions)
    fill_elliptic_lists(tokens, mentions, lexicon, default_side)
    # "How about 2 water for 3 food?": the list got its side only now.
    apply_exchanges(tokens, mentions, lexicon)
    drop_or_sentences(tokens, mentions, lexicon)
