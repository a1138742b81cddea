"""Item-split proposals in free text, shared by the split corpora (Deal or No Deal, CaSiNo).

A proposal divides a few item types between the writer of a message and its reader:
"i'll take the ball and you get the rest", "3 firewood for me, 2 water for you". The
parser is configured by an item lexicon (the shared ``rules/splits/lexicon.yaml``: number
words and word classes by role; each corpus' ``splits.yaml`` in its rule folder,
``Corpus.rules``: its item words and settings; :mod:`.lexicon`) and works in four steps,
each a function with a name:

1. :func:`.tokens.tokenize`: lowercase, normalise apostrophes, expand contractions
   ("can't" -> can not) and read multi-word phrases as one token.
2. :func:`.mentions.find_mentions`: item nouns with the quantity written before them,
   "the rest", "everything", "one of each", and numbers standing for the item talked
   about last.
3. :func:`.sides.assign_sides`: whose side each mention is on, from the words before it
   (subjects, recipients, benefit phrases, negation; :mod:`.clauses`: where a clause
   opens and how far a negation reaches), then from its neighbours
   (:mod:`.relations`: benefit phrases after a list, exceptions, exchanges, statements
   of worth, lists with no person); :func:`.bare_counts.count_the_item_named_next`
   gives a number standing for the item talked about the item it splits with the one
   item named after it.
4. :func:`.claims.resolve_claims`: the writer-relative counts of each side
   (:mod:`.stated`: items named only as a need, a liking or a holding, which claim no
   count once a deal is on the table).
5. :func:`.completion.complete_split` turns them into an
   :class:`~actparse.models.ItemSplit` between agent 0 and agent 1, completed from the
   deal on the table.

:class:`.dialogue.SplitDialogueParser` runs this turn by turn with the deal on the table
and decides each message's intent; :class:`.evaluate.SplitReport` scores the last text
proposal before the formal deal against the final split. A corpus module
(:mod:`actparse.corpora.dealornodeal`, :mod:`actparse.corpora.casino`) subclasses both
and names its corpus; nothing here knows a corpus by name.
"""
