"""Long player names at 390 px: every seat header stays on one line.

A 30-character name used to wrap in Allegra's grid headers (its grid then
started lower than its neighbours', the ring out of line) and to stretch the
other games' seat boxes. Each seat's name is now cut with an ellipsis, the
full name kept in its ``title`` (and in the seat group's accessible name).
Checked as the seated player and as a visitor, who sees every seat as an
opponent.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import keep_screenshot
from tests.e2e.flows import create_table, sign_up, wait_turn

NAME_LENGTH = 30
#: (game, players): Alkort for two names its sides after the two people.
TABLES = [("alager", 4), ("alkort", 4), ("alkort", 2), ("allegra", 4)]

#: Every element that names a seat on the board or in the seat list.
HEADERS = ".grid-name, .grid-foot, .opp-name, .seat-item, .side-score .seat-label"

# For each header: does it take more than one line, does anything in it run
# past its own box or past its seat's box, and what the visible name says.
MEASURE = """(selector) => [...document.querySelectorAll(selector)].map((node) => {
  const style = getComputedStyle(node);
  const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.3;
  const box = node.getBoundingClientRect();
  const seat = node.closest('.grid-block, .opponent, .spot, .seat-item, .side-score') || node;
  const seatBox = seat.getBoundingClientRect();
  const overflowing = [...node.querySelectorAll('*')].filter((child) => {
    const r = child.getBoundingClientRect();
    return r.width > 0 && (r.right > box.right + 1 || r.left < box.left - 1);
  }).map((child) => child.outerHTML.slice(0, 80));
  const labels = node.matches('.seat-label') ? [node] : [...node.querySelectorAll('.seat-label')];
  const names = labels.map((label) => {
    const own = label.querySelector('.seat-name');
    const r = label.getBoundingClientRect();
    const labelLine = parseFloat(getComputedStyle(label).lineHeight) || parseFloat(getComputedStyle(label).fontSize) * 1.3;
    return {
      lines: Math.round(r.height / labelLine),
      title: label.title, text: label.textContent, cut: own.scrollWidth > own.clientWidth,
      // What shows of the name, and whether the label stays inside its header.
      shown: own.clientWidth, inside: r.left >= box.left - 1 && r.right <= box.right + 1,
    };
  });
  return {
    html: node.outerHTML.slice(0, 160),
    lines: Math.round(box.height / line),
    // Allegra's grid header on a phone: the name, then the points under it.
    allowed: node.matches('.grid-name') ? 2 : 1,
    height: box.height, line,
    pastSeat: box.right > seatBox.right + 1 || box.left < seatBox.left - 1,
    pastOwnBox: node.scrollWidth > node.clientWidth + 1,
    overflowing, names,
  };
})"""


def check_headers(page: Any, name: str, where: str) -> None:
    headers = page.evaluate(MEASURE, HEADERS)
    assert headers, f"{where}: no seat headers"
    problems = [
        h
        for h in headers
        if h["lines"] > h["allowed"]
        or h["pastSeat"]
        or h["pastOwnBox"]
        or h["overflowing"]
    ]
    assert not problems, f"{where}: headers wrap or overflow: {problems}"
    names = [n for h in headers for n in h["names"]]
    # The whole name, cut or not, is in the title and in the text; a cut one
    # still shows its first letters.
    assert all(n["title"] == n["text"] or n["text"] == "You" for n in names), names
    assert all(n["inside"] and n["shown"] >= 24 and n["lines"] == 1 for n in names), (
        names
    )
    mine = [n for n in names if n["text"].startswith(name)]
    assert mine, f"{where}: {name} is in no seat header"
    if page.locator(".me").count():
        assert page.get_attribute(".me", "title") == name
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"{where}: the page is {width}px wide"


def check_grids_aligned(page: Any, where: str) -> None:
    """Allegra: every grid's cells start at the same height."""
    tops = page.evaluate(
        "[...document.querySelectorAll('.grid-cells')]"
        ".map((g) => Math.round(g.getBoundingClientRect().top))"
    )
    assert len(set(tops)) == 1, f"{where}: grids start at {tops}"


@pytest.mark.timeout(240)
@pytest.mark.parametrize(("game", "players"), TABLES)
def test_long_names_stay_on_one_line_at_390px(
    player: Any, screenshot_dir: Path, game: str, players: int
) -> None:
    person = player(390, 844)
    page = person.page
    name = sign_up(person, prefix="w", length=NAME_LENGTH)
    assert len(name) == NAME_LENGTH

    table_id = create_table(page, game, players)
    assert wait_turn(page) in {"turn", "over"}
    page.wait_for_selector(".seat-item")
    keep_screenshot(page, screenshot_dir, f"{game}-{players}p-390-long-name")
    check_headers(page, name, f"{game}, seated")
    if game == "allegra":
        check_grids_aligned(page, f"{game}, seated")

    visitor = player(390, 844).page
    visitor.goto(f"/tables/{table_id}/")
    visitor.wait_for_selector("#board > *")
    visitor.wait_for_selector(".seat-item")
    keep_screenshot(visitor, screenshot_dir, f"{game}-{players}p-390-long-name-visitor")
    check_headers(visitor, name, f"{game}, a visitor")
    if game == "allegra":
        check_grids_aligned(visitor, f"{game}, a visitor")


@pytest.mark.timeout(240)
def test_allegra_bot_names_are_whole_at_390px(
    player: Any, screenshot_dir: Path
) -> None:
    """A grid on a phone is about 150 px wide: with the points beside it,
    "random bot 2" was cut to "random …" in every header. The points now sit
    under the name, so a short name shows whole, and the grids start level."""
    person = player(390, 844)
    page = person.page
    sign_up(person, prefix="g")
    create_table(page, "allegra", 4)
    assert wait_turn(page) in {"turn", "over"}
    keep_screenshot(page, screenshot_dir, "allegra-4p-390-bot-names")
    headers = page.evaluate(
        """[...document.querySelectorAll('.grid-name .seat-name')].map((n) => ({
          text: n.textContent, cut: n.scrollWidth > n.clientWidth }))"""
    )
    bots = [h for h in headers if h["text"].startswith("random bot")]
    assert len(bots) == 3, headers
    assert not [h for h in headers if h["cut"]], f"names cut: {headers}"
    check_grids_aligned(page, "allegra, bot names")
    check_headers(page, person.username, "allegra, bot names")
