"""The HTML report: ``actparse report INPUT... -o report.html``, or :func:`write_report`.

One self-contained file per report (styles, script, plotly.js and the data inline): an
overview of each input with its evaluation figures where it has a reference, charts of
the coarse acts side by side, the act-to-act transitions, the confusion of intents and
the strategy labels against the acts, and a dialogue browser. Needs the ``report``
extra (plotly); labelling never imports this package.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping, Sequence
from pathlib import Path

from actparse.errors import ActparseError
from actparse.html_report.collect import InputData, collect_input
from actparse.io.destination import Destination
from actparse.registry import Parser

__all__ = ["InputData", "MissingExtra", "collect_input", "render_report", "write_report"]


class MissingExtra(ActparseError, ImportError):
    """The ``report`` extra (plotly) is not installed.

    Raised by :func:`render_report` and :func:`write_report` before any work, with the ``pip
    install`` that fixes it."""


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
    """The report of ``inputs`` as one HTML document.

    ``inputs`` are files, or :class:`InputData` already collected; ``fmt`` and ``parsers`` are those
    of :func:`actparse.evaluate_path`."""
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

    The output is checked before any work and written as every output of the package is
    (:class:`~actparse.io.destination.Destination`): a regular file under a temporary
    name renamed when complete, so a failed run leaves no half report; a link is
    followed, a FIFO or device written directly, an input file refused.
    """
    destination = Destination(output, inputs)
    # A name the system gave undecodable bytes (surrogate escapes) is shown as escapes.
    page = render_report(inputs, fmt=fmt, parsers=parsers, title=title)
    page_bytes = page.encode("utf-8", "backslashreplace")
    try:
        with open(destination.write_path, "wb") as out:
            out.write(page_bytes)
        destination.commit()
    except OSError as err:
        destination.discard()
        raise destination.failed(err) from None
    except BaseException:
        destination.discard()
        raise
    return len(page_bytes)
