"""Allegra's ring on a desktop shows every grid; on a phone it scrolls.

At 1440 px the cells were 5.2vw wide (60 px): four grids were wider than the
felt's column, so the ring scrolled there too, with the fourth grid cut in half
at its edge. The cells are now sized from the ring's box and the number of
grids, between 34 and 60 px.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import keep_screenshot
from tests.e2e.flows import create_table, sign_up, wait_turn
from tests.e2e.layout import page_width

RING = """() => {
  const ring = document.querySelector('.ring-scroll');
  const box = ring.getBoundingClientRect();
  const grids = [...ring.querySelectorAll('.grid-block')].map((g) => g.getBoundingClientRect());
  return {
    scrolls: ring.scrollWidth > ring.clientWidth + 1,
    outside: grids.filter((g) => g.left < box.left - 1 || g.right > box.right + 1).length,
    grids: grids.length,
    cell: document.querySelector('.grid-cells .card').getBoundingClientRect().width,
  };
}"""


@pytest.mark.timeout(180)
def test_every_grid_shows_at_1440_and_the_ring_scrolls_at_390(
    player: Any, screenshot_dir: Path
) -> None:
    person = player(1440, 900)
    page = person.page
    sign_up(person, prefix="ring")
    create_table(page, "allegra", 4)
    assert wait_turn(page) == "turn"

    ring = page.evaluate(RING)
    keep_screenshot(page, screenshot_dir, "allegra-4p-1440-ring")
    assert ring["grids"] == 4, ring
    assert not ring["scrolls"] and ring["outside"] == 0, ring
    assert ring["cell"] >= 34, ring

    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(200)
    ring = page.evaluate(RING)
    # A phone keeps the 34 px cells and scrolls the ring in its own box.
    assert ring["scrolls"] and ring["cell"] >= 33.5, ring
    assert page_width(page) <= 390
