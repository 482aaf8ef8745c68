"""No channel tells a seat apart from a world it cannot distinguish.

``tests/games/test_no_leak.py`` holds the REST table and event list to this
property: at points of a match, the cards an audience has not seen are
reshuffled (``game.resample_unseen``) into a second table, and the audience
must read the same from both. This extends it to every channel an audience
has (``leak_payloads.reads_alike``: the table, the events in full and since
a recent seq, the export, the verify refusal, the socket's first and catch-up
frames, presence, the answers to moves it tries, and every log line written
meanwhile at DEBUG) and to the options that change what is hidden: Alkort's
2-player dead pile, Alager's face-down discards under the stock and its
reshuffled stock, Allegra from 2 to 6 players.

Unlike the card oracle, resampling also moves where hidden cards lie (which
seat, which stock position), so a payload that gives away a position or an
order, not a name, fails here. The tries name cards the audience may not have
seen: the refusal must not depend on where such a card is.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.throttling import SimpleRateThrottle

import rules
from games import event_store
from games.services import action_submit
from tests.accounts.factories import UserFactory
from tests.games.conftest import Player
from tests.games.leak_payloads import Reader, reads_alike, table_with_history
from tests.games.tables import seat_users, table_started
from tests.rules.leak_oracle import random_move

pytestmark = [pytest.mark.django_db, pytest.mark.timeout(600)]

CASES = [
    ("alager", 2, {"end_mode": "fixed_deals", "num_deals": 2, "max_turns_per_deal": 10}),
    ("alager", 4, {"a1_discard_to": "stock_bottom", "end_mode": "fixed_deals",
                   "num_deals": 1, "max_turns_per_deal": 24}),
    ("alager", 3, {"replenish_shuffle": True, "deck": 32, "end_mode": "fixed_deals",
                   "num_deals": 1, "max_turns_per_deal": 40}),
    ("alkort", 2, {"target": 1}),
    ("alkort", 4, {"target": 1}),
    ("allegra", 2, {"rounds": 1, "max_turns_per_round": 10}),
    ("allegra", 4, {"rounds": 1, "max_turns_per_round": 6}),
    ("allegra", 6, {"rounds": 1, "max_turns_per_round": 4}),
]  # fmt: skip
CHECKS = 3  # points per match at which every audience is compared
#: Moves each audience tries: out of turn, stale, or naming cards it may not
#: hold (never one it may make now: those are skipped).
TRIES = {
    "alager": [
        {"type": "draw", "discard": "KD"},
        {"type": "swap", "give": "2C", "take": "AH"},
        {"type": "pass"},
    ],
    "alkort": [
        {"type": "play", "card": "KD"},
        {"type": "play", "card": "2C"},
        {"type": "exchange", "keep": "AH"},
        {"type": "pass"},
    ],
    "allegra": [
        {"type": "reveal", "cell": {"seat": 0, "row": 0, "col": 0}},
        {"type": "take_discard", "cell": {"seat": 1, "row": 2, "col": 3}},
        {"type": "draw"},
    ],
}


def _id(case: tuple[str, int, dict[str, Any]]) -> str:
    return f"{case[0]}-{case[1]}p-" + "-".join(sorted(case[2])[:2])


@pytest.fixture(autouse=True)
def _unthrottled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        SimpleRateThrottle, "THROTTLE_RATES", {"anon": None, "user": None}
    )


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_every_channel_reads_alike_in_worlds_an_audience_cannot_tell_apart(
    player: Callable[..., Player], case: tuple[str, int, dict[str, Any]]
) -> None:
    name, players, options = case
    game = rules.get_game(name)
    table = table_started(
        game=name,
        seating=[UserFactory() for _ in range(players)],
        options=options,
        seed=os.environ.get("CHANNELS_SEED", f"channels-{name}-{players}") + "-secret",
    )
    people = seat_users(table)
    readers = [Reader(player(user), seat) for seat, user in people.items()]
    spectators = [Reader(player(anonymous=True), None), Reader(player(), None)]
    rng = random.Random(f"channels-{name}-{players}")
    moves, checked, differing = 0, 0, 0
    while True:
        table.refresh_from_db()
        if table.status != "playing":
            break
        if checked < CHECKS and moves % 4 == 1:
            checked += 1
            events = event_store.load_events(table)
            for seat, audience in [
                *((r.seat, [r]) for r in readers),
                (None, spectators),
            ]:
                history = game.resample_unseen(events, seat, rng)
                differing += history != events
                alt = table_with_history(table, history)
                reads_alike(audience, table, alt, TRIES[name], "cards it has not seen")
        state = game.load_state(table.state)
        seat = rng.choice(list(game.to_act(state)))
        action = random_move(name, game.legal_actions(state, seat), rng)
        action_submit(table_id=table.pk, user=people[seat], action=action)
        moves += 1
    assert checked == CHECKS, f"the match ended after {moves} moves"
    assert differing > 0, "resampling never changed anything: the test proves nothing"
