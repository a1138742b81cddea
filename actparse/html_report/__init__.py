"""The HTML report: ``actparse report INPUT... -o report.html``, or :func:`write_report`.

One self-contained file per report (styles, script, plotly.js and the data inline): an
overview of each input with its evaluation figures where it has a reference, charts of
the coarse acts side by side, the act-to-act transitions, the confusion of intents and
the strategy labels against the acts, and a dialogue browser. Needs the ``report``
extra (plotly); labelling never imports this package.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from actparse.html_report.collect import InputData, collect_input
from actparse.registry import Parser

__all__ = ["InputData", "MissingExtra", "collect_input", "render_report", "write_report"]


class MissingExtra(ImportError):
    """The ``report`` extra is not installed."""


def _require_plotly() -> None:
    if importlib.util.find_spec("plotly") is None:
        raise MissingExtra("the HTML report needs plotly: pip install 'actparse[report]'")


def render_report(
    inputs: Sequence[str | Path | InputData],
    *,
    fmt: str = "auto",
    parsers: Mapping[str, Parser] | None = None,
    title: str = "actparse report",
) -> str:
    """The report of ``inputs`` (files, or :class:`InputData` already collected) as one
    HTML document; ``fmt`` and ``parsers`` are those of :func:`actparse.evaluate_path`."""
    _require_plotly()
    from actparse.html_report.page import render_page

    collected = [
        item if isinstance(item, InputData) else collect_input(item, fmt, parsers)
        for item in inputs
    ]
    return render_page(collected, title)


def write_report(
    inputs: Sequence[str | Path],
    output: str | Path,
    *,
    fmt: str = "auto",
    parsers: Mapping[str, Parser] | None = None,
    title: str = "actparse report",
) -> int:
    """Write the report of ``inputs`` to ``output``; returns its size in bytes.

    Written to a temporary file beside ``output`` and renamed when complete, so a failed
    run leaves no half report.
    """
    page = render_report(inputs, fmt=fmt, parsers=parsers, title=title).encode("utf-8")
    target = Path(output)
    # A plain open, not mkstemp: the report gets the permissions of any file the user writes.
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "wb") as out:
            out.write(page)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return len(page)
