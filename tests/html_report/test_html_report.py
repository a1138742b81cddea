"""The HTML report without a browser: one file with everything inline, the evaluator's
figures and misses where the input has a reference, a clear error without the extra."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest
from corpus_fixtures import CorpusFixtures
from typer.testing import CliRunner

pytest.importorskip("plotly", reason="the report needs the 'report' extra (plotly)")

from actparse import evaluate_path
from actparse.cli import app
from actparse.html_report import collect_input, render_report, write_report
from actparse.html_report.charts import plotly_js

INPUTS = ("casino_20.json", "dealornodeal_val_20.txt", "craigslist_validation_20.jsonl")


def _data(page: str) -> list[dict[str, object]]:
    found = re.search(r'<script id="report-data" type="application/json">(.*?)</script>', page)
    assert found is not None
    data: list[dict[str, object]] = json.loads(found.group(1))
    return data


def test_the_page_holds_everything_inline(fixtures: CorpusFixtures) -> None:
    page = render_report([fixtures / name for name in INPUTS])
    # No script, style or image from anywhere else: the file opens offline. (plotly.js
    # holds addresses in its strings: the markup outside the scripts is what loads.)
    markup = re.sub(r"<script[^>]*>.*?</script>", "", page, flags=re.DOTALL)
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", markup)
    assert "<link" not in markup and "<iframe" not in markup
    assert page.count("Plotly.newPlot") >= 1 + len(INPUTS)  # distribution + transitions
    assert page.count(plotly_js()[:500]) == 1  # plotly.js itself, once
    corpora = {d["input"] for d in _data(page)}
    assert corpora == {0, 1, 2}


def test_the_overview_has_the_evaluators_figures(fixtures: CorpusFixtures) -> None:
    page = render_report([fixtures / name for name in INPUTS])
    for name in INPUTS:
        report = evaluate_path(fixtures / name)
        assert report.headline in page
        for table in report.tables():
            assert table.title in page


def test_every_miss_of_the_evaluator_marks_one_dialogue(
    fixtures: CorpusFixtures, casino_with_a_miss: Path
) -> None:
    for path in [*(fixtures / name for name in INPUTS), casino_with_a_miss]:
        data = collect_input(path)
        misses = {m.where for m in evaluate_path(path).misses()}
        marked = {m.where for d in data.dialogues if (m := data.miss_of(d)) is not None}
        assert marked == misses
    assert collect_input(casino_with_a_miss).misses, "the copy has a miss to show"


def test_each_dealornodeal_dialogue_shows_once(fixtures: CorpusFixtures) -> None:
    data = collect_input(fixtures / "dealornodeal_val_20.txt")
    assert (
        len(data.dialogues)
        == evaluate_path(fixtures / "dealornodeal_val_20.txt").summary()["dialogues"]
    )


def test_an_input_without_reference_gets_acts_and_says_why(
    fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    lines = (fixtures / "craigslist_validation_20.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines]
    for r in records:  # as the test split ships: no reference acts
        n = len(r["dialogue_acts"]["intent"])
        r["dialogue_acts"] = {"intent": [""] * n, "price": [-1.0] * n}
    source = tmp_path / "unlabelled.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records))
    data = collect_input(source)
    assert data.report is None and "nothing to score" in data.no_evaluation
    assert any(a.intent for d in data.dialogues for a in d.acts)
    page = render_report([data])
    assert "nothing to score" in page


def test_prices_are_highlighted_where_they_stand(fixtures: CorpusFixtures) -> None:
    page = render_report([fixtures / "craigslist_validation_20.jsonl"])
    marks = [
        turn[1][s[0] : s[1]]
        for d in _data(page)
        for turn in d["turns"]  # type: ignore[attr-defined]
        for s in turn[6]
        if s[2] == "price"
    ]
    assert marks and all(any(c.isdigit() for c in m) for m in marks)


def test_the_command_writes_one_file(fixtures: CorpusFixtures, tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    result = CliRunner().invoke(
        app, ["report", *(str(fixtures / n) for n in INPUTS), "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert out.stat().st_size > 0 and "wrote" in result.output
    assert [p.name for p in tmp_path.iterdir()] == ["r.html"]  # no temporary left


def test_without_the_extra_one_line_says_what_to_install(
    fixtures: CorpusFixtures, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "plotly", None)  # as if plotly were not installed
    out = tmp_path / "r.html"
    result = CliRunner().invoke(app, ["report", str(fixtures / INPUTS[0]), "-o", str(out)])
    assert result.exit_code == 2
    assert "pip install 'actparse[report]'" in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not out.exists()
    with pytest.raises(ImportError, match=r"actparse\[report\]"):
        write_report([fixtures / INPUTS[0]], out)


def test_labelling_never_imports_the_report() -> None:
    import subprocess

    code = (
        "import sys, actparse, actparse.cli; "
        "actparse.label_record({'agent_turn': [0], 'utterance': ['hi'], "
        "'dialogue_acts': {'intent': [''], 'price': [-1.0]}, "
        "'items': {'Price': [1.0, 1.0], 'Title': ['a', 'a'], 'Description': ['', ''], "
        "'Category': ['', ''], 'Images': ['', '']}, "
        "'agent_info': {'Role': ['buyer', 'seller'], 'Target': [1.0, 1.0], "
        "'Bottomline': ['None', 'None']}}); "
        "print(any(m.startswith(('plotly', 'actparse.html_report')) for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_writers_are_named_as_the_evaluators_misses_name_them(fixtures: CorpusFixtures) -> None:
    page = render_report([fixtures / "dealornodeal_val_20.txt", fixtures / INPUTS[2]])
    writers: dict[object, set[str]] = {}
    for d in _data(page):
        writers.setdefault(d["input"], set()).update(t[0] for t in d["turns"])  # type: ignore[attr-defined]
    assert writers[0] == {"YOU", "THEM"}
    assert writers[1] == {"buyer", "seller"}


HOSTILE = "<!--<script>alert(1)</script> </script><img src=x onerror=alert(2)> & \u2028"


def test_markup_in_a_message_stays_text(fixtures: CorpusFixtures, tmp_path: Path) -> None:
    # A message is data: "</script>" must not end the data element, nor "<!--<script"
    # change how the browser parses the rest of it.
    records = json.loads((fixtures / "casino_20.json").read_text(encoding="utf-8"))
    records[0]["chat_logs"][0]["text"] = HOSTILE
    hostile = tmp_path / "hostile.json"
    hostile.write_text(json.dumps(records), encoding="utf-8")
    page = render_report([hostile])
    data_element = r'<script id="report-(?:meta|data)" type="application/json">(.*?)</script>'
    scripts = re.findall(data_element, page, flags=re.DOTALL)
    assert len(scripts) == 2
    assert all("<" not in body for body in scripts)
    # A turn is a row: writer, text, then its acts and arguments.
    texts = [turn[1] for d in _data(page) for turn in d["turns"]]  # type: ignore[attr-defined]
    assert HOSTILE in texts


def test_the_browser_shows_our_strategies_beside_the_annotators(fixtures: CorpusFixtures) -> None:
    from actparse.html_report.browser import browser_data

    data = collect_input(fixtures / "casino_20.json")
    rows = [turn for d in browser_data([data]) for turn in d["turns"]]
    ours = [turn[5] for turn in rows]
    annotated = [turn[8] for turn in rows]
    acts = [act for d in data.dialogues for act in d.acts]
    assert ours == [list(act.strategies) for act in acts]
    assert any(ours) and any(annotated)


@pytest.mark.parametrize(
    "name", ["mutualfriends_card_sample.jsonl", "mutualfriends_handmade_cocoa.json"]
)
def test_mutualfriends_inputs_get_their_figures(fixtures: CorpusFixtures, name: str) -> None:
    # The MutualFriends evaluator needs its parser's per-turn analysis: the recording
    # parser the report evaluates through must pass it on, not be refused.
    data = collect_input(fixtures / name)
    assert data.report is not None, data.no_evaluation
    assert data.report.summary() == evaluate_path(fixtures / name).summary()
    assert data.dialogues and all(len(d.acts) == len(d.dialogue.turns) for d in data.dialogues)


def test_the_output_is_checked_as_labels_are(fixtures: CorpusFixtures, tmp_path: Path) -> None:
    # The report writes through io.destination like every other output: a link stays a
    # link, the input is never written over, and errors name the output, not a temporary.
    source = tmp_path / "in.jsonl"
    source.write_bytes((fixtures / INPUTS[2]).read_bytes())
    real = tmp_path / "real.html"
    real.write_text("old")
    link = tmp_path / "link.html"
    link.symlink_to(real)
    write_report([source], link)
    assert link.is_symlink() and real.read_text().startswith("<!DOCTYPE html>")
    for output, says in ((source, "is the input file"), (tmp_path, "is a directory")):
        result = CliRunner().invoke(app, ["report", str(source), "-o", str(output)])
        assert result.exit_code == 2
        assert result.output.startswith(f"error: {output}: {says}"), result.output
    assert source.read_bytes() == (fixtures / INPUTS[2]).read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl", "link.html", "real.html"]


def test_a_lone_surrogate_is_shown_not_fatal(fixtures: CorpusFixtures, tmp_path: Path) -> None:
    # label keeps a lone surrogate as its JSON escape; the report had refused the whole
    # input, as no UTF-8 page can hold one.
    dialogues = json.loads((fixtures / INPUTS[0]).read_text(encoding="utf-8"))[:2]
    text = "hi \ud800 there \udcff"
    dialogues[0]["chat_logs"][0]["text"] = text
    source = tmp_path / "surrogate.json"
    source.write_text(json.dumps(dialogues), encoding="utf-8")
    # A file name that is not UTF-8 comes to Python with surrogates too.
    badly_named = tmp_path / os.fsdecode(b"bad\xffname.json")
    badly_named.write_bytes(source.read_bytes())
    out = tmp_path / "r.html"
    write_report([source, badly_named], out)
    page = out.read_text(encoding="utf-8")
    assert text in json.dumps(_data(page), ensure_ascii=False)
    assert "bad\\udcffname.json" in page


def test_highlights_count_as_the_page_script_does(fixtures: CorpusFixtures, tmp_path: Path) -> None:
    # The script slices text by UTF-16 code units: an emoji (two of them) before a price
    # had shifted the mark by one per emoji, marking "$5" or " 5" for "$50".
    record = json.loads((fixtures / INPUTS[2]).read_text(encoding="utf-8").splitlines()[0])
    text = "\U0001f600\U0001f600 ok, i can do $50 for the \U0001f4f1 phone"
    record["utterance"][0] = text
    source = tmp_path / "emoji.jsonl"
    source.write_text(json.dumps(record) + "\n", encoding="utf-8")
    turn = _data(render_report([source]))[0]["turns"][0]  # type: ignore[index]
    units = turn[1].encode("utf-16-le")
    marks = [units[2 * s[0] : 2 * s[1]].decode("utf-16-le") for s in turn[6]]
    assert "50" in marks or "$50" in marks, marks


def test_the_browser_shows_our_strategies_and_the_annotators(fixtures: CorpusFixtures) -> None:
    # Each message turn carries the labels our tagger gave it (CaSiNo's: the rules and
    # the learned lexicon); a turn the annotators labelled carries theirs apart, never
    # in place of ours.
    from actparse.registry import shipped_parser

    tag = shipped_parser("casino").strategies.tag  # type: ignore[attr-defined]
    data = collect_input(fixtures / "casino_20.json")
    page_turns = [t for d in _data(render_report([data])) for t in d["turns"]]  # type: ignore[attr-defined]
    turns = [(t, a) for d in data.dialogues for t, a in zip(d.dialogue.turns, d.acts)]
    assert len(page_turns) == len(turns)
    for shown, (turn, act) in zip(page_turns, turns):
        assert shown[5] == list(act.strategies)
        assert shown[8] == list(turn.labels)
        if turn.is_message and turn.text.strip():
            assert shown[5] == list(tag(turn.text))
    assert any(s[8] and s[8] != s[5] for s in page_turns), "the fixture has annotations"


def test_inputs_of_the_same_file_name_are_told_apart(
    fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    # Two "x.jsonl" from two folders had the same legend entry and the same choice in the
    # browser's input filter; they are named by their paths instead.
    paths = [tmp_path / folder / "x.jsonl" for folder in ("a", "b")]
    for path in paths:
        path.parent.mkdir()
        path.write_bytes((fixtures / INPUTS[2]).read_bytes())
    page = render_report([*paths, fixtures / INPUTS[0]])
    meta = json.loads(re.search(r'id="report-meta"[^>]*>(.*?)</script>', page).group(1))  # type: ignore[union-attr]
    names = [i["name"] for i in meta["inputs"]]
    assert names == [str(paths[0]), str(paths[1]), INPUTS[0]]
    twice = render_report([paths[0], paths[0]])
    meta = json.loads(re.search(r'id="report-meta"[^>]*>(.*?)</script>', twice).group(1))  # type: ignore[union-attr]
    assert len({i["name"] for i in meta["inputs"]}) == 2
