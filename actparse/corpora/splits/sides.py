"""Step 3: whose side of the split each mention is on, from the words around it.

:func:`assign_sides` scans a message left to right keeping the state of the clause it is
in (:class:`_Clause`): the subject of the clause ("i get", "you can have"), the recipient
of a giving verb ("give me", "let you have"), a benefit phrase before a mention ("for me
1 food"), negation bound to a verb ("i don't need"); clauses of purpose claim nothing.
The rules that look at a mention's neighbours rather than the words before it (benefit
phrases after a list, exceptions, exchanges, statements of worth, lists with no person)
run after the scan, from :mod:`actparse.corpora.splits.relations`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from actparse.corpora.splits.clauses import (
    HAVE_OR_GIVE,
    denies_list,
    negation_opens_clause,
    opens_clause,
    opens_purpose,
    wish_goes_on,
)
from actparse.corpora.splits.lexicon import SplitLexicon
from actparse.corpora.splits.mentions import Mention, counted
from actparse.corpora.splits.neighbours import apply_relations
from actparse.corpora.splits.words import (
    OTHER,
    PRONOUNS,
    SELF,
    SUBJECT_PRONOUNS,
    message_classes,
    per_lexicon,
    person,
)

__all__ = ["assign_sides"]

#: How many tokens a negation reaches forward to the verb it negates.
_NEGATION_REACH = 2
#: Words :func:`_offered` looks over: "have all the", "take the".
_DETERMINERS = frozenset({"determiner", "all"})
#: The word classes :func:`assign_sides` acts on at the token it stands on; a token in
#: none of them (and not "to" or a mention) leaves the clause as it was, so the scan
#: skips it. It is still read as the word before or after its neighbours.
_SCANNED = frozenset(
    {
        "reason",
        "sentence_end",
        "boundary",
        *PRONOUNS,
        "mine",
        "yours",
        "third_person",
        "my",
        "your",
        "deal_noun",
        "thanks",
        "negation",
        "opinion",
        "give",
        "give_after_modal",
        "imperative",
        "possess",
    }
)
#: Of :data:`_SCANNED`, the classes the rules after the boundary of a clause act on.
_CLAUSE_CLASSES = _SCANNED - {"reason", "sentence_end", "boundary"}


def _scanned_words(lexicon: SplitLexicon) -> frozenset[str]:
    """The words :func:`assign_sides` acts on at the token it stands on."""
    acting = (word for word, found in lexicon.classes.items() if not _SCANNED.isdisjoint(found))
    return frozenset(acting) | {"to"}


@dataclass
class _Clause:
    """The side-marking state while scanning a sentence left to right."""

    side: int | None = None
    why: str = ""
    #: The side of the clause's grammatical subject, kept while a recipient ("give me")
    #: names the side, so that a next verb returns to it ("you give me X and take Y").
    subject: int | None = None
    giving: bool = False
    #: The giving verb is one that gives only after a modal ("i can do 2 hats"): it may
    #: also mean taking (settled by :func:`settle_modal_offers`).
    modal_offer: bool = False
    negated: bool = False
    #: Inside a clause of purpose ("to wash the food"): nothing is claimed until it ends.
    purpose: bool = False
    #: A verb of having or giving came after the subject.
    verb: bool = False

    #: The clause has a subject that is nobody's side ("we both", "they"): its verbs
    #: are not imperatives.
    neutral: bool = False

    def set(self, side: int, why: str) -> None:
        """A new marker names the side of what follows."""
        # A clause of purpose outlives a new subject ("to make sure we have everything").
        self.side, self.why = side, why
        self.giving = self.negated = self.verb = self.neutral = False
        self.modal_offer = False

    def reset(self) -> None:
        """Forget everything (a sentence ended, or a clause with no side began)."""
        self.side = self.subject = None
        self.why = ""
        self.giving = self.negated = self.purpose = self.verb = self.neutral = False
        self.modal_offer = False

    def effective(self) -> int | None:
        """The side a mention here goes to: flipped once by giving, once by negation."""
        if self.side is None or self.purpose:
            return None
        return self.side ^ 1 if self.giving != self.negated else self.side

    def trace(self) -> str:
        """Why, for :attr:`Mention.why`."""
        give = ("+do" if self.modal_offer else "+give") if self.giving else ""
        return self.why + give + ("+not" if self.negated else "")


def _offered(classes: Sequence[frozenset[str]], i: int) -> bool:
    """The word before position ``i`` is a verb of having or giving, or its recipient.

    ``classes``: the word classes of the message's tokens."""
    j = i - 1
    while j >= 0 and not _DETERMINERS.isdisjoint(classes[j]):
        j -= 1
    if j < 0:
        return False
    return not HAVE_OR_GIVE.isdisjoint(classes[j]) or not PRONOUNS.isdisjoint(classes[j])


@dataclass(slots=True)
class _Scan:
    """One message being scanned: its words, the clause it is in, what later rules need."""

    tokens: Sequence[str]
    #: The word classes of each token (:func:`message_classes`).
    classes: Sequence[frozenset[str]]
    lexicon: SplitLexicon
    clause: _Clause
    #: (token index, side) of "for me", "mine", for :func:`claim_backwards`.
    benefits: list[tuple[int, int]]
    #: Where a new subject or recipient starts.
    subjects: list[int]
    #: Where the last negation stood (-10: none near).
    negation_at: int = -10


def assign_sides(
    tokens: Sequence[str],
    mentions: Sequence[Mention],
    lexicon: SplitLexicon,
    default_side: int = SELF,
) -> None:
    """Set ``side`` (and ``why``) on every mention whose side the words make clear.

    Rules, in the order they apply: the subject, recipient or benefit phrase before a
    mention (a giving verb flips a subject's side, a negation right before a verb of
    having or giving flips it too); then, from
    :mod:`~actparse.corpora.splits.relations`, a benefit phrase after it
    (:func:`claim_backwards`); "everything but X" (:func:`apply_exceptions`); exchanges
    (:func:`apply_exchanges`); statements of worth leave their mentions unassigned
    (:func:`drop_value_statements`), unless they name the writer's only interest
    (:func:`claim_only_things`), and so do alternatives ("the book or a hat",
    :func:`drop_alternatives`); an item list with no person before it in its
    sentence is about ``default_side`` (:func:`fill_elliptic_lists`); a sentence inside
    the message that opens with "or" is an alternative and claims nothing
    (:func:`drop_or_sentences`).
    """
    if not mentions:
        return  # every rule here only sets the sides of mentions
    scan = _scan_clauses(tokens, mentions, lexicon)
    apply_relations(tokens, mentions, lexicon, default_side, scan.benefits, scan.subjects)


def _scan_clauses(
    tokens: Sequence[str], mentions: Sequence[Mention], lexicon: SplitLexicon
) -> _Scan:
    """Scan the message left to right, giving each mention the side of its clause.

    A clause's side is set by the words before the mention; a sentence end forgets the clause, a
    boundary ends a clause of purpose and a negation, "to" + a verb not of having opens a clause of
    purpose."""
    by_start = {m.start: m for m in mentions}
    n = len(tokens)
    # The word classes of each token, looked up once: ``word``, ``before`` and ``after``
    # are those of ``tok``, ``prev`` and ``nxt``.
    classes = message_classes(tokens, lexicon)
    scan = _Scan(tokens, classes, lexicon, _Clause(), [], [])
    clause = scan.clause
    start_classes = lexicon.classes_of(".")
    # The tokens that can change the state of the clause, in order: about half of a
    # message (nouns, articles, fillers) only ever matters as a neighbour.
    scanned = per_lexicon(lexicon, _scanned_words)
    visits = [i for i, tok in enumerate(tokens) if tok in scanned or i in by_start]
    skip_until = -1
    giving_reasons = False
    for i in visits:
        if i <= skip_until:
            continue
        tok = tokens[i]
        word = classes[i]
        after = classes[i + 1]
        if "reason" in word:
            giving_reasons = True
        elif "sentence_end" in word or (
            # "since you need water , i get 3 food": a new subject after a comma ends
            # the clause of reason.
            tok == "," and i + 1 < n and not SUBJECT_PRONOUNS.isdisjoint(after)
        ):
            giving_reasons = False
        mention = by_start.get(i)
        if mention is not None:
            mention.reason = giving_reasons
            _claim_mention(scan, mention, i)
            skip_until = mention.end
            continue
        if "sentence_end" in word:
            clause.reset()
            continue
        before = classes[i - 1] if i > 0 else start_classes
        if "boundary" in word:
            clause.purpose = False
            if "conjunction" not in word or tok == ",":
                # "i don't need the water, just the firewood"
                clause.negated = False
            if _CLAUSE_CLASSES.isdisjoint(word) and tok != "to":
                continue  # "and", ",": a fifth of the tokens visited; no rule below acts on them
        if tok == "to" and opens_purpose(tokens, classes, i + 1, lexicon):
            clause.purpose = True
            continue
        nxt = tokens[i + 1] if i + 1 < n else ""
        if _mark_person(scan, i, word, before, after, nxt):
            continue
        if _mark_marker(scan, i, word, after, nxt):
            continue
        # A negation binds the verb right after it ("can not ever give"); one further
        # back belonged to an earlier verb ("i don't need them, leave me the hat").
        # "i don't want to give up the book": over "to" (a-denied-wish-goes-on).
        negated = i - scan.negation_at <= _NEGATION_REACH or wish_goes_on(
            tokens, i, lexicon, clause.negated and clause.verb
        )
        # A verb after "in" ("would you be interested in trading") has no subject of its
        # own; where the writer is the subject ("i am interested in giving") the writer
        # gives either way.
        opens = i > 0 and tokens[i - 1] == "in" and clause.side == OTHER
        if not _mark_giving(clause, classes, i, word, before, after, nxt, negated, opens):
            _mark_having(clause, classes, i, tok, word, before, negated)
    return scan


def _claim_mention(scan: _Scan, mention: Mention, i: int) -> None:
    """A mention at ``i`` goes to the side its clause names, with exceptions.

    The exceptions: the clause's subject has no verb of having and no written count, or the mention
    is "everything" not offered."""
    clause = scan.clause
    side = clause.effective()
    # "i will conserve my water": a subject claims an item through a verb of
    # having or giving, or with a written quantity; so do thanks ("thank you
    # for the 2 water", not "thank you for the firewood, so i can keep warm":
    # thanks-count-like-a-subject).
    if (
        scan.lexicon.claims_need_verb
        and clause.why in ("subject", "thanks")
        and not clause.verb
        and not counted(scan.tokens, mention, scan.lexicon)
    ):
        side = None
    if side is not None and mention.kind == "every" and not _offered(scan.classes, i):
        # "everything has been cancelled": only "have everything", "take
        # everything", "give you everything" put it on a side.
        side = None
    if side is not None:
        # "you can have the books , not the hat" (not-before-a-list).
        having = clause.verb or clause.why == "recipient"
        denied = denies_list(scan.tokens, i, scan.negation_at, having)
        mention.side, mention.why = side ^ denied, clause.trace() + "+not" * denied
        mention.negated = clause.negated or denied
        if clause.why == "both" and mention.kind in ("count", "each-item"):
            mention.both = True


def _mark_person(
    scan: _Scan,
    i: int,
    word: frozenset[str],
    before: frozenset[str],
    after: frozenset[str],
    nxt: str,
) -> bool:
    """A pronoun at ``i`` names the side of what follows.

    As a benefit phrase ("for me"), the recipient of a giving verb ("give me") or the subject ("i
    get"); what comes "from me" goes to the other side. Whether the token was such a pronoun."""
    tokens, classes, lexicon, clause = scan.tokens, scan.classes, scan.lexicon, scan.clause
    tok = tokens[i]
    prev = tokens[i - 1] if i > 0 else "."
    after_give = "give" in before or (prev == "to" and i > 1 and "give" in classes[i - 2])
    after_source = "source" in before
    # "with me taking the firewood": a pronoun before a verb of having is its subject.
    after_benefit = ("benefit" in before or after_source) and "possess" not in after
    side = None
    if "other" in word or "self" in word:
        # What person() answers for "you" and "i" whatever follows them.
        side = OTHER if "other" in word else SELF
    elif not PRONOUNS.isdisjoint(word):  # person() of any other word is None
        # "we each", "we will both", "me also need": two words ahead tell "we" apart
        # from "i" and "me" the subject from "me" the object.
        ahead = " ".join(tokens[i + 1 : i + 3])
        side = person(tok, lexicon, subject=not (after_give or after_benefit), nxt=ahead)
    if side is None and "possess" in before and nxt == "to":
        # "you want me to take all 3": "me" is who takes.
        side = person(tok, lexicon, subject=False)
    if side is None:
        return False
    if scan.negation_at == i - 1:
        # "why don't you take 3 food", "can't i have the ball?": a suggestion.
        scan.negation_at = -10
    if after_source:
        # "3 water from me": what comes from a side goes to the other.
        side ^= 1
    if after_benefit:
        scan.benefits.append((i, side))
        # "for me 1 food, 2 water": a benefit phrase also marks what follows.
        clause.set(side, "benefit-before")
    elif after_give:
        negated = clause.negated
        clause.set(side, "recipient")
        clause.negated = negated
        scan.subjects.append(i)
    else:
        clause.set(side, "subject")
        clause.subject = side
        scan.subjects.append(i)
    return True


def _mark_marker(
    scan: _Scan, i: int, word: frozenset[str], after: frozenset[str], nxt: str
) -> bool:
    """The words other than pronouns and verbs that set or end a clause.

    "Mine", "yours"; a subject of neither side ("they", "we each"); "my taking", "your group"; "a
    deal for"; thanks; a negation; "i think". Whether the token at ``i`` was one."""
    clause = scan.clause
    if "mine" in word or "yours" in word:
        scan.benefits.append((i, SELF if "mine" in word else OTHER))
        return True
    if "third_person" in word or "we" in word:
        # "they need", "we will both get": a subject that is neither side; "we each
        # get one ball" gives both sides the count.
        clause.reset()
        clause.neutral = True
        window = scan.classes[i + 1 : min(i + 5, len(scan.tokens))]
        if (
            "we" in word
            and any("each" in c or "all" in c for c in window)
            and any("possess" in c or "imperative" in c for c in window)
        ):
            clause.set(SELF, "both")
        return True
    if ("my" in word or "your" in word) and ("possess" in after or "group" in after):
        # "would my taking 2 water work?", "your group can have the food"
        owner = SELF if "my" in word else OTHER
        if "group" in after and i > 0 and "benefit" in scan.classes[i - 1]:
            # "give the balls to my kids": a side's people are that side, the list
            # before them too (my-people-are-my-side).
            scan.benefits.append((i, owner))
        clause.set(owner, "subject")
        clause.subject = owner
        return True
    if "deal_noun" in word and nxt in ("for", "of", ":", "with", "is", "was"):
        # "a proposal for 3 firewood, 2 food": the list is the deal's content, not
        # the object of the verb before it.
        clause.reset()
        return True
    if "thanks" in word:
        # "thank you for the 2 water": the writer gets it.
        clause.set(SELF, "thanks")
        return True
    if "negation" in word:
        scan.negation_at = i
        if negation_opens_clause(scan.classes, i):
            # ", not parting with the hat" (a-negated-verb-with-no-subject).
            clause.set(SELF, "dropped-subject")
        return True
    if "opinion" in word:
        # "i think that will work: 1 food, 1 water": a new clause follows.
        clause.reset()
        return True
    return False


def _mark_giving(
    clause: _Clause,
    classes: Sequence[frozenset[str]],
    i: int,
    word: frozenset[str],
    before: frozenset[str],
    after: frozenset[str],
    nxt: str,
    negated: bool,
    opens: bool = False,
) -> bool:
    """A giving verb flips the side of what follows.

    A giving verb ("give", or "do" after a modal) flips the side of what follows; with
    no recipient and no side yet, or opening a clause (``opens``: a clause of its own
    whatever stands before it), it is an imperative, the reader giving. Whether the
    token at ``i`` was one."""
    if "give" in word or (
        "give_after_modal" in word
        and "modal" in before
        and nxt not in ("with", "without")  # "i can do with 2": i get by with 2
    ):
        if PRONOUNS.isdisjoint(after):  # no recipient: person(nxt) is None
            if clause.side is None or opens or opens_clause(classes, i):
                # "give the books": a bare imperative hands them from the reader.
                clause.set(OTHER, "imperative")
            elif clause.why == "recipient" and "boundary" in before:
                clause.set(clause.subject if clause.subject is not None else OTHER, "subject")
            clause.giving = True
            clause.modal_offer = "give" not in word
        clause.negated = negated
        clause.verb = True
        return True
    return False


def _mark_having(
    clause: _Clause,
    classes: Sequence[frozenset[str]],
    i: int,
    tok: str,
    word: frozenset[str],
    before: frozenset[str],
    negated: bool,
) -> None:
    """A verb of having governs what follows.

    An imperative opening a clause is the reader's, a verb of wanting with its subject left out the
    writer's, and after a recipient's clause the subject takes again."""
    if "imperative" in word or "possess" in word:
        if "imperative" in word and (
            (clause.side is None and not clause.neutral) or opens_clause(classes, i)
        ):
            clause.set(OTHER, "imperative")
        elif (
            "imperative" not in word
            and not tok.endswith("ing")
            and clause.side is None
            and not clause.neutral
            and (opens_clause(classes, i) or "boundary" in before)
        ):
            # "sorry , need the ball": a verb of wanting with its subject left out
            # is the writer's.
            clause.set(SELF, "dropped-subject")
        elif clause.why == "recipient" and "boundary" in before:
            # "you give me the balls and take the rest": the subject takes; in "let
            # you have" the verb is the recipient's.
            subject = clause.subject if clause.subject is not None else OTHER
            clause.set(subject, "subject")
        # A new verb of having governs what follows ("concede and take the books").
        clause.giving = clause.modal_offer = False
        clause.negated = negated
        clause.verb = True
