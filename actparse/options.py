"""Parsers built from a user's options, for the command line and any other caller.

Another price lexicon or price mode (Craigslist), another tag-rule file, act file or strategy-rule
file (the input's corpus). Each corpus' modules are imported only when an option needs them.

An act file (``--acts``) is a coarse act inventory like the shipped ``rules/acts.yaml``:
the input corpus' coarse map (``coarse.yaml`` of its rule folder) is checked against it,
unless the file maps that corpus' intents itself (under each act, a list per corpus name,
the layout of old), which then replace the folder's map.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

from actparse import registry
from actparse.engine.acts import load_act_space
from actparse.engine.pipeline import pipeline
from actparse.engine.strategies import StrategyTagger, load_strategy_rules, shipped_lexicon
from actparse.engine.tags import load_rules
from actparse.io.records import InputError, read_records
from actparse.registry import Parser

__all__ = ["corpus_of", "option_parsers"]


def option_parsers(
    input: Path | None,
    fmt: str = "auto",
    *,
    lexicon: Path | None = None,
    prices: str = "cocoa",
    rules: Path | None = None,
    acts: Path | None = None,
    corpus: str = "auto",
    strategies: Path | None = None,
    skip: str = "cocoa",
    final_split: str = "learned",
) -> dict[str, Parser]:
    """The parsers the options ask for instead of the shipped ones, by corpus.

    For Craigslist, the only corpus with a skip rule: the price options and ``skip`` (whether
    Cocoa's length rule leaves dialogues unlabelled). For the corpus of ``input`` (told by
    :func:`corpus_of`): ``rules``, ``acts`` and ``strategies`` (a strategy-rule file instead of
    ``rules/strategies.yaml``) and ``final_split`` (``rules``: no learned final-split
    chooser). Empty when every option is the default."""
    craigslist_options = lexicon is not None or prices != "cocoa" or skip != "cocoa"
    rules_only = final_split == "rules"
    if not craigslist_options and rules is acts is strategies is None and not rules_only:
        return {}
    from actparse.corpora.craigslist.lexicon import load_lexicon
    from actparse.corpora.craigslist.parser import CORPUS, CraigslistParser

    options: dict[str, Any] = {}
    if rules is not None:
        options["rules"] = load_rules(rules)
    space = load_act_space(acts) if acts is not None else None
    # A folder without --format is a ConvoKit corpus (the chat corpus): no chooser to
    # turn off, so --final-split alone does not ask for its corpus.
    told = input is None or input.is_file() or fmt != "auto"
    wanted = options or strategies is not None or space is not None or (rules_only and told)
    name = corpus_of(input, fmt, corpus) if wanted else None
    options.update(_learned_options(name, strategies, rules_only))
    out: dict[str, Parser] = {}
    if craigslist_options or name == CORPUS:
        loaded = load_lexicon(lexicon) if lexicon else None
        mine = options if name == CORPUS else {}
        out[CORPUS] = CraigslistParser(lexicon=loaded, prices=prices, skip=skip, **mine)
    if name is not None and name != CORPUS:
        build = _parser_class(name)
        # A plug-in's parser may take neither option.
        missing = set(options) - set(inspect.signature(build).parameters)
        if missing:
            raise InputError(f"the {name} parser takes no {' or '.join(sorted(missing))}")
        out[name] = build(**options)
    if name is not None and space is not None:
        # The pipeline sets the coarse acts, so any parser, a plug-in's too, takes the file.
        out[name] = pipeline(name, out.get(name), space)
    return out


def _learned_options(name: str | None, strategies: Path | None, rules_only: bool) -> dict[str, Any]:
    """The parser options of a corpus' learned parts: its strategy lexicon and its chooser."""
    options: dict[str, Any] = {}
    if rules_only and name is not None and _takes(name, "final_chooser"):
        # Only a parser with a learned chooser has one to turn off; the others' final
        # split (the chat corpus') is the rules' already.
        options["final_chooser"] = None
    if strategies is not None:
        # The user's rules in place of the shipped ones; a corpus' learned lexicon stays.
        lexicon_path = getattr(_parser_class(name), "strategy_lexicon", ())
        options["strategies"] = StrategyTagger(
            load_strategy_rules(strategies), lexicon=shipped_lexicon(lexicon_path)
        )
    return options


def _takes(name: str, option: str) -> bool:
    """Whether the parser of a corpus takes a keyword option."""
    try:
        return option in inspect.signature(_parser_class(name)).parameters
    except (TypeError, ValueError):  # a plug-in's factory without a signature
        return False


def _parser_class(name: str | None) -> Any:
    """The parser class (or factory) of a corpus, imported only when asked for."""
    return registry.resolve(registry.get(name).parser) if name is not None else None


def corpus_of(input: Path | None, fmt: str = "auto", corpus: str = "auto") -> str:
    """The corpus the options are for.

    The corpus options are for: ``corpus``, else the corpus of ``fmt``, else that of
    the first record of ``input`` (a file: standard input cannot be read twice)."""
    if corpus != "auto":
        return corpus
    if fmt != "auto":
        return registry.corpus_of_format(fmt).name
    if input is None:
        return registry.default_corpus()  # the bundled sample
    if not input.is_file():
        raise InputError(
            f"{input}: --rules, --acts and --strategies need --format when INPUT is no file"
        )
    first = next(read_records(input), None)
    return first.corpus if first is not None else registry.default_corpus()
