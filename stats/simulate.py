"""Bot-played finished tables written straight into the event log.

For the tests and the benchmark (``bench/stats.py``), which need hundreds or
thousands of finished matches fast: the random bots of ``rules.bots`` play
each match in memory, as the arena does, and the table, its seats and every
event are bulk-inserted (PostgreSQL ``COPY`` for the events) exactly as the
services would have stored them: ``seq`` from 1, the acting seat in
``GameEvent.seat``, the seed revealed in ``match_ended``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import connection
from django.utils import timezone

import rules
from accounts.models import User
from games.models import GameEvent, Seat, Table, TableStatus
from rules.bots import bot_input, get_bot
from stats.models import PendingTable

#: Short matches: enough deals to give every statistic something to count.
QUICK_OPTIONS: dict[str, dict[str, Any]] = {
    "alager": {"penalty_limit": 2},
    "alkort": {"target": 3},
    "allegra": {"rounds": 1},
}


@dataclass(frozen=True)
class Match:
    game: str
    players: int
    options: dict[str, Any]
    seed: str
    events: list[rules.Event]
    seats: list[int | None]  # the acting seat of each event (None: the deal)
    outcome: dict[str, Any]


def match_play(
    game_name: str, players: int, seed: str, options: dict[str, Any] | None = None
) -> Match:
    """One match of random bots, with each event's acting seat."""
    game = rules.get_game(game_name)
    complete = game.validate_options(options or {})
    events = game.start(players=players, options=complete, seed=seed)
    seats: list[int | None] = [None] * len(events)
    state = game.replay(events)
    rng = random.Random(seed)
    policy = get_bot(game_name, "random")
    seen = [[game.redact(e, o) for e in events] for o in range(players)]
    while to_act := game.to_act(state):
        seat = to_act[0] if len(to_act) == 1 else rng.choice(to_act)
        action = policy.choose(
            bot_input(game, state, events, seat, redacted=seen[seat]), rng
        )
        new = game.decide(state, seat, action)
        for event in new:
            state = game.evolve(state, event)
        events.extend(new)
        seats.extend([seat] * len(new))
        for other, history in enumerate(seen):
            history.extend(game.redact(e, other) for e in new)
    outcome = game.outcome(state)
    assert outcome is not None
    return Match(game_name, players, complete, seed, events, seats, outcome)


def matches_play(count: int, *, seed: int = 1, quick: bool = True) -> list[Match]:
    """``count`` matches cycling through the shapes of every game."""
    shapes = [
        ("alager", 3),
        ("alkort", 4),
        ("alkort", 2),
        ("allegra", 3),
        ("alager", 4),
    ]
    out = []
    for m in range(count):
        game, players = shapes[m % len(shapes)]
        options = QUICK_OPTIONS[game] if quick else {}
        out.append(match_play(game, players, f"sim-{seed}-{m}", options))
    return out


def tables_insert(
    matches: Sequence[Match],
    seatings: Sequence[Sequence[User]],
    *,
    creator: User,
    rated: bool = True,
    start: datetime | None = None,
    spacing: timedelta = timedelta(minutes=1),
) -> list[int]:
    """Store each match as a finished table seated by the matching seating.

    ``seatings[i][s]`` sits at seat ``s`` of match ``i`` (a bot account is
    seated at its level). Match ``i`` finishes ``i * spacing`` after ``start``.
    Each waits for its count in the queue (``PendingTable``), as a table
    finished in play does. Returns the new tables' ids, in order.
    """
    start = start or timezone.now() - spacing * (len(matches) + 1)
    tables = []
    for i, match in enumerate(matches):
        began = start + spacing * i
        tables.append(
            Table(
                game=match.game,
                options=match.options,
                players=match.players,
                status=TableStatus.FINISHED,
                rated=rated,
                seq=len(match.events),
                seed=match.seed,
                seed_sha256=match.events[0].payload["seed_sha256"],
                outcome=match.outcome,
                created_by=creator,
                started_at=began,
                finished_at=began + spacing / 2,
            )
        )
    Table.objects.bulk_create(tables, batch_size=1000)
    Seat.objects.bulk_create(
        [
            Seat(table=t, index=s, user=user, bot_level=user.bot_level)
            for t, seating in zip(tables, seatings, strict=True)
            for s, user in enumerate(seating)
        ],
        batch_size=2000,
    )
    _events_insert(tables, matches)
    # Queued for their count, as a match that ends in play is.
    PendingTable.objects.bulk_create(
        [PendingTable(table=t, game=t.game, finished_at=t.finished_at) for t in tables],
        batch_size=2000,
    )
    return [t.pk for t in tables]


def _events_insert(tables: Sequence[Table], matches: Sequence[Match]) -> None:
    now = timezone.now()
    if connection.vendor == "postgresql":
        sql = (
            "COPY games_gameevent (table_id, seq, type, version, payload, seat,"
            " created_at) FROM STDIN"
        )
        with connection.cursor() as cursor, cursor.connection.cursor() as raw:
            del cursor  # the Django cursor only opens the connection
            with raw.copy(sql) as copy:
                for table, match in zip(tables, matches, strict=True):
                    for seq, (event, seat) in enumerate(
                        zip(match.events, match.seats, strict=True), start=1
                    ):
                        copy.write_row(
                            (
                                table.pk,
                                seq,
                                event.type,
                                event.version,
                                json.dumps(event.payload),
                                seat,
                                now,
                            )
                        )
        return
    GameEvent.objects.bulk_create(
        [
            GameEvent(
                table=table,
                seq=seq,
                type=event.type,
                version=event.version,
                payload=event.payload,
                seat=seat,
            )
            for table, match in zip(tables, matches, strict=True)
            for seq, (event, seat) in enumerate(
                zip(match.events, match.seats, strict=True), start=1
            )
        ],
        batch_size=2000,
    )
