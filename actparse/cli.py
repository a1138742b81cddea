"""The ``actparse`` command: thin wrappers over the library calls."""

from __future__ import annotations

import itertools
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from enum import StrEnum
from importlib.resources import as_file, files
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from actparse.api import default_parser, label_records, parser_for
from actparse.batch import iter_items, label_items, open_output
from actparse.calibrate import calibrate, collect_evidence, context_stats, cross_validate
from actparse.craigslist import CraigslistParser
from actparse.evaluate import Report, evaluate
from actparse.models import Dialogue
from actparse.parquet import ParquetSink, is_parquet, parquet_schema
from actparse.prices import load_lexicon, train_lexicon
from actparse.readers import InputError, open_text, read_records
from actparse.rules import RuleError

app = typer.Typer(
    help="Rule-based dialogue acts for negotiation dialogues (Cocoa-compatible Craigslist acts).",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="markdown",
)
err = Console(stderr=True, soft_wrap=True)


class Format(StrEnum):
    auto = "auto"
    hf = "hf"
    cocoa = "cocoa"
    dealornodeal = "dealornodeal"
    casino = "casino"
    mutualfriends = "mutualfriends"


class Corpus(StrEnum):
    auto = "auto"
    craigslist = "craigslist"
    dealornodeal = "dealornodeal"
    casino = "casino"
    mutualfriends = "mutualfriends"


FormatOpt = Annotated[
    Format,
    typer.Option(
        "--format",
        "-f",
        help="Input format: 'hf' (Craigslist HuggingFace JSON lines, streamed), 'cocoa' "
        "(Craigslist Cocoa transcripts, a JSON list loaded whole), 'dealornodeal' (the "
        "original text or HF JSON lines), 'casino' (the original JSON list), "
        "'mutualfriends' (HF JSON lines or Cocoa transcripts), or 'auto' to tell them "
        "apart from the first record.",
    ),
]
LexiconOpt = Annotated[
    Path | None,
    typer.Option("--lexicon", help="Price lexicon JSON to use instead of the shipped one."),
]


class Prices(StrEnum):
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


def _parser(lexicon: Path | None, prices: Prices = Prices.cocoa) -> CraigslistParser:
    if lexicon is None and prices == Prices.cocoa:
        return default_parser()  # the one every other caller shares: rules load once
    return CraigslistParser(lexicon=load_lexicon(lexicon) if lexicon else None, prices=prices.value)


def _fail(message: str) -> None:
    err.print(f"[bold red]error:[/] {message}", highlight=False)
    raise typer.Exit(code=1)


def _count_records(path: Path) -> int | None:
    """Records of a JSON lines file, for the progress bar (``None``: unknown)."""
    if is_parquet(path):
        return _parquet_rows(path)
    with open_text(path) as fh:
        if not fh.read(256).lstrip().startswith("{"):
            return None
        fh.seek(0)
        return sum(1 for line in fh if line.strip())


def _parquet_rows(path: Path) -> int:
    import pyarrow.parquet

    return int(pyarrow.parquet.ParquetFile(path).metadata.num_rows)


class OnError(StrEnum):
    stop = "stop"
    keep = "keep"


@app.command()
def label(
    input: Annotated[
        Path | None,
        typer.Argument(
            help="Dialogues to label: JSON lines or a JSON list ('.gz' is read "
            "compressed) or '.parquet'. Without it, a small bundled sample is labelled and "
            "shown as a table.",
            exists=True,
            dir_okay=False,
        ),
    ] = None,
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            help="Output file: JSON lines ('.gz' compresses) or '.parquet' (needs "
            "actparse[parquet]; keeps a Parquet input's schema); '-' or none for stdout. "
            "Written to a temporary name and renamed when complete.",
        ),
    ] = None,
    fmt: FormatOpt = Format.auto,
    lexicon: LexiconOpt = None,
    prices: PricesOpt = Prices.cocoa,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            help="Worker processes (default: the number of cores). Output keeps input order.",
        ),
    ] = os.cpu_count() or 1,
    on_error: Annotated[
        OnError,
        typer.Option(
            "--on-error",
            help="'stop': the first bad record stops the run (exit 1, no output file left). "
            "'keep': every input record is written, bad ones unchanged with an "
            "'actparse_error' field, and a count is printed at the end.",
        ),
    ] = OnError.stop,
) -> None:
    """Label dialogues and write JSON lines, one output record per input record.

    Every input record keeps all its fields. Craigslist HF records get `dialogue_acts`
    (intent '' and price -1.0 where none), Craigslist Cocoa transcripts get `metadata`
    {intent, price} on each event; Deal or No Deal, CaSiNo and MutualFriends records get
    an `acts` list (or event `metadata` for transcripts). JSON lines are streamed record
    by record; a JSON list (Cocoa transcripts, CaSiNo) is loaded whole. Non-message turns
    of the Craigslist HF test export have lost their action (offer, accept, reject,
    quit): they get no act, and a count is reported; label Cocoa transcripts when
    actions matter.
    """
    to_file = output not in (None, "-")
    try:
        parser = _parser(lexicon, prices)
        if input is None:
            with as_file(files("actparse").joinpath("data", "sample.jsonl")) as sample:
                _show_table(sample, parser)
            return
        custom = lexicon is not None or prices != Prices.cocoa
        overrides: dict[str, Any] = {"craigslist": parser} if custom else {}
        # The bar needs a terminal to show on, and stdout free (not the output).
        show_progress = to_file and err.is_terminal
        total = _count_records(input) if show_progress else None
        counts = {"records": 0, "skipped": 0, "unknown": 0, "errors": 0}
        sink: Any
        if output is not None and is_parquet(output):
            schema = parquet_schema(input) if is_parquet(input) else None
            sink = ParquetSink(output, schema, keep_errors=on_error == OnError.keep)
        elif to_file:
            sink = open_output(output)  # type: ignore[arg-type]
        else:
            sink = nullcontext(sys.stdout)
        with sink as out, _progress(total, enabled=show_progress) as tick:
            items = iter_items(input, fmt.value)
            for outcome in label_items(
                items, jobs=jobs, on_error=on_error.value, overrides=overrides
            ):
                out.write(outcome.line)
                out.write("\n")
                counts["records"] += 1
                counts["skipped"] += outcome.skipped
                counts["unknown"] += outcome.unknown_actions
                counts["errors"] += outcome.error is not None
                tick()
    except (InputError, RuleError, OSError, ValueError) as exc:
        _fail(str(exc))
        return
    where = output if to_file else "stdout"
    err.print(
        f"labelled {counts['records']} dialogues to {where} "
        f"({counts['skipped']} skipped by Cocoa's length rule)",
        highlight=False,
    )
    if counts["errors"]:
        err.print(
            f"{counts['errors']} of {counts['records']} records could not be labelled; "
            "they were written unchanged with an 'actparse_error' field",
            highlight=False,
        )
    if counts["unknown"]:
        err.print(
            f"note: {counts['unknown']} non-message turns have no recorded action (an HF "
            "export without acts); they got no act (intent '', price -1). Label Cocoa "
            "transcripts when offers and accepts matter.",
            highlight=False,
        )


@contextmanager
def _progress(total: int | None, enabled: bool) -> Iterator[Callable[[], None]]:
    if not enabled:
        yield lambda: None
        return
    with Progress(
        TextColumn("labelling"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
    ) as progress:
        task = progress.add_task("label", total=total)
        yield lambda: progress.advance(task)


def _show_table(path: Path, parser: CraigslistParser) -> None:
    out = Console()
    for _record, dialogue, acts in label_records(read_records(path, "hf"), {"craigslist": parser}):
        roles = [p.role for p in dialogue.parties]
        listing = dialogue.parties[0].listing
        title = f"{listing.title} (listed at {listing.price:g})" if listing else ""
        table = Table(title=title, title_justify="left")
        table.add_column("#", justify="right")
        table.add_column("writer")
        table.add_column("utterance", overflow="fold")
        table.add_column("intent")
        table.add_column("coarse")
        table.add_column("price", justify="right")
        for turn, act in zip(dialogue.turns, acts):
            text = turn.text if turn.is_message else f"<{turn.action or 'unknown action'}>"
            price = f"{act.price:g}" if act.price is not None else ""
            table.add_row(
                str(turn.index), roles[turn.agent], text, act.intent or "", act.coarse or "", price
            )
        out.print(table)
    out.print(
        f"Sample: {path.name} bundled with actparse. Label your own file with "
        "'actparse label INPUT -o OUTPUT'."
    )


#: The figure ``--min-agreement`` checks, per corpus.
HEADLINE = {
    "craigslist": "message_joint_agreement",
    "dealornodeal": "final_split_accuracy",
    "casino": "final_split_accuracy",
    "mutualfriends": "selection_agreement",
}


@app.command("eval")
def eval_command(
    input: Annotated[
        Path, typer.Argument(help="Dialogues with reference acts.", exists=True, dir_okay=False)
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object with the figures.")
    ] = False,
    min_agreement: Annotated[
        float | None,
        typer.Option(
            "--min-agreement",
            help="Exit with status 2 when the headline figure is below this: "
            "message_joint_agreement (Craigslist), final_split_accuracy (Deal or No Deal, "
            "CaSiNo), selection_agreement (MutualFriends).",
            min=0.0,
            max=1.0,
        ),
    ] = None,
    worst: Annotated[
        int, typer.Option("--worst", help="How many of the worst dialogues to show.")
    ] = 5,
    corpus: Annotated[
        Corpus,
        typer.Option(help="Which corpus INPUT holds; 'auto' tells from its records."),
    ] = Corpus.auto,
    fmt: FormatOpt = Format.auto,
    lexicon: LexiconOpt = None,
    prices: PricesOpt = Prices.cocoa,
) -> None:
    """Compare our acts with the reference annotations in INPUT.

    Craigslist: turns are scored in the dialogues the reference parsed; prices compare
    after rounding ours to float32 (tolerance 1e-6); message_* figures count chat
    messages only. Deal or No Deal and CaSiNo: the last text proposal before the formal
    deal against the final split (each Deal or No Deal dialogue counted once), plus
    coarse acts per strategy label (CaSiNo). MutualFriends: entity mentions and
    selections against the outcome. Prints a readable report, or with --json one JSON
    object.
    """
    try:
        records = read_records(input, fmt.value)
        first = next(records, None)
        if first is None:
            _fail(f"{input}: no dialogues")
            return
        name = first.corpus if corpus == Corpus.auto else corpus.value
        stream = itertools.chain([first], records)
        if name == "craigslist":
            report = evaluate(stream, _parser(lexicon, prices))
            figures = report.summary()
            if as_json:
                typer.echo(json.dumps(report.to_json(), sort_keys=True))
            else:
                _print_report(report, worst)
        else:
            other = _evaluate_other(name, (r.dialogue() for r in stream))
            figures = other.summary()
            if as_json:
                typer.echo(json.dumps(figures, sort_keys=True))
            else:
                _print_other_report(name, other, worst)
    except (InputError, RuleError, OSError, ValueError) as exc:
        _fail(str(exc))
        return
    if min_agreement is not None:
        key = HEADLINE[name]
        score = float(figures[key])
        if score < min_agreement:
            err.print(f"{key} {score:.4f} is below --min-agreement {min_agreement}")
            raise typer.Exit(code=2)


def _evaluate_other(name: str, dialogues: Iterator[Dialogue]) -> Any:
    parser = parser_for(name)
    if name == "dealornodeal":
        from actparse.dealornodeal import evaluate_dealornodeal

        return evaluate_dealornodeal(dialogues, parser)
    if name == "casino":
        from actparse.casino import evaluate_casino

        return evaluate_casino(dialogues, parser)
    from actparse.mutualfriends import evaluate_mutualfriends

    return evaluate_mutualfriends(dialogues, parser)


def _print_other_report(name: str, report: Any, worst: int) -> None:
    out = Console()
    figures = Table("figure", "value", title=f"{name}: agreement with the annotations")
    for key, value in report.summary().items():
        if isinstance(value, float) and "per_" in key:  # a rate per unit, not a share
            figures.add_row(key, f"{value:.2f}")
        elif isinstance(value, float):
            figures.add_row(key, f"{value:.2%}")
        elif isinstance(value, int):
            figures.add_row(key, str(value))
    out.print(figures)
    for key, value in report.summary().items():
        if isinstance(value, dict):
            out.print(f"[bold]{key}[/]")
            out.print(json.dumps(value, indent=1, sort_keys=True), highlight=False, markup=False)
    misses = getattr(report, "misses", None)
    if misses is not None:
        for miss in misses(worst):
            out.print(str(miss), highlight=False, markup=False)


def _print_report(report: Report, worst: int) -> None:
    out = Console()
    s = report.summary()
    out.print(
        f"{s['dialogues']} dialogues ({s['scored_dialogues']} parsed by the reference), "
        f"{s['turns']} turns, {s['message_turns']} messages"
    )
    figures = Table("figure", "all turns", "messages", title="Agreement with the reference")
    for name in ("intent", "price", "joint"):
        figures.add_row(
            name, f"{s[name + '_agreement']:.2%}", f"{s['message_' + name + '_agreement']:.2%}"
        )
    figures.add_row("skip decision", f"{s['skip_agreement']:.2%}", "")
    out.print(figures)
    confusion = Table("reference", "messages", "agree", "ours instead", title="Intents of messages")
    for ref, counts in sorted(report.confusion().items(), key=lambda kv: -sum(kv[1].values())):
        total = sum(counts.values())
        others = ", ".join(f"{k} {v}" for k, v in counts.most_common() if k != ref)
        confusion.add_row(ref, str(total), f"{counts[ref] / total:.1%}", others)
    out.print(confusion)
    for d in report.worst(worst):
        out.print(f"[bold]{d.where}[/]: {d.message_disagreements} disagreeing messages")
        for t in d.turns:
            if t.is_message and not t.ok:
                out.print(f"  turn {t.turn}: {t.text!r}", highlight=False, markup=False)
                out.print(f"    {t.reason}", highlight=False, markup=False)


@app.command("train-prices")
def train_prices(
    inputs: Annotated[
        list[Path], typer.Argument(help="Transcripts to learn from.", exists=True, dir_okay=False)
    ],
    output: Annotated[Path, typer.Option("--output", "-o", help="Lexicon JSON to write.")],
    fmt: FormatOpt = Format.auto,
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
) -> None:
    """Learn the price-context lexicon from transcripts (weak supervision on `$` prices).

    Never train on the data you evaluate on: the shipped lexicon is trained on the
    Craigslist test split and transcripts_extra.json, then calibrated on the reference
    acts of the validation split (`--calibrate`), whose own figures are therefore
    in-sample; `--folds` gives the held-out estimate.
    """
    try:
        texts = [
            t.text
            for path in inputs
            for record in read_records(path, fmt.value)
            for t in record.dialogue().turns
            if t.is_message
        ]
        lexicon = train_lexicon(texts, inputs, note=note)
        if calibrate_on is not None:
            stats = context_stats(texts)
            references = list(read_records(calibrate_on, fmt.value))
            evidence = collect_evidence(references)
            result = calibrate(
                lexicon, evidence, stats=stats, min_support=min_support, reference=calibrate_on
            )
            err.print(f"calibration: {json.dumps(result.summary())}", highlight=False)
            if folds:
                cv = cross_validate(
                    references, lexicon, folds=folds, stats=stats, min_support=min_support
                )
                err.print(
                    f"{folds}-fold cross-validation on {calibrate_on.name} "
                    f"({cv.messages} messages): message_joint_agreement {cv.baseline:.5f} "
                    f"uncalibrated, {cv.calibrated:.5f} calibrated (held-out)",
                    highlight=False,
                )
            lexicon = result.lexicon
        lexicon.save(output)
    except (InputError, OSError, ValueError) as exc:
        _fail(str(exc))
        return
    err.print(
        f"wrote {output}: {len(lexicon.left)} left and {len(lexicon.right)} right contexts "
        f"from {lexicon.provenance['messages']} messages",
        highlight=False,
    )


def main() -> None:
    """Console-script entry point."""
    app()
