"""Issue 28, the report draws the input as markup: every label from the input is text.

Plotly reads a subset of HTML in labels (``<a href>``, ``<b>``, ``<span style>``,
``<br>``): a reference intent ``<a href="https://evil.example/phish">extlink</a>`` became a
live link in the confusion chart. Every string from the input that a chart shows (reference
intents, strategy labels, file names, corpus titles, act names) now reaches plotly with
``&``, ``<`` and ``>`` as entities, which plotly draws as the characters typed (the
browser test in ``tests/html_report`` checks what Chromium shows). Script injection into
the page stays blocked.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from corpus_fixtures import CorpusFixtures

pytest.importorskip("plotly", reason="the report needs the 'report' extra (plotly)")

from actparse.html_report import charts as charts_module
from actparse.html_report import render_report
from actparse.html_report.charts import charts, plain
from actparse.html_report.collect import collect_input

LINK = '<a href="https://evil.example/phish">extlink</a>'
MARKUP = (LINK, "<b>bold</b>", '<span style="color:red">styled</span>', "one<br>two", "a & b")
MARKUP_FILE = '<b>named<br><span style="color:red">.jsonl'
MARKUP_TITLE = "<i>Craigslist</i> & <sup>co</sup>"


def _inputs(fixtures: CorpusFixtures, folder: Path) -> list[Path]:
    lines = (fixtures / "craigslist_validation_20.jsonl").read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first["dialogue_acts"]["intent"][: len(MARKUP)] = list(MARKUP)
    craigslist = folder / MARKUP_FILE
    craigslist.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n", encoding="utf-8")
    dialogues = json.loads((fixtures / "casino_20.json").read_text(encoding="utf-8"))
    annotated = next(d for d in dialogues if d["annotations"])
    for k, label in enumerate(MARKUP):
        annotated["annotations"][k][1] = label
    casino = folder / "casino_markup.json"
    casino.write_text(json.dumps(dialogues), encoding="utf-8")
    return [craigslist, casino]


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


@pytest.fixture
def drawn(
    fixtures: CorpusFixtures, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> list[dict[str, Any]]:
    """The plotly JSON of every chart of the hostile inputs (a corpus title too)."""
    figures: list[dict[str, Any]] = []
    monkeypatch.setattr(
        charts_module, "_div", lambda figure, _id: figures.append(figure.to_plotly_json()) or ""
    )
    inputs = [collect_input(p) for p in _inputs(fixtures, tmp_path)]
    inputs[0] = replace(inputs[0], title=MARKUP_TITLE)
    charts(inputs)
    return figures


def _labels(figures: list[dict[str, Any]]) -> list[str]:
    """Every string of the charts' traces that comes from the data (not our templates)."""
    out: list[str] = []
    for figure in figures:
        for trace in figure["data"]:
            for key in ("name", "x", "y", "text"):
                out += list(_strings(trace.get(key)))
    return out


def test_no_label_from_the_input_reaches_plotly_as_markup(drawn: list[dict[str, Any]]) -> None:
    labels = _labels(drawn)
    assert labels
    assert not [label for label in labels if "<" in label or ">" in label]
    assert not [
        label
        for label in labels
        if "&" in label.replace("&amp;", "").replace("&lt;", "").replace("&gt;", "")
    ]


@pytest.mark.parametrize("label", MARKUP)
def test_each_reference_intent_and_strategy_label_is_there_escaped(
    drawn: list[dict[str, Any]], label: str
) -> None:
    labels = _labels(drawn)
    assert labels.count(plain(label)) >= 2  # the confusion chart's rows, the strategies'


def test_the_file_name_and_the_corpus_title_are_escaped_in_the_legend(
    drawn: list[dict[str, Any]],
) -> None:
    names = [t.get("name") for f in drawn for t in f["data"] if t.get("name")]
    assert f"{plain(MARKUP_TITLE)} · {plain(MARKUP_FILE)}" in names


def test_plain_escapes_exactly_the_three_characters() -> None:
    assert plain('<a href="x">&amp;</a>') == '&lt;a href="x"&gt;&amp;amp;&lt;/a&gt;'
    assert plain("no markup, 100% 'plain'") == "no markup, 100% 'plain'"


def test_the_page_holds_no_markup_from_the_input_and_no_script_injection(
    fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    """Script injection stays blocked: the page holds no tag from the input as is."""
    page = render_report(_inputs(fixtures, tmp_path))
    for label in (*MARKUP[:4], MARKUP_FILE):
        assert label not in page
    assert "evil.example" in page  # shown, as text
    assert page.count("<script") == page.count("</script>")
