"""A ConvoKit ``Transformer`` that puts actparse's acts into a corpus' utterance metadata.

For users who have ConvoKit (``pip install 'actparse[convokit]'``)::

    from convokit import Corpus
    from actparse.convokit import ActparseTransformer

    corpus = ActparseTransformer().fit_transform(Corpus(filename="my-corpus"))
    corpus.get_utterance("u1").meta["actparse"]  # {"intent": ..., "coarse": ..., ...}

Each conversation is labelled as one dialogue of your own (the ``chat`` corpus), exactly
as ``actparse label`` labels a ConvoKit folder: utterances in ``timestamp`` order, ties
in the corpus' order, or all in the corpus' order when any utterance has no timestamp
that reads as a number (:func:`~actparse.corpora.chat.convokit_folder.ordered`),
speakers as the parties, the conversation's ``items``, ``listing_price`` and ``roles``
metadata as its context. Every utterance gets
``meta["actparse"]`` (:func:`~actparse.corpora.chat.writer.act_fields`). Without
ConvoKit installed, importing this module is an :class:`ImportError` saying how to
install it; the rest of actparse reads and writes ConvoKit folders without it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

try:
    from convokit import Corpus, Transformer
except ImportError as err:  # pragma: no cover - the message is the point
    raise ImportError(
        "actparse.convokit needs ConvoKit, which is not installed: "
        "pip install 'actparse[convokit]' (or label a ConvoKit corpus folder without it: "
        "actparse label CORPUS_DIR -o NEW_DIR)"
    ) from err

from actparse.corpora.chat.convokit_folder import conversation_record
from actparse.corpora.chat.reader import CORPUS, dialogue_from_record
from actparse.corpora.chat.writer import FIELD, act_fields
from actparse.engine.pipeline import pipeline
from actparse.registry import Parser

__all__ = ["ActparseTransformer"]


class ActparseTransformer(Transformer):  # type: ignore[misc]
    """Dialogue acts for every utterance of a ConvoKit corpus, in ``meta[field]``."""

    def __init__(self, parser: Parser | None = None, field: str = FIELD) -> None:
        """``parser``: another parser for the chat corpus (default: the shipped one)."""
        self.parser = parser
        self.field = field
        # Built once: every conversation is a dialogue of the chat corpus.
        self._pipeline = pipeline(CORPUS, parser)

    def fit(self, corpus: Corpus, y: Any = None, **kwargs: Any) -> ActparseTransformer:
        """Nothing to learn: the acts come from rules."""
        return self

    def transform(
        self, corpus: Corpus, selector: Callable[[Any], bool] = lambda convo: True
    ) -> Corpus:
        """Label every conversation ``selector`` accepts; returns the corpus, changed in place."""
        for convo in corpus.iter_conversations(selector):
            utterances = list(convo.iter_utterances())
            turns = [
                (
                    place,
                    {
                        "id": u.id,
                        "speaker": u.speaker.id,
                        "text": u.text or "",
                        "timestamp": u.timestamp,
                    },
                )
                for place, u in enumerate(utterances)
            ]
            record = conversation_record(convo.id, turns, dict(convo.meta))
            dialogue = dialogue_from_record(record)
            acts = self._pipeline.parse(dialogue)
            by_id = {u.id: u for u in utterances}
            for turn, act in zip(record["turns"], acts):
                by_id[turn["id"]].meta[self.field] = act_fields(act, dialogue)
        return corpus
