"""The chat parser on the golden tables: dialogues unlike any shipped corpus, turn by turn."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from actparse.corpora.chat.reader import dialogue_from_record
from actparse.engine.pipeline import pipeline
from actparse.models import Act

GOLDEN = Path(__file__).with_name("golden.yaml")
DIALOGUES: list[dict[str, Any]] = yaml.safe_load(GOLDEN.read_text())["dialogues"]
_CACHE: dict[str, list[Act]] = {}


def _acts(dialogue: dict[str, Any]) -> list[Act]:
    if dialogue["id"] not in _CACHE:
        record = {k: v for k, v in dialogue.items() if k != "turns"}
        record["turns"] = [
            {"speaker": t["speaker"], "text": t.get("text", ""), "action": t.get("action")}
            for t in dialogue["turns"]
        ]
        _CACHE[dialogue["id"]] = pipeline("chat").parse(dialogue_from_record(record))
    return _CACHE[dialogue["id"]]


def _cases() -> list[Any]:
    cases = []
    for dialogue in DIALOGUES:
        speakers = list(dict.fromkeys(t["speaker"] for t in dialogue["turns"]))
        for k, turn in enumerate(dialogue["turns"]):
            marks = [pytest.mark.xfail(reason=turn["miss"], strict=True)] if "miss" in turn else []
            words = (turn.get("text") or f"<{turn.get('action')}>")[:40]
            ident = f"{dialogue['id']}-{k}-{turn['coarse']}-{words}"
            cases.append(pytest.param(dialogue, k, speakers, id=ident, marks=marks))
    return cases


@pytest.mark.parametrize(("dialogue", "k", "speakers"), _cases())
def test_golden_turn(dialogue: dict[str, Any], k: int, speakers: list[str]) -> None:
    turn = dialogue["turns"][k]
    act = _acts(dialogue)[k]
    got: dict[str, Any] = {"coarse": act.coarse}
    want: dict[str, Any] = {"coarse": turn["coarse"]}
    if "text" in turn:
        got["price"] = act.price
        want["price"] = turn.get("price")
        split = act.split.to_dict() if act.split is not None else None
        got["split"] = (
            None if split is None else {speakers[int(a)]: counts for a, counts in split.items()}
        )
        want["split"] = turn.get("split")
    assert got == want
