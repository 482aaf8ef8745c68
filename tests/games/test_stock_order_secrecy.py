"""Alager's reshuffled stock keeps its order secret, on every channel.

With ``replenish_shuffle`` the discard pile is shuffled and goes under the
stock (D-10). Which cards it holds is public (they were face up, and the
event lists them, sorted); their new order is not: it says who draws what
next. The card oracle (``tests/games/test_leak_oracle.py``) cannot see this
secret, since every card in it has been seen, and ``resample_unseen``
(``tests/games/test_no_leak.py``) renames unseen cards only. So it is checked
here as indistinguishability: once a reshuffled pile is in the stock, the
order of its cards still there is permuted in a copy of the table, and every
seat, a spectator and a logged-in stranger must read exactly the same thing
from both tables on every channel (``leak_payloads.reads_alike``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.throttling import SimpleRateThrottle

import rules
from games import event_store
from games.models import Table
from tests.accounts.factories import UserFactory
from tests.games.conftest import Player
from tests.games.leak_payloads import Reader, reads_alike, table_with_history
from tests.games.tables import seat_users, table_started
from tests.rules.leak_oracle import random_move

pytestmark = [pytest.mark.django_db, pytest.mark.timeout(600)]

GAME = rules.get_game("alager")
OPTIONS = {
    "deck": 32,
    "replenish_shuffle": True,
    "end_mode": "fixed_deals",
    "num_deals": 3,
    "max_turns_per_deal": 60,
}
CHECKS = 3  # points per match at which the order is permuted and compared
#: Moves every reader tries (never one it may make now: those are skipped).
TRIES = [
    {"type": "pass"},
    {"type": "swap_all"},
    {"type": "draw", "discard": "AS"},
    {"type": "fold"},
]


@pytest.fixture(autouse=True)
def _unthrottled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        SimpleRateThrottle, "THROTTLE_RATES", {"anon": None, "user": None}
    )


def _reordered(events: list[rules.Event]) -> list[rules.Event] | None:
    """``events`` with the cards of the deal's last reshuffle that are still
    in the stock in another order (None: fewer than two are left).

    Cards are unique in Alager, so a card of the reshuffle still in the stock
    has never been drawn (without ``a1_discard_to = "stock_bottom"`` nothing
    goes back into it), and moving it keeps every later event true."""
    state = GAME.replay(events)
    at = max(
        (
            i
            for i, e in enumerate(events)
            if e.type == "alager.stock_replenished" and e.payload.get("reshuffle")
        ),
        default=-1,
    )
    if at < 0 or any(e.type == "alager.deal_started" for e in events[at:]):
        return None
    deck = list(events[at].payload["deck"])
    left = [i for i, card in enumerate(deck) if card in set(state.stock)]
    if len(left) < 2:
        return None
    cards = [deck[i] for i in left]
    for i, card in zip(left, cards[1:] + cards[:1], strict=True):
        deck[i] = card
    out = list(events)
    out[at] = out[at].with_payload(deck=deck)
    alt = GAME.replay(out)
    # The same match in every respect but the stock's order.
    assert alt.hands == state.hands and alt.table == state.table
    assert alt.discard == state.discard and alt.stock != state.stock
    assert sorted(alt.stock) == sorted(state.stock)
    return out


@pytest.mark.parametrize("players", [2, 4])
def test_no_one_can_tell_the_order_of_a_reshuffled_stock(
    player: Callable[..., Player], players: int
) -> None:
    table = table_started(
        game="alager",
        seating=[UserFactory() for _ in range(players)],
        options=OPTIONS,
        seed=rules.new_seed(),
    )
    people = seat_users(table)
    seats = {seat: player(user) for seat, user in people.items()}
    readers = [Reader(who, seat) for seat, who in seats.items()]
    readers += [Reader(player(anonymous=True), None), Reader(player(), None)]
    rng = random.Random(f"stock-order-{players}")
    checked = 0
    while checked < CHECKS:
        table.refresh_from_db()
        if table.status != "playing":
            break
        events = event_store.load_events(table)
        alt_events = _reordered(events)
        if alt_events is not None and rng.random() < 0.25:
            checked += 1
            alt = table_with_history(table, alt_events)
            reads_alike(readers, table, alt, TRIES, "the reshuffled stock's order")
        _play(table, seats, rng)
    assert checked > 0, "no reshuffle ever reached the stock: the test proves nothing"


def _play(table: Table, seats: dict[int, Player], rng: random.Random) -> None:
    state = GAME.load_state(table.state)
    seat = rng.choice(list(GAME.to_act(state)))
    legal = GAME.legal_actions(state, seat)
    draws = [a for a in legal if a["type"] == "draw"]
    # Mostly draws: they empty the stock, and a reshuffle refills it.
    action: dict[str, Any] = (
        rng.choice(draws)
        if draws and rng.random() < 0.7
        else random_move("alager", legal, rng)
    )
    response = seats[seat].post(
        f"/api/tables/{table.pk}/actions/",
        {"action": action, "expected_seq": table.seq},
    )
    assert response.status_code == 200, response.content


def test_the_comparison_sees_the_order_where_it_is_shown(
    player: Callable[..., Player],
) -> None:
    """Once the match has ended the log is public and shows the order: the
    same comparison then fails, so it is not blind."""
    table = table_started(
        game="alager",
        seating=[UserFactory() for _ in range(2)],
        options=OPTIONS,
        seed=rules.new_seed(),
    )
    seats = {seat: player(user) for seat, user in seat_users(table).items()}
    rng = random.Random("stock-order-self")
    alt_events = None
    for _ in range(2000):
        table.refresh_from_db()
        alt_events = _reordered(event_store.load_events(table))
        if alt_events is not None:
            break
        _play(table, seats, rng)
    assert alt_events is not None, "no reshuffle reached the stock"
    alt = table_with_history(table, alt_events)
    Table.objects.filter(pk__in=(table.pk, alt.pk)).update(status="finished")
    with pytest.raises(AssertionError, match="stock's order"):
        reads_alike(
            [Reader(player(anonymous=True), None)],
            table,
            alt,
            [],
            "the reshuffled stock's order",
        )
