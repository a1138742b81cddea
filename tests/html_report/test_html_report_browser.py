"""The HTML report in a real browser, as a person opens it: the system's Chromium,
driven by Playwright (no browser download), from disk with the network cut.

It loads with no console error and no request, the charts are drawn, the filters work
(``disagreements only`` leaves exactly the dialogues the evaluator reports), and a
screenshot is saved (``ACTPARSE_SCREENSHOT=path`` keeps one of the shared corpora's
report). ``.ci/run`` installs Debian's chromium; without it the test skips and says so.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from corpus_fixtures import CorpusFixtures

from actparse import evaluate_path
from actparse.html_report import write_report

pytest.importorskip("plotly", reason="the report needs the 'report' extra (plotly)")
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed (the 'test' extra)"
)

CHROMIUM = os.environ.get("ACTPARSE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
#: Chromium's own traffic (updates, sync, QUIC probes) off: only the page may ask anything.
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
FIXTURE_INPUTS = ("casino_20.json", "dealornodeal_val_20.txt", "craigslist_validation_20.jsonl")
SHARED_INPUTS = (
    "craigslist/validation.jsonl",
    "casino/casino_valid.json",
    "dealornodeal/val.txt",
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(
            f"no Chromium at {CHROMIUM}: install Debian's chromium (.ci/run does as root) "
            "or set ACTPARSE_CHROMIUM"
        )
    with sync_api.sync_playwright() as playwright:
        try:
            # Playwright makes a fresh profile in a temporary folder for each launch.
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        except sync_api.Error as exc:
            pytest.skip(f"Chromium at {CHROMIUM} does not start: {str(exc).splitlines()[0]}")
        yield browser
        browser.close()


def _expected_misses(paths: Sequence[Path]) -> set[str]:
    """The evaluator's misses, each as its record's ``file:line``."""
    out = set()
    for path in paths:
        for miss in evaluate_path(path).misses():
            out.add(miss.where.partition(" (")[0])
    return out


def _open_and_check(browser: Any, paths: Sequence[Path], out: Path, shot: Path) -> None:
    write_report(paths, out)
    page_url = out.resolve().as_uri()
    errors: list[str] = []
    requests: list[str] = []
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: requests.append(r.url))
    # Anything but the file itself is refused, so a request shows even offline.
    page.route(lambda url: url != page_url, lambda route: route.abort())
    page.goto(page_url, wait_until="load")
    page.wait_for_function("window.actparseReport !== undefined")

    # The charts are drawn: each figure has plotly's SVG, and one bar trace per input.
    figures = page.locator("figure.chart")
    assert figures.count() >= 1 + len(paths)
    assert page.locator("figure.chart .js-plotly-plot svg.main-svg").count() >= figures.count()
    assert page.locator("#chart-distribution g.trace.bars").count() == len(paths)
    assert page.locator("#chart-transitions-0 g.hm, #chart-transitions-0 image").count() >= 1

    total = int(page.locator("#match-count").get_attribute("data-count") or "-1")
    assert total > 0 and page.locator("article.dialogue").count() == min(total, 50)

    # Disagreements only: exactly the dialogues the evaluator reports as misses.
    page.check("#filter-misses")
    shown = int(page.locator("#match-count").get_attribute("data-count") or "-1")
    expected = _expected_misses(paths)
    assert shown == len(expected)
    records = page.evaluate(
        "() => [...document.querySelectorAll('article.dialogue')].map(a => a.dataset.record)"
    )
    if shown <= 50:  # one page shows them all
        assert set(records) == expected
    assert all(
        "has-miss" in c
        for c in page.locator("article.dialogue").evaluate_all("els => els.map(e => e.className)")
    )
    if expected:
        assert page.locator("article.dialogue tr.miss .reason").count() >= 1
    page.uncheck("#filter-misses")

    # Filter by input and search text.
    page.select_option("#filter-input", "1")
    inputs = page.locator("article.dialogue").evaluate_all("els => els.map(e => e.dataset.input)")
    assert inputs and set(inputs) == {"1"}
    page.select_option("#filter-input", "")
    page.fill("#filter-text", "zzqq no such words")
    assert page.locator("#match-count").get_attribute("data-count") == "0"
    page.fill("#filter-text", "")

    page.evaluate("() => window.scrollTo(0, 0)")  # the overview and the first chart
    page.screenshot(path=str(shot))
    page.close()
    assert errors == []
    assert requests == [page_url]
    assert shot.stat().st_size > 10_000


def test_the_report_of_the_fixtures_in_chromium(
    browser: Any, fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    paths = [fixtures / name for name in FIXTURE_INPUTS]
    _open_and_check(browser, paths, tmp_path / "report.html", tmp_path / "report.png")


@pytest.mark.corpus
@pytest.mark.slow
def test_the_report_of_the_three_shared_corpora_in_chromium(
    browser: Any, data_dir: Path, tmp_path: Path
) -> None:
    paths = [data_dir / name for name in SHARED_INPUTS]
    shot = Path(os.environ.get("ACTPARSE_SCREENSHOT") or tmp_path / "report.png")
    _open_and_check(browser, paths, tmp_path / "r.html", shot)


#: Reference intents and a strategy label from the input that plotly would read as markup.
LINK = '<a href="https://evil.example/phish">extlink</a>'
MARKUP_LABELS = (LINK, "<b>bold</b>", '<span style="color:red">styled</span>', "one<br>two")
#: A file name with markup in it (no '/': a file name cannot hold one).
MARKUP_FILE = '<b>named<br><span style="color:red">.jsonl'


def _markup_inputs(fixtures: CorpusFixtures, folder: Path) -> list[Path]:
    """A Craigslist file (named with markup) whose reference intents are markup, and a
    CaSiNo file whose strategy labels are."""
    lines = (fixtures / "craigslist_validation_20.jsonl").read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first["dialogue_acts"]["intent"][: len(MARKUP_LABELS)] = list(MARKUP_LABELS)
    craigslist = folder / MARKUP_FILE
    craigslist.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n", encoding="utf-8")
    dialogues = json.loads((fixtures / "casino_20.json").read_text(encoding="utf-8"))
    annotated = next(d for d in dialogues if d["annotations"])
    for k, label in enumerate(MARKUP_LABELS):
        annotated["annotations"][k][1] = label
    casino = folder / "casino_markup.json"
    casino.write_text(json.dumps(dialogues), encoding="utf-8")
    return [craigslist, casino]


#: Every text plotly drew in the charts, and every link and styled run it made there.
_DRAWN = """() => {
  const charts = [...document.querySelectorAll('figure.chart .js-plotly-plot')];
  const inside = charts.flatMap(c => [...c.querySelectorAll('svg *')]);
  return {
    texts: inside.filter(e => e.tagName === 'text').map(e => e.textContent),
    links: inside.filter(e => e.tagName === 'a' || [...e.attributes].some(
      a => a.name.endsWith('href') && !a.value.startsWith('data:'))).map(e => e.outerHTML),
    styled: inside.filter(e => e.tagName === 'tspan' && /bold|red|italic/.test(
      (e.getAttribute('style') || '') + (e.getAttribute('font-weight') || ''))).length,
    breaks: inside.filter(e => e.tagName === 'tspan' && e.classList.contains('line')).length,
  };
}"""


def test_labels_from_the_input_are_drawn_as_text_not_markup(
    browser: Any, fixtures: CorpusFixtures, tmp_path: Path
) -> None:
    """Issue 28: a reference intent ``<a href=...>`` made a live link in the confusion
    chart, ``<span style>`` was applied and ``<br>`` broke the label; file names and
    strategy labels too. Each is drawn as the characters typed, and no script runs."""
    out = tmp_path / "report.html"
    write_report(_markup_inputs(fixtures, tmp_path), out)
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: errors.append(f"dialog: {d.message}"))
    page.route(lambda url: url != out.resolve().as_uri(), lambda route: route.abort())
    page.goto(out.resolve().as_uri(), wait_until="load")
    page.wait_for_function("window.actparseReport !== undefined")
    assert page.locator("#chart-confusion-0 svg.main-svg").count() >= 1
    assert page.locator("#chart-strategies-1 svg.main-svg").count() >= 1
    # Hover a confusion cell: the hover label is drawn from the same strings.
    box = page.locator("#chart-confusion-0 .nsewdrag").first.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + 5, box["y"] + 5)
    drawn = page.evaluate(_DRAWN)
    page.close()
    assert drawn["links"] == []
    assert drawn["styled"] == 0 and drawn["breaks"] == 0
    texts = drawn["texts"]
    for label in MARKUP_LABELS:
        assert texts.count(label) >= 2, label  # the confusion chart's and the strategies'
    assert any(MARKUP_FILE in text for text in texts)  # the legend
    assert errors == []


def test_the_deal_is_shown_turn_by_turn_in_chromium(browser: Any, tmp_path: Path) -> None:
    from deal_dialogues import DOND_DEAL, DOND_SHOWN, write_casino, write_dond

    out = tmp_path / "deal.html"
    write_report([write_dond(tmp_path), write_casino(tmp_path)], out)
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route(lambda url: url != out.resolve().as_uri(), lambda route: route.abort())
    page.goto(out.resolve().as_uri(), wait_until="load")
    page.wait_for_function("window.actparseReport !== undefined")
    dond = page.locator("article.dialogue").first
    cells = dond.locator("td.deal")
    moves = [
        cells.nth(k).evaluate("e => e.firstChild ? e.firstChild.textContent : ''")
        for k in range(cells.count())
    ]
    assumed = dond.locator("td.deal .uncertain").all_inner_texts()
    final = dond.locator(".final-deal").inner_text()
    page.close()
    assert moves == DOND_SHOWN
    assert assumed == [f"assumed: {', '.join(d[4])}" for d in DOND_DEAL if d[4]]
    assert final == (
        "Final split (#2): YOU book 0 hat 2 ball 0 | THEM book 1 hat 0 ball 2 · confidence "
        "high (agreed in text)"
    )
    assert errors == []
