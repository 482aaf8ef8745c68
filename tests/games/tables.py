"""Building tables through the real services, for tests.

``table_started`` seats people and bots, starts with a known seed and returns
the table as production would have it (events, cache, seats). On-commit work
(bot turns, notifications) does not run inside a test transaction unless the
test captures it (``django_capture_on_commit_callbacks(execute=True)``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import pytest

import rules
from accounts.models import User
from games import services
from games.errors import TableError
from games.models import Table
from tests.accounts.factories import UserFactory

SEED = "test-seed-7f3a9c"


def table_started(
    *,
    game: str = "alkort",
    seating: Sequence[User | str],
    options: dict[str, Any] | None = None,
    seed: str = SEED,
    creator: User | None = None,
) -> Table:
    """A table in play: ``seating[i]`` is a person or a bot level for seat i.

    The creator is ``creator`` (then only watching) or the first person.
    """
    people = [s for s in seating if isinstance(s, User)]
    owner = creator or people[0]
    table = services.table_create(
        user=owner,
        game=game,
        players=len(seating),
        options=options,
        watch=True,
    )
    for index, who in enumerate(seating):
        if isinstance(who, User):
            services.table_join(table_id=table.pk, user=who, seat=index)
        else:
            services.table_add_bot(table_id=table.pk, user=owner, seat=index, level=who)
    services.table_start(table_id=table.pk, user=owner, seed=seed)
    table.refresh_from_db()
    return table


def two_people_to_move() -> tuple[Table, User, dict[str, Any]]:
    """Two people at Alkort, dealt: the table, the person to act and a move of
    theirs (``action`` and ``expected_seq``), for the race tests."""
    game = rules.get_game("alkort")
    table = table_started(seating=[UserFactory(), UserFactory()])
    state = game.load_state(table.state)
    (seat,) = game.to_act(state)
    move = {"action": game.legal_actions(state, seat)[0], "expected_seq": table.seq}
    return table, seat_users(table)[seat], move


@contextmanager
def raises_table_error(
    error: type[TableError], code: str, message: str
) -> Iterator[None]:
    """Expect ``error`` with exactly this code and message."""
    with pytest.raises(error) as caught:
        yield
    assert (caught.value.code, caught.value.message) == (code, message)


def seat_users(table: Table) -> dict[int, User]:
    """The people at ``table`` by seat index (bot seats left out)."""
    return {
        seat.index: seat.user
        for seat in table.seats.select_related("user")
        if seat.bot_level is None
    }


def play_to_end(table: Table, *, rng_seed: int = 0, max_moves: int = 5000) -> Table:
    """Play random legal moves for the people at ``table`` until it ends.

    Bot seats must be played by whoever runs the on-commit work; this helper
    only moves people and fails if nobody it controls may act.
    """
    import random

    import rules

    rng = random.Random(rng_seed)
    people = seat_users(table)
    game = rules.get_game(table.game)
    for _ in range(max_moves):
        table.refresh_from_db()
        if table.status != "playing":
            return table
        state = game.load_state(table.state)
        seats = [s for s in game.to_act(state) if s in people]
        assert seats, f"no person may act at table {table.pk}: {game.to_act(state)}"
        seat = rng.choice(seats)
        action = rng.choice(game.legal_actions(state, seat))
        services.action_submit(table_id=table.pk, user=people[seat], action=action)
    raise AssertionError(f"table {table.pk} did not finish in {max_moves} moves")


def bots_play(table: Table, *, limit: int = 10_000) -> int:
    """Play bot turns one after another, as the scheduled jobs would; return
    how many moves were played (stops when a person must act or at the end).

    Follow-up jobs do not run inside a test transaction, so this stands in for
    the chain of ``bot_turn_play`` jobs.
    """
    table.refresh_from_db()
    seq, played = table.seq, 0
    while played < limit:
        new_seq = services.bot_turn_play(table_id=table.pk, seq=seq)
        if new_seq is None:
            break
        seq, played = new_seq, played + 1
    table.refresh_from_db()
    return played
