"""CraigslistBargains: Cocoa's ``parse_dialogue`` acts, turn by turn.

- :mod:`.hf` and :mod:`.cocoa`: the two input layouts, read and written back;
- :mod:`.parser`: the dialogue state, the tags and Cocoa's decision list;
- :mod:`.lexicon`, :mod:`.linking`, :mod:`.extended`: finding prices;
- :mod:`.calibrate`, :mod:`.training`: learning the price lexicon;
- :mod:`.evaluate`: agreement with the reference acts.
"""
