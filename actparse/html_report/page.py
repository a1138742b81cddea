"""The report page: one HTML file that opens from disk with no server.

The file holds its styles, its script, plotly.js (once) and the data, and makes no request."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from html import escape
from importlib.resources import files

from actparse.html_report.browser import browser_data
from actparse.html_report.charts import Chart, charts, plotly_js
from actparse.html_report.collect import InputData
from actparse.reports import Table, format_figure

__all__ = ["render_page"]

_SECTIONS = (
    (
        "distribution",
        "Coarse acts side by side",
        "The share of each input's acts that are "
        "each coarse act (rules/acts.yaml): one inventory for every corpus.",
    ),
    (
        "transitions",
        "Which act follows which",
        "For each act, the share of the next turn's "
        "acts in the same dialogue (rows add up to 100%).",
    ),
    (
        "confusion",
        "Our intents against the reference",
        "Messages by reference intent (rows) "
        "and our intent (columns), as the evaluator counts them.",
    ),
    (
        "strategies",
        "Strategy labels against our acts",
        "For each strategy label of the annotated utterances, the share that get each coarse act.",
    ),
)


def _asset(name: str) -> str:
    return files("actparse.html_report").joinpath("assets", name).read_text(encoding="utf-8")


def _table(table: Table) -> str:
    head = "".join(f"<th>{escape(c)}</th>" for c in table.columns)
    rows = "".join(
        "<tr>" + "".join(f"<td>{escape(v)}</td>" for v in row) + "</tr>" for row in table.rows
    )
    note = f"<p class='note'>{escape(table.note)}</p>" if table.note else ""
    return (
        f"<details><summary>{escape(table.title)}</summary>{note}"
        f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></details>"
    )


def _overview(k: int, data: InputData) -> str:
    turns = sum(len(d.acts) for d in data.dialogues)
    with_act = sum(1 for d in data.dialogues for a in d.acts if a.intent is not None)
    facts = [
        ("corpus", data.title),
        ("dialogues", f"{len(data.dialogues):,}"),
        ("turns", f"{turns:,}"),
        ("turns with an act", f"{with_act:,}"),
    ]
    tables = ""
    if data.report is not None:
        report = data.report
        facts.append((report.headline, format_figure(report.headline, report.headline_value())))
        facts.append(("dialogues the evaluator reports as misses", f"{len(data.misses):,}"))
        tables = "".join(_table(t) for t in report.tables())
    else:
        facts.append(("evaluation", f"none: {data.no_evaluation}"))
    rows = "".join(f"<tr><th>{escape(n)}</th><td>{escape(v)}</td></tr>" for n, v in facts)
    return (
        f"<section class='card' data-input='{k}'><h3>{escape(data.name)}</h3>"
        f"<p class='path'>{escape(data.path)}</p><table class='facts'>{rows}</table>"
        f"{tables}</section>"
    )


def _chart_sections(drawn: Sequence[Chart]) -> str:
    out = []
    for section, title, note in _SECTIONS:
        here = [c for c in drawn if c.section == section]
        if not here:
            continue
        boxes = "".join(
            f"<figure class='chart chart-{section}'><figcaption>{escape(c.title)}</figcaption>"
            f"{c.html}</figure>"
            for c in here
        )
        out.append(
            f"<section id='{section}'><h2>{escape(title)}</h2><p class='note'>{escape(note)}</p>"
            f"<div class='charts'>{boxes}</div></section>"
        )
    return "".join(out)


#: A lone surrogate: a message may hold one (``label`` keeps it), no UTF-8 page can.
_SURROGATE = re.compile("[\ud800-\udfff]")


def _script_json(value: object) -> str:
    # Inside <script>, "</script" closes the element early and "<!--" followed by
    # "<script" changes how the rest is parsed; "<" only ever stands inside a JSON string,
    # where \u003c is the same character. So does a lone surrogate, whose escape reads
    # back as the same string and can be written as UTF-8.
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _distinct_names(inputs: Sequence[InputData]) -> list[InputData]:
    """``inputs`` named so that no two share a legend entry or a filter choice.

    ``inputs``, those whose file names recur named by their paths (and a file given
    twice by its place too), so that no two share a legend entry or a filter choice."""
    names = Counter(d.name for d in inputs)
    out = [replace(d, name=d.path) if names[d.name] > 1 else d for d in inputs]
    paths = Counter(d.name for d in out)
    return [
        replace(d, name=f"{d.name} (input {k + 1})") if paths[d.name] > 1 else d
        for k, d in enumerate(out)
    ]


def render_page(inputs: Sequence[InputData], title: str = "actparse report") -> str:
    """The whole report as one HTML document."""
    inputs = _distinct_names(inputs)
    meta = {
        "inputs": [
            {"name": d.name, "title": d.title, "evaluated": d.report is not None} for d in inputs
        ],
    }
    parts = {
        "title": escape(title),
        "style": _asset("report.css"),
        "plotly": plotly_js(),
        "overview": "".join(_overview(k, d) for k, d in enumerate(inputs)),
        "charts": _chart_sections(charts(inputs)),
        "meta": _script_json(meta),
        "data": _script_json(browser_data(inputs)),
        "script": _asset("report.js"),
    }
    # One pass: a value put in (a dialogue's text) is never read again as a marker.
    return re.sub(r"<!--@(\w+)-->", lambda m: parts[m.group(1)], _asset("page.html"))
