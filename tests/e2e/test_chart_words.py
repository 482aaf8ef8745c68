"""The statistics charts in words, for a screen reader and a keyboard.

A chart was a picture named only by its title ("alkort rating history of
ada"): a screen reader heard none of the ratings or totals, and a rating
point's figures were in a tooltip that only a pointer shows. Under each chart
a fold, "The chart in words", opened by the keyboard, lists every point or
bar as the chart draws it.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_chart_text import one_rated_match

# The bars as drawn: each bar's label and the value written beside it.
BARS = "(chart) => [...chart.querySelectorAll('text')].map((t) => t.textContent)"


def open_by_keyboard(page: Any, fold: Any) -> None:
    """Tab to the fold's summary and open it with Enter, as a keyboard does."""
    summary = fold.locator("summary")
    for _ in range(60):
        page.keyboard.press("Tab")
        if summary.evaluate("(node) => node === document.activeElement"):
            break
    else:
        raise AssertionError("Tab never reached the chart's words")
    page.keyboard.press("Enter")
    assert fold.evaluate("(node) => node.open"), "Enter did not open the chart's words"


@pytest.mark.timeout(180)
def test_each_chart_is_also_in_words(player: Any) -> None:
    page, name = one_rated_match(player)

    # The rating history: one line a point, the figures of each point's tooltip.
    page.goto(f"/players/{name}/")
    box = page.locator(".rating-history[data-game=alkort]")
    box.locator("svg.chart").wait_for()
    tips = box.locator("svg.chart circle title").all_text_contents()
    fold = box.locator("details.chart-words")
    assert not fold.evaluate("(node) => node.open"), "the fold starts closed"
    assert fold.locator("summary").text_content() == "The chart in words (2 lines)"
    open_by_keyboard(page, fold)
    lines = fold.locator("li").all_text_contents()
    assert lines == tips, (lines, tips)
    assert lines[0].startswith("Before the first match: rating "), lines
    assert lines[1].startswith("Table ") and "rating " in lines[1], lines

    # The game's totals: each bar's label and value, in the chart's order.
    page.goto("/games/alkort/")
    chart = page.locator("section svg.chart")
    chart.wait_for()
    drawn = chart.evaluate(BARS)
    fold = page.locator("details.chart-words")
    open_by_keyboard(page, fold)
    lines = fold.locator("li").all_text_contents()
    assert lines, "no line in words"
    assert [text for line in lines for text in line.rsplit(": ", 1)] == drawn, (
        lines,
        drawn,
    )

    # The opener's table names every column: the bar's header was blank.
    headers = page.locator("#first-player th[scope], #first-player thead th")
    names = [text.strip() for text in headers.all_text_contents()]
    assert names and all(names), names
