"""A table wider than its box on a phone shows that it scrolls sideways."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from tests.e2e.flows import unique_name
from tests.e2e.test_long_names import RANKED

# Which edges of a scroll box are marked as having more of the table beyond
# them, and whether the box draws anything there.
EDGES = """selector => {
  const box = document.querySelector(selector).closest('.table-scroll');
  return { left: box.classList.contains('more-left'),
    right: box.classList.contains('more-right'),
    drawn: getComputedStyle(box).backgroundImage !== 'none',
    overflows: box.scrollWidth > box.clientWidth };
}"""


@pytest.mark.timeout(120)
def test_a_wide_table_on_a_phone_shows_the_edge_it_scrolls_past(
    player: Any, live_manage: Callable[[str], str]
) -> None:
    """At 390 px the leaderboard's and the standings' last columns were cut at
    the box's edge with nothing to say the table went on (a phone shows no
    scroll bar until the table is moved): "σ" and "Buchhol" read as the end.
    The edge with more beyond it now shows a shadow, gone once scrolled to."""
    made = json.loads(
        live_manage(RANKED.replace("PREFIX", unique_name("wide"))).splitlines()[-1]
    )
    page = player(width=390, height=844).page
    for path, table in (
        ("/leaderboards/alkort/", "table#leaderboard"),
        (f"/tournaments/{made['tournament']}/", "table#standings"),
    ):
        page.goto(path)
        page.wait_for_selector(table)
        page.wait_for_function(
            "s => document.querySelector(s).closest('.table-scroll').classList.contains('more-right')",
            arg=table,
            timeout=5_000,
        )
        assert page.evaluate(EDGES, table) == {
            "left": False,
            "right": True,
            "drawn": True,
            "overflows": True,
        }, path
        page.evaluate(
            "s => { const b = document.querySelector(s).closest('.table-scroll');"
            " b.scrollLeft = b.scrollWidth; }",
            table,
        )
        page.wait_for_function(
            "s => !document.querySelector(s).closest('.table-scroll').classList.contains('more-right')",
            arg=table,
            timeout=5_000,
        )
        assert page.evaluate(EDGES, table)["left"], path
    # Wide enough: no edge is marked.
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto("/leaderboards/alkort/")
    page.wait_for_selector("table#leaderboard")
    page.wait_for_timeout(300)
    assert page.evaluate(EDGES, "table#leaderboard") == {
        "left": False,
        "right": False,
        "drawn": False,
        "overflows": False,
    }
