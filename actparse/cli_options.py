"""The options of the commands of :mod:`actparse.cli`, each declared once.

Those they share (``--format``, ``--corpus``, ``--lexicon``, ``--prices``, ``--skip``, ``--rules``,
``--strategies``, ``--acts``) and those of ``label`` and ``eval`` alone, so that each command's
function is its steps, not its declarations. The choices of ``--format`` and ``--corpus`` come from
the registry, plug-ins included. :func:`check_per_turn` refuses the options ``label --per-turn``
cannot honour.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from actparse import registry
from actparse.cli_exits import FAILED, TROUBLE
from actparse.errors import OptionError
from actparse.io.batch import TASK_SIZE
from actparse.io.csv_rows import is_csv
from actparse.io.destination import Destination
from actparse.io.output import to_stdout

__all__ = [
    "AUTO_CORPUS",
    "AUTO_FORMAT",
    "ActsOpt",
    "CoarseOpt",
    "CorpusName",
    "CorpusOpt",
    "EvalInput",
    "FinalSplit",
    "FinalSplitOpt",
    "Format",
    "FormatOpt",
    "JobsOpt",
    "JsonOpt",
    "LabelInput",
    "LexiconOpt",
    "MaxLineBytesOpt",
    "MinAgreementOpt",
    "OnError",
    "OnErrorOpt",
    "OutputOpt",
    "PerTurnOpt",
    "Prices",
    "PricesOpt",
    "RulesOpt",
    "Skip",
    "SkipOpt",
    "WorstOpt",
    "check_output",
    "check_per_turn",
    "check_sample",
]

#: ``--format`` and ``--corpus`` choices, from the registry.
Format = StrEnum("Format", {n: n for n in ("auto", *registry.format_names())})  # type: ignore[misc]
CorpusName = StrEnum("CorpusName", {n: n for n in ("auto", *registry.names())})  # type: ignore[misc]

AUTO_FORMAT = Format("auto")
AUTO_CORPUS = CorpusName("auto")

_FORMAT_HELP = (
    "Input format: "
    + ", ".join(f"'{name}' ({spec.help})" for name, spec in registry.formats().items())
    + ", or 'auto' to tell them apart from the first record."
)
FormatOpt = Annotated[Format, typer.Option("--format", "-f", help=_FORMAT_HELP)]
LexiconOpt = Annotated[
    Path | None,
    typer.Option(
        "--lexicon",
        help="Price lexicon JSON to use instead of the shipped one (Cocoa's own): "
        "actparse's layout, or Cocoa's 'left'/'right' counts as they are.",
    ),
]


RulesOpt = Annotated[
    Path | None,
    typer.Option(
        "--rules",
        # No <corpus> placeholder: the help is Markdown, which drops it as an HTML tag,
        # and no long path: rich cuts a word wider than the help column with an ellipsis.
        help="Tag-rule YAML to use instead of the shipped one of the input's corpus (the "
        "tags.yaml of its rules folder, or MutualFriends' rules file).",
        dir_okay=False,
    ),
]
StrategiesOpt = Annotated[
    Path | None,
    typer.Option(
        "--strategies",
        help="Strategy-rule YAML to use instead of the shipped rules/strategies.yaml "
        "(its rules' tags are CaSiNo's strategy labels; see Negotiation strategies in the "
        "documentation).",
        dir_okay=False,
    ),
]
ActsOpt = Annotated[
    Path | None,
    typer.Option(
        "--acts",
        help="Coarse act space YAML to use instead of the shipped rules/acts.yaml.",
        dir_okay=False,
    ),
]


class Prices(StrEnum):
    """How Craigslist prices are found (``--prices``)."""

    cocoa = "cocoa"
    extended = "extended"


PricesOpt = Annotated[
    Prices,
    typer.Option(
        "--prices",
        help="Craigslist price mode: 'cocoa' finds prices as Cocoa did (reproduces the "
        'reference acts); \'extended\' also finds "two hundred dollars", "150 bucks", '
        '"2k", "1.5 grand", "1200 usd".',
    ),
]


class FinalSplit(StrEnum):
    """How Deal or No Deal's and CaSiNo's final split is chosen (``--final-split``)."""

    learned = "learned"
    rules = "rules"


FinalSplitOpt = Annotated[
    FinalSplit,
    typer.Option(
        "--final-split",
        help="Deal or No Deal and CaSiNo: 'learned' weighs every division of the items by "
        "the tracked proposals and the parties' item values (the corpus' shipped "
        "final_chooser.json); 'rules' takes the proposal the tracked deal stands on. "
        "eval --json reports the rules-only accuracy beside either.",
    ),
]


class Skip(StrEnum):
    """Whether Cocoa's length rule leaves Craigslist dialogues unlabelled (``--skip``)."""

    cocoa = "cocoa"
    never = "never"


SkipOpt = Annotated[
    Skip,
    typer.Option(
        "--skip",
        help="Craigslist: 'cocoa' leaves the dialogues Cocoa's length rule skips (both "
        "agents under 40 tokens, or one under 2 messages) without acts, as the reference "
        "does, and says why; 'never' labels them too. Other corpora have no skip rule: "
        "it changes nothing for them.",
    ),
]


class OnError(StrEnum):
    """What ``label`` does with a record it cannot label (``--on-error``)."""

    stop = "stop"
    keep = "keep"


OnErrorOpt = Annotated[
    OnError,
    typer.Option(
        "--on-error",
        help=f"'stop': the first bad record stops the run (exit {TROUBLE}, no output file "
        "left). 'keep': every input record is written, bad ones unchanged with an "
        "'actparse_error' field, and a count is printed at the end (exit "
        f"{FAILED} when no record could be labelled).",
    ),
]

# ---------------------------------------------------------------------------
# label's own
# ---------------------------------------------------------------------------

LabelInput = Annotated[
    Path | None,
    typer.Argument(
        help="Dialogues to label: JSON lines or a JSON list ('.gz' is read "
        "compressed), a '.csv' or '.parquet' table, or a corpus folder (ConvoKit's, "
        "labelled into a new folder -o DIR); '-' reads standard input (a CSV table "
        "too). Without it: standard "
        "input when it is a pipe or a file ('cat val.txt | actparse label'), else (a "
        "terminal, /dev/null) a small bundled sample, labelled and shown as a table.",
        # Not exists=True: typer's check turns '-' into a Path before comparing it with
        # '-', so it would refuse standard input; a missing file is an OSError later.
        dir_okay=True,  # a corpus folder (actparse.io.folders)
        allow_dash=True,
    ),
]
OutputOpt = Annotated[
    str | None,
    typer.Option(
        "--output",
        "-o",
        help="Output file: JSON lines ('.gz' compresses), one JSON list for a '.json' name "
        "(as Cocoa transcripts and CaSiNo are), or '.parquet' (needs actparse[parquet]; "
        "keeps a Parquet input's schema); '-' or none for stdout (JSON lines). "
        "Written to a temporary name and renamed when complete; a symbolic link is "
        "followed, a FIFO or device written directly; a directory, the input or a file "
        "an option reads (--rules...) is refused.",
    ),
]
JobsOpt = Annotated[
    int,
    typer.Option(
        "--jobs",
        "-j",
        min=1,
        # The default is this machine's CPUs: shown, it would print the count of whichever
        # machine built the docs. The help says what it is instead.
        show_default=False,
        help="Worker processes (default: the CPUs this process may use); an input of "
        f"{TASK_SIZE} records or fewer is labelled without them, in one process. Output "
        "keeps input order.",
    ),
]
PerTurnOpt = Annotated[
    bool,
    typer.Option(
        "--per-turn",
        help="Write the per-turn table instead: one row per turn, the same columns for "
        "every corpus, each dialogue once; '.parquet', '.csv', a JSON list ('.json') or "
        "JSON lines by -o's name. Streamed in one process; a bad record stops the run (so "
        "--on-error keep, --coarse and a --jobs above 1 are refused with it).",
    ),
]
CoarseOpt = Annotated[
    bool, typer.Option("--coarse", help="Add coarse acts to Craigslist output ('actparse').")
]

# ---------------------------------------------------------------------------
# eval's own
# ---------------------------------------------------------------------------


def _headlines() -> str:
    return ", ".join(f"{c.headline} ({c.title})" for c in registry.corpora())


EvalInput = Annotated[
    Path,
    typer.Argument(
        help="Dialogues with reference acts ('-': standard input; or a corpus folder).",
        dir_okay=True,
        allow_dash=True,  # not exists=True, which refuses '-' (see LabelInput)
    ),
]
JsonOpt = Annotated[
    bool,
    typer.Option(
        "--json",
        help="Print one JSON object: corpus, dialogues, headline, figures, misses.",
    ),
]
MinAgreementOpt = Annotated[
    float | None,
    typer.Option(
        "--min-agreement",
        help=f"Exit with status {FAILED} when the headline figure is below this: {_headlines()}.",
        min=0.0,
        max=1.0,
    ),
]
WorstOpt = Annotated[
    int | None,
    typer.Option(
        "--worst",
        # A negative count would slice from the end: all but the last N dialogues.
        min=0,
        help=(
            "How many of the worst dialogues to show (default 5; 0: the tables only). "
            "With --json: the N worst dialogues under the key 'worst', each as an entry "
            "of 'misses' (no 'worst' key without --worst)."
        ),
    ),
]
CorpusOpt = Annotated[
    CorpusName,
    typer.Option(help="Which corpus INPUT holds; 'auto' tells from its records."),
]


def check_sample(output: str | None, per_turn: bool) -> None:
    """Refuse an output for the bundled sample, which is a table for a terminal.

    ``label`` with no INPUT and nothing on standard input shows the sample; asked to
    write a file or a per-turn table, it would drop what was asked without a word.
    """
    if output not in (None, "-") or per_turn:
        asked = "--per-turn" if per_turn else f"-o {output}"
        raise OptionError(
            f"nothing to label for {asked}: no INPUT and nothing on standard input (give a "
            "file, or '-' to read standard input); without them, 'actparse label' shows "
            "its bundled sample at a terminal"
        )


def check_output(output: str | Path | None, inputs: Sequence[Path], **files: Path | None) -> None:
    """Refuse, before any work, an output file that is one of the files the run reads.

    ``inputs``, and the ``files`` options name, by option (``rules=path`` is ``--rules``),
    compared by identity whatever their names, each option named in the message: the check
    the output's :class:`~actparse.io.destination.Destination` makes when it is opened,
    here with the option files too, which only the command knows. Standard output is no
    file.
    """
    if not to_stdout(output):
        assert output is not None
        Destination(output, inputs, options={f"--{name}": path for name, path in files.items()})


def check_per_turn(ctx: typer.Context, on_error: OnError, coarse: bool, jobs: int) -> None:
    """Refuse the options ``label --per-turn`` would ignore.

    Refuse, with :class:`~actparse.errors.OptionError`, the options ``label
    --per-turn`` would ignore: a table row has no place for an unreadable record, its
    columns always hold the coarse act, and the table is written by one process."""
    if on_error is OnError.keep:
        raise OptionError(
            "--per-turn cannot be used with --on-error keep: the table has no row for an "
            "unreadable record"
        )
    if coarse:
        raise OptionError(
            "--per-turn cannot be used with --coarse: the table always has a 'coarse' column"
        )
    # Only a --jobs the user gave: the default is the CPU count. By name: newer typers
    # bring their own copy of click's ParameterSource.
    source = ctx.get_parameter_source("jobs")
    if jobs > 1 and getattr(source, "name", None) == "COMMANDLINE":
        raise OptionError(
            f"--per-turn cannot be used with --jobs {jobs}: the table is written by one process"
        )


# -- the per-turn CSV for spreadsheets (issue 28) ------------------------------------------

CsvRawOpt = Annotated[
    bool,
    typer.Option(
        "--csv-raw",
        help="With --per-turn and a '.csv' -o: write text cells as they are. By default a "
        "text cell that begins with =, +, -, @, a tab or a carriage return gets a ' before "
        "it, so that a spreadsheet shows it rather than running it as a formula (actparse "
        "takes that ' off when it reads the table).",
    ),
]


def check_csv_raw(csv_raw: bool, per_turn: bool, output: str | None) -> None:
    """Refuse ``--csv-raw`` where no per-turn CSV table is written: it would change nothing."""
    if csv_raw and not (per_turn and output is not None and is_csv(output)):
        raise OptionError(
            "--csv-raw applies to the per-turn CSV table only (--per-turn -o NAME.csv)"
        )


__all__ += ["CsvRawOpt", "check_csv_raw"]


# ---------------------------------------------------------------------------
# Reading: the bound on a line (label, eval, report, train-prices)
# ---------------------------------------------------------------------------

MaxLineBytesOpt = Annotated[
    int,
    typer.Option(
        "--max-line-bytes",
        min=1,
        help="The longest input line read, in bytes (64 MiB by default): a longer line is "
        "an error naming its file and line (with label --on-error keep, an error record) and is "
        "skipped without being held. E.g. --max-line-bytes 268435456 reads lines up to "
        "256 MiB.",
    ),
]
