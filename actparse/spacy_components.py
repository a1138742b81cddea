"""actparse inside a spaCy pipeline.

Cocoa's tokenizer, two rule components, and the acts of a whole dialogue of ``Doc``\\ s.

The components wrap the same functions the batch labeller calls, so a ``Doc`` and the
fast path always agree. ``doc.text`` is the text as given; each token's ``norm_`` is
Cocoa's form of it (lowercased, ``"`` as ````` or ``''``)::

    nlp = actparse.spacy_components.blank_pipeline()
    doc = nlp("Would you take $250?")
    doc._.prices, doc._.tags, doc.spans["prices"]

The components read Cocoa's tokens of ``doc.text``, not the ``Doc``'s own tokens, so
they give the same results behind any tokenizer (``spacy.blank("en")`` splits ``$250``
in two; the price span then covers both tokens). A pipeline saved with ``nlp.to_disk``
loads with ``spacy.load`` in a fresh process: the tokenizer is named in the config
(``actparse.CocoaTokenizer.v1``, a ``spacy_tokenizers`` entry point) and the lexicon and
rules are saved beside it; the tagger's ``skip`` setting (whether :func:`parse_docs`
leaves the dialogues Cocoa's length rule skips without acts) is in the config.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, cast

import numpy
import spacy
from spacy.attrs import NORM
from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.util import registry as spacy_registry
from spacy.vocab import Vocab

from actparse import registry
from actparse.corpora.craigslist.lexicon import PriceLexicon, load_lexicon
from actparse.corpora.craigslist.linking import ListingContext, find_prices
from actparse.corpora.craigslist.parser import (
    CORPUS,
    PRICE_TYPES,
    RULE_TAGS,
    SKIP_MODES,
    TAG_RULES,
    CraigslistParser,
    load_tag_rules,
)
from actparse.engine.alignment import token_spans
from actparse.engine.pipeline import Pipeline, pipeline
from actparse.engine.rulefiles import shipped
from actparse.engine.tags import RuleSet, load_rules
from actparse.engine.tokenizer import tokenize
from actparse.errors import OptionError
from actparse.extensions import PRICES, register_extensions
from actparse.io.records import InputError, Record, format_of_record
from actparse.models import Act, Dialogue, Party, PriceMention, Turn

__all__ = [
    "TOKENIZER",
    "CocoaTokenizer",
    "PriceLinker",
    "Tagger",
    "blank_pipeline",
    "cocoa_tokens",
    "parse_docs",
]

#: The registered name of the tokenizer, as a pipeline's config names it.
TOKENIZER = "actparse.CocoaTokenizer.v1"
LEXICON_FILE = "price_lexicon.json"
RULES_FILE = "rules.yaml"


@functools.lru_cache(maxsize=1024)
def cocoa_tokens(text: str) -> tuple[tuple[str, ...], tuple[tuple[int, int], ...]]:
    """Cocoa's tokens of ``text`` and the ``(start, end)`` in ``text`` of each.

    Cached: the tokenizer and both components of a pipeline ask for the same text.
    """
    tokens = tokenize(text)
    return tuple(tokens), tuple(token_spans(text, tokens))


class CocoaTokenizer:
    """A spaCy tokenizer splitting where Cocoa does.

    ``doc.text`` is the text as given; each token's ``norm_`` is Cocoa's token. The
    characters Cocoa drops (``/``, ``\\``, ``>``, read as spaces) become tokens of their
    own with the norm ``" "``, so ``[t.norm_ for t in doc if not t.norm_.isspace()]``
    is ``tokenize(text)``.
    """

    def __init__(self, vocab: Vocab) -> None:
        self.vocab = vocab

    def __call__(self, text: str) -> Doc:
        tokens, spans = cocoa_tokens(text)
        words: list[str] = []
        norms: list[str] = []
        at = 0
        for token, (start, end) in zip(tokens, spans):
            if end <= start or start < at:  # not found in the text: nothing to mark
                continue
            _gap(text[at:start], words, norms)
            words.append(text[start:end])
            norms.append(token)
            at = end
        _gap(text[at:], words, norms)
        doc, norms = _doc(self.vocab, words, norms)
        # Every token's, as one array: the language's norm exceptions would otherwise
        # apply ("--" -> "-"), and one array is far cheaper than a Token per word.
        strings = self.vocab.strings
        ids: Any = numpy.asarray([strings.add(n) for n in norms], dtype="uint64")
        return doc.from_array([NORM], ids.reshape(-1, 1)) if norms else doc

    def pipe(self, texts: Iterable[str], batch_size: int = 1000) -> Iterable[Doc]:
        """Tokenize each text."""
        for text in texts:
            yield self(text)

    # The tokenizer is code, fixed by Cocoa compatibility: its file only names it.
    def to_bytes(self, *, exclude: Iterable[str] = ()) -> bytes:
        """The tokenizer's name, for spaCy's serialization."""
        return json.dumps({"tokenizer": TOKENIZER}).encode()

    def from_bytes(self, data: bytes, *, exclude: Iterable[str] = ()) -> CocoaTokenizer:
        """Nothing to restore."""
        return self

    def to_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> None:
        """Write the tokenizer's file (``tokenizer`` of a saved pipeline)."""
        Path(path).write_bytes(self.to_bytes())

    def from_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> CocoaTokenizer:
        """Nothing to restore."""
        return self


def _gap(text: str, words: list[str], norms: list[str]) -> None:
    """Words for the text between two tokens.

    Whitespace runs, and the characters Cocoa read as spaces (norm ``" "``)."""
    run = ""
    for c in text:
        if run and run[-1].isspace() != c.isspace():
            words.append(run)
            norms.append(run if run[-1].isspace() else " ")
            run = ""
        run += c
    if run:
        words.append(run)
        norms.append(run if run[-1].isspace() else " ")


def _doc(vocab: Vocab, words: list[str], norms: list[str]) -> tuple[Doc, list[str]]:
    """A ``Doc`` whose text is ``"".join(words)``, and the norms of its tokens.

    A single space after a word becomes its trailing space, other whitespace stays a token, as
    spaCy's tokenizer does."""
    out: list[str] = []
    kept: list[str] = []
    spaces: list[bool] = []
    for word, norm in zip(words, norms):
        if word == " " and out and not spaces[-1] and not out[-1].isspace():
            spaces[-1] = True
        else:
            out.append(word)
            kept.append(norm)
            spaces.append(False)
    return Doc(vocab, words=out, spaces=spaces), kept


@spacy_registry.tokenizers(TOKENIZER)  # type: ignore[untyped-decorator]
def create_cocoa_tokenizer() -> Callable[[Language], CocoaTokenizer]:
    """Config entry: ``[nlp.tokenizer] @tokenizers = "actparse.CocoaTokenizer.v1"``."""

    def make(nlp: Language) -> CocoaTokenizer:
        return CocoaTokenizer(nlp.vocab)

    return make


def _price_spans(doc: Doc, mentions: Iterable[PriceMention], text: str) -> list[Span]:
    """Spans of ``doc`` over the Cocoa tokens of each price mention.

    Spans of ``doc`` (whose text is ``text``) over the Cocoa tokens of each mention,
    whatever its tokenizer."""
    _tokens, offsets = cocoa_tokens(text)
    spans: list[Span] = []
    for m in mentions:
        # An extended price ("two hundred dollars") runs over several tokens.
        last = min(m.token + max(len(m.surface.split()), 1) - 1, len(offsets) - 1)
        start, end = offsets[m.token][0], offsets[last][1]
        span = doc.char_span(start, end, label=m.type, alignment_mode="expand")
        if span is not None:
            span._.price = m.value
            spans.append(span)
    return spans


class PriceLinker:
    """Marks prices with the price-context lexicon in ``doc.spans["prices"]``.

    Each span's value is in ``span._.price``, its type in ``span.label_``; ``doc._.prices`` gives
    them as :class:`~actparse.models.PriceMention`. The listing checks apply when ``doc._.listing``
    is set. The lexicon is saved with the pipeline."""

    def __init__(self, nlp: Language, name: str = "actparse_price_linker") -> None:
        register_extensions()
        self.name = name
        self.lexicon: PriceLexicon = load_lexicon()

    def initialize(
        self,
        get_examples: Callable[[], Iterable[Any]] | None = None,
        *,
        nlp: Language | None = None,
        lexicon_path: str | None = None,
    ) -> None:
        """Load another lexicon.

        Configured under ``[initialize.components.actparse_price_linker]``; without ``lexicon_path``
        the current one stays."""
        if lexicon_path is not None:
            self.lexicon = load_lexicon(lexicon_path)

    def __call__(self, doc: Doc) -> Doc:
        listing = doc._.listing
        context = ListingContext(listing) if listing is not None else None
        text = doc.text  # spaCy joins the tokens' text on every access
        tokens, _offsets = cocoa_tokens(text)
        found = find_prices(tokens, self.lexicon, context)
        doc.spans[PRICES] = _price_spans(doc, found, text) if found else []
        return doc

    def to_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> None:
        """Save the lexicon in the component's directory."""
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        self.lexicon.save(path / LEXICON_FILE)

    def from_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> PriceLinker:
        """Load the lexicon saved with the pipeline."""
        self.lexicon = load_lexicon(Path(path) / LEXICON_FILE)
        return self


class Tagger:
    """Sets Cocoa's message tags (question, greeting, negative, vague-price, agree, has_price).

    Price types other than ``price`` need the dialogue state, which a single ``Doc``
    does not have; :func:`parse_docs` gives a dialogue's ``Doc``\\ s the full tags. The
    rules are saved with the pipeline. ``skip`` (in the component's config, so saved
    with it too) is what :func:`parse_docs` does with the dialogues Cocoa's length rule
    skips: ``"cocoa"`` leaves them without acts, ``"never"`` labels them.
    """

    def __init__(self, nlp: Language, name: str = "actparse_tagger", skip: str = "cocoa") -> None:
        register_extensions()
        self.name = name
        self.skip = _checked_skip(skip)
        self._set_rules(shipped(*TAG_RULES).read_text(encoding="utf-8"), load_tag_rules())

    def _set_rules(self, text: str, rules: RuleSet) -> None:
        self.rules_text = text
        self.rules = rules

    def initialize(
        self,
        get_examples: Callable[[], Iterable[Any]] | None = None,
        *,
        nlp: Language | None = None,
        rules_path: str | None = None,
    ) -> None:
        """Load another rule file.

        Configured under ``[initialize.components.actparse_tagger]``; without ``rules_path`` the
        current rules stay."""
        if rules_path is not None:
            self._set_rules(Path(rules_path).read_text(encoding="utf-8"), load_rules(rules_path))

    def __call__(self, doc: Doc) -> Doc:
        text = doc.text  # spaCy joins the tokens' text on every access
        tokens, _offsets = cocoa_tokens(text)
        # Text rules (vague-price is case-sensitive) read the message as written.
        tags = self.rules.tags(RULE_TAGS, tokens, text)
        types = {s.label_ for s in doc.spans[PRICES]} if PRICES in doc.spans else set()
        if types:
            tags.extend(t for t in PRICE_TYPES if t in types)
            tags.append("has_price")
        doc._.tags = tuple(tags)
        return doc

    def to_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> None:
        """Save the rule file in the component's directory."""
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        (path / RULES_FILE).write_text(self.rules_text, encoding="utf-8")

    def from_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> Tagger:
        """Load the rules saved with the pipeline."""
        file = Path(path) / RULES_FILE
        self._set_rules(file.read_text(encoding="utf-8"), load_rules(file))
        return self


@Language.factory("actparse_price_linker", assigns=["doc.spans", "doc._.prices"])
def make_price_linker(nlp: Language, name: str) -> PriceLinker:
    """Factory of the price linker (``nlp.add_pipe("actparse_price_linker")``)."""
    return PriceLinker(nlp, name)


@Language.factory(
    "actparse_tagger",
    assigns=["doc._.tags"],
    requires=["doc.spans"],
    default_config={"skip": "cocoa"},
)
def make_tagger(nlp: Language, name: str, skip: str) -> Tagger:
    """Factory of the tagger (``nlp.add_pipe("actparse_tagger", config={"skip": ...})``)."""
    return Tagger(nlp, name, skip)


def _checked_skip(skip: str) -> str:
    if skip not in SKIP_MODES:
        raise OptionError(f"skip must be one of {', '.join(SKIP_MODES)}, got {skip!r}")
    return skip


def blank_pipeline(
    *, lexicon: str | Path | None = None, rules: str | Path | None = None, skip: str = "cocoa"
) -> Language:
    """A blank English pipeline with Cocoa's tokenizer, the price linker and the tagger.

    ``lexicon`` and ``rules`` replace the shipped price lexicon and tag rules; either
    way they are saved with the pipeline (``nlp.to_disk``), so the saved config holds
    no path. ``skip`` is the tagger's setting for :func:`parse_docs` (``"never"``:
    label the dialogues Cocoa's length rule skips), kept in the saved config.
    """
    nlp = spacy.blank("en", config={"nlp": {"tokenizer": {"@tokenizers": TOKENIZER}}})
    linker = cast(PriceLinker, nlp.add_pipe("actparse_price_linker"))
    tagger = cast(Tagger, nlp.add_pipe("actparse_tagger", config={"skip": _checked_skip(skip)}))
    if lexicon is not None:
        linker.initialize(lexicon_path=str(lexicon))
    if rules is not None:
        tagger.initialize(rules_path=str(rules))
    return nlp


@functools.lru_cache(maxsize=1)
def _default_nlp() -> Language:
    return blank_pipeline()


def parse_docs(
    dialogue: Iterable[Doc | str] | Dialogue | Mapping[str, Any],
    nlp: Language | None = None,
    *,
    agents: Sequence[int] | None = None,
    corpus: str = CORPUS,
    parties: tuple[Party, Party] | None = None,
    parser: registry.Parser | None = None,
    skip: str | None = None,
) -> list[Doc]:
    """The ``Doc`` of each turn of a dialogue, with its act.

    The act is in ``doc._.intent`` (the corpus' native intent), ``doc._.coarse`` (the shared coarse
    act), ``doc._.act`` (the act with its arguments, as the label output writes it), ``doc._.tags``
    and, for Craigslist, ``doc.spans["prices"]`` typed against the dialogue state.

    ``dialogue`` is a :class:`~actparse.models.Dialogue` or a raw record of any
    supported corpus (every turn becomes ``nlp(turn.text)``), or the turns themselves,
    ``Doc``\\ s or texts, all messages: ``agents`` says who wrote each (default:
    alternating, agent 0 first), ``corpus`` whose parser reads them and ``parties``
    what each agent knows (a Craigslist listing and role). ``nlp`` makes the ``Doc``\\ s
    of texts (default: :func:`blank_pipeline`); ``parser`` replaces the shipped parser.

    ``skip`` says what to do with a Craigslist dialogue Cocoa's length rule skips (both
    agents under 40 tokens, or one under 2 messages): ``"cocoa"`` leaves its turns
    without an act (``doc._.intent`` ``None``, ``doc._.act["note"]`` saying why),
    ``"never"`` labels it; ``None`` (the default) takes the setting of ``nlp``'s
    ``actparse_tagger``, else ``"cocoa"``. Other corpora have no skip rule, and a given
    ``parser`` has its own setting.
    """
    register_extensions()
    make = nlp or _default_nlp()
    if isinstance(dialogue, Dialogue | Mapping):
        d = dialogue if isinstance(dialogue, Dialogue) else _dialogue_of(dialogue)
        docs = [make(t.text) for t in d.turns]
    else:
        docs = [t if isinstance(t, Doc) else make(t) for t in dialogue]
        who = list(agents) if agents is not None else [i % 2 for i in range(len(docs))]
        if len(who) != len(docs):
            raise InputError(f"parse_docs: {len(docs)} turns but {len(who)} agents")
        d = Dialogue(
            turns=tuple(
                Turn(index=i, agent=a, action="message", text=doc.text)
                for i, (doc, a) in enumerate(zip(docs, who))
            ),
            parties=parties or (Party(), Party()),
            corpus=corpus,
        )
    chosen = skip if skip is not None else _skip_of(make)
    acts = pipeline(d.corpus, parser or _parser(d.corpus, _checked_skip(chosen))).parse(d)
    for doc, act in zip(docs, acts):
        _set_act(doc, act)
    return docs


def _skip_of(nlp: Language) -> str:
    """The ``skip`` setting of a pipeline's tagger (``"cocoa"`` without one)."""
    for _name, component in nlp.pipeline:
        if isinstance(component, Tagger):
            return component.skip
    return SKIP_MODES[0]


def _parser(corpus: str, skip: str) -> registry.Parser:
    """The shipped parser of a corpus, or one that labels every dialogue.

    The latter is for Craigslist (the one corpus with a skip rule) with ``skip="never"``."""
    if skip == SKIP_MODES[0] or corpus != CORPUS:
        return pipeline(corpus)
    return _craigslist_parser(skip)


@functools.cache
def _craigslist_parser(skip: str) -> Pipeline:
    # Built once: loading the rules and the lexicon costs far more than a dialogue.
    return pipeline(CORPUS, CraigslistParser(skip=skip))


def _dialogue_of(raw: Mapping[str, Any]) -> Dialogue:
    record = dict(raw)
    fmt = format_of_record(record)
    if fmt is None:
        raise InputError("<record>:1: cannot tell which corpus this record is from")
    return Record(record, fmt, "<record>", 1).dialogue()


def _set_act(doc: Doc, act: Act) -> None:
    doc._.intent = act.intent
    doc._.coarse = act.coarse
    doc._.act = act.to_dict()
    doc._.tags = act.tags
    doc.spans[PRICES] = _price_spans(doc, act.mentions, doc.text)
