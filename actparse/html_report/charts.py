"""The report's charts, drawn by plotly.

Each a ``<div>`` whose script calls the plotly.js embedded once in the page (no chart is drawn by
hand).

Shares rather than counts go on the axes, so that corpora of different sizes compare;
the counts are in the hover text. Every string from the input (file names, corpus
titles, reference intents, strategy labels, act names) goes to plotly through
:func:`plain`: plotly reads a subset of HTML in labels (``<a href>``, ``<b>``, ``<span
style>``, ``<br>``), and a label must show as the text it is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import plotly.graph_objects as go
import plotly.io as pio

from actparse.engine.acts import load_act_space
from actparse.html_report.collect import InputData

__all__ = ["Chart", "charts", "plain", "plotly_js"]

#: No link to plotly's site, no editing: the page must make no request.
_CONFIG = {"displaylogo": False, "responsive": True}
_BLUES = "Blues"


@dataclass(frozen=True)
class Chart:
    """One drawn chart: where it goes in the page, its title, and its HTML."""

    section: str
    title: str
    html: str


def plotly_js() -> str:
    """plotly.js itself, to embed once in the page."""
    from plotly.offline import get_plotlyjs

    return str(get_plotlyjs())


def _div(figure: go.Figure, div_id: str) -> str:
    html: str = pio.to_html(
        figure,
        include_plotlyjs=False,
        full_html=False,
        config=_CONFIG,
        div_id=div_id,
        default_height="100%",
        default_width="100%",
    )
    return html


def plain(text: str) -> str:
    """``text`` as plotly shows it literally: ``&``, ``<`` and ``>`` as HTML entities.

    Plotly splits a label at its tags, then turns the entities of the text between them
    back into characters, so an escaped tag is drawn as the characters typed, not obeyed.

    >>> plain('<a href="https://evil.example/phish">extlink</a> & co')
    '&lt;a href="https://evil.example/phish"&gt;extlink&lt;/a&gt; &amp; co'
    """
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _plain_all(texts: Sequence[str]) -> list[str]:
    return [plain(t) for t in texts]


def _label(data: InputData) -> str:
    """The input's name in the page's own text (a figure caption, escaped there)."""
    return f"{data.title} · {data.name}"


def _coarse_order(present: set[str]) -> list[str]:
    """The coarse acts in the act space's order, then any other act found."""
    order = [a for a in load_act_space().names if a in present]
    return order + sorted(present - set(order))


def coarse_counts(data: InputData) -> Counter[str]:
    """How many turns of the input get each coarse act."""
    return Counter(a.coarse for d in data.dialogues for a in d.acts if a.coarse is not None)


def _distribution(inputs: Sequence[InputData]) -> Chart:
    counts = [coarse_counts(data) for data in inputs]
    acts = _coarse_order({a for c in counts for a in c})
    figure = go.Figure()
    for data, count in zip(inputs, counts):
        total = sum(count.values()) or 1
        figure.add_bar(
            name=plain(_label(data)),
            x=_plain_all(acts),
            y=[count[a] / total for a in acts],
            customdata=[count[a] for a in acts],
            hovertemplate="%{x}: %{y:.1%} (%{customdata} turns)<extra>%{fullData.name}</extra>",
        )
    figure.update_layout(
        barmode="group",
        yaxis={"tickformat": ".0%", "title": "share of the input's acts"},
        xaxis={"title": "coarse act"},
        # Above the plot, so that a screenshot of the top of the page names the colours.
        legend={"orientation": "h", "x": 0, "y": 1.02, "yanchor": "bottom"},
        margin={"t": 40, "r": 10},
        height=420,
    )
    return Chart("distribution", "Coarse acts, input by input", _div(figure, "chart-distribution"))


def transitions(data: InputData) -> Counter[tuple[str, str]]:
    """``(act, next act)`` pairs of consecutive turns with acts, within each dialogue."""
    pairs: Counter[tuple[str, str]] = Counter()
    for d in data.dialogues:
        coarse = [a.coarse for a in d.acts if a.coarse is not None]
        pairs.update(pairwise(coarse))
    return pairs


def _heatmap(
    rows: Sequence[str],
    columns: Sequence[str],
    counts: Mapping[str, Mapping[str, float]],
    hover: str,
    div_id: str,
    axes: tuple[str, str],
    shares: bool = False,
) -> str:
    """A heatmap coloured by each row's shares; ``shares``: the values are shares already."""
    z, text, custom = [], [], []
    for row in rows:
        values = [float(counts.get(row, {}).get(c, 0)) for c in columns]
        total = 1.0 if shares else (sum(values) or 1.0)
        z.append([v / total for v in values])
        text.append([f"{v / total:.0%}" if v else "" for v in values])
        custom.append(values)
    figure = go.Figure(
        go.Heatmap(
            z=z,
            x=_plain_all(columns),
            y=_plain_all(rows),
            text=text,
            texttemplate="%{text}",
            customdata=custom,
            colorscale=_BLUES,
            zmin=0,
            zmax=1,
            hovertemplate=hover + "<extra></extra>",
            colorbar={"tickformat": ".0%"},
        )
    )
    figure.update_layout(
        xaxis={"title": axes[0], "side": "bottom"},
        yaxis={"title": axes[1], "autorange": "reversed"},
        margin={"t": 10, "r": 10},
        height=120 + 32 * len(rows),
    )
    return _div(figure, div_id)


def _transition_chart(k: int, data: InputData) -> Chart:
    pairs = transitions(data)
    acts = _coarse_order({a for pair in pairs for a in pair})
    table: dict[str, dict[str, float]] = {}
    for (a, b), n in pairs.items():
        table.setdefault(a, {})[b] = n
    html = _heatmap(
        acts,
        acts,
        table,
        "after %{y}: %{x} %{z:.1%} (%{customdata} times)",
        f"chart-transitions-{k}",
        ("next act", "act"),
    )
    return Chart("transitions", _label(data), html)


def _confusion_chart(k: int, data: InputData, confusion: Mapping[str, Mapping[str, int]]) -> Chart:
    ours = sorted({o for row in confusion.values() for o in row})
    html = _heatmap(
        sorted(confusion),
        ours,
        confusion,
        "reference %{y}, ours %{x}: %{z:.1%} (%{customdata} messages)",
        f"chart-confusion-{k}",
        ("our intent", "reference intent"),
    )
    return Chart("confusion", _label(data), html)


def _strategy_chart(k: int, data: InputData, shares: Mapping[str, Mapping[str, float]]) -> Chart:
    acts = _coarse_order({a for row in shares.values() for a in row})
    html = _heatmap(
        sorted(shares),
        acts,
        shares,
        "%{y}: %{x} %{z:.1%}",
        f"chart-strategies-{k}",
        ("coarse act", "strategy label"),
        shares=True,
    )
    return Chart("strategies", _label(data), html)


def charts(inputs: Sequence[InputData]) -> list[Chart]:
    """Every chart of the report.

    The coarse-act distribution of all inputs side by side, then per input the act-to-act
    transitions, the confusion of intents against the reference (where the evaluator reports one)
    and the strategy labels against the acts (where the evaluator reports them)."""
    out = [_distribution(inputs)]
    out += [_transition_chart(k, data) for k, data in enumerate(inputs)]
    for k, data in enumerate(inputs):
        figures: dict[str, Any] = data.report.figures() if data.report is not None else {}
        if figures.get("confusion"):
            out.append(_confusion_chart(k, data, figures["confusion"]))
        if figures.get("act_by_strategy"):
            out.append(_strategy_chart(k, data, figures["act_by_strategy"]))
    return out
