"""``datasets.map(actparse.turns_batch, batched=True)`` for every corpus: typed features
(never an untyped column), and the rows of the per-turn table for each input row.

Cocoa transcripts are left out: their events' ``data`` mixes text and objects, which
one Arrow column cannot hold, so they do not load as a ``datasets.Dataset``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from corpus_fixtures import CorpusFixtures

import actparse

datasets = pytest.importorskip("datasets", reason="needs the datasets package (actparse[test])")

#: One fixture per corpus, in the layout its HuggingFace dataset has.
LAYOUTS = {
    "craigslist": "craigslist_validation_20.jsonl",
    "dealornodeal": "dealornodeal_val_20.txt",
    "casino": "casino_20.json",
    "mutualfriends": "mutualfriends_card_sample.jsonl",
}


def _dataset(path: Path) -> Any:
    datasets.disable_progress_bars()
    return datasets.Dataset.from_list([r.raw for r in actparse.read_records(path)])


@pytest.mark.parametrize("corpus", sorted(LAYOUTS))
def test_turns_batch_is_typed_and_gives_each_rows_table(
    fixtures: CorpusFixtures, corpus: str
) -> None:
    dataset = _dataset(fixtures / LAYOUTS[corpus])
    features = actparse.turn_features(dataset.features)
    mapped = dataset.map(
        actparse.turns_batch, batched=True, batch_size=7, with_indices=True, features=features
    )
    assert mapped.features == features
    assert mapped.features["turns"] == actparse.turn_features()["turns"]
    assert mapped.column_names == [*dataset.column_names, "turns"]
    assert len(mapped) == len(dataset)  # one output row per input row, both views included
    for index, (raw, turns) in enumerate(zip(dataset, mapped["turns"])):
        # Alone, at its index: the id is its own, else that index.
        assert turns == list(actparse.iter_turn_rows([raw], start=index))
        assert {t["corpus"] for t in turns} == {corpus}


def test_splits_come_out_as_typed_lists(fixtures: CorpusFixtures) -> None:
    dataset = _dataset(fixtures / LAYOUTS["dealornodeal"])
    mapped = dataset.map(
        actparse.turns_batch,
        batched=True,
        with_indices=True,
        features=actparse.turn_features(dataset.features),
    )
    pa = pytest.importorskip("pyarrow")
    split = mapped.with_format("arrow")["turns"].type.value_type.field("split").type
    assert pa.types.is_list(split)
    assert split.value_type == pa.struct(
        [("item", pa.string()), ("agent_0", pa.int64()), ("agent_1", pa.int64())]
    )
    first = next(t for turns in mapped["turns"] for t in turns if t["split"])
    assert first["split"][0] == {"item": "book", "agent_0": 1, "agent_1": 0}


def test_without_indices_a_row_without_an_id_is_refused(fixtures: CorpusFixtures) -> None:
    """Its place in the batch would be its id, the same in every batch (``batch:1`` was):
    the message says how to pass the indices."""
    records = [r.raw for r in actparse.read_records(fixtures / LAYOUTS["craigslist"])][:2]
    batch = {key: [r[key] for r in records] for key in records[0]}
    with pytest.raises(actparse.InputError) as refused:
        actparse.turns_batch(batch)
    message = str(refused.value)
    assert message.startswith("turns_batch: row 1 of the batch has no dialogue id of its own")
    assert "Dataset.map(actparse.turns_batch, batched=True, with_indices=True," in message
    dataset = datasets.Dataset.from_list(records)
    with pytest.raises(actparse.InputError, match=r"with_indices=True"):
        dataset.map(actparse.turns_batch, batched=True)
    turns = actparse.turns_batch(batch, [7, 8])["turns"]
    assert [t[0]["dialogue_id"] for t in turns] == ["7", "8"]


def test_without_indices_a_row_with_its_own_id_keeps_it(fixtures: CorpusFixtures) -> None:
    records = [r.raw for r in actparse.read_records(fixtures / LAYOUTS["casino"])][:2]
    batch = {key: [r[key] for r in records] for key in records[0]}
    turns = actparse.turns_batch(batch)["turns"]
    assert [t[0]["dialogue_id"] for t in turns] == [str(r["dialogue_id"]) for r in records]


def test_label_batch_points_to_turns_batch_for_other_formats(fixtures: CorpusFixtures) -> None:
    records = [r.raw for r in actparse.read_records(fixtures / LAYOUTS["casino"])][:2]
    batch = {key: [r[key] for r in records] for key in records[0]}
    with pytest.raises(actparse.InputError, match="turns_batch labels every format"):
        actparse.label_batch(batch)


def test_turns_batch_without_batched_names_itself(fixtures: CorpusFixtures) -> None:
    """``map`` without ``batched=True`` hands over one record; the error names the function
    called (it used to name label_batch whichever was used)."""
    dataset = _dataset(fixtures / LAYOUTS["casino"]).select(range(2))
    with pytest.raises(actparse.InputError, match=r"^turns_batch: .*map\(actparse\.turns_batch"):
        dataset.map(actparse.turns_batch)
    with pytest.raises(actparse.InputError, match=r"^turns_batch takes an object of columns"):
        actparse.turns_batch([])  # type: ignore[arg-type]
