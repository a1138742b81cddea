"""MutualFriends: the collaborative corpus through the same pipeline.

Two agents each hold a private list of friends (attributes such as school, company,
location preference) and chat to find the one friend on both lists; a ``select`` event
names a friend. The modules, each imported only when needed:

- :mod:`.reader`: the HuggingFace export and Cocoa transcripts, read into dialogues
  whose knowledge bases hold :class:`~.reader.Friend` mappings;
- :mod:`.names` and :mod:`.linker`: entity linking (exact and partial names, case,
  punctuation and inflection folded, typos of long words tolerated), and the check of a
  selected friend against both lists;
- :mod:`.parser`: Cocoa's intents ``inquire``, ``inform``, ``negative``, ``greet``,
  ``unknown`` and ``select``, by one decision list;
- :mod:`.writer`: the labelled records; :mod:`.evaluate`: the figures and the misses.

The word lists and tag rules are data, in ``rules/mutualfriends/tags.yaml``.
"""

__all__ = ["CORPUS"]

#: The corpus' name in :mod:`actparse.registry` and on every dialogue it reads.
CORPUS = "mutualfriends"
