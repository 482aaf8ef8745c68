"""No leak over the socket: every frame is built for its connection's seat.

The reshuffle property of ``test_no_leak`` (REST), applied to live frames: at
points spread over a match, for every seat and a spectator, the cards that
seat has not seen are reshuffled (``game.resample_unseen``) into a second
table; the ``state`` frame from the start of the log (view, legal actions,
every event, redacted) and the presence list must be identical for both, and
the seed must appear in none.
"""

import json
import random
from typing import Any

import pytest

import rules
from games import event_store, frames, realtime, services
from games.models import Table
from games.services import action_submit
from tests.accounts.factories import UserFactory
from tests.games.leak_payloads import table_with_history
from tests.games.tables import seat_users, table_started
from tests.games.test_no_leak import CASES, _match_length

pytestmark = [pytest.mark.django_db, pytest.mark.timeout(180)]

CHECKS = 4


def _frames(table: Table, user_id: int | None) -> tuple[Any, ...]:
    return (
        frames.frame_state(table_id=table.pk, user_id=user_id, after=0),
        frames.frame_state(table_id=table.pk, user_id=user_id, after=None),
        frames.presence_list(table_id=table.pk),
    )


@pytest.mark.parametrize(("game_name", "players", "options"), CASES)
def test_a_seats_frames_do_not_depend_on_cards_it_has_not_seen(
    game_name: str, players: int, options: dict[str, Any]
) -> None:
    game = rules.get_game(game_name)
    table = table_started(
        game=game_name,
        seating=[UserFactory() for _ in range(players)],
        options=options,
        seed=f"frames-{game_name}-secret-seed",
    )
    people = seat_users(table)
    viewers: dict[int | None, int | None] = {None: None}
    viewers.update({seat: user.pk for seat, user in people.items()})
    length = _match_length(game, players, options, table.seed, rng_seed=game_name)
    checkpoints = {1, *(length * k // CHECKS for k in range(1, CHECKS)), length - 1}
    rng = random.Random(f"frames-{game_name}")
    play = random.Random(game_name)
    moves = differing = 0
    while True:
        table.refresh_from_db()
        if table.status != "playing":
            break
        if moves in checkpoints:
            events = event_store.load_events(table)
            for seat, user_id in viewers.items():
                history = game.resample_unseen(events, seat, rng)
                differing += history != events
                alt = table_with_history(table, history)
                real = _frames(table, user_id)
                assert real[0]["seat"] == seat
                assert _frames(alt, user_id) == real, f"a frame leaks to seat {seat}"
                assert table.seed not in json.dumps(real)
        state = game.load_state(table.state)
        seat = play.choice(game.to_act(state))
        action = play.choice(game.legal_actions(state, seat))
        action_submit(table_id=table.pk, user=people[seat], action=action)
        moves += 1

    assert differing > 0, "resampling never changed anything: the test proves nothing"
    final = frames.frame_state(table_id=table.pk, user_id=None, after=0)
    assert final is not None and final["status"] == "finished"
    assert table.seed in json.dumps(final)  # the log is public once the match ends


@pytest.mark.parametrize(("game_name", "players", "options"), CASES)
def test_pushed_frames_are_the_frames_each_audience_would_read(
    game_name: str,
    players: int,
    options: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """What a committing process pushes to a seat (or the spectators) is exactly
    ``frame_state`` for that audience from the seq before the move, so the
    reshuffle property above covers pushed frames too; a bot's seat gets none.
    """
    game = rules.get_game(game_name)
    seating: list[Any] = [UserFactory() for _ in range(players - 1)] + ["random"]
    table = table_started(game=game_name, seating=seating, options=options)
    people = seat_users(table)
    pushed: list[list[frames.Pushed]] = []
    monkeypatch.setattr(
        realtime,
        "frames_push",
        lambda table_id, audiences, build, listening=None: pushed.append(
            build(list(audiences))
        ),
    )
    monkeypatch.setattr(services.followups, "bot_turn_schedule", lambda *a: None)
    play = random.Random(game_name)
    while True:
        table.refresh_from_db()
        if table.status != "playing":
            break
        state = game.load_state(table.state)
        seat = play.choice(game.to_act(state))
        before = table.seq
        with django_capture_on_commit_callbacks(execute=True):
            if seat in people:
                action = play.choice(game.legal_actions(state, seat))
                action_submit(table_id=table.pk, user=people[seat], action=action)
            else:
                services.bot_turn_play(table_id=table.pk, seq=before)
        items = pushed.pop()
        assert {item.seat for item in items} == {*people, None}
        for item in items:
            assert item.after == before
            assert item.holder == (
                people[item.seat].pk if item.seat in people else None
            )
            user_id = item.holder
            assert item.frame == frames.frame_state(
                table_id=table.pk, user_id=user_id, after=before
            )
    assert item.frame["status"] == "finished"
