"""The ``actparse`` command: thin wrappers over the library calls.

Each command parses its options, calls one library function and prints what it returns;
the corpora and formats it offers come from :mod:`actparse.registry`, so a plug-in corpus
shows up in the choices and the help by itself.
"""

from __future__ import annotations

import json
import sys
from importlib.resources import as_file, files
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from actparse import __version__
from actparse.api import evaluate_path, label_records
from actparse.cli_exits import CLOSED_PIPE, FAILED, TROUBLE
from actparse.cli_help import CONTEXT, Command, Group, epilog
from actparse.cli_options import (
    AUTO_CORPUS,
    AUTO_FORMAT,
    ActsOpt,
    CoarseOpt,
    CorpusOpt,
    CsvRawOpt,
    EvalInput,
    FinalSplit,
    FinalSplitOpt,
    FormatOpt,
    JobsOpt,
    JsonOpt,
    LabelInput,
    LexiconOpt,
    MaxLineBytesOpt,
    MinAgreementOpt,
    OnError,
    OnErrorOpt,
    OutputOpt,
    PerTurnOpt,
    Prices,
    PricesOpt,
    RulesOpt,
    Skip,
    SkipOpt,
    StrategiesOpt,
    WorstOpt,
    check_csv_raw,
    check_output,
    check_per_turn,
    check_sample,
)
from actparse.cli_run import (
    StdoutConsole,
    report_bug,
    run,
    stdin_is_data,
    stdout_pipe,
    stdout_pipe_closed,
)
from actparse.cli_say import count, err, fail, say, say_calibration, say_labelled, table_summary
from actparse.errors import ActparseError, OptionError
from actparse.io.batch import Summary, label_path, usable_cpus
from actparse.io.folders import is_folder
from actparse.io.lines import MAX_LINE_BYTES, line_limit
from actparse.io.output import count_records, to_stdout
from actparse.io.records import read_records
from actparse.io.turn_files import label_table
from actparse.options import option_parsers
from actparse.registry import Parser
from actparse.render import WORST, print_dialogue, print_report, progress_bar
from actparse.reports import WORST_KEY, Report

if TYPE_CHECKING:  # imported when the command runs: the corpus' training loads only then
    pass

app = typer.Typer(
    help="Rule-based dialogue acts for negotiation dialogues (Cocoa-compatible Craigslist acts).",
    no_args_is_help=True,
    rich_markup_mode="markdown",
    pretty_exceptions_show_locals=False,  # a bug's traceback must not print the records
    cls=Group,
    context_settings=CONTEXT,
    epilog=epilog(),
)


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"actparse {__version__}")
        raise typer.Exit()


@app.callback()
def _main_options(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_show_version,
            is_eager=True,
            help="Print the version and exit.",
        ),
    ] = False,
) -> None:
    """Rule-based dialogue acts for negotiation dialogues (Cocoa-compatible Craigslist acts)."""


#: What a command reports in one line as an error of the run: the input's, a rule file's,
#: the output's or the environment's fault (an OSError: a file missing, a disk full).
#: Anything else, a plain ValueError too, is a bug: a traceback (:func:`main`).
_RUN_ERRORS = (ActparseError, OSError)


#: ``--jobs`` by default: the CPUs this process may use, read once.
DEFAULT_JOBS = usable_cpus()


@app.command(cls=Command, epilog=epilog("label"))
def label(
    ctx: typer.Context,
    input: LabelInput = None,
    output: OutputOpt = None,
    fmt: FormatOpt = AUTO_FORMAT,
    lexicon: LexiconOpt = None,
    prices: PricesOpt = Prices.cocoa,
    rules: RulesOpt = None,
    strategies: StrategiesOpt = None,
    acts: ActsOpt = None,
    skip: SkipOpt = Skip.cocoa,
    jobs: JobsOpt = DEFAULT_JOBS,
    on_error: OnErrorOpt = OnError.stop,
    per_turn: PerTurnOpt = False,
    coarse: CoarseOpt = False,
    csv_raw: CsvRawOpt = False,
    max_line_bytes: MaxLineBytesOpt = MAX_LINE_BYTES,
) -> None:
    """Label dialogues and write JSON lines, one output record per input record.

    Every input record keeps all its fields. Craigslist HF records get `dialogue_acts`
    (intent '' and price -1.0 where none), Craigslist Cocoa transcripts get `metadata`
    (an intent and a price) on each event, exactly as Cocoa wrote them, and both get
    actparse's own `actparse` field (strategies, why a turn has no act); Deal or No Deal,
    CaSiNo and MutualFriends records get an `acts` list (or event `metadata` for
    MutualFriends transcripts). JSON lines are streamed record
    by record; a JSON list (Cocoa transcripts, CaSiNo) is loaded whole. Non-message turns
    of the Craigslist HF test export have lost their action (offer, accept, reject,
    quit): they get no act, and a count is reported; label Cocoa transcripts when
    actions matter.
    """
    to_file = not to_stdout(output)
    if input is None and stdin_is_data():
        input = Path("-")  # as jq does; the sample is for a terminal
    with run(), line_limit(max_line_bytes):
        try:
            overrides = option_parsers(
                input,
                fmt.value,
                lexicon=lexicon,
                prices=prices,
                rules=rules,
                acts=acts,
                strategies=strategies,
                skip=skip.value,
            )
            if input is None:
                check_sample(output, per_turn)
                _show_sample(overrides)
                return
            check_csv_raw(csv_raw, per_turn, output)
            if not is_folder(input):  # a folder's output is a new folder: no file it reads
                check_output(
                    output, [input], lexicon=lexicon, rules=rules, acts=acts, strategies=strategies
                )
            if per_turn:
                check_per_turn(ctx, on_error, coarse, jobs)
                counts = label_table(
                    input, output, fmt=fmt.value, overrides=overrides, csv_raw=csv_raw
                )
                say(table_summary(counts.turns, counts.dialogues, counts.without_turns))
                return
            summary = _label_with_progress(
                input, output, fmt.value, jobs, on_error, overrides, coarse=coarse
            )
        except _RUN_ERRORS as exc:
            fail(exc)
    say_labelled(summary, output if to_file and output is not None else "stdout")


def _label_with_progress(
    input: Path,
    output: str | None,
    fmt: str,
    jobs: int,
    on_error: OnError,
    overrides: dict[str, Parser],
    *,
    coarse: bool,
) -> Summary:
    """Label ``input`` into ``output``, with a progress bar on a terminal.

    Label ``input`` into ``output`` (stdout for none), with a progress bar on a
    terminal when the output is a file."""
    to_file = not to_stdout(output)
    # The bar needs a terminal to show on, and stdout free (not the output).
    show_progress = to_file and err.is_terminal
    # Counting reads the input once more: only a regular file can be read twice.
    total = count_records(input) if show_progress and input.is_file() else None
    with progress_bar(total, err, enabled=show_progress) as tick:
        summary = label_path(
            input,
            output,
            fmt=fmt,
            jobs=jobs,
            on_error=on_error.value,
            overrides=overrides,
            progress=tick,
            coarse=coarse,
        )
    if not to_file:
        sys.stdout.flush()  # a closed pipe ends the run before the summary
    return summary


def _show_sample(overrides: dict[str, Parser]) -> None:
    out = StdoutConsole()
    with as_file(files("actparse").joinpath("data", "sample.jsonl")) as sample:
        for _record, dialogue, acts in label_records(read_records(sample), overrides):
            print_dialogue(dialogue, acts, out)
        out.print(
            f"Sample: {sample.name} bundled with actparse. Label your own file with "
            "'actparse label INPUT -o OUTPUT'."
        )


@app.command("eval", cls=Command, epilog=epilog("eval"))
def eval_command(
    input: EvalInput,
    as_json: JsonOpt = False,
    min_agreement: MinAgreementOpt = None,
    worst: WorstOpt = None,
    corpus: CorpusOpt = AUTO_CORPUS,
    fmt: FormatOpt = AUTO_FORMAT,
    lexicon: LexiconOpt = None,
    prices: PricesOpt = Prices.cocoa,
    rules: RulesOpt = None,
    strategies: StrategiesOpt = None,
    acts: ActsOpt = None,
    skip: SkipOpt = Skip.cocoa,
    final_split: FinalSplitOpt = FinalSplit.learned,
    max_line_bytes: MaxLineBytesOpt = MAX_LINE_BYTES,
) -> None:
    """Compare our acts with the reference annotations in INPUT.

    Craigslist: turns are scored in the dialogues the reference parsed; prices are equal
    when they are the same float32 (the HF export's storage); message_* figures count chat
    messages only. Deal or No Deal and CaSiNo: the text's final deal before the formal
    deal against the final split (the proposal the tracked deal stands on, or with
    --final-split learned, the default, the division the item values favour), by
    confidence (each Deal or No Deal dialogue counted once), plus
    coarse acts per strategy label (CaSiNo). MutualFriends: entity mentions and
    selections against the outcome. Prints tables and the worst dialogues (each
    disagreeing turn with the reference, ours and the reason), or with --json one JSON
    object with the same top-level keys for every corpus (with --worst N also 'worst',
    the N worst dialogues as fields).
    """
    with run(), line_limit(max_line_bytes):
        try:
            report = evaluate_path(
                input,
                corpus=corpus.value,
                fmt=fmt.value,
                parsers=option_parsers(
                    input,
                    fmt.value,
                    lexicon=lexicon,
                    prices=prices,
                    rules=rules,
                    acts=acts,
                    corpus=corpus.value,
                    strategies=strategies,
                    skip=skip.value,
                    final_split=final_split.value,
                ),
            )
            _show_report(report, as_json, worst)
            score = report.headline_value()
            if min_agreement is not None and score is None:
                raise OptionError(
                    f"--min-agreement checks {report.headline}, and "
                    f"{report.headline_missing()}: give one to check a floor"
                )
        except _RUN_ERRORS as exc:
            fail(exc)
    if min_agreement is not None and score is not None and score < min_agreement:
        say(f"{report.headline} {score:.4f} is below --min-agreement {min_agreement}")
        raise typer.Exit(code=FAILED)


def _show_report(report: Report, as_json: bool, worst: int | None) -> None:
    """Print an evaluation: one JSON object, or tables and the ``worst`` dialogues.

    The JSON has the ``worst`` dialogues under :data:`~actparse.reports.WORST_KEY` only
    when ``--worst`` was given: without it, it is what it always was."""
    if as_json:
        doc = report.to_json()
        if worst is not None:
            doc[WORST_KEY] = report.worst_to_json(worst)
        typer.echo(json.dumps(doc, sort_keys=True))
    else:
        print_report(report, StdoutConsole(), WORST if worst is None else worst)


@app.command(cls=Command, epilog=epilog("report"))
def report(
    inputs: Annotated[list[Path], typer.Argument(help="Files to report on, any corpus each.")],
    # str, as label's -o: a Path drops the '/' of 'new/', which names a folder, not a file.
    output: Annotated[str, typer.Option("--output", "-o", help="The HTML file to write.")],
    fmt: FormatOpt = AUTO_FORMAT,
    lexicon: LexiconOpt = None,
    prices: PricesOpt = Prices.cocoa,
    skip: SkipOpt = Skip.cocoa,
    final_split: FinalSplitOpt = FinalSplit.learned,
    max_line_bytes: MaxLineBytesOpt = MAX_LINE_BYTES,
) -> None:
    """Write one self-contained HTML report of INPUTs, openable offline.

    Needs actparse[report]. Per input: its figures (those of `actparse eval` where it has
    a reference), charts of the acts, and a dialogue browser with filters and search."""
    from actparse.html_report import write_report

    with run(), line_limit(max_line_bytes):
        try:
            check_output(output, inputs, lexicon=lexicon)
            parsers: dict[str, Parser] = {}
            # Each input's corpus (they may be of several), with --final-split for it.
            for path in [None, *(inputs if final_split is FinalSplit.rules else ())]:
                parsers |= option_parsers(
                    path,
                    fmt.value,
                    lexicon=lexicon,
                    prices=prices,
                    skip=skip.value,
                    final_split=final_split.value,
                )
            size = write_report(inputs, output, fmt=fmt.value, parsers=parsers)
        except _RUN_ERRORS as exc:
            fail(exc)
    say(f"wrote {output} ({size / 1e6:.1f} MB) from {count(len(inputs), 'input')}")


@app.command("train-prices", cls=Command, epilog=epilog("train-prices"))
def train_prices(
    inputs: Annotated[
        list[Path], typer.Argument(help="Transcripts to learn from.", exists=True, dir_okay=False)
    ],
    output: Annotated[str, typer.Option("--output", "-o", help="Lexicon JSON to write.")],
    fmt: FormatOpt = AUTO_FORMAT,
    note: Annotated[str, typer.Option(help="A note kept in the provenance.")] = "",
    calibrate_on: Annotated[
        Path | None,
        typer.Option(
            "--calibrate",
            help="Reference acts (Craigslist HF JSON lines or Cocoa transcripts with "
            "metadata) to calibrate the lexicon on: contexts the reference shows Cocoa "
            "knew are added, contexts it shows Cocoa never knew are removed.",
            exists=True,
            dir_okay=False,
        ),
    ] = None,
    min_support: Annotated[
        int, typer.Option(min=1, help="Evidence occurrences a calibration change needs.")
    ] = 1,
    folds: Annotated[
        int,
        typer.Option(
            min=0,
            help="With --calibrate: also estimate held-out agreement by K-fold "
            "cross-validation on the reference file (0: skip).",
        ),
    ] = 0,
    max_line_bytes: MaxLineBytesOpt = MAX_LINE_BYTES,
) -> None:
    """Learn a price-context lexicon from transcripts (weak supervision on `$` prices).

    For another domain: the shipped lexicon is Cocoa's own, trained on the Craigslist
    train split. Never train on the data you evaluate on: figures on the `--calibrate`
    file are in-sample; `--folds` gives the held-out estimate.
    """
    from actparse.corpora.craigslist.training import train_prices as train

    sources = [*inputs, *([calibrate_on] if calibrate_on else [])]
    with run(), line_limit(max_line_bytes):
        try:
            check_output(output, inputs, calibrate=calibrate_on)  # before training
            training = train(
                inputs,
                fmt=fmt.value,
                note=note,
                calibrate_on=calibrate_on,
                min_support=min_support,
                folds=folds,
            )
            say_calibration(training, calibrate_on, folds)
            lexicon = training.lexicon
            lexicon.save(output, sources)
        except _RUN_ERRORS as exc:
            fail(exc)
    say(
        f"wrote {output}: {len(lexicon.left)} left and {len(lexicon.right)} right contexts "
        f"from {lexicon.provenance['messages']} messages"
    )


def main() -> None:
    """Console-script entry point; a bug exits with 2, not 1.

    ``python -m actparse`` uses it too: the completion scripts typer writes name the program, so it
    is ``actparse`` either way. A bug exits with 2 rather than Python's 1, which says "below the
    floor" here: its traceback, and where to report it (:func:`~actparse.cli_run.report_bug`)."""
    pipe = stdout_pipe()
    try:
        app(prog_name="actparse")
    except SystemExit as end:
        # What click and rich print before a command runs (--help, --version) meets a
        # closed pipe outside run(), and they end with 1: a closed pipe's status is 141.
        if end.code == 1 and stdout_pipe_closed(pipe):
            raise SystemExit(CLOSED_PIPE) from None
        raise
    except Exception as bug:
        report_bug(bug)
        raise SystemExit(TROUBLE) from None
