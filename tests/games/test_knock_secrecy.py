"""Allegra's knock answers stay secret until all are in, on every channel.

In a knock window every other seat answers at once, knock or pass, and the
answers stay hidden until the last is in (docs/rules/allegra.md §7.3). That
a seat has answered is public (``pending`` shrinks); what it answered is not.
The card leak oracle (``tests/games/test_leak_oracle.py``) cannot see this
secret, which is no card, so it is checked here as indistinguishability:
while a window is open, each answer already given is flipped (knock <-> pass)
in a copy of the table, and everyone but the seat that answered (the other
seats, a spectator, a logged-in stranger) must read exactly the same thing
from both tables: the table, the events (all, and since a recent seq), the
export, the socket's first frame and its catch-up frame, presence, the
answers to moves they try meanwhile (out of turn, stale, illegal), and every
log line written while they read (every logger at DEBUG).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from rest_framework.throttling import SimpleRateThrottle

import rules
from games import event_store
from games.models import Table
from tests.accounts.factories import UserFactory
from tests.games.conftest import Player
from tests.games.leak_payloads import Reader, reads_alike, table_with_history
from tests.games.tables import seat_users, table_started

pytestmark = [pytest.mark.django_db, pytest.mark.timeout(600)]

GAME = rules.get_game("allegra")
WINDOWS = 3  # knock windows compared per match (each answer in them flipped)


@pytest.fixture(autouse=True)
def _unthrottled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        SimpleRateThrottle, "THROTTLE_RATES", {"anon": None, "user": None}
    )


def _flipped(events: list[rules.Event], seat: int) -> list[rules.Event]:
    """``events`` with ``seat``'s answer in the open knock window flipped."""
    out = list(events)
    at = max(
        i
        for i, e in enumerate(out)
        if e.type == "allegra.knock_answered" and e.payload["seat"] == seat
    )
    out[at] = out[at].with_payload(knock=not out[at].payload["knock"])
    return out


#: Moves every reader tries while a window is open (none it may make then).
TRIES = [
    {"type": "knock"},
    {"type": "pass"},
    {"type": "draw"},
    {"type": "give", "to": 0},
    {"type": "ignore"},
]


def _window_answered(table: Table) -> list[int]:
    """The seats that have answered the open knock window (none: no window,
    or nobody left to answer)."""
    state = GAME.load_state(table.state)
    k = state.knock
    if state.phase != "knock_window" or k is None or not k.pending:
        return []
    return [s for s in k.eligible if s not in k.pending]


def _move(table: Table, seats: dict[int, Player], rng: random.Random) -> None:
    """A random move of a seat to act; draws come often, to open windows."""
    state = GAME.load_state(table.state)
    seat = rng.choice(list(GAME.to_act(state)))
    legal = GAME.legal_actions(state, seat)
    draws = [a for a in legal if a["type"] == "draw"]
    kind = rng.choice(sorted({a["type"] for a in legal}))
    action = (
        draws[0]
        if draws and rng.random() < 0.6
        else rng.choice([a for a in legal if a["type"] == kind])
    )
    response = seats[seat].post(
        f"/api/tables/{table.pk}/actions/",
        {"action": action, "expected_seq": table.seq},
    )
    assert response.status_code == 200, response.content


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_no_one_else_can_tell_a_knock_answer_before_all_are_in(
    player: Callable[..., Player], players: int
) -> None:
    table = table_started(
        game="allegra",
        seating=[UserFactory() for _ in range(players)],
        options={"rounds": 1, "max_turns_per_round": 12},
        seed=rules.new_seed(),
    )
    people = seat_users(table)
    seats = {seat: player(user) for seat, user in people.items()}
    readers = [Reader(who, seat) for seat, who in seats.items()]
    readers += [Reader(player(anonymous=True), None), Reader(player(), None)]
    rng = random.Random(f"knock-secrecy-{players}")
    compared = flips = 0
    while compared < WINDOWS:
        table.refresh_from_db()
        if table.status != "playing":
            break
        answered = _window_answered(table)
        if answered:
            compared += 1
            events = event_store.load_events(table)
            for seat in answered:
                flips += 1
                alt = table_with_history(table, _flipped(events, seat))
                others = [r for r in readers if r.seat != seat]
                reads_alike(others, table, alt, TRIES, f"seat {seat}'s knock answer")
        _move(table, seats, rng)
    assert flips > 0, "no knock window had an answer in it: the test proves nothing"


def test_the_comparison_sees_a_flipped_answer_where_it_is_shown(
    player: Callable[..., Player],
) -> None:
    """The answering seat's own view, and everything once the window has
    closed, does differ: the comparison is not blind."""
    table = table_started(
        game="allegra",
        seating=[UserFactory() for _ in range(3)],
        options={"rounds": 1},
        seed=rules.new_seed(),
    )
    people = seat_users(table)
    seats = {seat: player(user) for seat, user in people.items()}
    rng = random.Random("knock-secrecy-self")
    for _ in range(500):
        table.refresh_from_db()
        if _window_answered(table):
            break
        _move(table, seats, rng)
    else:
        pytest.fail("no knock window with an answer in it")
    (seat, *_) = _window_answered(table)
    alt = table_with_history(table, _flipped(event_store.load_events(table), seat))
    own = Reader(seats[seat], seat)
    assert own.read(table, TRIES)["table"] != own.read(alt, TRIES)["table"]
    with pytest.raises(AssertionError, match="knock answer"):
        reads_alike([own], table, alt, TRIES, "its own knock answer")
