"""The one place coarse acts are set: a corpus parser, then the corpus' coarse map.

Parsers give native intents and their arguments; :func:`pipeline` wraps a parser (the
shipped one by default) in a :class:`Pipeline` whose ``parse`` (and ``parse_many``,
when the parser has it) sets each act's ``coarse`` from the corpus' coarse map
(:meth:`~actparse.engine.acts.ActSpace.coarse_map`). Every path that parses (the library
calls, batch labelling, the per-turn table, the HTML report, the spaCy components, the
evaluators) asks here, so a corpus' map, and an act file the user gives, apply the same
way everywhere.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from actparse import registry
from actparse.engine.acts import ActSpace, CoarseMap, load_act_space
from actparse.errors import OptionError
from actparse.models import Act, Dialogue

__all__ = ["BatchPipeline", "Pipeline", "pipeline", "pipelines"]


class Pipeline:
    """A corpus parser and the corpus' coarse map.

    :meth:`parse` gives the parser's acts with their coarse acts set.

    Any other attribute is the parser's own (``prepare``, MutualFriends' ``analyse``).
    A corpus without a coarse map (a plug-in with no ``coarse.yaml``) keeps the coarse
    acts its parser gives.
    """

    def __init__(self, parser: registry.Parser, corpus: str, space: ActSpace | None = None) -> None:
        self.parser = parser
        self.corpus = corpus
        if space is None:
            # A parser built with act_space= (the library's way of old) keeps its file.
            space = getattr(parser, "act_space", None) or load_act_space()
        self.space = space
        self.coarse_map: CoarseMap | None = space.coarse_map(corpus)
        intents = getattr(parser, "intents", None)
        if self.coarse_map is not None and intents is not None:
            # Checked now, when the map is loaded, rather than at the first such turn.
            self.coarse_map.check_covers(intents)

    @property
    def act_space(self) -> ActSpace:
        """The inventory the coarse map was checked against.

        A wrapper of this pipeline wrapped again keeps it."""
        return self.space

    def parse(self, dialogue: Dialogue) -> list[Act]:
        """One act per turn of the dialogue, with its coarse act."""
        return self.coarse_acts(self.parser.parse(dialogue))

    def coarse_acts(self, acts: Sequence[Act]) -> list[Act]:
        """``acts`` with their coarse acts set from the corpus' map.

        A turn with no intent gets ``None``."""
        found = self.coarse_map
        if found is None:
            return list(acts)
        return [a._replace(coarse=found.coarse(a.intent)) for a in acts]

    def __getattr__(self, name: str) -> Any:
        # Only reached for what the pipeline lacks; never for dunders (pickling, copy),
        # or for ``parser`` before __init__ set it, which would recurse.
        if name.startswith("__") or name == "parser":
            raise AttributeError(name)
        return getattr(self.parser, name)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.parser!r}, {self.corpus!r})"


class BatchPipeline(Pipeline):
    """A :class:`Pipeline` over a parser that labels a batch at once (``parse_many``)."""

    def parse_many(self, dialogues: Sequence[Dialogue]) -> list[list[Act]]:
        """The acts of each dialogue, as :meth:`parse` gives them."""
        batch: registry.BatchParser = self.parser  # type: ignore[assignment]
        return [self.coarse_acts(acts) for acts in batch.parse_many(dialogues)]


_shipped: dict[str, tuple[registry.Parser, Pipeline]] = {}


def pipeline(
    corpus: str, parser: registry.Parser | None = None, space: ActSpace | None = None
) -> Pipeline:
    """The pipeline of a corpus: a parser and the corpus' coarse map.

    ``parser`` defaults to the shipped one; the map comes from ``space`` (default: the parser's
    ``act_space``, else the shipped inventory). A pipeline given is returned as it is."""
    if isinstance(parser, Pipeline) and space is None:
        return parser
    if parser is None and space is None:
        shipped = registry.shipped_parser(corpus)
        kept = _shipped.get(corpus)
        # The registry rebuilds its parser when a corpus is registered again.
        if kept is None or kept[0] is not shipped:
            kept = (shipped, _build(shipped, corpus, None))
            _shipped[corpus] = kept
        return kept[1]
    return _build(parser or registry.shipped_parser(corpus), corpus, space)


def _build(parser: registry.Parser, corpus: str, space: ActSpace | None) -> Pipeline:
    if isinstance(parser, Pipeline):
        parser = parser.parser
    # A parser of another corpus would emit intents this corpus' coarse map does not know,
    # and the error would name the map's file, not the mix-up.
    own = getattr(parser, "corpus", corpus)
    if isinstance(own, str) and own != corpus:
        raise OptionError(
            f"a {own} parser ({type(parser).__name__}) was given a {corpus} dialogue; "
            f"pass the {corpus} parser (actparse.parser_for({corpus!r})), or none"
        )
    kind = BatchPipeline if hasattr(parser, "parse_many") else Pipeline
    return kind(parser, corpus, space)


def pipelines(parsers: Mapping[str, registry.Parser] | None) -> dict[str, Pipeline]:
    """User-supplied parsers by corpus, each in its corpus' pipeline."""
    return {corpus: pipeline(corpus, p) for corpus, p in (parsers or {}).items()}
