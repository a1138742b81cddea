"""The ``actparse`` command: thin wrappers over the library calls."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import StrEnum
from importlib.resources import as_file, files
from pathlib import Path
from typing import IO, Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from actparse.api import label_records
from actparse.craigslist import CraigslistParser
from actparse.evaluate import Report, evaluate
from actparse.models import SKIPPED, UNKNOWN_ACTION
from actparse.prices import load_lexicon, train_lexicon
from actparse.readers import InputError, read_records
from actparse.rules import RuleError
from actparse.writers import apply_acts

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


FormatOpt = Annotated[
    Format,
    typer.Option(
        "--format",
        "-f",
        help="Input format: 'hf' (HuggingFace JSON lines, streamed), 'cocoa' (Cocoa "
        "transcripts, a JSON list loaded whole), or 'auto' to tell them apart.",
    ),
]
LexiconOpt = Annotated[
    Path | None,
    typer.Option("--lexicon", help="Price lexicon JSON to use instead of the shipped one."),
]


def _parser(lexicon: Path | None) -> CraigslistParser:
    return CraigslistParser(lexicon=load_lexicon(lexicon) if lexicon else None)


def _fail(message: str) -> None:
    err.print(f"[bold red]error:[/] {message}", highlight=False)
    raise typer.Exit(code=1)


@contextmanager
def _output(path: str | None) -> Iterator[IO[str]]:
    """Stdout for ``-``/none; else a temporary file renamed into place only when complete."""
    if path in (None, "-"):
        yield sys.stdout
        return
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            yield fh
        os.replace(tmp, target)
    except BaseException:
        os.unlink(tmp)
        raise


def _count_records(path: Path, fmt: Format) -> int | None:
    if fmt == Format.cocoa or (fmt == Format.auto and path.suffix == ".json"):
        return None
    with open(path, "rb") as fh:
        return sum(1 for line in fh if line.strip())


@app.command()
def label(
    input: Annotated[
        Path | None,
        typer.Argument(
            help="Dialogues to label. Without it, a small bundled sample is labelled and "
            "shown as a table.",
            exists=True,
            dir_okay=False,
        ),
    ] = None,
    output: Annotated[
        str | None,
        typer.Option("--output", "-o", help="Output JSON lines file; '-' or none for stdout."),
    ] = None,
    fmt: FormatOpt = Format.auto,
    lexicon: LexiconOpt = None,
) -> None:
    """Label dialogues with Cocoa-compatible acts and write JSON lines.

    Every input record is written back with all its fields: HF records get
    `dialogue_acts` (intent '' and price -1.0 where none), Cocoa transcripts get
    `metadata` {intent, price} on each event. Non-message turns of the HF test export
    have lost their action (offer, accept, reject, quit): they get no act, and a count
    is reported; label Cocoa transcripts when actions matter.
    """
    try:
        parser = _parser(lexicon)
        if input is None:
            with as_file(files("actparse").joinpath("data", "sample.jsonl")) as sample:
                _show_table(sample, parser)
            return
        total = _count_records(input, fmt) if output not in (None, "-") else None
        counts = {"records": 0, "skipped": 0, "unknown": 0}
        with _output(output) as out, _progress(total, enabled=output not in (None, "-")) as tick:
            for record, dialogue, acts in label_records(read_records(input, fmt.value), parser):
                out.write(json.dumps(apply_acts(record.raw, record.format, dialogue, acts)))
                out.write("\n")
                counts["records"] += 1
                counts["skipped"] += bool(acts) and acts[0].note == SKIPPED
                counts["unknown"] += sum(a.note == UNKNOWN_ACTION for a in acts)
                tick()
    except (InputError, RuleError, OSError, ValueError) as exc:
        _fail(str(exc))
        return
    where = output if output not in (None, "-") else "stdout"
    err.print(
        f"labelled {counts['records']} dialogues to {where} "
        f"({counts['skipped']} skipped by Cocoa's length rule)",
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
    for _record, dialogue, acts in label_records(read_records(path, "hf"), parser):
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
            help="Exit with status 2 when message_joint_agreement is below this.",
            min=0.0,
            max=1.0,
        ),
    ] = None,
    worst: Annotated[
        int, typer.Option("--worst", help="How many of the worst dialogues to show.")
    ] = 5,
    fmt: FormatOpt = Format.auto,
    lexicon: LexiconOpt = None,
) -> None:
    """Compare our acts with the reference acts in INPUT.

    Turns are scored in the dialogues the reference parsed; prices compare after
    rounding ours to float32 (tolerance 1e-6); message_* figures count chat messages
    only. Prints a readable report, or with --json one JSON object.
    """
    try:
        report = evaluate(read_records(input, fmt.value), _parser(lexicon))
    except (InputError, RuleError, OSError, ValueError) as exc:
        _fail(str(exc))
        return
    if as_json:
        typer.echo(json.dumps(report.to_json(), sort_keys=True))
    else:
        _print_report(report, worst)
    if min_agreement is not None:
        score = report.summary()["message_joint_agreement"]
        if score < min_agreement:
            err.print(
                f"message_joint_agreement {score:.4f} is below --min-agreement {min_agreement}",
                highlight=False,
            )
            raise typer.Exit(code=2)


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
) -> None:
    """Learn the price-context lexicon from transcripts (weak supervision on `$` prices).

    Never train on the data you evaluate on: the shipped lexicon is trained on the
    Craigslist test split and transcripts_extra.json only.
    """

    def messages() -> Iterator[str]:
        for path in inputs:
            for record in read_records(path, fmt.value):
                yield from (t.text for t in record.dialogue().turns if t.is_message)

    try:
        lexicon = train_lexicon(messages(), inputs, note=note)
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
