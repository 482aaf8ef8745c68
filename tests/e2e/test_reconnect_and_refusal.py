"""Leaving and coming back loses nothing; a refused move says why and changes nothing."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.flows import (
    alkort_move,
    allegra_move,
    create_table,
    move_done,
    play_to_end,
    seq,
    sign_up,
    wait_live,
    wait_turn,
)


def _hand(page: Any) -> list[str]:
    return page.locator(".hand svg[data-card]").evaluate_all(
        "nodes => nodes.map(n => n.dataset.card)"
    )


@pytest.mark.timeout(180)
def test_close_the_page_mid_match_open_it_again_and_finish(player: Any) -> None:
    person = player()
    sign_up(person)
    table_id = create_table(person.page, "alkort", 2, {"target": 2})
    play_to_end(person.page, "alkort", stop_after=3)
    assert wait_turn(person.page) == "turn"
    hand, at = _hand(person.page), seq(person.page)
    log = person.page.locator("#log li").all_text_contents()

    person.page.close()
    page = person.new_page()
    page.goto(f"/tables/{table_id}/")
    page.wait_for_selector(f"#table-page[data-seq='{at}']")

    assert _hand(page) == hand
    assert page.locator("#log li").all_text_contents() == log
    assert wait_turn(page) == "turn"
    play_to_end(page, "alkort")
    page.locator("dialog#result").wait_for(state="visible")


def _alkort_turn(player: Any) -> Any:
    """A person's page at their first turn of a two-player Alkort match
    against a bot, expecting a refused move (Chromium logs its 4xx)."""
    person = player()
    person.expected_failures.append("/actions/")
    sign_up(person)
    create_table(person.page, "alkort", 2, {"target": 1})
    assert wait_turn(person.page) == "turn"
    return person.page


@pytest.mark.timeout(120)
def test_a_refused_move_shows_the_rules_message_and_changes_nothing(
    player: Any,
) -> None:
    page = _alkort_turn(player)
    hand, at = _hand(page), seq(page)
    phase = page.request.get(page.url.replace("/tables/", "/api/tables/")).json()[
        "view"
    ]["phase"]
    missing = next(c for c in ("2C", "3C", "4C", "6C", "7C", "8C") if c not in hand)

    page.evaluate(f"window.cardroom.act({{type: 'play', card: '{missing}'}})")

    expected = (
        "Cards are played after the stock exchange: exchange or pass first"
        if phase == "exchange"
        else f"{missing} is not in your hand"
    )
    refusal = page.locator("#refusal")
    refusal.wait_for(state="visible")
    assert refusal.text_content() == expected
    assert seq(page) == at
    assert _hand(page) == hand
    assert page.get_attribute("#table-page", "data-myturn") == "1"


def _act_one_behind(page: Any, action_type: str) -> int:
    """Play the seat's legal ``action_type`` as the page does, believing the
    table one seq behind where it is, as when another seat's move lands
    between a press and its arrival: the move goes out with a stale
    ``expected_seq``. Both in one script, so no frame comes in between."""
    at = seq(page)
    page.evaluate(
        """type => {
          const client = window.cardroom.client;
          const action = client.legal.find((a) => a.type === type);
          client.seq -= 1;
          window.cardroom.act(action);
        }""",
        action_type,
    )
    return at


def answer_settled(page: Any, at: int, seat: int) -> None:
    """Wait until the page's move sent after ``at`` is settled: no longer in
    flight (the board is not busy), and either the page holds an event of
    ``seat``'s after ``at`` (the move landed) or a refusal is shown. Another
    seat's event after ``at`` says nothing about this seat's move."""
    page.wait_for_function(
        """([at, seat]) => {
          if (document.getElementById('board').classList.contains('busy')) return false;
          if (!document.getElementById('refusal').hidden) return true;
          return window.cardroom.client.events.some((e) => e.seq > at && e.seat === seat);
        }""",
        arg=[at, seat],
        timeout=20_000,
    )


@pytest.mark.timeout(300)
def test_a_knock_answer_overtaken_by_another_seat_is_sent_again(
    player: Any,
) -> None:
    """In Allegra's knock window every eligible seat answers at once: another
    seat's answer landing first must not cost the player their answer."""
    person = player()
    # The first answer is refused as stale before the page sends it again.
    person.expected_failures.append("/actions/")
    sign_up(person)
    # The deals are random: a short match can end before this seat is ever
    # eligible for a window (CI once saw 3 rounds pass without one), so play
    # the longest match; the test stops at the first window anyway.
    create_table(person.page, "allegra", 3, {"rounds": 20})
    page = person.page
    for _ in range(600):
        assert wait_turn(page) == "turn", "the match ended before a knock window"
        view = page.evaluate("window.cardroom.client.view")
        if view["phase"] == "knock_window":
            break
        before = seq(page)
        allegra_move(page)
        move_done(page, before)
    else:
        raise AssertionError("no knock window for this seat in 600 moves")

    mine = page.evaluate("window.cardroom.client.table.seat")
    at = _act_one_behind(page, "pass")

    # The bots answer the window at once too, before this seat or after it:
    # a bot's answer moves the seq on as well, so wait for this seat's own.
    answer_settled(page, at, mine)
    refusal = page.locator("#refusal")
    assert refusal.is_hidden(), f"the answer was refused: {refusal.text_content()}"
    events = page.request.get(
        page.url.replace("/tables/", "/api/tables/") + f"events/?after={at}"
    ).json()
    answers = [
        e["payload"]
        for e in events
        if e["type"] == "allegra.knock_answered" and e["seat"] == mine
    ]
    assert answers == [{"seat": mine, "knock": False}]


@pytest.mark.timeout(120)
def test_a_stale_move_outside_a_shared_window_asks_to_choose_again(
    player: Any,
) -> None:
    page = _alkort_turn(player)
    hand = _hand(page)
    # Keep the hand in the stock exchange; or, when the bot speaking first
    # exchanged and so ended that phase (about 1 deal in 200), play a card.
    first = page.evaluate("window.cardroom.client.legal[0].type")
    at = _act_one_behind(page, first)

    refusal = page.locator("#refusal")
    refusal.wait_for(state="visible")
    assert refusal.text_content() == (
        "The table moved on before your move arrived: here it is now, choose again."
    )
    page.wait_for_selector(f"#table-page[data-seq='{at}']")  # caught up, unmoved
    assert _hand(page) == hand
    assert page.get_attribute("#table-page", "data-myturn") == "1"


@pytest.mark.timeout(120)
def test_a_timed_table_shows_the_move_clock(player: Any) -> None:
    """The deadline comes with the table and every frame, not in the view:
    the turn bar must count down to it (it used to stay hidden)."""
    person = player()
    sign_up(person)
    table_id = create_table(person.page, "alkort", 2, {"target": 1}, time_control=60)
    page = person.page
    assert wait_turn(page) == "turn"
    table = page.request.get(f"/api/tables/{table_id}/").json()
    assert table["time_control"] == 60 and table["deadline"]

    timer = page.locator("#timer")
    expect(timer).to_be_visible()
    expect(timer).to_have_text(re.compile(r"Time left: [01]:\d\d$"))
    # The clock moves on with the table: after this seat's move, the frame's
    # new deadline is shown (the bot's move follows at once in the tests).
    before = seq(page)
    alkort_move(page)
    move_done(page, before)
    expect(timer).to_be_visible()


# The clock of the table's current move has run out (as if 60 s had passed)
# and the turn timer job runs: what the Celery task does on a deployment.
EXPIRE = """
from datetime import timedelta
from django.utils import timezone
from games.models import Table
from games.services.timers import turn_timer_expire
Table.objects.filter(pk={table}).update(updated_at=timezone.now() - timedelta(seconds=60))
print(turn_timer_expire(table_id={table}, seq={seq}))
"""


@pytest.mark.timeout(120)
def test_a_person_whose_clock_ran_out_is_told(
    player: Any, live_manage: Callable[[str], str]
) -> None:
    """The move a timer makes for a seat reads in the log like the seat's
    own: the page says the time ran out, to the seat and on the seat list."""
    person = player()
    sign_up(person)
    table_id = create_table(person.page, "alkort", 2, {"target": 2}, time_control=30)
    page = person.page
    assert wait_turn(page) == "turn"
    at = seq(page)

    played = live_manage(EXPIRE.format(table=table_id, seq=at)).strip()

    assert played != "None", "the timer did not play"
    expect(page.locator("#refusal")).to_have_text(
        "Your time ran out: the table made a move for you (see the log)."
    )
    expect(page.locator(".seat-item.mine .timeouts")).to_have_text("timed out")
    # Their next move of their own clears the mark.
    assert wait_turn(page) == "turn"
    page.keyboard.press("Escape")  # the notice, read
    expect(page.locator("#refusal")).to_be_hidden()
    before = seq(page)
    alkort_move(page)
    move_done(page, before)
    expect(page.locator(".seat-item.mine .timeouts")).to_have_count(0)


@pytest.mark.timeout(120)
def test_the_time_ran_out_notice_stays_until_the_person_moves(
    player: Any, live_manage: Callable[[str], str]
) -> None:
    """The notice went away after 8 seconds, as a refused move's does: a
    person back at the tab found "Your turn" and no word that the table had
    moved for them (or, after three, that a bot was playing their seat)."""
    person = player()
    sign_up(person)
    table_id = create_table(person.page, "alkort", 2, {"target": 2}, time_control=30)
    page = person.page
    assert wait_turn(page) == "turn"

    played = live_manage(EXPIRE.format(table=table_id, seq=seq(page))).strip()

    assert played != "None", "the timer did not play"
    notice = page.locator("#refusal")
    expect(notice).to_have_text(
        "Your time ran out: the table made a move for you (see the log)."
    )
    page.wait_for_timeout(9_000)  # longer than a refused move's message stays
    expect(notice).to_be_visible()
    # The person's own move is the answer to it (move_done would take the
    # notice, still up until the move's answer, for a refusal).
    assert wait_turn(page) == "turn"
    before = seq(page)
    alkort_move(page)
    expect(notice).to_be_hidden()
    assert seq(page) > before


# A move in flight on the socket (a stand-in socket records what is sent), then
# the frames the server may send meanwhile: `first` (a frame of this seat's
# move, of another seat's, or a full resync at the same seq) and then `then`.
IN_FLIGHT = """async ({ firstSeat, thenType }) => {
  const c = window.cardroom.client;
  const sent = [];
  c.socket = { readyState: WebSocket.OPEN, send: (text) => sent.push(JSON.parse(text)), close() {} };
  const refused = [];
  c.addEventListener('refused', (e) => refused.push(e.detail.error.code));
  const at = c.seq;
  if (c.mode !== 'socket') throw new Error(`the page is on ${c.mode}, not its socket`);
  const mine = c.table.seat;
  let outcome = 'pending';
  const move = c.actOnce(c.legal[0]).then(() => { outcome = 'resolved'; },
    (err) => { outcome = `rejected: ${err.code}`; });
  const tick = () => new Promise((r) => setTimeout(r, 50));
  const frame = (seat) => ({ type: 'state', seq: at + 1, status: 'playing', seat: mine, full: false,
    view: c.view, legal_actions: c.legal, deadline: null,
    events: [{ seq: at + 1, type: 'test.moved', version: 1, payload: {}, seat }] });
  if (firstSeat === 'resync') {
    // The full frame a socket sends on connecting, read before the move.
    c.onFrame({ ...frame(mine), seq: at, full: true, events: [] });
  } else {
    c.onFrame(frame(firstSeat === 'mine' ? mine : 1 - mine));
  }
  await tick();
  const afterFirst = outcome;
  if (thenType === 'stale') {
    c.onFrame({ type: 'error', code: 'stale', message: 'stale', command_id: sent[0].command_id });
  }
  await tick();
  return { afterFirst, outcome, refused };
}"""


@pytest.mark.timeout(120)
def test_another_seats_frame_does_not_answer_my_move_in_flight(player: Any) -> None:
    """Only a frame with the seat's own move answers its move: another seat's
    move pushed while it is in flight used to count as the answer, and the
    stale refusal that followed showed as an unexplained error (and was
    never sent again in Allegra's knock window)."""
    page = _alkort_turn(player)
    wait_live(page)  # else the move goes over REST, not the stand-in socket

    other = page.evaluate(IN_FLIGHT, {"firstSeat": "other", "thenType": "stale"})

    assert other == {
        "afterFirst": "pending",
        "outcome": "rejected: stale",
        "refused": [],
    }


@pytest.mark.timeout(120)
def test_the_frame_of_my_own_move_answers_it(player: Any) -> None:
    page = _alkort_turn(player)
    wait_live(page)

    mine = page.evaluate(IN_FLIGHT, {"firstSeat": "mine", "thenType": "none"})

    assert mine == {"afterFirst": "resolved", "outcome": "resolved", "refused": []}


@pytest.mark.timeout(120)
def test_the_full_frame_of_a_fresh_socket_does_not_answer_my_move(player: Any) -> None:
    """A socket sends a full frame on connecting, read before the move: it
    used to count as the move's answer (and made the test above flaky when
    it arrived during it)."""
    page = _alkort_turn(player)
    wait_live(page)

    resync = page.evaluate(IN_FLIGHT, {"firstSeat": "resync", "thenType": "stale"})

    assert resync == {
        "afterFirst": "pending",
        "outcome": "rejected: stale",
        "refused": [],
    }


# The socket lost while the network is away: the page falls back to REST and
# its next try at the socket waits out the back-off (a stand-in for a long
# one), unless the browser says it is back online.
LOSE_THE_SOCKET = """async () => {
  const c = window.cardroom.client;
  const closed = new Promise((r) => c.socket.addEventListener('close', r));
  c.socket.close();
  await closed;
  clearTimeout(c.retryTimer);
  return c.mode;
}"""


@pytest.mark.timeout(120)
def test_the_socket_comes_back_as_soon_as_the_browser_is_online(player: Any) -> None:
    page = _alkort_turn(player)
    wait_live(page)

    assert page.evaluate(LOSE_THE_SOCKET) == "polling"
    page.wait_for_timeout(1500)  # the back-off's first wait, cancelled above
    assert page.evaluate("window.cardroom.client.mode") == "polling"

    page.evaluate("window.dispatchEvent(new Event('online'))")
    wait_live(page)
    expect(page.locator("#conn")).to_have_text("live")


@pytest.mark.timeout(120)
def test_a_redraw_that_changes_nothing_leaves_the_board_alone(player: Any) -> None:
    """Polls and presence frames redraw the page. Cards replaced under the
    pointer between press and release would lose the click, and an opened
    "Last trick" would snap shut: an unchanged table keeps its very nodes."""
    person = player()
    sign_up(person)
    page = person.page
    create_table(page, "alkort", 2, {"target": 2})
    # Through the exchange and the first trick, to this seat's turn again.
    while not page.locator("#board .last-trick").count():
        assert wait_turn(page) == "turn"
        before = seq(page)
        alkort_move(page)
        move_done(page, before)
    assert wait_turn(page) == "turn"
    page.locator("#board .last-trick summary").click()
    kept = page.evaluate(
        """async () => {
          const board = document.getElementById('board');
          const first = board.firstElementChild;
          for (let i = 0; i < 3; i += 1) await window.cardroom.client.refresh();
          return {
            same: board.firstElementChild === first,
            open: board.querySelector('.last-trick').open,
          };
        }"""
    )
    assert kept == {"same": True, "open": True}
    # A change still redraws: the move lands and the board moves on.
    before = seq(page)
    alkort_move(page)
    move_done(page, before)


@pytest.mark.timeout(150)
def test_a_socket_gone_silent_is_given_up_and_the_table_followed_again(
    player: Any,
) -> None:
    """A connection that dies without a close (a phone moving from Wi-Fi to
    mobile data, a router dropping the line) leaves the socket open in the
    browser: the page said "live" and waited for frames that never came,
    until the system gave the connection up many minutes later. The socket
    now counts as gone when a ping gets no answer, and the page follows the
    table over REST and a fresh socket."""
    person = player()
    sign_up(person)
    page = person.page
    silent = {"on": False, "sockets": 0}

    def relay(ws: Any) -> None:
        # The browser's socket goes through here to the server; once
        # `silent` is on, the first socket's frames stop in both directions
        # and nothing closes it, as on a dead line.
        silent["sockets"] += 1
        first = silent["sockets"] == 1
        server = ws.connect_to_server()
        dead = lambda: first and silent["on"]  # noqa: E731
        ws.on_message(lambda message: None if dead() else server.send(message))
        server.on_message(lambda message: None if dead() else ws.send(message))

    page.route_web_socket(re.compile(r"/ws/tables/"), relay)
    create_table(page, "alkort", 2, {"target": 2})
    assert wait_turn(page) == "turn"
    wait_live(page)

    silent["on"] = True
    # Within a ping's round (20 s) and the wait for its answer, the page
    # gives the socket up: it follows the table over REST, then a new socket.
    page.wait_for_function(
        "() => window.cardroom.client.mode !== 'socket'", timeout=45_000, polling=500
    )
    wait_live(page)
    assert silent["sockets"] >= 2
    before = seq(page)
    alkort_move(page)
    move_done(page, before)


@pytest.mark.timeout(150)
def test_a_move_whose_request_hangs_is_said_not_to_have_arrived(player: Any) -> None:
    """A request on a line that died without a close gets no answer and no
    error for minutes: the move's POST left the page dimmed on "Sending your
    move…" with nothing to press, and a poll that hung stopped the polling
    for good. A request unanswered for 15 s now counts as one the server did
    not get: the page says the move may not have arrived, and the same move
    pressed again goes as the same command."""
    person = player()
    sign_up(person)
    page = person.page
    create_table(page, "alkort", 2, {"target": 2})
    assert wait_turn(page) == "turn"
    # No socket (each one is closed as it opens): the page plays over REST.
    page.route_web_socket(re.compile(r"/ws/tables/"), lambda ws: ws.close())
    page.reload()
    assert wait_turn(page) == "turn"
    page.wait_for_function("() => window.cardroom.client.mode === 'polling'")
    hung: list[Any] = []
    actions = re.compile(r"/api/tables/\d+/actions/$")

    def hang(route: Any) -> None:
        hung.append(route)  # never answered, as on a dead line

    page.route(actions, hang)

    before = seq(page)
    alkort_move(page)

    notice = page.locator("#refusal")
    expect(notice).to_contain_text("your move may not have arrived", timeout=25_000)
    assert hung, "the move was not sent"
    expect(page.locator("#board")).not_to_have_class(re.compile(r"\bbusy\b"))
    # The line is back: the same move, pressed again, lands once.
    page.unroute(actions)
    page.keyboard.press("Escape")  # the notice, read
    alkort_move(page)
    move_done(page, before)


# Every text the connection label shows from now on, in order.
RECORD_THE_LABEL = """() => {
  const conn = document.getElementById('conn');
  window.connSeen = [];
  new MutationObserver(() => window.connSeen.push(conn.textContent))
    .observe(conn, { childList: true, characterData: true, subtree: true });
}"""


@pytest.mark.timeout(120)
def test_a_dropped_socket_with_no_line_left_is_never_called_live(player: Any) -> None:
    """A socket dropped while the server cannot be reached at all: the label
    said "live (polling)" at once, before any poll had answered, and only
    the first poll's failure turned it to "reconnecting…". The page now says
    it follows the table only once a poll has answered."""
    person = player()
    sign_up(person)
    page = person.page
    line = {"down": False}
    sockets: list[Any] = []

    def relay(ws: Any) -> None:
        # The browser's sockets go through here; while the line is down a
        # new one is closed as it opens.
        if line["down"]:
            ws.close()
            return
        sockets.append(ws)
        server = ws.connect_to_server()
        ws.on_message(server.send)
        server.on_message(ws.send)

    page.route_web_socket(re.compile(r"/ws/tables/"), relay)
    create_table(page, "alkort", 2, {"target": 2})
    assert wait_turn(page) == "turn"
    wait_live(page)
    conn = page.locator("#conn")
    expect(conn).to_have_text("live")
    page.evaluate(RECORD_THE_LABEL)

    # The line goes: REST fails, the socket is dropped and cannot come back.
    line["down"] = True
    tables = re.compile(r"/api/tables/")
    page.route(tables, lambda route: route.abort())
    sockets[-1].close()
    page.wait_for_function("() => window.cardroom.client.mode === 'polling'")
    expect(conn).to_have_text("reconnecting…")
    page.wait_for_timeout(3000)  # a few polls and a try at the socket, all failing
    seen = page.evaluate("window.connSeen")
    assert seen and all(not text.startswith("live") for text in seen), seen
    expect(conn).to_have_class(re.compile(r"\bdown\b"))
    # The browser reports each failed poll; those, and only those, were meant.
    failed = [
        e for e in person.errors if "net::ERR_FAILED" in e and "/api/tables/" in e
    ]
    assert failed and failed == person.errors
    person.errors.clear()

    # The line is back: the page says so once it hears from the server.
    page.unroute(tables)
    line["down"] = False
    expect(conn).to_have_text(re.compile(r"^live"), timeout=20_000)
    wait_live(page)
    expect(conn).to_have_text("live")
