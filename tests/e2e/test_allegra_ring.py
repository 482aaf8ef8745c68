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
    # A phone scrolls the ring in its own box, so its cells need not shrink
    # to the 34 px that fit a desktop: 40 px are easier to tap.
    assert ring["scrolls"] and ring["cell"] >= 39.5, ring
    assert page_width(page) <= 390


@pytest.mark.timeout(60)
def test_the_grids_stay_put_when_a_knock_window_opens(player: Any) -> None:
    """The knock line ("Knock window: 2 of 2 still to answer.") sat in the
    felt above the grids: when a window opened, every grid jumped down by its
    height just as the seat had to answer. It is now under the grids."""
    page = player(390, 844).page
    page.goto("/")

    tops = page.evaluate(
        """async () => {
          const { default: allegra } = await import('/static/web/js/games/allegra.js');
          const names = (seat) => ['ada', 'bo', 'cy'][seat];
          const grid = () => [0, 1, 2].map(() => ['down', 'down', 'down', 'down']);
          const view = (knock) => ({
            players: 3, phase: knock ? 'knock_window' : 'turn_start', active: 2,
            to_act: [0], drawn: knock ? 10 : null, draw_pile: 70, discard_pile: [9],
            out_of_play: [], scores: [0, 0, 0], grids: [grid(), grid(), grid()],
            round: 1, rounds: 1, trigger: null,
            knock: knock ? { eligible: [0, 1], pending: [0, 1], knockers: null,
                             knocker: null, your_answer: null, hand: null,
                             hand_hidden: false, taken: null } : null,
          });
          const top = (knock) => {
            const board = allegra.board({ view: view(knock), names, seat: 0, legal: [],
              events: [], act: () => {}, redraw: () => {} });
            document.querySelector('main').append(board);
            const ring = board.querySelector('.ring-scroll').getBoundingClientRect().top
              - board.getBoundingClientRect().top;
            const shown = Boolean(board.querySelector('.knock-info'));
            board.remove();
            return { ring, shown };
          };
          return [top(false), top(true)];
        }"""
    )

    closed, open_ = tops
    assert not closed["shown"] and open_["shown"], tops
    assert closed["ring"] == open_["ring"], tops


# The log's line for a card taken from an area, as the seat whose area it is
# reads it, and as a visitor does.
CARD_TAKEN = """async () => {
  const allegra = (await import('/static/web/js/games/allegra.js')).default;
  const event = { type: 'allegra.card_taken', seq: 9, seat: 1,
    payload: { seat: 1, card: 5, cell: { seat: 0, row: 0, col: 1 } } };
  const mine = (seat) => (seat === 0 ? 'ada (you)' : 'basic bot 2');
  const theirs = (seat) => (seat === 0 ? 'ada' : 'basic bot 2');
  return [allegra.describe(event, { names: mine, seat: 0 }),
    allegra.describe(event, { names: theirs, seat: null }),
    // A replay from seat 0's point of view names no one "you".
    allegra.describe(event, { names: theirs, seat: 0 })];
}"""


@pytest.mark.timeout(60)
def test_a_card_taken_from_your_area_says_your_area(player: Any) -> None:
    """The log read "basic bot 2 took 5 from ada (you)'s area."."""
    page = player(390, 844).page
    page.goto("/")
    page.wait_for_load_state("load")
    assert page.evaluate(CARD_TAKEN) == [
        "basic bot 2 took 5 from your area.",
        "basic bot 2 took 5 from ada's area.",
        "basic bot 2 took 5 from ada's area.",
    ]
