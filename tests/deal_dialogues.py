"""Two made-up dialogues whose deal goes through every move, for the tests of what the
outputs show of it (the per-turn table, the labelled records, the report's browser).

Written for these tests, not taken from a corpus. The Deal or No Deal one proposes,
refuses, restates, agrees, confirms, and puts a refused deal back on the table; the CaSiNo one
supersedes a proposal with a counter the other side agrees to.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

#: Deal or No Deal, in the original text layout: one book, two hats, two balls.
DOND_TURNS = (
    "YOU: i want the book and the hats , you get the balls",
    "THEM: no way",
    "THEM: you can have the hats if i get the book and the balls",
    "THEM: so i get the book and the balls , you get the hats",
    "YOU: i can give you 1",
    "THEM: no",
    "YOU: i take the hats , you get the book and the balls",
    "THEM: deal",
)
DOND_LINE = (
    "<input> 1 4 2 1 2 2 </input> <dialogue> "
    + " <eos> ".join(DOND_TURNS)
    + " <eos> YOU: <selection> </dialogue> <output> item0=0 item1=2 item2=0 item0=1 "
    "item1=0 item2=2 </output> <partner_input> 1 6 2 0 2 2 </partner_input>"
)
#: Each turn's (deal_move, deal_proposal, deal_standing, proposal_status, split_uncertain).
DOND_DEAL = [
    ("propose", 0, 0, "refused", []),
    ("refuse", 0, None, None, []),
    ("propose", 2, 2, "agreed", []),
    ("restate", 2, 2, None, []),
    ("propose", 4, 4, "refused", ["item-assumed"]),
    ("refuse", 4, 2, None, ["restored-after-refusal"]),
    ("agree", 2, 2, None, []),
    ("confirm", 2, 2, None, []),  # THEM's "deal" to its own proposal: no agreement
    (None, None, None, None, []),  # the selection: a formal action, no move
]
#: The browser's line for each turn's deal (its proposal's end where it proposes).
DOND_SHOWN = [
    "proposes #0 (refused)",
    "refuses #0",
    "proposes #2 (agreed)",
    "restates #2",
    "proposes #4 (refused)",
    "refuses #4",
    "agrees to #2",
    "confirms #2",
    "",
]

_CASINO_TEXTS = (
    "Hi! I need food for my kids.",
    "Hello, firewood is what I need most.",
    "How about I take all the food and 2 water, you get all the firewood and 1 water?",
    "I would like 2 water too.",
    "I can give you 1 more water then, so you get 2 water and all the firewood.",
    "Ok that works for me",
)
#: Each turn's deal columns, as :data:`DOND_DEAL`.
CASINO_DEAL = [
    (None, None, None, None, []),
    (None, None, None, None, []),
    ("propose", 2, 2, "superseded", []),
    ("propose", 3, 3, "agreed", []),
    ("agree", 3, 3, None, []),
    ("confirm", 3, 3, None, []),  # the proposer's own "ok"
    (None, None, None, None, []),  # Submit-Deal
    (None, None, None, None, []),  # Accept-Deal
]


def _party(high: str, medium: str, low: str) -> dict[str, Any]:
    return {
        "value2issue": {"High": high, "Medium": medium, "Low": low},
        "value2reason": {"High": "", "Medium": "", "Low": ""},
    }


def casino_record() -> dict[str, Any]:
    """The made-up CaSiNo dialogue, in the corpus' own record layout."""
    agents = ("mturk_agent_1", "mturk_agent_2")
    logs: list[dict[str, Any]] = [
        {"text": text, "task_data": {}, "id": agents[k % 2]} for k, text in enumerate(_CASINO_TEXTS)
    ]
    terms = {
        "issue2youget": {"Food": "3", "Water": "1", "Firewood": "0"},
        "issue2theyget": {"Food": "0", "Water": "2", "Firewood": "3"},
    }
    logs.append({"text": "Submit-Deal", "task_data": terms, "id": agents[0]})
    logs.append({"text": "Accept-Deal", "task_data": {"data": "accept_deal"}, "id": agents[1]})
    return {
        "dialogue_id": 7,
        "participant_info": {
            agents[0]: _party("Food", "Water", "Firewood"),
            agents[1]: _party("Firewood", "Water", "Food"),
        },
        "chat_logs": logs,
        "annotations": [],
    }


def write_dond(folder: Path) -> Path:
    """The Deal or No Deal dialogue as a one-line ``.txt`` file in ``folder``."""
    path = folder / "deal.txt"
    path.write_text(DOND_LINE + "\n", encoding="utf-8")
    return path


def write_casino(folder: Path) -> Path:
    """The CaSiNo dialogue as a one-dialogue JSON list in ``folder``."""
    path = folder / "deal.json"
    path.write_text(json.dumps([casino_record()]), encoding="utf-8")
    return path
