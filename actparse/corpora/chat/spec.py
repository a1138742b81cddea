"""Your own dialogues as the registry knows them: their layouts and how each is detected.

Only this module (and the package's ``__init__``) is imported to know the corpus,
through the ``actparse_corpora`` entry point; the rest is named by dotted path.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from actparse.registry import Corpus, Format

__all__ = [
    "CONVOKIT_FILES",
    "SPEC",
    "explain_turn_row",
    "is_convokit_folder",
    "is_nested",
    "is_turn_row",
    "no_record",
    "row_dialogue",
]

_CHAT = "actparse.corpora.chat"


def is_turn_row(raw: Mapping[str, Any]) -> bool:
    """Whether a record is one row of a turn table (``dialogue_id``, ``speaker``, ``text``).

    A per-turn table actparse wrote (``agent`` for the speaker) is one too.
    """
    return (
        "dialogue_id" in raw
        and "text" in raw
        and ("speaker" in raw or "agent" in raw)
        and "turns" not in raw
    )


def explain_turn_row(raw: Mapping[str, Any]) -> str | None:
    """What a record that looks like a turn table row lacks to be one (``None``: not one).

    A record with some of the columns a turn table needs, and not others: say which.
    """
    if "turns" in raw:
        return None
    needed = {
        "dialogue_id": "dialogue_id" in raw,
        "speaker (or agent)": "speaker" in raw or "agent" in raw,
        "text": "text" in raw,
    }
    missing = [name for name, given in needed.items() if not given]
    if not missing or len(missing) == len(needed):
        return None
    return (
        "a turn table needs the columns dialogue_id, speaker (or agent) and text, one row "
        f"per turn; this one has no {' and no '.join(missing)}"
    )


def is_nested(raw: Mapping[str, Any]) -> bool:
    """Whether a record is one dialogue in the nested form (a list of ``turns``)."""
    return isinstance(raw.get("turns"), list)


def row_dialogue(raw: Mapping[str, Any]) -> Any:
    """The dialogue a row belongs to: its ``dialogue_id``, as text (``7`` and ``"7"`` alike)."""
    return str(raw.get("dialogue_id"))


def no_record(raw: Mapping[str, Any]) -> bool:
    """No single record is a ConvoKit corpus: it is a folder, told by its files."""
    return False


#: The files of a ConvoKit corpus folder; any one of them makes a directory one.
CONVOKIT_FILES = (
    "utterances.jsonl",
    "speakers.json",
    "conversations.json",
    "corpus.json",
    "index.json",
)


def is_convokit_folder(path: Path) -> bool:
    """Whether a directory is a ConvoKit corpus folder: it holds one of its files."""
    return path.is_dir() and any((path / name).is_file() for name in CONVOKIT_FILES)


SPEC = Corpus(
    name="chat",
    title="Chat (your own dialogues)",
    order=50,
    formats=(
        Format(
            name="turns",
            help="your own dialogues, one row per turn (CSV, JSON lines, Parquet)",
            detect=is_turn_row,
            reader=f"{_CHAT}.reader:dialogue_from_record",
            writer=f"{_CHAT}.writer:write_rows",
            row_key=row_dialogue,
            group_rows=f"{_CHAT}.rows:group_rows",
            rows_of=f"{_CHAT}.rows:rows_of",
            explain=explain_turn_row,
        ),
        Format(
            name="nested",
            help="your own dialogues, one per JSON line with a list of turns",
            detect=is_nested,
            reader=f"{_CHAT}.reader:dialogue_from_record",
            writer=f"{_CHAT}.writer:write_nested",
            rows_of=f"{_CHAT}.rows:turn_fields",
        ),
        Format(
            name="convokit",
            help="a ConvoKit corpus folder (utterances.jsonl, ...), labelled into a new one",
            detect=no_record,
            reader=f"{_CHAT}.reader:dialogue_from_record",
            writer=f"{_CHAT}.writer:write_nested",
            folder_detect=is_convokit_folder,
            folder_reader=f"{_CHAT}.convokit_folder:read_folder",
            folder_writer=f"{_CHAT}.convokit_folder:write_folder",
            rows_of=f"{_CHAT}.rows:turn_fields",
        ),
    ),
    parser=f"{_CHAT}.parser:ChatParser",
    evaluator=f"{_CHAT}.evaluate:evaluate_chat",
    headline="coarse_agreement",
    rules="chat",
)
