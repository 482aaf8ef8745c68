"""Chart text is readable on a phone and the desktop layout is kept.

The statistics pages drew their charts on a fixed canvas scaled to the panel:
at 390 px the game's totals (a 420-unit canvas in a 336 px panel) had labels
of about 8.8 px, the rating history about 10 px. Each chart's text is now
measured as it shows on screen: 11 px or more at 390 and at 1440, every
label inside its chart, and no sideways scrolling.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import keep_screenshot
from tests.e2e.flows import create_table, play_to_end, sign_up, wait_counted

# For every chart on the page: the smallest text as drawn on screen (its font
# size times the drawing's scale), the chart's box, and any text outside it.
MEASURE = """() => [...document.querySelectorAll('svg.chart')].map((chart) => {
  const box = chart.getBoundingClientRect();
  const scale = Math.min(box.width / chart.viewBox.baseVal.width,
                         box.height / chart.viewBox.baseVal.height);
  const texts = [...chart.querySelectorAll('text')];
  const sizes = texts.map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
  const outside = texts.filter((t) => {
    const r = t.getBoundingClientRect();
    return r.left < box.left - 1 || r.right > box.right + 1;
  }).map((t) => t.textContent);
  return { smallest: Math.min(...sizes), width: box.width, height: box.height, outside };
})"""


def check_charts(page: Any, width: int, where: str) -> list[dict[str, Any]]:
    charts = page.evaluate(MEASURE)
    assert charts, f"{where}: no chart"
    for chart in charts:
        assert chart["smallest"] >= 11, f"{where}: text of {chart['smallest']:.1f} px"
        assert not chart["outside"], f"{where}: text outside the chart {chart}"
    scrolled = page.evaluate("document.documentElement.scrollWidth")
    assert scrolled <= width, f"{where}: the page is {scrolled} px wide"
    return charts


def one_rated_match(player: Any) -> tuple[Any, str]:
    """A new person's page once their first rated match (Alkort to one
    point) is counted, and their name."""
    person = player()
    name = sign_up(person)
    page = person.page
    create_table(page, "alkort", 2, {"target": 1}, rated=True)
    play_to_end(page, "alkort")
    wait_counted(page, name, "alkort", 1)
    return page, name


@pytest.mark.timeout(180)
def test_chart_text_is_readable_at_390_and_1440(
    player: Any, screenshot_dir: Path
) -> None:
    page, name = one_rated_match(player)

    for width, height in ((390, 844), (1440, 900)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"/players/{name}/")
        page.locator(".rating-history svg.chart").wait_for()
        check_charts(page, width, f"profile at {width} px")
        keep_screenshot(page, screenshot_dir, f"profile-{width}-chart")

        page.goto("/games/alkort/")
        page.locator("section svg.chart").wait_for()
        charts = check_charts(page, width, f"game statistics at {width} px")
        if width == 1440:
            # The desktop keeps its layout: the totals chart stays under the
            # height cap beside nothing else.
            assert charts[0]["height"] <= 260, charts
        keep_screenshot(page, screenshot_dir, f"game-stats-alkort-{width}")


@pytest.mark.timeout(180)
def test_one_rated_match_is_a_line_from_the_starting_rating(player: Any) -> None:
    """After the first rated match the chart was one dot in an empty box: it
    now starts at the rating before that match, so the change shows."""
    page, name = one_rated_match(player)

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/players/{name}/")
    chart = page.locator(".rating-history[data-game=alkort] svg.chart")
    chart.wait_for()
    tips = chart.locator("circle title").all_text_contents()
    assert len(tips) == 2, tips
    assert tips[0].startswith("Before the first match: rating "), tips
    assert tips[1].startswith("Table "), tips
    vertices = chart.locator("polyline").get_attribute("points") or ""
    assert len(vertices.split(" ")) == 2, vertices
    axis = chart.locator("text").all_text_contents()
    assert "start" in axis and "first match" in axis, axis
    hint = page.locator(".rating-history[data-game=alkort] .hint").text_content()
    assert hint.startswith("From the starting rating, each point is a rated match")
