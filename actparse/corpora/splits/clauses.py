"""Where a clause opens, and how far a negation in it reaches.

The scan of :mod:`~actparse.corpora.splits.sides` asks these of the words around a
token: whether a verb opens a clause of its own (:func:`opens_clause`) or "to" a clause
of purpose (:func:`opens_purpose`). A negation flips the side of the verb of having or
giving right after it; these rules read it further: right before a list it denies the
list (:func:`denies_list`, not-before-a-list), opening a clause with no subject its verb
is the writer's (:func:`negation_opens_clause`, a-negated-verb-with-no-subject), and it
reaches over "to" from a verb of wanting (:func:`wish_goes_on`, a-denied-wish-goes-on).
Once the sides are known, the offer comes from the clauses that grant, not from the
ones that deny (:func:`granted_sides`, positive-clauses-name-the-offer).
"""

from __future__ import annotations

from collections.abc import Sequence

from actparse.corpora.splits.lexicon import SplitLexicon
from actparse.corpora.splits.mentions import Mention
from actparse.corpora.splits.words import PRONOUNS, SUBJECT_PRONOUNS

__all__ = [
    "HAVE_OR_GIVE",
    "denies_list",
    "granted_sides",
    "negation_opens_clause",
    "opens_clause",
    "opens_purpose",
    "wish_goes_on",
]

#: Verbs of having or giving.
HAVE_OR_GIVE = frozenset({"possess", "give", "imperative"})
#: Words after "to" that do not start a clause of purpose ("to have", "to the").
_NO_PURPOSE = frozenset({"possess", "imperative", "give", "determiner", "boundary", "all"})
#: Words after which a clause starts.
_OPENERS = frozenset({"boundary", "sentence_end", "interjection"})


def opens_purpose(
    tokens: Sequence[str], classes: Sequence[frozenset[str]], i: int, lexicon: SplitLexicon
) -> bool:
    """A clause of purpose starts with "to" + a verb other than one of having or giving.

    "to" + a verb other than one of having or giving starts a clause of purpose
    ("i need firewood to cook the food"); "to have", "to you", "to 2" do not."""
    if i >= len(tokens):
        return False
    word = tokens[i]
    return not (
        not _NO_PURPOSE.isdisjoint(classes[i])
        or lexicon.number(word) is not None
        or word in lexicon.item_words
        or not PRONOUNS.isdisjoint(classes[i])  # person(word, subject=False) names a side
        or not word.isalpha()
    )


def opens_clause(classes: Sequence[frozenset[str]], i: int) -> bool:
    """The verb at ``i`` starts a new clause, unless its subject stands before the boundary.

    A new clause: "fine, take the hat"; its subject before the boundary word, maybe with auxiliaries
    between: "i also send", "i would then get". ``classes`` are the word classes of the message's
    tokens."""
    if i == 0:
        return True
    before = classes[i - 1]
    opens = (
        "sentence_end" in before
        or "interjection" in before
        or ("boundary" in before and "conjunction" not in before)
    )
    if not opens:
        return False
    # "i would then take", "if i could also have": auxiliaries and adverbs may stand
    # between the subject and the boundary word before its verb.
    j = i - 2
    while j > 0 and "auxiliary" in classes[j]:
        j -= 1
    return not (j >= 0 and not SUBJECT_PRONOUNS.isdisjoint(classes[j]))


def denies_list(tokens: Sequence[str], i: int, negation_at: int, having: bool) -> bool:
    """A negation right before the list at ``i`` denies it to its clause's side.

    "i'm taking the hats not the ball", "you can have the books but not the hat"
    (not-before-a-list); only in a clause with a verb of having or giving (``having``:
    "i'm willing to talk about the hats but not the book" keeps the book), and "if not"
    widens rather than denies ("most if not all of the food")."""
    return negation_at == i - 1 and having and (i < 2 or tokens[i - 2] != "if")


def negation_opens_clause(classes: Sequence[frozenset[str]], i: int) -> bool:
    """The negation at ``i`` opens a clause with a verb of having or giving and no subject.

    ", not parting with the hat", "no . not taking the hats": the verb is the writer's,
    as a verb of wanting with its subject left out is (a-negated-verb-with-no-subject);
    "don't take the hat" has its auxiliary first and stays an imperative."""
    if i + 1 >= len(classes) or HAVE_OR_GIVE.isdisjoint(classes[i + 1]):
        return False
    return i == 0 or not _OPENERS.isdisjoint(classes[i - 1])


def wish_goes_on(tokens: Sequence[str], i: int, lexicon: SplitLexicon, negated: bool) -> bool:
    """The verb at ``i`` continues a negated wish over "to": "i don't want to take the books".

    A verb of having or giving after "to" continues the wish before it (:func:`opens_purpose`),
    and so keeps its negation when that verb is one of wanting (the word class ``wish``;
    "i don't mind to take the balls" wants them) (a-denied-wish-goes-on). ``negated``: the
    clause's verb so far is negated."""
    return negated and i > 1 and tokens[i - 1] == "to" and lexicon.has("wish", tokens[i - 2])


def granted_sides(mentions: Sequence[Mention], named: set[int]) -> set[int]:
    """The sides a message names for its offer: those of the lists it grants, not denies.

    "you can't have the hat , you can have the book": the items left unnamed go opposite the
    reader, whom the granting clause names (positive-clauses-name-the-offer). ``named``: the
    sides the claims name; kept whole when no granted list names one of them."""
    granted = {m.side ^ m.fewer for m in mentions if m.side is not None and not m.negated}
    return named & granted or named
