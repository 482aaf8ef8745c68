"""No leak over REST (docs/architecture.md §5), checked as a property.

At many points of a match, for every seat and a spectator: reshuffle the
cards that seat has not seen (``game.resample_unseen`` on the stored events),
store that alternative history as a second table with the same people, and
ask the API about both. The seat's table response (view, legal actions,
seats, seq ...) and its event list must be identical, and the seed must not
appear in any of them before the match ends.
"""

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

import rules
from games import event_store
from games.models import Table
from games.services import action_submit
from tests.accounts.factories import UserFactory
from tests.games.conftest import Player
from tests.games.leak_payloads import table_with_history
from tests.games.tables import seat_users, table_started

pytestmark = [pytest.mark.django_db, pytest.mark.timeout(180)]

CASES = [
    (
        "alager",
        3,
        {"end_mode": "fixed_deals", "num_deals": 2, "max_turns_per_deal": 12},
    ),
    ("alkort", 4, {"target": 1}),
    ("allegra", 3, {"rounds": 1, "max_turns_per_round": 24}),
]
CHECKS = 5  # points per match at which every seat is checked
PER_TABLE = ("id", "created_at", "active_at", "started_at", "finished_at")


def _answers(who: Player, table: Table) -> tuple[dict[str, Any], Any, str]:
    detail = who.get(f"/api/tables/{table.pk}/")
    events = who.get(f"/api/tables/{table.pk}/events/")
    assert detail.status_code == events.status_code == 200
    body = {k: v for k, v in detail.json().items() if k not in PER_TABLE}
    text = detail.content.decode() + events.content.decode()
    return body, events.json(), text


def _check_every_seat(
    table: Table, viewers: dict[int | None, Player], rng: random.Random
) -> int:
    game = rules.get_game(table.game)
    events = event_store.load_events(table)
    differing = 0
    for seat, who in viewers.items():
        history = game.resample_unseen(events, seat, rng)
        differing += history != events
        alt = table_with_history(table, history)
        real_body, real_events, real_text = _answers(who, table)
        alt_body, alt_events, alt_text = _answers(who, alt)
        assert real_body["seat"] == seat
        assert alt_body == real_body, f"the table response leaks to seat {seat}"
        assert alt_events == real_events, f"the event list leaks to seat {seat}"
        for text in (real_text, alt_text):
            assert table.seed not in text, f"the seed leaked to seat {seat}"
    return differing


@pytest.mark.parametrize(("game_name", "players", "options"), CASES)
def test_a_seats_answers_do_not_depend_on_cards_it_has_not_seen(
    player: Callable[..., Player],
    game_name: str,
    players: int,
    options: dict[str, Any],
) -> None:
    game = rules.get_game(game_name)
    table = table_started(
        game=game_name,
        seating=[UserFactory() for _ in range(players)],
        options=options,
        seed=f"no-leak-{game_name}-secret-seed",
    )
    people = seat_users(table)
    viewers: dict[int | None, Player] = {None: player(anonymous=True)}
    viewers.update({seat: player(user) for seat, user in people.items()})
    rng = random.Random(f"no-leak-{game_name}")
    # Where to check: spread over a match length measured by a dry run.
    length = _match_length(game, players, options, table.seed, rng_seed=game_name)
    checkpoints = {0, *(length * k // CHECKS for k in range(1, CHECKS)), length - 1}

    moves, differing = 0, 0
    play = random.Random(game_name)
    while True:
        table.refresh_from_db()
        if table.status != "playing":
            break
        if moves in checkpoints:
            differing += _check_every_seat(table, viewers, rng)
        state = game.load_state(table.state)
        seat = play.choice(game.to_act(state))
        action = play.choice(game.legal_actions(state, seat))
        action_submit(table_id=table.pk, user=people[seat], action=action)
        moves += 1

    assert moves == length
    assert differing > 0, "resampling never changed anything: the test proves nothing"
    final = json.dumps(viewers[None].get(f"/api/tables/{table.pk}/").json())
    assert table.seed in final  # revealed once the match is over


def _match_length(
    game: rules.Game[Any],
    players: int,
    options: dict[str, Any],
    seed: str,
    rng_seed: str,
) -> int:
    """How many moves the same random play takes, without the database."""
    play = random.Random(rng_seed)
    state = game.replay(game.start(players=players, options=options, seed=seed))
    moves = 0
    while to_act := game.to_act(state):
        seat = play.choice(to_act)
        state, _ = game.apply(state, seat, play.choice(game.legal_actions(state, seat)))
        moves += 1
    return moves
