"""The shared split parser: tokens, mentions, completion, and golden tables of proposals
(utterance, item counts, the split it proposes), one table per corpus lexicon. The
lexicon file itself is tested in test_split_lexicon.py."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from actparse.corpora.splits.claims import complete_split, parse_split
from actparse.corpora.splits.lexicon import load_split_lexicon
from actparse.corpora.splits.mentions import OTHER, SELF, find_mentions
from actparse.corpora.splits.tokens import tokenize
from actparse.models import ItemSplit

DOND = load_split_lexicon("dealornodeal")
CASINO = load_split_lexicon("casino")
Counts = tuple[tuple[int | None, ...], tuple[int | None, ...]]


def proposal(
    text: str, corpus: str, totals: tuple[int, ...], running: Counts | None = None
) -> Counts | None:
    """What ``text`` proposes, written by agent 0: (writer's counts, reader's counts),
    or ``None`` when it proposes nothing. ``running`` is the deal on the table."""
    lexicon = DOND if corpus == "dealornodeal" else CASINO
    parsed = parse_split(text, lexicon, totals)
    if not parsed.has_claim:
        return None
    table = ItemSplit(lexicon.items, running) if running is not None else None
    unnamed = parsed.completion(lexicon.unnamed, len(totals), totals)
    split = complete_split(parsed.claims, 0, totals, lexicon.items, unnamed, table)
    return split.counts


# --------------------------------------------------------------------------------------
# Golden tables. Deal or No Deal items: (book, hat, ball); CaSiNo: (food, water, firewood).
# --------------------------------------------------------------------------------------

DOND_GOLDEN = [
    # (id, utterance, totals, expected (writer, reader) or None)
    ("take-and-rest", "i'll take the ball and you get the rest", (3, 2, 1), ((0, 0, 1), (3, 2, 0))),
    (
        "give-you-if-i-get",
        "ill give you the books if i can have the rest",
        (3, 1, 2),
        ((0, 1, 2), (3, 0, 0)),
    ),
    (
        "give-me-then-rest",
        "if you give me the books , you can have the rest .",
        (2, 2, 1),
        ((2, 0, 0), (0, 2, 1)),
    ),
    (
        "let-you-have-two-of-the",
        "i can let you have two of the hats if i get everything else .",
        (2, 3, 1),
        ((2, 1, 1), (0, 2, 0)),
    ),
    (
        "items-before-for-me",
        "you can have the hats , the book and balls for me",
        (1, 2, 2),
        ((1, 0, 2), (0, 2, 0)),
    ),
    ("postfix-lists", "balls for me , everything else for you", (2, 3, 2), ((0, 0, 2), (2, 3, 0))),
    (
        "backtick-apostrophe",
        "i can`t do that . i`ll take the ball 2 books",
        (3, 2, 1),
        ((2, 0, 1), (1, 2, 0)),
    ),
    ("rest-to-you", "i really need the ball , rest to you", (1, 4, 1), ((0, 0, 1), (1, 4, 0))),
    (
        "split-and-take",
        "split the balls and hats and you take the book ?",
        (1, 2, 2),
        ((0, 1, 1), (1, 1, 1)),
    ),
    ("one-of-each", "how about one of each ?", (2, 2, 2), ((1, 1, 1), (1, 1, 1))),
    (
        "we-each-get-one",
        "we each get one ball , i will get the hat and you the books",
        (2, 1, 2),
        ((0, 1, 1), (2, 0, 1)),
    ),
    (
        "negated-need",
        "i don't need the books . i want the hat and the balls",
        (2, 1, 3),
        ((0, 1, 3), (2, 0, 0)),
    ),
    (
        "cant-have-rest-yours",
        "you can't have the ball . the rest is yours",
        (3, 2, 1),
        ((0, 0, 1), (3, 2, 0)),
    ),
    (
        "in-exchange-for-list",
        "i'll give you all the books in exchange for the balls and hats !",
        (3, 2, 1),
        ((0, 2, 1), (3, 0, 0)),
    ),
    (
        "trade-for",
        "i will exchange the ball for all of the books and the hats .",
        (2, 3, 1),
        ((2, 3, 0), (0, 0, 1)),
    ),
    ("elliptic-list", "book and 2 hats ?", (1, 3, 2), ((1, 2, 0), (0, 1, 2))),
    (
        "imperative-take",
        "no take the books , i don't need them leave me the hat a ball .",
        (3, 1, 2),
        ((0, 1, 1), (3, 0, 1)),
    ),
    ("everything-but", "i get everything but the balls", (1, 3, 2), ((1, 3, 0), (0, 0, 2))),
    (
        "the-singular-means-all",
        "you take the book and hat and i take the balls",
        (2, 1, 2),
        ((0, 0, 2), (2, 1, 0)),
    ),
    (
        "concede-and-take",
        "i'll have to concede and take the books . deal .",
        (4, 1, 1),
        ((4, 0, 0), (0, 1, 1)),
    ),
    (
        "give-me-and-take",
        "how about you give me the balls and take the rest then ?",
        (4, 1, 2),
        ((0, 0, 2), (4, 1, 0)),
    ),
    # plural-determiner-reaches-bare-noun: "the balls and hat" is all the hats ...
    (
        "plural-determiner-reaches-bare-noun",
        "you can take the balls and hat , i keep the book",
        (1, 2, 3),
        ((1, 0, 0), (0, 2, 3)),
    ),
    # ... while after a singular it may be one of them.
    (
        "singular-determiner-stops",
        "i will take the book and hat",
        (1, 2, 1),
        ((1, 1, 0), (0, 1, 1)),
    ),
    # we-after-the-list: "we" after a list does not make it nobody's.
    ("we-after-the-list", "2 hats and we have a deal ?", (1, 3, 1), ((0, 2, 0), (1, 1, 1))),
    ("we-before-the-list", "we could split 2 hats", (1, 3, 1), None),
    # dropped-subject: a verb of wanting with no subject is the writer's ...
    ("dropped-subject", "sorry , need the hat and 2 books", (3, 1, 2), ((2, 1, 0), (1, 0, 2))),
    ("subject-after-will", "will you take the balls ?", (1, 1, 2), ((1, 1, 0), (0, 0, 2))),
    # ... a verb of getting with no subject tells the reader to take.
    (
        "imperative-is-the-reader",
        "ok , take the hat and 2 books",
        (3, 1, 2),
        ((1, 0, 2), (2, 1, 0)),
    ),
    # count-noun-demonstrative: "that hat" names the hat where items are counted.
    (
        "count-noun-demonstrative",
        "you can have that hat if i get everything else",
        (2, 1, 2),
        ((2, 0, 2), (0, 1, 0)),
    ),
    # alternatives-claim-nothing: items offered one or the other are nobody's yet ...
    (
        "alternatives-claim-nothing",
        "i need the balls and either the book or a hat",
        (1, 2, 2),
        ((0, 0, 2), (1, 2, 0)),
    ),
    ("alternative-lists", "a hat or 2 balls and the book ?", (1, 1, 2), None),
    # ... "or" that does not join two items changes nothing.
    ("or-no-deal", "i want the hats , or no deal", (1, 2, 1), ((0, 2, 0), (1, 0, 1))),
    # only-thing-claims: items named as the writer's only interest are claimed.
    (
        "only-thing-claims",
        "the book is the only thing i'm interested in .",
        (1, 3, 1),
        ((1, 0, 0), (0, 3, 1)),
    ),
    (
        "only-thing-of-value-to-me",
        "the hats are the only thing of value to me",
        (1, 2, 2),
        ((0, 2, 0), (1, 0, 2)),
    ),
    # works-for-you: "would X work for you?" offers X to the reader.
    ("works-for-you", "would 2 balls and a hat work for you ?", (1, 2, 2), ((1, 1, 0), (0, 1, 2))),
    # do-list-opposite-other-claims: "i can do X" takes X when the reader gets the rest
    # ...
    (
        "do-list-takes-beside-rest",
        "i can do the hats and you can have the rest .",
        (1, 2, 3),
        ((0, 2, 0), (1, 0, 3)),
    ),
    # ... and gives it when the writer claims something else.
    (
        "do-list-gives-beside-claim",
        "i can do 2 balls if i get the hats and the book",
        (1, 2, 3),
        ((1, 2, 1), (0, 0, 2)),
    ),
    # do-list-alone-takes: with no other claim, what the writer can do is taken ...
    ("do-list-alone-takes", "i can do the balls and 1 hat .", (1, 3, 2), ((0, 1, 2), (1, 2, 0))),
    (
        "best-i-can-do-takes",
        "best i can do is the book and two hats",
        (1, 3, 2),
        ((1, 2, 0), (0, 1, 2)),
    ),
    # ... while what the reader can do is what the reader gives.
    ("you-can-do-gives", "so you can do 2 hats and 1 ball ?", (1, 3, 2), ((0, 2, 1), (1, 1, 1))),
    # the-after-a-count-is-the-rest: "the book" after a written count of books for the
    # other side is what that count leaves ...
    (
        "the-after-a-count",
        "would you accept one book and the balls and i can take the book and the hat",
        (2, 1, 2),
        ((1, 1, 0), (1, 0, 2)),
    ),
    (
        "the-after-one-of-each",
        "if i can have one of each you can have the hat and balls",
        (1, 2, 3),
        ((1, 1, 1), (0, 1, 2)),
    ),
    # ... but not after an article, which need not count anything ("part with a hat").
    (
        "the-after-an-article",
        "it is hard to part with a hat . you get the ball and books , and i keep the hats .",
        (2, 3, 1),
        ((0, 3, 0), (2, 0, 1)),
    ),
    # to-for-two: "to" right before a bare plural item counts two ...
    ("to-for-two", "i need to hats and a ball", (1, 3, 1), ((0, 2, 1), (1, 1, 0))),
    # ... but not before a determiner or a person.
    ("to-is-to", "i will give the hat to you", (1, 1, 1), ((1, 0, 1), (0, 1, 0))),
    # benefit-after-wins: a list between "for me" and "for you" is the latter's.
    (
        "benefit-after-wins",
        "2 books for me , 3 hats , 1 ball for you ?",
        (2, 3, 1),
        ((2, 0, 0), (0, 3, 1)),
    ),
    ("worth-is-no-claim", "the books are worth nothing to me", (3, 1, 1), None),
    ("hate-is-not-hat", "i hate to say it but no", (3, 1, 1), None),
    ("one-item-each-is-both-sides", "you get one ball each", (1, 2, 2), ((1, 2, 1), (0, 0, 1))),
    ("chit-chat", "basketballs with hats on them are so cute . thanks", (1, 2, 3), None),
]

DOND_MISSES = [
    # Known misses, kept honest with strict xfail: fixing one is a reason to move it up.
    (
        "typo-giv-eyou",
        "no ill giv eyou the hat if i can have the rest",
        (1, 1, 4),
        ((1, 0, 4), (0, 1, 0)),
    ),
    ("typo-cani", "cani have a book and the balls ?", (2, 1, 2), ((1, 0, 2), (1, 1, 0))),
    # A determiner right after a claimed list starts another list, which a benefit
    # after it claims alone (new-list-at-a-determiner): it fixed only the dialogue it
    # was written for.
    (
        "new-list-at-a-determiner",
        "if i can have all books the hat and ball are yours",
        (3, 1, 1),
        ((3, 0, 0), (0, 1, 1)),
    ),
    # A list right before a subject and its verb of having that ends the clause is that
    # subject's (fronted-object): it fixed only the dialogue it was written for.
    (
        "fronted-object",
        "i'd like to have the books , the rest you can have",
        (2, 1, 2),
        ((2, 0, 0), (0, 1, 2)),
    ),
    # "no" right before a determiner answers, it counts nothing (no-before-the-is-an-
    # answer): it fixed only the dialogue it was written for.
    (
        "no-before-the-is-an-answer",
        "no the hat and both books last offer",
        (2, 1, 3),
        ((2, 1, 0), (0, 0, 3)),
    ),
    # A bare singular typed for the plural ("i keep book") names every one: read like
    # "the book" it fixed five dev dialogues and broke six ("the book and hat" is one
    # hat of several, "onne ball" one ball), so it went (bare-singular-like-the).
    (
        "bare-singular-is-every-one",
        "i keep book you get everything else",
        (4, 1, 2),
        ((4, 0, 0), (0, 1, 2)),
    ),
    # "have to", "will take" with the subject left out, and a giving gerund after a
    # comma, are the writer's: each rule for them changed parses only in the one
    # dialogue it was written for, on one half of dev, so they went.
    (
        "dropped-subject-have-to",
        "have to have two books with the hat .",
        (3, 1, 1),
        ((2, 1, 0), (1, 0, 1)),
    ),
    (
        "dropped-subject-will",
        "alright , will take the balls .",
        (1, 1, 2),
        ((0, 0, 2), (1, 1, 0)),
    ),
    (
        "gerund-after-comma",
        "you can have the book and the balls , not parting with the hat .",
        (1, 1, 2),
        ((0, 1, 0), (1, 0, 2)),
    ),
    # A list after a refused item is the writer's: the rule for it (list-after-refusal)
    # changed no final split on either half of dev nor on val.txt, so it went.
    (
        "list-after-refusal",
        "i don't need a ball . so just two books .",
        (3, 2, 1),
        ((2, 0, 0), (1, 2, 1)),
    ),
    (
        "pronoun-them",
        "i'll let you have them . . i'll just take the rest",
        (2, 1, 3),
        ((2, 1, 0), (0, 0, 3)),
    ),
    # A list before a condition claiming for the writer is the reader's share: the rule
    # for it (elliptic-before-condition) fixed only the dialogue it was written for.
    (
        "list-before-a-condition",
        "no deal . 1 ball and all the books , if i can have 1 ball and the hat .",
        (4, 1, 2),
        ((0, 1, 1), (4, 0, 1)),
    ),
    # "Split everything" halves every item: the rule for it (split-everything-in-half)
    # fixed only the dialogue it was written for, or broke as many where "split" is a
    # noun ("the best split for the both of us"), so it went.
    (
        "split-everything",
        "okay lets split everything down the middle then",
        (2, 2, 2),
        ((1, 1, 1), (1, 1, 1)),
    ),
    # Worth in a clause of purpose is the deal's, not the items' ("to be worth it"): the
    # rule for it (purpose-worth-is-the-deals) fixed only the dialogue it was written
    # for, so it went.
    (
        "purpose-worth",
        "you can have the ball and 1 hat in order for it to be worth it for me",
        (1, 3, 1),
        ((1, 2, 0), (0, 1, 1)),
    ),
]

CASINO_GOLDEN = [
    (
        # The clause of reason ends at the comma before a new subject: the counts
        # after it spell out the writer's share, the rest goes to the reader.
        "reason-clause-ends-at-new-subject",
        "since you need water , i get 3 food and 2 firewood",
        (3, 3, 3),
        ((3, 0, 2), (0, 3, 1)),
    ),
    (
        "give-if-get",
        "I can give you 2 water and 1 food if I get all the firewood",
        (3, 3, 3),
        ((2, 1, 3), (1, 2, 0)),
    ),
    (
        "for-me-for-you",
        "3 firewood for me, 2 water for you, you take the rest",
        (3, 3, 3),
        ((0, 1, 3), (3, 2, 0)),
    ),
    ("take-the-rest", "I'll take 2 water, you take the rest", (3, 3, 3), ((0, 2, 0), (3, 1, 3))),
    # ... where items are amounts, "that water" is the amount talked about, not a claim.
    ("demonstrative-is-an-amount", "I could really use that water", (3, 3, 3), None),
    ("need-is-no-offer", "I really need water because it is so hot", (3, 3, 3), None),
    ("a-lot-of", "Hello I need a lot of water to survive", (3, 3, 3), None),
    (
        "purpose-clause",
        "I would need 1 Water to wash the food down",
        (3, 3, 3),
        ((0, 1, 0), (3, 2, 3)),
    ),
    ("conserve-my-water", "I will conserve with my water and I should be fine", (3, 3, 3), None),
    (
        "fractions",
        "I need 1/3 food, 2/3 water, and 2/3 firewood.",
        (3, 3, 3),
        ((1, 2, 2), (2, 1, 1)),
    ),
    (
        "from-me-for-your",
        "let's do 3 waters from me for your 3 food. How does that sound?",
        (3, 3, 3),
        ((3, 0, None), (0, 3, None)),
    ),
    (
        "me-colon-you-colon",
        "How about we trade Me: 3 fire wood, 2 food and 0 water and you: 0 firewood, 1 food and "
        "3 water?",
        (3, 3, 3),
        ((2, 0, 3), (1, 3, 0)),
    ),
    (
        "thanks-for",
        "Thank you for the 2 water, it really puts my mind at ease",
        (3, 3, 3),
        ((0, 2, 0), (3, 1, 3)),
    ),
    # Thanks claim like a subject with no verb: a written count, not an item named
    # with no quantity (thanks-count-like-a-subject).
    (
        "thanks-for-the-item-is-no-claim",
        "Thank you for the firewood, so that I can keep her warm.",
        (3, 3, 3),
        None,
    ),
    (
        "thanks-for-the-food-to-feed",
        "Yes and thank you for the food to keep these children fed and happy",
        (3, 3, 3),
        None,
    ),
    ("a-third-of", "Let me give you a third of the water", (3, 3, 3), ((3, 2, 3), (0, 1, 0))),
    (
        "packages-of",
        "Can I have 2 packages of food and 1 package of firewood?",
        (3, 3, 3),
        ((2, 0, 1), (1, 3, 2)),
    ),
    (
        "elliptic-counts",
        "How about 2 water, 1 food and 2 firewood?",
        (3, 3, 3),
        ((1, 2, 2), (2, 1, 1)),
    ),
    (
        "one-of-the-x-and-y",
        "Would you be open to letting me get 2 waters and I can take 1 of the food and firewood?",
        (3, 3, 3),
        ((1, 2, 1), (2, 1, 2)),
    ),
    # A written count reaches an item named after it in the same list with no quantity
    # of its own (count-spreads-over-the-list); "the water" and a new clause keep theirs.
    (
        "count-spreads-over-bare-item",
        "OK, so 2 water and firewood for me and 2 food for you?",
        (3, 3, 3),
        ((1, 2, 2), (2, 1, 1)),
    ),
    (
        "count-spreads-after-just",
        "how about I take 3 waters and just 1 food and firewood?",
        (3, 3, 3),
        ((1, 3, 1), (2, 0, 2)),
    ),
    ("count-stops-at-the", "I want 2 food and the water", (3, 3, 3), ((2, 3, 0), (1, 0, 3))),
    (
        "count-stops-at-a-new-clause",
        "I need 2 food and I need water too",
        (3, 3, 3),
        ((2, 0, 0), (1, 3, 3)),
    ),
    ("we-used-all", "good, we used all the water to fix overheated car.", (3, 3, 3), None),
    (
        "everything-looks-good",
        "Everything looks good. I'm glad we both got what we wanted.",
        (3, 3, 3),
        None,
    ),
    (
        "water-bottles",
        "Look into one of those water bottles with the special filter.",
        (3, 3, 3),
        None,
    ),
    ("what-about-the-food", "what about the food?", (3, 3, 3), None),
    (
        "unit-after-item",
        "It'd be 2 food packages and 2 firewood packages for you.",
        (3, 3, 3),
        ((1, 3, 1), (2, 0, 2)),
    ),
    (
        "with-me-taking",
        "So you take all the food and the majority of water with me taking the firewood",
        (3, 3, 3),
        ((0, 1, 3), (3, 2, 0)),
    ),
    ("the-fire-is-no-firewood", "we sit by the fire at night", (3, 3, 3), None),
    (
        "later-benefit-phrase-wins",
        "So 3 firewood, 2 food for you and 3 water, 1 food for me?",
        (3, 3, 3),
        ((1, 3, 0), (2, 0, 3)),
    ),
    (
        "benefit-phrase-heads-the-rest-of-its-list",
        "So I'm thinking 2 water for me, 1 food, and 1 firewood.",
        (3, 3, 3),
        ((1, 2, 1), (2, 1, 2)),
    ),
    # auxiliary: a subject keeps its verb across "then"/"also" after an auxiliary.
    (
        "subject-would-then-get",
        "I would then get all the firewood and 2 food",
        (3, 3, 3),
        ((2, 0, 3), (1, 3, 0)),
    ),
    (
        "if-i-could-also-have",
        "If I could also have all of the water, that works",
        (3, 3, 3),
        ((0, 3, 0), (3, 0, 3)),
    ),
    ("then-take-is-imperative", "Ok then take the firewood", (3, 3, 3), ((3, 3, 0), (0, 0, 3))),
    # A statement of worth covers its own clause: "and" + a subject, or "which", ends it.
    (
        "worth-after-and-subject",
        "I want 2 food, 3 water and I do not care about the firewood",
        (3, 3, 3),
        ((2, 3, 0), (1, 0, 3)),
    ),
    (
        "worth-in-relative-clause",
        "2 water and 1 food for me, which would mean my priority is covered",
        (3, 3, 3),
        ((1, 2, 0), (2, 1, 3)),
    ),
    ("worth-over-a-list", "the water and the food matter most to me", (3, 3, 3), None),
    # "there are ..." states a fact about the items, not an offer.
    ("there-are-is-a-fact", "There are 3 packages of food and water.", (3, 3, 3), None),
    # A sentence inside a message that opens with "or" is an alternative: the earlier
    # offer (or the deal the message agrees to) stands.
    (
        "or-after-assent",
        "I can agree to that. Or I could take 1 firewood, 3 waters, and 1 food.",
        (3, 3, 3),
        None,
    ),
    (
        "or-after-an-offer",
        "I could give you 1 water and 2 food. Or you get 2 water and 1 food.",
        (3, 3, 3),
        ((1, 2, 3), (2, 1, 0)),
    ),
    ("or-opening-a-message", "Or how about 2 water for me?", (3, 3, 3), ((0, 2, 0), (3, 1, 3))),
    # Unit nouns beyond "package": portions, rations, servings, jugs, gallons, bags...
    # stand between a count and its item like "packages" (unit-synonyms).
    (
        "unit-synonyms-portions-jugs",
        "I need 2 portions of food and 2 jugs of water",
        (3, 3, 3),
        ((2, 2, 0), (1, 1, 3)),
    ),
    (
        "unit-synonyms-after-the-item",
        "I'll take 2 food rations and 1 water container",
        (3, 3, 3),
        ((2, 1, 0), (1, 2, 3)),
    ),
    ("unit-synonym-pkgs", "give me 3 pkgs of firewood", (3, 3, 3), ((0, 0, 3), (3, 3, 0))),
    # Logs and kindling are firewood (firewood-synonyms).
    ("firewood-as-logs", "I'll take 2 logs and 1 food", (3, 3, 3), ((1, 0, 2), (2, 3, 1))),
    ("firewood-as-kindling", "you can have all the kindling", (3, 3, 3), ((3, 3, 0), (0, 0, 3))),
    # "an extra water" is one, as "one extra water" is (an-extra-is-one) ...
    (
        "an-extra-is-one",
        "I'd like all of the water, an extra firewood and 2 of the food",
        (3, 3, 3),
        ((2, 3, 1), (1, 0, 2)),
    ),
    ("an-extra-given", "I could give you an extra water", (3, 3, 3), ((3, 2, 3), (0, 1, 0))),
    # ... but "a lot of water", "a little food" count nothing.
    ("a-lot-of-is-no-count", "I need a lot of water", (3, 3, 3), None),
    ("a-little-is-no-count", "I could use a little food", (3, 3, 3), None),
    # "each" after a list that one count spreads over runs over the items
    # (each-over-the-list) ...
    (
        "each-over-the-list",
        "I'll need 2 packages of firewood and water each.",
        (3, 3, 3),
        ((0, 2, 2), (3, 1, 1)),
    ),
    (
        "each-over-the-list-after-counts",
        "I will have 2 of food, 1 of water and firewood each.",
        (3, 3, 3),
        ((2, 1, 1), (1, 2, 2)),
    ),
    # ... but "each" after a single item, or "we each", gives both sides the count.
    ("each-after-one-item", "one water each", (3, 2, 3), ((0, 1, 0), (3, 1, 3))),
    ("each-after-a-list-of-counts", "2 food and 1 water each", (3, 2, 3), ((2, 1, 0), (1, 1, 3))),
    ("we-each-keep", "We could each keep 3 food.", (3, 3, 3), None),
    # Counterexample: a unit noun with no count claims nothing.
    ("unit-synonym-without-count", "I always pack bags of food", (3, 3, 3), None),
]

CASINO_MISSES = [
    # A giving gerund with no subject is the writer's: the rule for it (gerund-giver)
    # changed one message in the 700 dialogues of dev, so it went.
    (
        "gerund-giver",
        "Giving 1 food and 1 water along with all of the firewood.",
        (3, 3, 3),
        ((2, 2, 0), (1, 1, 3)),
    ),
    (
        "list-after-for-me",
        "2 water ,1 food and 2 firewood for me and 1 water 2 food and 1 firewood",
        (3, 3, 3),
        ((1, 2, 2), (2, 1, 1)),
    ),
    (
        "two-of-mine",
        "I'll give you two of mine so that I can hang on to one.",
        (3, 3, 3),
        ((None, 1, None), (None, 2, None)),
    ),
]


def _params(
    rows: Sequence[tuple[str, str, tuple[int, ...], Counts | None]], xfail: bool = False
) -> list[Any]:
    marks = [pytest.mark.xfail(strict=True, reason="known miss")] if xfail else []
    return [
        pytest.param(text, totals, expected, id=name, marks=marks)
        for name, text, totals, expected in rows
    ]


@pytest.mark.parametrize(
    ("text", "totals", "expected"), _params(DOND_GOLDEN) + _params(DOND_MISSES, xfail=True)
)
def test_dealornodeal_golden(text: str, totals: tuple[int, ...], expected: Counts | None) -> None:
    assert proposal(text, "dealornodeal", totals) == expected


@pytest.mark.parametrize(
    ("text", "totals", "expected"), _params(CASINO_GOLDEN) + _params(CASINO_MISSES, xfail=True)
)
def test_casino_golden(text: str, totals: tuple[int, ...], expected: Counts | None) -> None:
    assert proposal(text, "casino", totals) == expected


# --------------------------------------------------------------------------------------
# Tokens and mentions
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        pytest.param("I can`t", ("i", "can", "not"), id="backtick"),
        pytest.param("I\u2019ll take it", ("i", "will", "take", "it"), id="curly-apostrophe"),
        pytest.param("you'd", ("you", "would"), id="clitic"),
        pytest.param("couldent", ("could", "not"), id="misspelt-negation"),
        pytest.param("gimme 2books", ("give", "me", "2", "books"), id="gimme-and-glued-number"),
        pytest.param("i ; ll take it", ("i", "will", "take", "it"), id="stray-apostrophe"),
        pytest.param("ok ; take it", ("ok", ";", "take", "it"), id="semicolon-stays"),
        pytest.param("everything else", ("the-rest",), id="phrase"),
        pytest.param("in exchange for", ("exchange-for",), id="longest-phrase-first"),
        # typo-tolerant-items: swapped letters in item words, a dropped one in long ones
        pytest.param("the aht and obok", ("the", "hat", "and", "book"), id="typo-swapped-letters"),
        pytest.param("you get everthing", ("you", "get", "everything"), id="typo-dropped-letter"),
        pytest.param("i get everythign else", ("i", "get", "the-rest"), id="typo-then-phrase"),
        pytest.param("your intial offer", ("your", "initial", "offer"), id="typo-original"),
        pytest.param(
            "i take theball and onehat",
            ("i", "take", "the", "ball", "and", "one", "hat"),
            id="typo-glued",
        ),
        pytest.param("the balll", ("the", "ball"), id="typo-letter-twice"),
        pytest.param("youcan have it", ("you", "can", "have", "it"), id="typo-glued-person"),
        pytest.param(
            "i'll take the bsall", ("i", "will", "take", "the", "ball"), id="typo-stray-key"
        ),
        # a stray letter from a key far from its neighbours', or inside "hat", is no typo
        pytest.param(
            "the brook and the heat",
            ("the", "brook", "and", "the", "heat"),
            id="typo-stray-far-key",
        ),
        # ... but never another word ("that", "at", "all" stay themselves)
        pytest.param(
            "that is all at once", ("that", "is", "all", "at", "once"), id="typo-real-words"
        ),
    ],
)
def test_tokenize(text: str, tokens: tuple[str, ...]) -> None:
    assert tokenize(text, DOND) == tokens


def test_multi_word_item_names_are_one_token() -> None:
    assert tokenize("2 fire wood", CASINO) == ("2", "fire wood")
    (mention,) = find_mentions(tokenize("2 fire wood", CASINO), CASINO)
    assert (mention.item, mention.kind, mention.count) == (2, "count", 2)


@pytest.mark.parametrize(
    ("text", "kind", "count"),
    [
        pytest.param("two of the hats", "count", 2, id="n-of-the"),
        pytest.param("all 3 hats", "count", 3, id="all-n"),
        pytest.param("both hats", "all", None, id="both"),
        pytest.param("the hats", "all", None, id="the-plural"),
        pytest.param("a hat", "count", 1, id="article"),
        pytest.param("no hats", "count", 0, id="no"),
        pytest.param("half the hats", "half", None, id="half"),
        pytest.param("the other hat", "rest-item", None, id="the-other"),
        pytest.param("hats", "all", None, id="bare-plural"),
    ],
)
def test_quantities(text: str, kind: str, count: int | None) -> None:
    (mention,) = find_mentions(tokenize(text, DOND), DOND)
    assert (mention.kind, mention.count) == (kind, count)


def test_bare_nouns_are_preferences_in_casino() -> None:
    (mention,) = find_mentions(tokenize("I love water", CASINO), CASINO)
    assert mention.kind == "bare"
    assert not parse_split("I love water", CASINO, (3, 3, 3)).has_claim


def test_a_number_with_no_noun_counts_the_item_talked_about() -> None:
    parsed = parse_split("you can have 2", CASINO, (3, 3, 3), context_item=1)
    assert parsed.claims.counts[OTHER] == [None, 2, None]


def test_a_list_with_no_person_is_about_the_default_side() -> None:
    mine = parse_split("ball and one hat ?", DOND, (1, 2, 1))
    theirs = parse_split("ball and one hat ?", DOND, (1, 2, 1), default_side=OTHER)
    assert mine.claims.counts[SELF] == [None, 1, 1]
    assert theirs.claims.counts[OTHER] == [None, 1, 1]
    assert mine.elliptic and theirs.elliptic


def test_mentions_explain_themselves() -> None:
    parsed = parse_split("you get 2 hats", DOND, (1, 3, 1))
    assert [m.describe(DOND.items) for m in parsed.mentions] == ["count2:hat->other(subject)"]


# --------------------------------------------------------------------------------------
# Completion against the deal on the table
# --------------------------------------------------------------------------------------


def test_unnamed_items_go_opposite_or_stay_on_the_table() -> None:
    running = ((1, 1, 1), (2, 2, 2))
    text = "I need 2 firewood"
    assert proposal(text, "casino", (3, 3, 3), running) == ((1, 1, 2), (2, 2, 1))
    # with nothing on the table, the side named gets only what it names
    assert proposal(text, "casino", (3, 3, 3)) == ((0, 0, 2), (3, 3, 1))
    assert proposal("i want the hats", "dealornodeal", (1, 2, 3), ((1, 0, 0), (0, 2, 3))) == (
        (0, 2, 0),
        (1, 0, 3),
    )


def test_a_share_counted_item_by_item_leaves_the_last_item_to_the_other() -> None:
    # "I get 3 food and 2 firewood" counts two of three items for the writer: the water
    # is the reader's, whatever the table said.
    running = ((1, 1, 1), (2, 2, 2))
    text = "So how about I get 3 food and 2 firewood?"
    assert proposal(text, "casino", (3, 3, 3), running) == ((3, 0, 2), (0, 3, 1))


def test_a_count_given_as_a_reason_does_not_spell_out_a_share() -> None:
    # "since I only get 1 food" restates the table: the water stays where it was.
    running = ((1, 2, 1), (2, 1, 2))
    text = "Fine, then I will need 2 firewood, since I only get 1 food."
    assert proposal(text, "casino", (3, 3, 3), running) == ((1, 2, 2), (2, 1, 1))
    # Without the reason the same counts are a share counted item by item.
    text = "Fine, then I will need 2 firewood and 1 food."
    assert proposal(text, "casino", (3, 3, 3), running) == ((1, 0, 2), (2, 3, 1))


def test_the_rest_is_what_the_table_leaves() -> None:
    # the reader asked for the ball and a hat; "i get everything else" keeps that.
    running = ((3, 1, 0), (0, 1, 1))
    assert proposal("ok , only if i get everything else .", "dealornodeal", (3, 2, 1), running) == (
        (3, 1, 0),
        (0, 1, 1),
    )


def test_increments_add_to_the_table() -> None:
    running = ((1, 1, 1), (2, 2, 2))
    assert proposal("can I get 1 more food then?", "casino", (3, 3, 3), running) == (
        (2, 1, 1),
        (1, 2, 2),
    )
    assert proposal(
        "throw in a ball and its a deal", "dealornodeal", (4, 1, 2), ((4, 0, 0), (0, 1, 2))
    ) == (
        (4, 0, 1),
        (0, 1, 1),
    )


#: Deal or No Deal proposals against the deal on the table: (id, utterance, totals,
#: the table as (writer, reader), expected (writer, reader)). Items: (book, hat, ball).
DOND_ON_THE_TABLE = [
    # adjusts-counts: a part of one item moves a count; the other items stay put.
    (
        "adjusts-counts-ask-one",
        "could i get one of the hats ?",
        (2, 3, 1),
        ((0, 0, 1), (2, 3, 0)),
        ((0, 1, 1), (2, 2, 0)),
    ),
    (
        "adjusts-counts-bare",
        "2 books then",
        (4, 1, 2),
        ((1, 1, 0), (3, 0, 2)),
        ((2, 1, 0), (2, 0, 2)),
    ),
    (
        "adjusts-counts-need",
        "i would need three books",
        (4, 2, 1),
        ((2, 2, 0), (2, 0, 1)),
        ((3, 2, 0), (1, 0, 1)),
    ),
    # continues-with-and: "and ..." adds to the table instead of replacing it.
    (
        "continues-with-and",
        "alright and i keep the ball ?",
        (2, 2, 1),
        ((0, 2, 0), (2, 0, 1)),
        ((0, 2, 1), (2, 0, 0)),
    ),
    (
        "and-the-reader-gets",
        "and you take the books",
        (3, 1, 2),
        ((1, 1, 2), (2, 0, 0)),
        ((0, 1, 2), (3, 0, 0)),
    ),
    (
        "consequence-keeps-the-table",
        "ok , but then i get both books",
        (2, 1, 1),
        ((1, 1, 0), (1, 0, 1)),
        ((2, 1, 0), (0, 0, 1)),
    ),
    # the-singular-follows-the-table: "the hat" of two hats is the one hat the table
    # gives that side ...
    (
        "singular-follows-the-table",
        "okay , i'll take both balls and the hat",
        (1, 2, 2),
        ((0, 1, 0), (1, 1, 2)),
        ((0, 1, 2), (1, 1, 0)),
    ),
    # ... and every hat when the table gives that side none (or all) of them.
    (
        "singular-all-when-the-table-gives-none",
        "okay , i'll take both balls and the hat",
        (1, 2, 2),
        ((1, 0, 0), (0, 2, 2)),
        ((0, 2, 2), (1, 0, 0)),
    ),
    # ... but a whole item, or none of it, leaves the rest to the other side.
    (
        "whole-item-goes-opposite",
        "i need the ball",
        (2, 2, 1),
        ((2, 0, 0), (0, 2, 1)),
        ((0, 0, 1), (2, 2, 0)),
    ),
    (
        "two-items-go-opposite",
        "i want a hat and a ball",
        (1, 2, 2),
        ((1, 2, 0), (0, 0, 2)),
        ((0, 1, 1), (1, 1, 1)),
    ),
]


DOND_ON_THE_TABLE_MISSES = [
    # A misspelt "everything" before "else" is the rest: the rule for it fixed only the
    # dialogue it was written for, so it went.
    (
        "everything-else-misspelt",
        "you can have eveyrthing else",
        (1, 4, 1),
        ((0, 0, 1), (1, 4, 0)),
        ((0, 0, 1), (1, 4, 0)),
    ),
    # "The other hat" is the hat the table does not give the writer
    # (the-other-is-what-the-table-leaves): it fixed one dev dialogue and broke one on
    # the same half ("i will need that other book then" adds the partner's book).
    (
        "the-other-is-what-the-table-leaves",
        "you can take the 2 books and the other hat .",
        (2, 2, 1),
        ((0, 1, 1), (2, 1, 0)),
        ((0, 1, 1), (2, 1, 0)),
    ),
    # A condition on its own continuing the deal on the table: the rule for it changed
    # parses on one half of dev only (the dialogue it was written for), so it went.
    (
        "condition-keeps-the-table",
        "as long as i keep the ball",
        (2, 2, 1),
        ((0, 2, 0), (2, 0, 1)),
        ((0, 2, 1), (2, 0, 0)),
    ),
]


@pytest.mark.parametrize(
    ("text", "default", "sides"),
    [
        # elliptic-before-rest: a list before "the rest" given to one side is the other's,
        # whichever side the talk was about ...
        pytest.param(
            "okay the book and one ball u take rest", OTHER, [SELF, SELF, OTHER], id="u-take-rest"
        ),
        pytest.param("ball you can have the rest", OTHER, [SELF, OTHER], id="ball-you-rest"),
        # ... unless "the rest" ends the list itself (the list keeps the talk's side).
        pytest.param("ok hat and rest for me", SELF, [SELF, SELF], id="hat-and-rest-for-me"),
    ],
)
def test_a_list_before_the_rest_is_the_other_share(
    text: str, default: int, sides: list[int]
) -> None:
    parsed = parse_split(text, DOND, (2, 3, 2), default_side=default)
    assert [m.side for m in parsed.mentions] == sides


def test_a_verb_of_wanting_after_a_comma_is_the_writers() -> None:
    # dropped-subject: not the side the talk was about (the reader's here)
    parsed = parse_split("sorry , need the hat and 2 books", DOND, (3, 1, 2), default_side=OTHER)
    assert [m.side for m in parsed.mentions] == [SELF, SELF]


@pytest.mark.parametrize(
    ("text", "totals", "running", "expected"),
    [pytest.param(*row[1:], id=row[0]) for row in DOND_ON_THE_TABLE]
    + [
        pytest.param(*row[1:], id=row[0], marks=pytest.mark.xfail(strict=True, reason="known miss"))
        for row in DOND_ON_THE_TABLE_MISSES
    ],
)
def test_dealornodeal_against_the_table(
    text: str, totals: tuple[int, ...], running: Counts, expected: Counts
) -> None:
    assert proposal(text, "dealornodeal", totals, running) == expected


def test_complete_split_is_from_agent_0() -> None:
    parsed = parse_split("i'll take the ball", DOND, (1, 1, 1))
    split = complete_split(parsed.claims, 1, (1, 1, 1), DOND.items, "opposite")
    assert split.counts == ((1, 1, 0), (0, 0, 1))
