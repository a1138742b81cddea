"""Your own dialogues: a turn table, the nested form or a ConvoKit corpus, of no known corpus.

:mod:`.spec` is its registry entry; :mod:`.reader` reads a dialogue record (the nested
form, which a table's rows are grouped into by :mod:`.rows`), :mod:`.writer` writes the
acts back, :mod:`.parser` labels with the rules every corpus shares.
"""
