"""The chat parser against the corpus parsers, on every shipped file turned into chat records.

Each dialogue of a shipped file is read as its corpus reads it, turned into a chat record
in the nested form (its speakers as agent numbers, its items and listing price as
context, its roles), and labelled twice: as the chat corpus (``pipeline("chat")``) and
by its own corpus' pipeline (Craigslist with ``skip="never"``, so that every dialogue
has acts). Printed per file, as a markdown table:

- Craigslist: the share of message turns where the two parsers give the same price;
- Deal or No Deal and CaSiNo: the final-split accuracy of both (the corpora's own
  definition, :class:`actparse.corpora.splits.evaluate.SplitReport`: the last text
  proposal before the selection or the accepted submission; Deal or No Deal counts each
  dialogue once, :func:`dialogue_key`);
- every corpus: the share of message turns with the same coarse act, and the most
  frequent disagreements (corpus coarse -> chat coarse).

The rules were written looking at the dev files only (Craigslist validation, Deal or No
Deal val.txt, CaSiNo valid and the first 450 dialogues of CaSiNo train); the others are
held out, CaSiNo train's last 450 dialogues printed on a row of their own.

    python benchmarks/compare_chat.py --data $ACTPARSE_DATA [--limit N]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from actparse.corpora.casino.core import final_deal
from actparse.corpora.chat.reader import dialogue_from_record
from actparse.corpora.craigslist.parser import CraigslistParser
from actparse.corpora.dealornodeal.core import dialogue_key, final_split
from actparse.corpora.splits.evaluate import SplitReport
from actparse.engine.pipeline import pipeline
from actparse.io.records import read_records
from actparse.models import Act, Dialogue, ItemSplit

#: (corpus, file under the data folder, dev or held-out, the dialogues: first, end)
FILES: tuple[tuple[str, str, str, int, int | None], ...] = (
    ("craigslist", "craigslist/validation.jsonl", "dev", 0, None),
    ("craigslist", "craigslist/test.jsonl", "held-out", 0, None),
    ("craigslist", "craigslist/transcripts_extra.json", "held-out", 0, None),
    ("dealornodeal", "dealornodeal/val.txt", "dev", 0, None),
    ("dealornodeal", "dealornodeal/train.txt", "held-out", 0, None),
    ("casino", "casino/casino_valid.json", "dev", 0, None),
    ("casino", "casino/casino_train.json", "dev", 0, 450),
    ("casino", "casino/casino_train.json", "held-out", 450, None),
)


def chat_record(dialogue: Dialogue) -> dict[str, Any]:
    """A dialogue of a corpus as a chat record in the nested form."""
    party = dialogue.parties[0]
    record: dict[str, Any] = {
        "id": dialogue.id,
        "turns": [{"speaker": t.agent, "text": t.text, "action": t.action} for t in dialogue.turns],
    }
    if party.items:
        record["items"] = {i.name: i.count for i in party.items}
    if party.listing is not None and party.listing.price is not None:
        record["listing_price"] = party.listing.price
    roles = {a: p.role for a, p in enumerate(dialogue.parties) if p.role}
    if roles:
        record["roles"] = roles
    return record


def _dialogues(path: Path, first: int, end: int | None, limit: int | None) -> Iterator[Dialogue]:
    """The dialogues ``first`` to ``end`` of a file, at most ``limit`` of them."""
    stop = end if limit is None else first + limit if end is None else min(end, first + limit)
    for k, record in enumerate(read_records(path)):
        if stop is not None and k >= stop:
            return
        if k >= first:
            yield record.dialogue()


def _final(corpus: str, dialogue: Dialogue) -> tuple[ItemSplit | None, int | None]:
    """The final split and the turn of the formal action, as the corpus' evaluator finds them."""
    if corpus == "dealornodeal":
        formal = next((t.index for t in dialogue.turns if t.action == "select"), None)
        return final_split(dialogue), formal
    deal = final_deal(dialogue)
    return (deal[1], deal[0].index) if deal is not None else (None, None)


@dataclass
class Row:
    """The figures of one file."""

    corpus: str
    file: str
    part: str
    #: Which dialogues of the file ("" for all of them, else "first-end").
    span: str = ""
    dialogues: int = 0
    messages: int = 0
    same_price: int = 0
    same_coarse: int = 0
    confusion: Counter[tuple[str, str]] = field(default_factory=Counter)
    ours: SplitReport = field(default_factory=SplitReport)
    theirs: SplitReport = field(default_factory=SplitReport)

    def add(self, dialogue: Dialogue, chat: list[Act], own: list[Act]) -> None:
        """Compare the two parsers' acts of one dialogue."""
        self.dialogues += 1
        for turn, a, b in zip(dialogue.turns, chat, own):
            if not turn.is_message:
                continue
            self.messages += 1
            self.same_price += a.price == b.price
            if a.coarse == b.coarse:
                self.same_coarse += 1
            else:
                self.confusion[(str(b.coarse), str(a.coarse))] += 1
        if self.corpus != "craigslist":
            expected, formal = _final(self.corpus, dialogue)
            self.ours.add(dialogue, chat, "", expected, formal)
            self.theirs.add(dialogue, own, "", expected, formal)


def compare(
    data: Path,
    file: tuple[str, str, str, int, int | None],
    limit: int | None,
) -> Row:
    """The figures of one shipped file (or of a range of its dialogues)."""
    corpus, name, part, first, end = file
    chat = pipeline("chat")
    own = pipeline(corpus, CraigslistParser(skip="never") if corpus == "craigslist" else None)
    span = "" if (first, end) == (0, None) else f"{first}-{'' if end is None else end}"
    row = Row(corpus, name, part, span)
    seen: set[Any] = set()
    for dialogue in _dialogues(data / name, first, end, limit):
        if corpus == "dealornodeal":
            key = dialogue_key(dialogue)
            if key in seen:  # each dialogue once, as the corpus' evaluator counts it
                continue
            seen.add(key)
        as_chat = dialogue_from_record(chat_record(dialogue))
        row.add(dialogue, chat.parse(as_chat), own.parse(dialogue))
    return row


def _name(row: Row) -> str:
    """The file's name, with the range of its dialogues when the row has only some."""
    name = Path(row.file).name
    return f"{name} [{row.span}]" if row.span else name


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def table(rows: list[Row]) -> str:
    """The markdown table of the figures, then the disagreements of each file."""
    lines = [
        "| corpus | file | part | dialogues | message turns | same price | "
        "final split: chat | final split: corpus parser | same coarse act |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        split = r.corpus != "craigslist"
        ours = _pct(r.ours.correct, r.ours.agreed) if split else "-"
        theirs = _pct(r.theirs.correct, r.theirs.agreed) if split else "-"
        lines.append(
            f"| {r.corpus} | {_name(r)} | {r.part} | {r.dialogues} | {r.messages} | "
            f"{_pct(r.same_price, r.messages)} | {ours} | {theirs} | "
            f"{_pct(r.same_coarse, r.messages)} |"
        )
    lines.append("")
    for r in rows:
        top = ", ".join(
            f"{b}->{a} {_pct(n, r.messages)}" for (b, a), n in r.confusion.most_common(6)
        )
        lines.append(f"- {r.corpus} {_name(r)}: coarse disagreements (corpus->chat): {top}")
    return "\n".join(lines)


def main() -> None:
    """Run the comparison over the shipped files and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="the shared data folder")
    parser.add_argument("--limit", type=int, default=None, help="dialogues per file (all)")
    parser.add_argument("--part", choices=("dev", "held-out", "all"), default="all")
    args = parser.parse_args()
    rows = []
    for file in FILES:
        if args.part != "all" and file[2] != args.part:
            continue
        start = time.perf_counter()
        rows.append(compare(args.data, file, args.limit))
        print(f"{_name(rows[-1])}: {time.perf_counter() - start:.0f}s", flush=True)
    print(table(rows))


if __name__ == "__main__":
    main()
