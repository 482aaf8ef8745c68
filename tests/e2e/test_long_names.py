"""The longest names the service accepts never widen a page at 390 px.

A username may be 150 characters without a space, a tournament's name 200:
such a word must break inside its box, not push the page sideways for
everyone who sees it (at the table, in the lobby, on the profile and the
tournament pages).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PASSWORD
from tests.e2e.flows import create_table, sign_up, unique_name, wait_turn
from tests.e2e.layout import TURN_BAR

WIDTH = 390

SET_UP = """
import json
from tests.tournaments.factories import TournamentFactory
from tournaments import services

tournament = TournamentFactory(name="T" * 200, game="alkort", table_size=2)
services.registration_open(tournament_id=tournament.pk)
print(json.dumps({"tournament": tournament.pk}))
"""


LOG_LINES = """(name) => [...document.querySelectorAll('#log li')]
  .filter((line) => line.textContent.includes(name))
  .map((line) => Math.round(line.getBoundingClientRect().height
    / parseFloat(getComputedStyle(line).lineHeight)))"""


def _page_width(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


@pytest.mark.timeout(90)
def test_long_names_break_instead_of_widening_the_page(
    player: Any, live_manage: Callable[[str], str]
) -> None:
    made = json.loads(live_manage(SET_UP).strip().splitlines()[-1])
    person = player(width=WIDTH, height=844)
    page = person.page
    prefix = unique_name("w")
    name = prefix + "W" * (150 - len(prefix))
    person.username = name
    page.goto("/accounts/signup/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector(f".me:text-is('{name}')")

    table_id = create_table(page, "alkort", 2)
    page.wait_for_selector(f"#seats a[title='{name}']")
    assert _page_width(page) <= WIDTH, f"the table is {_page_width(page)}px wide"
    # While it is the person's turn, anyone else's turn bar names them: the
    # name is cut, and the bar keeps to its two lines.
    wait_turn(page)
    watcher = player(width=WIDTH, height=844).page
    watcher.goto(f"/tables/{table_id}/")
    expect(watcher.locator("#turn-text")).to_contain_text(f"{name} to play")
    bar = watcher.evaluate(TURN_BAR)
    assert bar["height"] <= 2 * bar["line"] + bar["padding"] + 1, bar
    # The whole name is in the text a screen reader reads, and the tooltip.
    assert watcher.locator(f"#turn-text .name-cut[title='{name}']").count() == 1
    # The log's lines that name the person keep to two lines as well.
    log_lines = page.evaluate(LOG_LINES, name)
    assert log_lines and max(log_lines) <= 2, log_lines

    page.goto(f"/players/{name}/")
    page.wait_for_selector(f"h1:text-is('{name}')")
    assert _page_width(page) <= WIDTH, f"the profile is {_page_width(page)}px wide"

    page.goto("/tournaments/")
    page.wait_for_selector("#tournament-list li")
    assert _page_width(page) <= WIDTH, f"the list is {_page_width(page)}px wide"
    page.goto(f"/tournaments/{made['tournament']}/")
    page.wait_for_selector("h1:has-text('TTTT')")
    assert _page_width(page) <= WIDTH, f"the tournament is {_page_width(page)}px wide"


# The side panel's and the match-over dialog's score tables, drawn by each
# game with a 150-character name at seat 1: the name keeps to one line.
SCORE_TABLES = """async (longest) => {
  const alager = (await import('/static/web/js/games/alager.js')).default;
  const allegra = (await import('/static/web/js/games/allegra.js')).default;
  const names = (seat) => (seat === 1 ? longest : `random bot ${seat + 1}`);
  const ctx = (view) => ({ view, names, seat: 0, legal: [] });
  const outcome = { places: [2, 1], scores: [3, 1], winners: [1] };
  const alagerView = {
    options: { end_mode: 'first_to_limit', penalty_limit: 5 }, penalties: [3, 1],
    last_deal: { deal: 2, reason: 'konec', knocker: 1, specials: [], hands: [['AH', 'KH', 'QH'], null],
      changes: [1, 0], penalties: [3, 1], values: [31, null] },
    outcome,
  };
  const allegraView = { players: 2, scores: [30, 12], outcome,
    round_results: [{ round: 1, scores: [30, 12], raw: [30, 12], doubled: false, trigger: 1 }] };
  // The table page's layout: the side panel is a 300 px column on a desktop.
  const layout = document.createElement('div');
  layout.className = 'table-layout';
  layout.innerHTML = '<section class="board"></section><aside class="side"></aside>';
  document.querySelector('main').append(layout);
  const side = layout.querySelector('.side');
  const tables = {
    'alager deal': alager.summary(ctx(alagerView)),
    'allegra rounds': allegra.summary(ctx(allegraView)),
    'result': alager.result(ctx(alagerView)),
  };
  const found = {};
  for (const [what, node] of Object.entries(tables)) {
    const panel = document.createElement('section');
    panel.className = 'panel compact';
    panel.append(node);
    side.replaceChildren(panel);
    const cell = [...node.querySelectorAll('th, td')].find((c) => c.textContent.includes(longest));
    const name = cell.querySelector('[title]');
    const line = parseFloat(getComputedStyle(name || cell).lineHeight);
    const box = node.querySelector('.table-scroll');
    const headline = node.querySelector('.result-line');
    found[what] = { headline: headline && Math.round(headline.getBoundingClientRect().height
        / parseFloat(getComputedStyle(headline).lineHeight)), lines: Math.round((name || cell).getBoundingClientRect().height / line),
      title: name && name.title, wide: document.documentElement.scrollWidth,
      scrolls: box.scrollWidth > box.clientWidth + 1 };
  }
  layout.remove();
  return found;
}"""


@pytest.mark.timeout(60)
@pytest.mark.parametrize("width", [WIDTH, 1440])
def test_a_long_name_keeps_to_one_line_in_score_tables(player: Any, width: int) -> None:
    """A 150-character name broke anywhere in the last deal's table and made
    a column of sixteen lines beside the scores; it is cut, whole in its
    title, as on the board, and short enough that the table fits the side
    panel without scrolling."""
    page = player(width=width, height=844).page
    page.goto("/")
    longest = "W" * 150
    found = page.evaluate(SCORE_TABLES, longest)
    for what, table in found.items():
        assert table["lines"] == 1 and table["title"] == longest, (what, table)
        assert table["wide"] <= width, (what, table)
        assert not table["scrolls"], (what, table)
    # The dialog's line "<name> wins." keeps to one line as well.
    assert found["result"]["headline"] == 1, found["result"]


# Each Alkort seat's name on the felt: whether it shows whole.
SEAT_NAMES = """() => [...document.querySelectorAll('.alkort-felt .spot .seat-name')].map(
  (name) => ({ name: name.textContent, whole: name.scrollWidth <= name.clientWidth }))"""


@pytest.mark.timeout(120)
def test_a_long_own_name_leaves_room_for_the_side_seats_at_1440px(
    player: Any,
) -> None:
    """The felt's middle column (partner above, the seat's own box below)
    took every pixel a 150-character name asked for: the left and right
    seats shrank to 110 px, "random …" with their backs in two rows, beside
    an empty felt. The own box stops at 16em, as every seat box does."""
    person = player(1440, 900)
    page = person.page
    name = sign_up(person, prefix="wide", length=150)
    create_table(page, "alkort", 4)
    wait_turn(page)
    seats = page.evaluate(SEAT_NAMES)
    assert len(seats) == 4, seats
    cut = [seat["name"] for seat in seats if not seat["whole"]]
    assert cut == [name], cut


@pytest.mark.timeout(60)
def test_a_cut_name_in_a_sentence_keeps_its_you(player: Any) -> None:
    """The match-over line "<name> (you) reached 2 penalty points." lost its
    "(you)" with the cut name; it stays whole after the cut, as on the board."""
    page = player(width=WIDTH, height=844).page
    page.goto("/")
    shown = page.evaluate(
        """async (longest) => {
          const { marked, withNames } = await import('/static/web/js/games/common.js');
          const ctx = marked({ names: () => `${longest} (you)` });
          const line = document.createElement('p');
          line.style.width = '300px';
          line.append(...withNames(`${ctx.names(0)} reached 2 penalty points.`));
          document.querySelector('main').append(line);
          const name = line.querySelector('.name-cut');
          return { text: line.textContent, cut: name.textContent, title: name.title };
        }""",
        "W" * 150,
    )
    assert shown["text"] == "W" * 150 + " (you) reached 2 penalty points.", shown
    assert shown["cut"] == "W" * 150 and shown["title"] == "W" * 150 + " (you)"


# Alkort's board while a person with the longest name is to play, having
# won the last trick: the hint and the "Last trick" fold name them.
ALKORT_BOARD = """async (longest) => {
  const alkort = (await import('/static/web/js/games/alkort.js')).default;
  const view = { players: 2, sides: [[0], [1]], dealer: 0, phase: 'play', to_act: [1],
    trick: [], winning: null, hand_sizes: [8, 8], hand: ['2H', '3H', '4H', '5H', '6H', '7H', '8H', '9H'],
    tricks_won: { seats: [0, 1], sides: [0, 1] }, scores: [0, 0], target: 10, deal: 1,
    tricks: [{ winner: 1, cards: ['AS', 'KS'] }], outcome: null, exchange: null, reveal: null };
  const names = (seat) => (seat === 1 ? longest : 'ada (you)');
  const board = alkort.board({ view, names, seat: 0, legal: [], act: () => {} });
  document.querySelector('main').append(board);
  // The lines the text takes: the height its boxes span, in line heights.
  const lines = (node) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0);
    const span = Math.max(...rects.map((r) => r.bottom)) - Math.min(...rects.map((r) => r.top));
    return Math.round(span / parseFloat(getComputedStyle(node).lineHeight));
  };
  const fold = board.querySelector('.last-trick summary');
  const hint = board.querySelector('#action-hint');
  return { fold: lines(fold), foldText: fold.textContent, hint: lines(hint), hintText: hint.textContent };
}"""


@pytest.mark.timeout(60)
def test_the_board_cuts_a_long_name_in_its_hint_and_last_trick(
    player: Any,
) -> None:
    """ "Waiting for <name>…" and "Last trick: <name> won it" broke a
    150-character name over several lines under the hand."""
    page = player(width=WIDTH, height=844).page
    page.goto("/")
    longest = "W" * 150
    shown = page.evaluate(ALKORT_BOARD, longest)
    assert shown["foldText"] == f"Last trick: {longest} won it", shown
    assert shown["hintText"] == f"Waiting for {longest}…", shown
    assert shown["fold"] == 1 and shown["hint"] == 1, shown


# Each board's line that names another seat, drawn in the table page's board
# column with a 150-character name at seat 1 and again with a bot's there:
# how many lines each takes, and whether the long name in it is cut.
BOARD_LINES = """async (longest) => {
  const alkort = (await import('/static/web/js/games/alkort.js')).default;
  const allegra = (await import('/static/web/js/games/allegra.js')).default;
  const alkortView = { players: 4, sides: [[0, 2], [1, 3]], dealer: 3, hand_sizes: [9, 9, 9, 9],
    trick: [], to_act: [0], tricks_won: { seats: [0, 0, 0, 0], sides: [0, 0] }, scores: [0, 0], target: 10,
    phase: 'play', tricks: [], hand: ['AH', 'KH'], outcome: null,
    exchange: { exchanger: 1, shown: ['7S', '8S'] },
    reveal: { partner: 1, shown: 'AS', received: 'KS' } };
  const down = () => [0, 1, 2].map(() => ['down', 'down', 'down', 'down']);
  const allegraView = { players: 3, grids: [down(), down(), down()], to_act: [1], scores: [0, 0, 0],
    discard_pile: [5], out_of_play: [], draw_pile: 90, drawn: 7, active: 1, options: {},
    phase: 'drawer_place', trigger: null,
    knock: { knockers: [1, 2], knocker: 1, hand: null, hand_hidden: true, taken: null } };
  const giveView = { ...allegraView, active: 0, to_act: [0], knock: { knockers: [1, 2], knocker: null } };
  const layout = document.createElement('div');
  layout.className = 'table-layout';
  layout.innerHTML = '<section class="board" id="board"></section><aside class="side"></aside>';
  document.querySelector('main').append(layout);
  const board = layout.querySelector('.board');
  const linesOf = (line) => {
    const style = getComputedStyle(line);
    const inner = line.getBoundingClientRect().height - parseFloat(style.paddingTop)
      - parseFloat(style.paddingBottom) - parseFloat(style.borderTopWidth) - parseFloat(style.borderBottomWidth);
    return Math.round(inner / parseFloat(style.lineHeight));
  };
  const draw = (name) => {
    const names = (seat) => (seat === 1 ? name : `random bot ${seat + 1}`);
    const ctx = (view, legal = []) => ({ view, names, seat: 0, legal, events: [], act: () => {}, redraw: () => {} });
    const boards = {
      alkort: alkort.board(ctx(alkortView)),
      allegra: allegra.board(ctx(allegraView)),
      give: allegra.board(ctx(giveView, [{ type: 'give', to: 1 }])),
    };
    const found = {};
    for (const [game, node] of Object.entries(boards)) {
      board.replaceChildren(node);
      const lines = [...node.querySelectorAll('p, .pile-label, button')].filter((line) => !line.closest('.spot, .grid-block'));
      lines.forEach((line, i) => {
        if (!line.textContent.includes(name)) return;
        const cut = line.querySelector(`[title="${name}"]`);
        const shown = cut && (cut.querySelector('.seat-name') || cut);
        found[`${game} ${i}`] = { text: line.textContent.replaceAll(name, '<name>'), lines: linesOf(line),
          cut: Boolean(shown) && shown.scrollWidth > shown.clientWidth,
          wide: document.documentElement.scrollWidth };
      });
    }
    return found;
  };
  const found = { long: draw(longest), short: draw('random bot 2') };
  layout.remove();
  return found;
}"""


@pytest.mark.timeout(60)
@pytest.mark.parametrize("width", [WIDTH, 1440])
def test_a_long_name_on_the_board_is_cut_not_wrapped(player: Any, width: int) -> None:
    """Alkort's stock exchange ("<name> exchanged with the stock") and partner
    reveal, Allegra's knock line wrapped a 150-character name over many lines
    and pushed the hand down; its "Give it to <name>" button made a phone's
    page 1500 px wide. The name is cut, as in the turn bar, its whole self in
    the tooltip and the text; the line takes at most one line more than with
    a bot's name."""
    page = player(width=width, height=844).page
    page.goto("/")
    found = page.evaluate(BOARD_LINES, "W" * 150)
    texts = sorted(line["text"][:24] for line in found["long"].values())
    assert texts == [
        "<name> exchanged with th",
        "Give it to <name>",
        "Knocked: <name>, random ",
        "Knocked: <name>, random ",
        "Partner reveal: you show",
        "Waiting for <name>…",
        "drawn by <name>",
    ], texts
    for key, line in found["long"].items():
        short = found["short"][key]
        assert line["cut"] and line["lines"] <= short["lines"] + 1, (line, short)
        assert line["wide"] <= width, line


# A person with the longest name, rated at Alkort, playing the first round
# of a running tournament.
RANKED = """
import json
from stats.services import table_record
from stats.simulate import match_play, tables_insert
from tests.accounts.factories import UserFactory
from tests.tournaments.factories import TournamentFactory
from tournaments import services
from tournaments.models import Entry

me = UserFactory(username="PREFIX" + "W" * (150 - len("PREFIX")))
bob = UserFactory(username="PREFIXb")
ids = tables_insert([match_play("alkort", 2, "PREFIX", {"target": 1})] * 2, [[me, bob]] * 2, creator=me)
for table_id in ids:
    table_record(table_id=table_id)
tournament = TournamentFactory(name="Duels", game="alkort", table_size=2, options={"target": 1})
services.registration_open(tournament_id=tournament.pk)
# Named: each set-up's factory counts from "player1" again on a shared database.
others = [UserFactory(username=f"PREFIX{n}") for n in "cd"]
for person in (me, bob, *others):
    Entry.objects.create(tournament=tournament, player=person)
services.round_seat(tournament_id=tournament.pk)
services.round_start(tournament_id=tournament.pk, user=UserFactory(username="PREFIXs", is_staff=True))
services.standings_recompute(tournament_id=tournament.pk)
print(json.dumps({"name": me.username, "tournament": tournament.pk}))
"""

# A table's long name: on one line, and the cell after it (the rating, the
# points) inside the table's box, seen without scrolling it sideways.
TABLE_FIT = """([selector, name]) => {
  const table = document.querySelector(selector);
  const link = table.querySelector(`[title="${name}"]`);
  const box = (table.closest('.table-scroll') || table.parentElement).getBoundingClientRect();
  const cell = link && link.closest('th, td');
  const next = cell && cell.nextElementSibling;
  return { cut: Boolean(link), lines: link && Math.round(link.getBoundingClientRect().height
      / parseFloat(getComputedStyle(link).lineHeight)),
    fits: Boolean(next) && next.getBoundingClientRect().right <= box.right + 1 };
}"""


@pytest.mark.timeout(120)
def test_a_long_name_leaves_the_leaderboard_and_standings_their_columns(
    player: Any, live_manage: Callable[[str], str]
) -> None:
    """A 150-character name took the whole width of the leaderboard and the
    tournament's standings, at 1440 px too: the rating, the points and the
    rest of each row were past the box's edge, seen only by scrolling it
    sideways, and a round's table named the person over four lines. The name
    is cut with an ellipsis, whole in its title, as on the table page."""
    made = json.loads(
        live_manage(RANKED.replace("PREFIX", unique_name("rank"))).splitlines()[-1]
    )
    name = made["name"]
    page = player(width=WIDTH, height=844).page
    for width in (WIDTH, 1440):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto("/leaderboards/alkort/")
        page.wait_for_selector(f"#leaderboard [title='{name}']")
        shown = page.evaluate(TABLE_FIT, ["#leaderboard", name])
        assert shown == {"cut": True, "lines": 1, "fits": True}, (width, shown)
        page.goto(f"/tournaments/{made['tournament']}/")
        page.wait_for_selector("#standings")
        shown = page.evaluate(TABLE_FIT, ["#standings", name])
        assert shown == {"cut": True, "lines": 1, "fits": True}, (width, shown)
        shown = page.evaluate(TABLE_FIT, ["#rounds", name])
        assert shown["cut"] and shown["lines"] == 1, (width, shown)
        assert _page_width(page) <= width


# A finished two-player Alkort match of a person with the longest name.
FINISHED = """
import json
from stats.simulate import match_play, tables_insert
from tests.accounts.factories import UserFactory

me = UserFactory(username="PREFIX" + "W" * (150 - len("PREFIX")))
ids = tables_insert(
    [match_play("alkort", 2, "PREFIX", {"target": 1})], [[me, UserFactory(username="PREFIXo")]], creator=me
)
print(json.dumps({"name": me.username, "table": ids[0]}))
"""


@pytest.mark.timeout(90)
def test_a_long_name_in_the_replays_point_of_view_keeps_the_page_narrow(
    player: Any, live_manage: Callable[[str], str]
) -> None:
    """The replay's "Point of view" list offers each seat's cards by name: the
    select took its longest option's width, and a 150-character name made the
    page 2470 px wide at 390 px. The step's line named the winner over five
    lines, and the log's lines as many."""
    made = json.loads(
        live_manage(FINISHED.replace("PREFIX", unique_name("view"))).splitlines()[-1]
    )
    page = player(width=WIDTH, height=844).page
    page.goto(f"/tables/{made['table']}/replay/")
    expect(page.locator("#viewpoint option")).to_have_count(3)
    expect(page.locator("#step-text")).to_contain_text("Step ")
    assert made["name"] in page.locator("#viewpoint").inner_text()
    assert _page_width(page) <= WIDTH, f"the replay is {_page_width(page)}px wide"
    # A step's line that names the person ("Step 2 of 30: Deal 1: <name>
    # deals, … leads.") and the log's lines cut the name as the table's turn
    # bar and log do.
    page.locator("#log li button", has_text=made["name"]).first.click()
    expect(page.locator("#step-text")).to_contain_text(made["name"])
    assert page.locator(f"#step-text .name-cut[title='{made['name']}']").count() == 1
    step = page.evaluate(
        """() => { const bar = document.getElementById('step-text');
          const style = getComputedStyle(bar);
          return Math.round((bar.clientHeight - parseFloat(style.paddingTop)
            - parseFloat(style.paddingBottom)) / parseFloat(style.lineHeight)); }"""
    )
    assert step <= 2, step
    log_lines = page.evaluate(LOG_LINES, made["name"])
    assert log_lines and max(log_lines) <= 2, log_lines


# Alager's last-deal table in the table page's side panel, with an ordinary
# name at seat 1 ("<name> (you)"): whether the name shows whole.
SIDE_DEAL_NAME = """async (name) => {
  const alager = (await import('/static/web/js/games/alager.js')).default;
  const names = (seat) => (seat === 0 ? `${name} (you)` : `random bot ${seat + 1}`);
  const view = {
    options: { end_mode: 'first_to_limit', penalty_limit: 5 }, penalties: [1, 0],
    last_deal: { deal: 1, reason: 'konec', knocker: 0, specials: [], hands: [['AH', 'KH', 'QH'], ['2C', '3C', '4C']],
      changes: [1, 0], penalties: [1, 0], values: [31, 9] },
  };
  const layout = document.createElement('div');
  layout.className = 'table-layout';
  layout.innerHTML = '<section class="board"></section><aside class="side"><section class="panel compact"></section></aside>';
  document.querySelector('main').append(layout);
  const node = alager.summary({ view, names, seat: 0, legal: [] });
  layout.querySelector('.panel').append(node);
  const shown = node.querySelector(`[title="${name} (you)"] .seat-name`);
  const whole = shown.scrollWidth <= shown.clientWidth;
  layout.remove();
  return whole;
}"""


@pytest.mark.timeout(60)
def test_an_ordinary_name_shows_whole_in_the_last_deal_on_a_phone(player: Any) -> None:
    """The side panel's score tables cut a name past 8em so that the last
    deal's four columns fit the panel's 300 px beside a desktop's board. On
    a phone the panel is the page's width, yet the player's own 11-character
    name still showed as "qala2… (you)" with room to spare."""
    page = player(width=WIDTH, height=844).page
    page.goto("/")
    assert page.evaluate(SIDE_DEAL_NAME, "qala2p11659")


# Names cut at every width from 20 to 160 px, as a seat's label (the seats, the
# score tables): each cut one's box, relative to the probe's.
CUT_NAMES = """async (names) => {
  const { seatLabel } = await import('/static/web/js/games/common.js');
  const probe = document.createElement('div');
  probe.id = 'cut-probe';
  // Black on white and no underline, so the letters' ink is easy to find.
  probe.style.cssText = 'background: #fff; color: #000; padding: 4px; width: max-content';
  const style = document.createElement('style');
  style.textContent = '#cut-probe a { color: #000; text-decoration: none; }';
  probe.append(style);
  document.querySelector('main').prepend(probe);
  const rows = [];
  for (const name of names) {
    for (let width = 20; width <= 160; width += 3) {
      const row = document.createElement('div');
      const label = seatLabel(name, 'a', { href: '#' });
      label.style.maxWidth = `${width}px`;
      row.append(label);
      const cut = label.querySelector('.seat-name');
      probe.append(row);
      if (cut.scrollWidth <= cut.clientWidth) row.remove();
      else rows.push({ name, width, cut, text: row.textContent });
    }
  }
  const origin = probe.getBoundingClientRect();
  return rows.map(({ cut, ...row }) => {
    const box = cut.getBoundingClientRect();
    return { ...row, left: box.left - origin.left, top: box.top - origin.top,
      right: box.right - origin.left, bottom: box.bottom - origin.top };
  });
}"""

# The probe's screenshot, read back through a canvas: in each cut name's box,
# the runs of columns with ink. The ellipsis is the last three (its dots); the
# gap before it is the blank between the last letter and its first dot.
ELLIPSIS_GAPS = """async ([png, rows]) => {
  const image = new Image();
  image.src = `data:image/png;base64,${png}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = image.width;
  canvas.height = image.height;
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const pixels = context.getImageData(0, 0, image.width, image.height).data;
  const scale = window.devicePixelRatio;
  return rows.map((row) => {
    const runs = [];
    for (let x = Math.floor(row.left * scale); x < Math.ceil(row.right * scale); x++) {
      let ink = false;
      for (let y = Math.ceil(row.top * scale); y < Math.floor(row.bottom * scale) && !ink; y++) {
        const at = (y * image.width + x) * 4;
        ink = (pixels[at] + pixels[at + 1] + pixels[at + 2]) / 3 < 160;
      }
      if (!ink) continue;
      const last = runs[runs.length - 1];
      if (last && last[1] === x) last[1] = x + 1;
      else runs.push([x, x + 1]);
    }
    const n = runs.length;
    return { name: row.name, width: row.width, text: row.text,
      before: n >= 4 ? (runs[n - 3][0] - runs[n - 4][1]) / scale : null,
      dots: n >= 4 ? (runs[n - 2][0] - runs[n - 3][1]) / scale : null };
  });
}"""


@pytest.mark.timeout(60)
@pytest.mark.parametrize("width", [WIDTH, 1440])
def test_a_cut_name_ends_with_its_ellipsis_right_after_a_letter(
    player: Any, width: int
) -> None:
    """A name with a space in it (a bot's "random bot 2", a partnership's
    "North–South (your side)") cut just after the space showed "random …":
    a blank a space wide between the word and the ellipsis. In a seat's
    label the ellipsis follows a letter, as close as its own dots are to
    each other, at every width; the text a screen reader reads keeps the
    name whole. (A name in a sentence is still cut letter by letter: a word
    hidden whole there would leave its blank before the rest of the line.)"""
    page = player(width=width, height=900).page
    page.goto("/")
    names = ["random bot 2", "North–South (your side)", "qala2p11659", "W" * 40]
    rows = page.evaluate(CUT_NAMES, names)
    assert {row["name"] for row in rows} == set(names)
    png = base64.b64encode(page.locator("#cut-probe").screenshot()).decode()
    cuts = page.evaluate(ELLIPSIS_GAPS, [png, rows])
    shown = [cut for cut in cuts if cut["before"] is not None]
    assert len(shown) > len(cuts) / 2, cuts
    # A letter's own blank beside the ellipsis is 1 to 4 px; a space's is 8.
    gaps = [cut for cut in shown if cut["before"] > cut["dots"] + 2]
    assert not gaps, gaps
    for cut in cuts:
        assert cut["text"] == cut["name"], cut
    # Nor does a screen reader hear the words apart or run together.
    page.evaluate(
        """() => { const link = document.querySelector('#cut-probe a[title="random bot 2"]');
          link.id = 'cut-link'; }"""
    )
    expect(page.locator("#cut-link")).to_have_accessible_name("random bot 2")


# The board's hint naming the seats still to answer in Allegra's knock window,
# in boxes of every width a phone gives it: whether a line starts with the
# comma or the ellipsis that follows a name.
PUNCTUATION_AFTER_NAMES = """async () => {
  const { marked, waitingFor, withNames } = await import('/static/web/js/games/common.js');
  const names = (seat) => (seat === 0 ? 'ada (you)' : `basic bot ${seat + 1}`);
  const ctx = { names, legal: [], view: { to_act: [1, 2, 3, 5] } };
  const orphans = [];
  for (let width = 160; width <= 360; width += 2) {
    const line = document.createElement('p');
    line.className = 'hint';
    line.style.width = `${width}px`;
    line.append(...withNames(waitingFor(marked(ctx))));
    document.querySelector('main').append(line);
    for (const name of line.querySelectorAll('.name-cut')) {
      let after = name.nextSibling;
      while (after && after.nodeType !== Node.TEXT_NODE) after = after.firstChild;
      if (!after || !/^[,.…]/.test(after.textContent)) continue;
      const range = document.createRange();
      range.setStart(after, 0);
      range.setEnd(after, 1);
      if (range.getBoundingClientRect().top >= name.getBoundingClientRect().bottom - 1) {
        orphans.push(`${width}px: "${after.textContent.slice(0, 12)}"`);
      }
    }
    line.remove();
  }
  return orphans;
}"""


@pytest.mark.timeout(60)
def test_a_comma_or_ellipsis_after_a_name_stays_on_its_line(player: Any) -> None:
    """ "Waiting for basic bot 2, basic bot 3, basic bot 4, basic bot 6…" broke
    before a comma at 390 px, and a line of the hint began ", basic bot 6…":
    a cut name is a box of its own, and the line could break after it."""
    page = player(width=WIDTH, height=844).page
    page.goto("/")
    page.wait_for_load_state("load")
    assert page.evaluate(PUNCTUATION_AFTER_NAMES) == []
