"""ConvoKit corpus folders in and out (issue 27): read without ConvoKit, labelled into a NEW
folder whose utterances carry their acts in meta["actparse"], everything else unchanged;
bad folders named by file and line, in stop and keep mode.

The chat parser is a placeholder while these are written: the tests look at structure
(which utterance got an act, what else changed), not at act values."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from corpus_fixtures import FIXTURES
from typer.testing import CliRunner

import actparse
from actparse.cli import app
from actparse.errors import InputError
from actparse.io.batch import label_path
from actparse.io.destination import OutputError
from actparse.io.records import read_records
from actparse.io.turn_files import label_table, read_turn_table

CORPUS = FIXTURES / "convokit_corpus"
ACT_KEYS = {"intent", "coarse", "price", "split", "strategies", "no_act"}
#: Keys an act has only when it applies: a split's doubts, a move on the deal.
OPTIONAL_KEYS = {"split_uncertain", "deal"}


def _lines(folder: Path) -> list[dict]:
    text = (folder / "utterances.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A copy of the fixture folder, to spoil."""
    return Path(shutil.copytree(CORPUS, tmp_path / "corpus"))


# -- reading ------------------------------------------------------------------------------


def test_conversations_are_dialogues_in_order_of_first_appearance() -> None:
    records = list(read_records(CORPUS))
    assert [r.raw["id"] for r in records] == ["bike", "trade", "salary"]
    assert [r.line for r in records] == [1, 3, 7]  # each where its first utterance is
    assert {r.format for r in records} == {"convokit"}
    assert records[0].where.endswith("convokit_corpus/utterances.jsonl:1")


def test_utterances_go_by_timestamp_then_file_order() -> None:
    bike, _trade, salary = (r.raw for r in read_records(CORPUS))
    # bike-4 comes before bike-3 in the file; its timestamp is later
    assert [t["id"] for t in bike["turns"]] == ["bike-1", "bike-2", "bike-3", "bike-4", "bike-5"]
    # salary-2 and salary-3 share a timestamp: file order
    assert [t["id"] for t in salary["turns"]] == ["salary-1", "salary-2", "salary-3"]
    assert bike["actparse_lines"] == [1, 2, 5, 4, 9]


def test_speakers_are_the_parties_and_conversation_meta_is_the_context() -> None:
    records = list(read_records(CORPUS))
    bike, trade, salary = (r.dialogue() for r in records)
    assert bike.outcome == {"speakers": ["sam", "lee"]}
    assert [p.role for p in bike.parties] == ["buyer", "seller"]
    assert bike.parties[0].listing is not None and bike.parties[0].listing.price == 200
    assert [(i.name, i.count) for i in trade.parties[0].items] == [
        ("book", 3),
        ("hat", 2),
        ("ball", 1),
    ]
    assert salary.parties[0].listing is None and salary.parties[0].items == ()
    assert "topic" not in records[2].raw  # other conversation meta is left alone
    assert trade.turns[0].text.startswith("I'd like the books")


# -- writing ------------------------------------------------------------------------------


def test_label_writes_a_new_folder_with_acts_in_utterance_meta(tmp_path: Path) -> None:
    out = tmp_path / "labelled"
    summary = label_path(CORPUS, out)
    assert summary.records == 3 and summary.errors == 0
    before, after = _lines(CORPUS), _lines(out)
    assert [u["id"] for u in after] == [u["id"] for u in before]  # file order kept
    for old, new in zip(before, after):
        acts = new["meta"].pop("actparse")
        assert ACT_KEYS <= set(acts) <= ACT_KEYS | OPTIONAL_KEYS
        assert new == old  # every other field unchanged
    assert "actparse" not in _lines(CORPUS)[0]["meta"]  # the input is untouched


def test_every_other_file_is_copied_and_the_index_learns_the_new_key(tmp_path: Path) -> None:
    out = tmp_path / "labelled"
    label_path(CORPUS, out)
    names = {p.name for p in CORPUS.iterdir()}
    assert {p.name for p in out.iterdir()} == names
    for name in names - {"utterances.jsonl", "index.json"}:
        assert (out / name).read_bytes() == (CORPUS / name).read_bytes(), name
    old = json.loads((CORPUS / "index.json").read_text())
    new = json.loads((out / "index.json").read_text())
    assert new["utterances-index"].pop("actparse") == ["<class 'dict'>"]
    assert new == old


def test_an_index_in_convokit_2_style_gets_the_key_in_that_style(
    corpus: Path, tmp_path: Path
) -> None:
    index = json.loads((corpus / "index.json").read_text())
    for part in index.values():
        if isinstance(part, dict):
            for key, types in part.items():
                part[key] = types[0]
    (corpus / "index.json").write_text(json.dumps(index))
    label_path(corpus, tmp_path / "out")
    new = json.loads((tmp_path / "out" / "index.json").read_text())
    assert new["utterances-index"]["actparse"] == "<class 'dict'>"


def test_the_cli_labels_a_folder_into_a_folder(tmp_path: Path) -> None:
    out = tmp_path / "labelled"
    result = CliRunner().invoke(app, ["label", str(CORPUS), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "labelled 3 dialogues" in result.output
    assert all("actparse" in u["meta"] for u in _lines(out))


@pytest.mark.parametrize("output", [None, "-"], ids=["no-output", "dash"])
def test_a_folder_is_not_labelled_to_standard_output(output: str | None) -> None:
    """The docs say -o DIR is needed; it wrote nested JSON lines to standard output."""
    result = CliRunner().invoke(app, ["label", str(CORPUS), *(["-o", output] if output else [])])
    assert result.exit_code == 2
    assert "a corpus folder is labelled into a new folder: give it with -o DIR" in result.output
    assert result.stdout == ""


@pytest.mark.parametrize("where", ["input", "inside", "full", "file"])
def test_the_output_must_be_a_new_folder(corpus: Path, tmp_path: Path, where: str) -> None:
    out = {
        "input": corpus,
        "inside": corpus / "labelled",
        "full": tmp_path / "full",
        "file": tmp_path / "file.txt",
    }[where]
    if where == "full":
        out.mkdir()
        (out / "x").write_text("kept")
    if where == "file":
        out.write_text("kept")
    before = sorted(p.name for p in corpus.iterdir())
    with pytest.raises(OutputError):
        label_path(corpus, out)
    assert sorted(p.name for p in corpus.iterdir()) == before
    if where in ("full", "file"):
        assert (out / "x" if where == "full" else out).read_text() == "kept"


def test_an_empty_folder_is_a_fine_output(tmp_path: Path) -> None:
    out = tmp_path / "empty"
    out.mkdir()
    label_path(CORPUS, out)
    assert (out / "utterances.jsonl").is_file()
    assert not list(tmp_path.glob(".*.part"))  # no temporary left


def test_per_turn_table_of_a_folder(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    out = tmp_path / "turns.parquet"
    counts = label_table(CORPUS, out)
    assert (counts.turns, counts.dialogues) == (11, 3)
    rows = list(read_turn_table(out))
    assert [r["dialogue_id"] for r in rows[:5]] == ["bike"] * 5
    assert rows[2]["text"] == "Would you take $150 for it?"


# -- bad folders --------------------------------------------------------------------------


def _spoil_line(corpus: Path, number: int, text: str) -> None:
    lines = (corpus / "utterances.jsonl").read_text().splitlines(keepends=True)
    lines[number - 1] = text + "\n"
    (corpus / "utterances.jsonl").write_text("".join(lines))


def test_a_folder_without_utterances_is_an_error_naming_it(corpus: Path, tmp_path: Path) -> None:
    (corpus / "utterances.jsonl").unlink()
    for on_error in ("stop", "keep"):
        with pytest.raises(InputError, match=r"corpus: .*needs utterances\.jsonl"):
            label_path(corpus, tmp_path / f"out-{on_error}", on_error=on_error)
        assert not (tmp_path / f"out-{on_error}").exists()


def test_a_line_that_is_not_json_stops_naming_file_and_line(corpus: Path, tmp_path: Path) -> None:
    _spoil_line(corpus, 4, '{"id": "bike-4", oops')
    with pytest.raises(InputError, match=r"utterances\.jsonl:4: not valid JSON"):
        label_path(corpus, tmp_path / "out")
    with pytest.raises(InputError, match=r"utterances\.jsonl:4: not valid JSON"):
        list(read_records(corpus))
    assert not (tmp_path / "out").exists()


def test_a_line_that_is_not_json_is_kept_as_it_was_in_keep_mode(
    corpus: Path, tmp_path: Path
) -> None:
    _spoil_line(corpus, 4, '{"id": "bike-4", oops')
    out = tmp_path / "out"
    summary = label_path(corpus, out, on_error="keep")
    assert (summary.records, summary.errors) == (4, 1)  # 3 conversations and the bad line
    lines = (out / "utterances.jsonl").read_text().splitlines()
    assert len(lines) == 11 and lines[3] == '{"id": "bike-4", oops'  # nothing lost
    labelled = [json.loads(line) for k, line in enumerate(lines) if k != 3]
    assert all("actparse" in u["meta"] for u in labelled)


def test_an_unknown_conversation_stops_naming_file_and_line(corpus: Path, tmp_path: Path) -> None:
    conversations = json.loads((corpus / "conversations.json").read_text())
    del conversations["trade"]
    (corpus / "conversations.json").write_text(json.dumps(conversations))
    with pytest.raises(InputError, match=r"utterances\.jsonl:3: .*'trade-1'.*'trade'.*does not"):
        label_path(corpus, tmp_path / "out")


def test_an_unknown_conversation_is_kept_with_its_error_in_keep_mode(
    corpus: Path, tmp_path: Path
) -> None:
    conversations = json.loads((corpus / "conversations.json").read_text())
    del conversations["trade"]
    (corpus / "conversations.json").write_text(json.dumps(conversations))
    out = tmp_path / "out"
    summary = label_path(corpus, out, on_error="keep")
    assert (summary.records, summary.errors) == (3, 1)
    after = {u["id"]: u for u in _lines(out)}
    assert len(after) == 11
    for ident in ("trade-1", "trade-2", "trade-3"):
        assert "actparse" not in after[ident]["meta"]
        assert "conversations.json does not list" in after[ident]["meta"]["actparse_error"]
    assert "actparse" in after["bike-1"]["meta"]
    index = json.loads((out / "index.json").read_text())
    assert index["utterances-index"]["actparse_error"] == ["<class 'str'>"]


def test_an_utterance_without_a_conversation_id_names_its_line(
    corpus: Path, tmp_path: Path
) -> None:
    _spoil_line(corpus, 2, json.dumps({"id": "bike-2", "speaker": "lee", "text": "hi"}))
    with pytest.raises(InputError, match=r"utterances\.jsonl:2: .*no 'conversation_id'"):
        list(read_records(corpus))


def test_a_directory_that_is_no_corpus_folder_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(InputError, match="is a directory that no format reads"):
        list(read_records(tmp_path))


# -- review fixes -------------------------------------------------------------------------


def _set_conversations(corpus: Path, data: object) -> None:
    (corpus / "conversations.json").write_text(json.dumps(data))


@pytest.mark.parametrize("meta", [[1, 2], "x", 3])
def test_a_conversation_meta_that_is_not_an_object_stops_naming_file_and_conversation(
    corpus: Path, tmp_path: Path, meta: object
) -> None:
    conversations = json.loads((corpus / "conversations.json").read_text())
    conversations["trade"]["meta"] = meta
    _set_conversations(corpus, conversations)
    pattern = r"conversations\.json: the meta of conversation 'trade' must be an object"
    with pytest.raises(InputError, match=pattern):
        label_path(corpus, tmp_path / "out")
    assert not (tmp_path / "out").exists()
    with pytest.raises(InputError, match=pattern):
        actparse.to_frame(corpus)


@pytest.mark.parametrize("entry", [{"meta": [1, 2]}, {"meta": "x"}, [1, 2], "x"])
def test_a_conversation_meta_that_is_not_an_object_errs_that_conversation_in_keep_mode(
    corpus: Path, tmp_path: Path, entry: object
) -> None:
    conversations = json.loads((corpus / "conversations.json").read_text())
    conversations["trade"] = entry
    _set_conversations(corpus, conversations)
    out = tmp_path / "out"
    summary = label_path(corpus, out, on_error="keep")
    assert (summary.records, summary.errors) == (3, 1)
    after = {u["id"]: u for u in _lines(out)}
    assert len(after) == 11
    for ident in ("trade-1", "trade-2", "trade-3"):
        assert "actparse" not in after[ident]["meta"]
        error = after[ident]["meta"]["actparse_error"]
        assert "conversations.json" in error and "'trade'" in error
    assert all("actparse" in after[i]["meta"] for i in after if not i.startswith("trade"))


@pytest.mark.parametrize("data", [[1, 2], "x"])
def test_conversations_json_that_is_not_an_object_is_an_error_in_both_modes(
    corpus: Path, tmp_path: Path, data: object
) -> None:
    _set_conversations(corpus, data)
    for on_error in ("stop", "keep"):
        with pytest.raises(InputError, match=r"conversations\.json: expected a JSON object"):
            label_path(corpus, tmp_path / on_error, on_error=on_error)


def test_speakers_json_is_not_read(corpus: Path, tmp_path: Path) -> None:
    (corpus / "speakers.json").write_text("[1, 2")  # not even JSON: copied, never read
    label_path(corpus, tmp_path / "out")
    assert (tmp_path / "out" / "speakers.json").read_text() == "[1, 2"


@pytest.mark.parametrize(
    ("text", "pattern"),
    [
        ('{"utterances-index":\n  oops}', r"index\.json:2: not valid JSON"),
        ("[1, 2]", r"index\.json: expected a JSON object"),
        ('{"utterances-index": [1]}', r"index\.json: 'utterances-index' must be an object"),
    ],
)
def test_a_bad_index_is_an_error_before_any_labelling(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, pattern: str
) -> None:
    (corpus / "index.json").write_text(text)
    from actparse.corpora.chat import convokit_folder

    def never(*args: object) -> object:
        raise AssertionError("labelled before the index was checked")

    monkeypatch.setattr(convokit_folder, "conversation_record", never)
    for on_error in ("stop", "keep"):
        with pytest.raises(InputError, match=pattern):
            label_path(corpus, tmp_path / on_error, on_error=on_error)
        assert not (tmp_path / on_error).exists()
    with pytest.raises(InputError, match=pattern):
        list(read_records(corpus))


def _conversation(corpus: Path, stamps: list[object], extra: dict | None = None) -> None:
    """utterances.jsonl: one conversation 'c' of these timestamps (None: no timestamp)."""
    lines = []
    for k, stamp in enumerate(stamps):
        utterance = {"id": f"u{k}", "conversation_id": "c", "speaker": "ab"[k % 2]}
        utterance.update({"text": f"turn {k}", "meta": {}, **(extra or {})})
        if stamp is not None:
            utterance["timestamp"] = stamp
        lines.append(json.dumps(utterance))
    (corpus / "utterances.jsonl").write_text("\n".join(lines) + "\n")
    _set_conversations(corpus, {"c": {"meta": {}}})


@pytest.mark.parametrize(
    ("stamps", "order"),
    [
        (["11", "9", "10"], [1, 2, 0]),  # text that reads as a number compares as one
        ([11, "9", 10.5], [1, 2, 0]),  # numbers and such text together
        ([" 2e1 ", "3", "3"], [1, 2, 0]),  # ties keep file order
        ([3, None, 1], [0, 1, 2]),  # one without a timestamp: file order
        ([3, True, 1], [0, 1, 2]),  # true is no timestamp
        ([3, "soon", 1], [0, 1, 2]),  # nor text that is no number
        (["2020-01-02", "2020-01-01"], [0, 1]),  # nor a date
    ],
)
def test_utterance_order_timestamps_as_numbers_else_file_order(
    corpus: Path, stamps: list[object], order: list[int]
) -> None:
    _conversation(corpus, stamps)
    (record,) = (r.raw for r in read_records(corpus))
    assert [t["id"] for t in record["turns"]] == [f"u{k}" for k in order]
    assert record["actparse_lines"] == [k + 1 for k in order]


def test_timestamp_reads_numbers_only() -> None:
    from actparse.corpora.chat.convokit_folder import timestamp

    assert [timestamp(v) for v in (7, 1.5, "10", " -2 ", "1e3")] == [7, 1.5, 10, -2, 1000.0]
    assert [timestamp(v) for v in (True, False, None, "x", "", "nan", [1], {})] == [None] * 8


def test_an_utterance_meta_that_is_not_an_object_names_its_kind(
    corpus: Path, tmp_path: Path
) -> None:
    utterance = _lines(corpus)[1]
    utterance["meta"] = [1, 2]
    _spoil_line(corpus, 2, json.dumps(utterance))
    with pytest.raises(InputError, match=r"utterances\.jsonl:2: .*meta must be an object, got a"):
        label_path(corpus, tmp_path / "out")
    with pytest.raises(InputError) as caught:
        list(read_records(corpus))
    assert "got an object" not in str(caught.value)


def test_an_utterance_meta_that_is_not_an_object_is_kept_unchanged_in_keep_mode(
    corpus: Path, tmp_path: Path
) -> None:
    utterance = _lines(corpus)[1]
    utterance["meta"] = "x"
    _spoil_line(corpus, 2, json.dumps(utterance))
    before = (corpus / "utterances.jsonl").read_text().splitlines()
    out = tmp_path / "out"
    summary = label_path(corpus, out, on_error="keep")
    assert (summary.records, summary.errors) == (4, 1)  # 3 conversations and the bad line
    after = (out / "utterances.jsonl").read_text().splitlines()
    assert len(after) == 11 and after[1] == before[1]  # byte for byte: nothing lost
    assert all("actparse" in json.loads(t)["meta"] for k, t in enumerate(after) if k != 1)
    (entry,) = (json.loads(t) for t in (out / "actparse_errors.jsonl").read_text().splitlines())
    assert entry["line"] == 2
    assert "utterances.jsonl:2: the utterance's meta must be an object, got a" in entry["error"]


def test_a_line_that_is_not_json_is_named_in_the_errors_file_in_keep_mode(
    corpus: Path, tmp_path: Path
) -> None:
    _spoil_line(corpus, 4, '{"id": "bike-4", oops')
    label_path(corpus, tmp_path / "out", on_error="keep")
    (entry,) = (json.loads(t) for t in (tmp_path / "out" / "actparse_errors.jsonl").open())
    assert entry["line"] == 4 and "not valid JSON" in entry["error"]


def test_an_utterance_line_field_is_kept_and_no_line_number_leaks(
    corpus: Path, tmp_path: Path
) -> None:
    _conversation(corpus, [1, 2, 3], extra={"line": "a line of verse"})
    (record,) = (r.raw for r in read_records(corpus))
    assert [t["line"] for t in record["turns"]] == ["a line of verse"] * 3
    assert all(set(t) == set(json.loads(u)) for t, u in zip(record["turns"], _raw(corpus)))
    out = tmp_path / "out"
    label_path(corpus, out)
    assert [u["line"] for u in _lines(out)] == ["a line of verse"] * 3
    assert all("actparse" in u["meta"] for u in _lines(out))
    frame = actparse.to_frame(corpus)
    assert "actparse_lines" not in frame.columns and "actparse_line" not in frame.columns
    assert list(frame["line"]) == ["a line of verse"] * 3
    (labelled,) = actparse.label_file(corpus)  # the nested form
    assert labelled["actparse_lines"] == [1, 2, 3]  # on the record, under actparse's name
    assert all(t["line"] == "a line of verse" for t in labelled["turns"])
    table = tmp_path / "turns.jsonl"
    label_table(corpus, table)
    rows = [json.loads(t) for t in table.read_text().splitlines() if t.strip()]
    assert len(rows) == 3
    assert all(r["line"] == "a line of verse" and "actparse_lines" not in r for r in rows)


def _raw(corpus: Path) -> list[str]:
    return [t for t in (corpus / "utterances.jsonl").read_text().splitlines() if t.strip()]


def _with_a_long_line(corpus: Path) -> int:
    """Add an utterance line of 5,000 bytes to the copy; its line number."""
    path = corpus / "utterances.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    long = {
        "id": "long-1",
        "conversation_id": "bike",
        "speaker": "sam",
        "reply_to": None,
        "timestamp": 999,
        "text": "x" * 5000,
        "meta": {},
    }
    lines.insert(1, json.dumps(long) + "\n")
    path.write_text("".join(lines), encoding="utf-8")
    return 2


def test_a_line_past_the_bound_stops_naming_it(corpus: Path, tmp_path: Path) -> None:
    number = _with_a_long_line(corpus)
    result = CliRunner().invoke(
        app, ["label", str(corpus), "-o", str(tmp_path / "out"), "--max-line-bytes", "1000"]
    )
    assert result.exit_code == 2
    assert f"utterances.jsonl:{number}: line longer than 1,000 bytes" in result.output


def test_a_line_past_the_bound_is_copied_unread_in_keep_mode(corpus: Path, tmp_path: Path) -> None:
    number = _with_a_long_line(corpus)
    out = tmp_path / "out"
    result = CliRunner().invoke(
        app,
        ["label", str(corpus), "-o", str(out), "--max-line-bytes", "1000", "--on-error", "keep"],
    )
    assert result.exit_code == 0, result.output
    source = (corpus / "utterances.jsonl").read_bytes().splitlines()
    written = (out / "utterances.jsonl").read_bytes().splitlines()
    assert len(written) == len(source) and written[number - 1] == source[number - 1]
    assert sum(b'"actparse"' in line for line in written) == len(source) - 1  # the others
    errors = (out / "actparse_errors.jsonl").read_text(encoding="utf-8")
    assert f'"line": {number}' in errors
