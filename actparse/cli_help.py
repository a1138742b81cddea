"""The help of every ``actparse`` command.

Examples, the exit statuses, ``-h``, and plain placeholders.

:class:`Command` and :class:`Group` are the click classes the commands and the top level
are made with. Typer's help writes ``<bool>`` beside every flag, ``<list[Path]>`` beside
an argument that takes several files and ``{input}`` for a required argument in the
usage line; these classes show a flag with no placeholder, an argument as ``INPUT``,
``[INPUT]`` or ``INPUTS...`` (click's own way) and a list by its element's type. The
epilogs (:func:`epilog`) hold each command's examples and its exit statuses, rendered
from :mod:`actparse.cli_exits`.
"""

from __future__ import annotations

import re
from typing import Any

from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from actparse.cli_exits import exit_table

__all__ = ["CONTEXT", "Command", "Group", "epilog"]

#: ``-h`` as well as ``--help``, for the top level and (inherited) every command.
CONTEXT: dict[str, Any] = {"help_option_names": ["-h", "--help"]}

#: Each command's examples, one shell line each; ``None``: the top level's.
_EXAMPLES: dict[str | None, tuple[str, ...]] = {
    None: (
        "actparse label                                   # the bundled sample (at a terminal)",
        "actparse label dialogues.jsonl -o labelled.jsonl",
        "actparse eval dialogues.jsonl --min-agreement 0.9",
        "actparse label -h                                # one command's help",
    ),
    "label": (
        "actparse label                                   # the bundled sample (at a terminal)",
        "actparse label dialogues.jsonl -o labelled.jsonl --jobs 2",
        "cat val.txt | actparse label --format dealornodeal > labelled.jsonl",
        "actparse label - < dialogues.jsonl | head -n 1",
        "actparse label dialogues.jsonl.gz -o labelled.parquet --on-error keep",
        "actparse label val.txt --per-turn -o turns.csv",
    ),
    "eval": (
        "actparse eval dialogues.jsonl",
        "actparse eval dialogues.jsonl --json > figures.json",
        "actparse eval dialogues.jsonl --min-agreement 0.9 && echo 'at or above the floor'",
        "actparse eval casino_train.json --strategies mine.yaml --worst 10",
        "actparse eval val.txt --final-split rules --json",
    ),
    "report": ("actparse report validation.jsonl val.txt casino_train.json -o report.html",),
    "train-prices": (
        "actparse train-prices train.json -o lexicon.json",
        "actparse train-prices train.json -o lexicon.json --calibrate validation.jsonl --folds 5",
        "actparse label dialogues.jsonl --lexicon lexicon.json",
    ),
}


def epilog(command: str | None = None) -> str:
    """The end of a command's help: its examples and its exit statuses, in Markdown.

    ``command`` ``None`` is the top level."""
    examples = "\n".join(_EXAMPLES[command])
    return f"**Examples**\n\n```sh\n{examples}\n```\n\n**Exit status**\n\n{exit_table(command)}\n"


class _Argument(TyperArgument):
    """An argument whose type column names the element's type for a list.

    For a list of paths that is ``<file>``, not ``<list[Path]>``."""

    def display_type_rich(self, ctx: Any) -> str | None:
        shown = super().display_type_rich(ctx)
        listed = re.fullmatch(r"<list\[(.+)\]>", shown or "")
        if listed is None:
            return shown
        # A path's kind as typer names it for one path ('file' with dir_okay=False).
        kind = getattr(getattr(self, "type_descriptor", None), "path_type", None)
        return f"<{kind or listed[1].lower()}>"


def _plain(param: Any) -> Any:
    """A parameter as the help should show it.

    A flag with no ``<bool>``, an argument in capitals (``INPUTS...`` for several). By typer's
    classes: newer typers bring their own copy of click, whose classes are not the installed
    click's."""
    if isinstance(param, TyperOption) and param.is_flag and param.metavar is None:
        param.metavar = ""  # typer shows the metavar, when set, instead of the type
    elif isinstance(param, TyperArgument) and param.metavar is None and param.name:
        param.metavar = param.name.upper() + ("..." if param.nargs != 1 else "")
        if type(param) is TyperArgument:
            param.__class__ = _Argument  # the same object; only its type column differs
    return param


class Command(TyperCommand):
    """A command whose help has plain placeholders (see the module)."""

    def get_params(self, ctx: Any) -> list[Any]:
        return [_plain(param) for param in super().get_params(ctx)]

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        """``[OPTIONS] INPUT``, ``[OPTIONS] [INPUT]``, ``[OPTIONS] INPUTS...``."""
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if isinstance(param, TyperArgument):
                name = param.metavar or (param.name or "").upper()
                pieces.append(name if param.required else f"[{name}]")
            else:
                pieces.extend(param.get_usage_pieces(ctx))
        return pieces


class Group(TyperGroup):
    """The top level, with plain placeholders (see the module)."""

    def get_params(self, ctx: Any) -> list[Any]:
        return [_plain(param) for param in super().get_params(ctx)]
