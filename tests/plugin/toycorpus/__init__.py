"""A made-up corpus plugged into actparse from outside, as a third-party package would.

Records look like ``{"toy_turns": [{"speaker": 0, "text": "hello"}, ...],
"toy_reference": ["greet", ...]}``. Nothing under ``actparse/`` knows this corpus: it
is found through the ``actparse_corpora`` entry point (or ``actparse.register``).

- :mod:`.spec`: what the registry reads (the format, its detection, dotted paths);
- :mod:`.corpus`: the reader, the parser and the evaluator;
- ``rules/``: the tag rules (``tags.yaml``) and the coarse map (``coarse.yaml``).
"""
