"""The board's labels at 390 px: no word breaks mid-way, nothing scrolls sideways.

The page lets a long name break anywhere (``overflow-wrap: anywhere`` on the
body), and a grid column sized to its content then shrinks to one letter:
Alkort's centre label "Exchange" came out as "Exc / han / ge" between the
left and right seats of a 4-player table. Each game's first moves are played
here as the seat, and every label of the board and turn bar is measured word
by word after each of them.

The turn bar keeps room for two lines on a phone, and takes no more (every
kind of status is rendered there, clock included), and Alkort's felt keeps
its height from move to move: a seat box used to grow
by a card's height when its trick card landed, pushing everything below down.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import keep_screenshot
from tests.e2e.flows import MOVES, create_table, move_done, seq, sign_up, wait_turn
from tests.e2e.layout import TURN_BAR, broken_words, page_width

TABLES = [("alkort", 4), ("alkort", 2), ("alager", 4), ("allegra", 4)]
MOVES_CHECKED = 12


@pytest.mark.timeout(240)
@pytest.mark.parametrize(("game", "players"), TABLES)
def test_board_labels_keep_their_words_whole_at_390px(
    player: Any, screenshot_dir: Path, game: str, players: int
) -> None:
    person = player(390, 844)
    page = person.page
    sign_up(person, prefix="lb")
    create_table(page, game, players)
    centres: set[str] = set()
    felt_heights: dict[int, int] = {}
    for move in range(MOVES_CHECKED):
        state = wait_turn(page)
        if page.locator(".felt-centre").count():
            centres.add(page.locator(".felt-centre").inner_text())
            height = round(page.locator(".alkort-felt").bounding_box()["height"])
            felt_heights.setdefault(height, move)
            if len(felt_heights) > 1:
                keep_screenshot(
                    page, screenshot_dir, f"{game}-{players}p-390-felt-{move}"
                )
        where = f"{game} {players}p, before move {move + 1}"
        if state != "over":
            # A one-line status keeps the room of two, so the board does not
            # jump when the next status ("random bot 2 to play — …") is longer.
            bar = page.evaluate(TURN_BAR)
            assert bar["height"] >= 2 * bar["line"] + bar["padding"] - 1, (where, bar)
            # And never more than two: a third line moves the board down.
            assert bar["height"] <= 2 * bar["line"] + bar["padding"] + 1, (where, bar)
        assert broken_words(page) == [], where
        assert page_width(page) <= 390, where
        if move == 0:
            keep_screenshot(page, screenshot_dir, f"{game}-{players}p-390-labels")
        if state == "over":
            break
        before = seq(page)
        MOVES[game](page)
        move_done(page, before)
    if game == "alkort":
        # Every deal opens with the stock exchange, at the seat's first turn.
        assert "Exchange" in centres, centres
        # Where no card has landed yet, its place is an empty card's outline.
        outlines = page.evaluate(
            """[...document.querySelectorAll('.trick-card:empty')].map((n) =>
              getComputedStyle(n, '::before').borderTopStyle)"""
        )
        assert outlines and set(outlines) == {"dashed"}, outlines
        assert len(felt_heights) == 1, f"the felt's height changed: {felt_heights}"


@pytest.mark.timeout(120)
def test_two_player_alkort_scores_start_level_with_the_names(player: Any) -> None:
    """With two players each side is a person, named on a line of its own:
    the score under the name was pushed 8 px right, by the gap meant for a
    side's name beside it."""
    person = player(1440, 900)
    page = person.page
    sign_up(person, prefix="sc")
    create_table(page, "alkort", 2)
    wait_turn(page)
    edges = page.evaluate(
        """[...document.querySelectorAll('.side-score')].map((box) => [
          Math.round(box.querySelector('.seat-label').getBoundingClientRect().left),
          Math.round(box.querySelector('.big').getBoundingClientRect().left)])"""
    )
    assert len(edges) == 2 and all(name == score for name, score in edges), edges


PILES = """() => [...document.querySelectorAll('.allegra-felt .pile')].map((pile) => ({
  label: pile.querySelector('.pile-label').innerText.replace(/\\s+/g, ' '),
  picture: Boolean(pile.querySelector('svg.card, .empty-pile')),
}))"""


@pytest.mark.timeout(240)
def test_allegra_felt_keeps_its_height_when_triples_leave_at_390px(
    player: Any, screenshot_dir: Path
) -> None:
    """The out-of-play pile was a bare label that appeared with the first
    removed triple, and the felt grew by a row at 390 px. It is now drawn like
    the other piles (its top card, or an empty card's outline) from the start.
    A deck of fives alone makes a triple within a few moves."""
    person = player(1440, 900)
    page = person.page
    sign_up(person, prefix="oop")
    # A phone starts the lobby's options folded: the table is made wide.
    create_table(page, "allegra", 4, {"deck_composition": " ".join(["5"] * 110)})
    page.set_viewport_size({"width": 390, "height": 844})
    felt_heights: dict[int, int] = {}
    out_of_play = ""
    drawn = False
    for move in range(30):
        state = wait_turn(page)
        if state == "over":
            break
        piles = page.evaluate(PILES)
        out = [pile for pile in piles if pile["label"].startswith("out of play")]
        assert out and all(pile["picture"] for pile in piles), (move, piles)
        out_of_play = out[0]["label"]
        height = round(page.locator(".allegra-felt").bounding_box()["height"])
        felt_heights.setdefault(height, move)
        assert broken_words(page) == [], move
        if drawn:
            break
        before = seq(page)
        if (
            out_of_play != "out of play 0"
            and page.locator("[data-key=draw-btn]").count()
        ):
            # With a card drawn too, the four piles share one row.
            page.locator("[data-key=draw-btn]").click()
            drawn = True
        else:
            MOVES["allegra"](page)
        move_done(page, before)
    keep_screenshot(page, screenshot_dir, "allegra-4p-390-out-of-play")
    assert drawn and out_of_play not in ("", "out of play 0"), out_of_play
    assert page.locator(".pile.out-of-play svg.card").count() == 1
    assert len(felt_heights) == 1, f"the felt's height changed: {felt_heights}"


# Every kind of status each game's turn bar says, in its longest wording:
# two-digit deals and limits, bots' names and the longest name a person may
# have (150 characters, no space), konec and last turns, a clock. Each is
# drawn the way the page draws it: the names marked (`marked`) and put in
# nodes of their own (`withNames`).
LONGEST = "W" * 150
STATUS_LINES = """async (longest) => {
  const games = {};
  for (const game of ['alager', 'alkort', 'allegra']) {
    games[game] = (await import(`/static/web/js/games/${game}.js`)).default;
  }
  const { marked, withNames } = await import('/static/web/js/games/common.js');
  const bots = (seat) => (seat === 0 ? 'ada (you)' : `random bot ${seat + 1}`);
  const long = (seat) => (seat === 0 ? 'ada (you)' : longest);
  const alager = [];
  for (const end_mode of ['first_to_limit', 'elimination', 'fixed_deals']) {
    for (const phase of ['turns', 'final']) {
      alager.push({ options: { end_mode, penalty_limit: 15, num_deals: 12 }, deal: 12, phase,
        current: 3, to_act: [3] });
    }
  }
  const alkort = ['exchange', 'play'].map((phase) => ({ phase, deal: 12, tricks: [1, 2, 3, 4, 5, 6, 7, 8],
    to_act: [3] }));
  const allegra = [null, 2].flatMap((trigger) => [[3], [1, 2, 3]].map((to_act) => ({
    round: 10, rounds: 12, trigger, to_act })));
  const cases = [];
  for (const [game, views] of Object.entries({ alager, alkort, allegra })) {
    for (const view of views) {
      for (const mine of [true, false]) {
        for (const names of [bots, long]) {
          const ctx = { view, names, seat: 0, legal: mine ? [{ type: 'pass' }] : [] };
          cases.push({ game, mine, long: names === long, marked: games[game].status(marked(ctx)) });
        }
      }
    }
  }
  const bar = document.createElement('section');
  bar.className = 'turn-bar';
  bar.innerHTML = '<span id="turn-text"></span><span class="timer">'
    + '<span class="clock"></span>10:00</span>';
  document.querySelector('main').prepend(bar);
  const line = parseFloat(getComputedStyle(bar).lineHeight);
  return cases.map(({ game, mine, long, marked }) => {
    bar.firstChild.replaceChildren(...withNames(marked));
    const text = bar.firstChild;
    return { game, mine, long, text: text.textContent,
      lines: Math.round(text.getBoundingClientRect().height / line),
      names: [...text.querySelectorAll('.name-cut')].map((name) => ({
        title: name.title, cut: name.scrollWidth > name.clientWidth })) };
  });
}"""


@pytest.mark.timeout(60)
def test_every_status_fits_two_lines_at_390px(player: Any) -> None:
    """Alager's status, "random bot 4 to play (deal 12; 15 penalty points put
    a player out). Konec was called: last turns.", took three lines of the
    turn bar at 390 px and pushed the board down. So did a status naming a
    person with a 150-character name: the name is cut, not the sentence."""
    page = player(390, 844).page
    page.goto("/")
    cases = page.evaluate(STATUS_LINES, LONGEST)
    assert len(cases) == 48, cases
    too_long = [f"{c['lines']} lines: {c['text']}" for c in cases if c["lines"] > 2]
    assert too_long == [], "\n".join(too_long)
    # The whole name is still in the text (a screen reader reads it) and in
    # the tooltip; only the long one is cut on screen, a bot's name is whole.
    named = [c for c in cases if c["names"]]
    assert len(named) == 20, cases  # each status naming one seat to play
    for case in named:
        for name in case["names"]:
            assert name["title"] in case["text"], case
            assert name["cut"] == case["long"], case
            assert (name["title"] == LONGEST) == case["long"], case
    # The seat's own turn always opens with the same words, the cue the
    # announcer reads out: after a knock it read "Konec: your last turn".
    cue = {"alager": "Your turn", "alkort": "Your turn", "allegra": "Your move"}
    unheard = [
        c["text"]
        for c in cases
        if c["mine"] and not c["text"].startswith(cue[c["game"]])
    ]
    assert unheard == [], unheard


NOTE_AND_BOARD = """() => {
  const board = document.getElementById('board').getBoundingClientRect();
  const note = [...document.querySelectorAll('p')].find(
    (node) => node.textContent === '5 penalty points end the match.');
  return note && { note: note.getBoundingClientRect().bottom, board: board.top,
    visible: note.checkVisibility() };
}"""


@pytest.mark.timeout(90)
@pytest.mark.parametrize(("width", "height"), [(390, 844), (1440, 900)])
def test_alager_says_what_ends_the_match_above_the_board(
    player: Any, screenshot_dir: Path, width: int, height: int
) -> None:
    """The penalty limit was said under the Players list, which a phone puts
    below the board, out of a player's sight; it is a line under the turn bar."""
    person = player(width, height)
    page = person.page
    sign_up(person, prefix="lim")
    if width < 900:
        # A phone starts the lobby's options folded: the table is made wide.
        page.set_viewport_size({"width": 1440, "height": 900})
    create_table(page, "alager", 4, {"penalty_limit": 5})
    page.set_viewport_size({"width": width, "height": height})
    wait_turn(page)
    placed = page.evaluate(NOTE_AND_BOARD)
    keep_screenshot(page, screenshot_dir, f"alager-4p-{width}-limit")
    assert placed and placed["visible"], placed
    assert placed["note"] <= placed["board"], placed
