"""Table life cycle: create, join, leave, add a bot, start; hand seats to bots.

Every service here takes the table row lock (``locking.table_lock``) for its
whole transaction, so concurrent joins cannot fill one seat twice and a start
sees the seats exactly as they are.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

import rules
from accounts.models import User
from accounts.services import bot_account_get
from games.errors import BadRequest, Conflict, Forbidden
from games.models import Seat, Table, TableRequest, TableStatus
from games.services.followups import STAND_IN_LEVEL, followups_schedule
from games.services.locking import (
    person_seat,
    require_creator,
    require_lobby,
    require_playing,
    table_lock,
    table_over,
)
from games.services.recording import record, state_load
from rules import bots

#: The level of the bot that takes over the seat of a person who leaves a
#: match in play, so the others can finish it.
TAKEOVER_LEVEL = STAND_IN_LEVEL

#: The longest turn timer a table may ask for (seconds per move).
TIME_CONTROL_MAX = 3600


def game_get(name: str) -> rules.Game[Any]:
    """The rules of game ``name``; ``BadRequest("unknown_game")`` otherwise."""
    if not isinstance(name, str) or name not in rules.GAMES:
        raise BadRequest(
            "unknown_game",
            f"Unknown game {name!r}; Cardroom offers: {', '.join(rules.GAMES)}.",
        )
    return rules.get_game(name)


def _refuse_bots(user: User) -> None:
    if user.is_bot:
        raise Forbidden("bot_account", "Bot accounts are seated by the server.")


@transaction.atomic
def table_create(
    *,
    user: User,
    game: str,
    players: int,
    options: Any = None,
    rated: bool | None = None,
    watch: bool = False,
    time_control: int | None = None,
    request_id: str | None = None,
) -> Table:
    """Open a table in the lobby; its creator takes seat 0 unless watching.

    ``rated`` defaults to True for a table of two or more players (a table of
    one is never rated); a table that starts with bots only is made unrated
    at the start (``docs/stats.md``).

    The rules validate the player count and options (``rules.InvalidOptions``,
    code ``invalid_options``); the options are stored complete, with defaults.
    A dry-run deal proves the match can start with them. ``time_control``
    (seconds per move, 1 to ``TIME_CONTROL_MAX``) turns the turn timer on.

    ``request_id`` (optional, the client's): a repeat of the same request by
    the same person returns the table the first one opened instead of
    opening another (a double click, a retry after a lost answer); the same
    id with other settings is refused (409 ``request_reused``). Two sent at
    once open one table: the unique ``TableRequest`` row makes the second
    wait for the first's commit, then find its table. Lock: none held; the
    unique index serialises the repeats.
    """
    _refuse_bots(user)
    if time_control is not None and not 1 <= time_control <= TIME_CONTROL_MAX:
        raise BadRequest(
            "invalid_time_control",
            f"time_control is seconds per move, from 1 to {TIME_CONTROL_MAX}; "
            f"got {time_control}.",
        )
    rules_game = game_get(game)
    complete = rules_game.validate_options(options)
    rules_game.validate_players(players, complete)
    asked = {
        "game": game,
        "options": complete,
        "players": players,
        "time_control": time_control,
    }
    if request_id is not None:
        earlier = _requested(user, request_id)
        if earlier is not None:
            return _repeated(earlier, request_id, asked)
    rules_game.start(players=players, options=complete, seed="dry-run")
    try:
        # A savepoint: a repeat that lost the race on the unique request
        # leaves nothing behind (its on-commit work included).
        with transaction.atomic():
            table = Table.objects.create(
                **asked,
                rated=(players >= 2) if rated is None else (rated and players >= 2),
                created_by=user,
            )
            if request_id is not None:
                TableRequest.objects.create(
                    user=user, request_id=request_id, table=table
                )
            if not watch:
                Seat.objects.create(table=table, index=0, user=user)
            followups_schedule(table=table)
    except IntegrityError:
        if request_id is None:
            raise
        earlier = _requested(user, request_id)
        if earlier is None:
            raise
        return _repeated(earlier, request_id, asked)
    return table


def _requested(user: User, request_id: str) -> Table | None:
    """The table ``user``'s request ``request_id`` opened, if any (committed)."""
    return Table.objects.filter(
        pk__in=TableRequest.objects.filter(user=user, request_id=request_id).values(
            "table_id"
        )
    ).first()


def _repeated(table: Table, request_id: str, asked: dict[str, Any]) -> Table:
    """``table``, opened by an earlier request with this id, if that request
    asked for the same game, players, options and clock; else 409
    ``request_reused``. (Not ``rated``: a table of bots only becomes
    unrated when it starts, and a retry may come after that.)"""
    if any(getattr(table, name) != value for name, value in asked.items()):
        raise Conflict(
            "request_reused",
            f"Request {request_id!r} already opened table {table.pk} with other "
            "settings; use a new request_id for another table.",
        )
    return table


def _free_seat(table: Table, taken: set[int], seat: int | None) -> int:
    """The seat to fill: ``seat`` if free and real, else the lowest free one."""
    if seat is None:
        for index in range(table.players):
            if index not in taken:
                return index
        raise Conflict(
            "table_full",
            f"Table {table.pk} is full: all {table.players} seats are taken.",
        )
    if not 0 <= seat < table.players:
        raise BadRequest(
            "invalid_seat",
            f"Table {table.pk} has seats 0 to {table.players - 1}; there is no seat {seat}.",
        )
    if seat in taken:
        raise Conflict("seat_taken", f"Seat {seat} of table {table.pk} is taken.")
    return seat


@transaction.atomic
def table_join(*, table_id: int, user: User, seat: int | None = None) -> Table:
    """Sit ``user`` at a lobby table: at ``seat``, or the lowest free seat.

    Lock: the table row, so two people never get one seat.
    """
    _refuse_bots(user)
    table = table_lock(table_id)
    require_lobby(table)
    seats = list(table.seats.all())
    for existing in seats:
        if existing.user_id == user.pk and existing.bot_level is None:
            raise Conflict(
                "already_seated",
                f"You already sit at seat {existing.index} of table {table.pk}.",
            )
    index = _free_seat(table, {s.index for s in seats}, seat)
    try:
        with transaction.atomic():
            Seat.objects.create(table=table, index=index, user=user)
    except IntegrityError as exc:  # pragma: no cover - the lock prevents it
        raise Conflict(
            "seat_taken", f"Seat {index} of table {table.pk} is taken."
        ) from exc
    _seat_taken(table)
    followups_schedule(table=table)
    return table


def _seat_taken(table: Table) -> None:
    """A seat taken at an open table (a person joining, the creator adding a
    bot) is its latest activity: ``updated_at``, which the tables list reads
    to fold away the open tables nobody has come to for ``TABLE_IDLE_HOURS``
    (``selectors.table_list``; docs/api.md). A seat given up is not: the
    one who left says nothing of whether the creator will start.

    Lock: the caller holds the table row. ``updated_at`` has no index, so
    the write is a HOT update (docs/performance.md, "The lobby's lists").
    """
    table.save(update_fields=["updated_at"])


@transaction.atomic
def table_add_bot(
    *,
    table_id: int,
    user: User,
    seat: int | None = None,
    level: str = TAKEOVER_LEVEL,
    fill: bool = False,
) -> Table:
    """Seat a house bot at ``level`` (random, basic, strong); creator only.

    At ``seat``, or the lowest free seat; with ``fill``, a bot in every empty
    seat (not with a ``seat``: 400 ``invalid_seat``). A fill is one
    transaction under the lock, so a person joining at the same moment either
    got their seat first (and keeps it: the bots take the others) or finds
    the table full (409 ``table_full``): never a seat both theirs and a
    bot's, never a seat lost. A table with no empty seat is left as it is
    by a fill, so a repeated fill is harmless. "Play against bots" in the
    web lobby fills this way, then starts the match.

    Lock: the table row.
    """
    table = table_lock(table_id)
    require_creator(table, user)
    require_lobby(table)
    if level not in bots.LEVELS:
        raise BadRequest(
            "invalid_bot_level",
            f"Unknown bot level {level!r}; levels: {', '.join(bots.LEVELS)}.",
        )
    if not bots.has_level(table.game, level):
        raise BadRequest(
            "invalid_bot_level",
            f"{rules.get_game(table.game).title} has no {level!r} bot yet.",
        )
    taken = {s.index for s in table.seats.all()}
    if fill:
        if seat is not None:
            raise BadRequest(
                "invalid_seat",
                "Give a seat or fill, not both: fill seats every empty seat.",
            )
        empty = [index for index in range(table.players) if index not in taken]
    else:
        empty = [_free_seat(table, taken, seat)]
    if empty:
        bot = bot_account_get(level=level)
        Seat.objects.bulk_create(
            Seat(table=table, index=index, user=bot, bot_level=level) for index in empty
        )
        _seat_taken(table)
        followups_schedule(table=table)
    return table


@transaction.atomic
def table_leave(*, table_id: int, user: User) -> Table:
    """Give up ``user``'s seat.

    In the lobby the seat is freed; when the creator leaves and no other
    person is seated, nobody could start the table, so it is aborted. In a
    match in play a ``basic`` bot takes the seat over (``replaced_user``
    remembers the person) so the others can finish; if that seat is to act,
    the bot turn is queued on commit. A finished table cannot be left.

    Lock: the table row.
    """
    table = table_lock(table_id)
    seats = list(table.seats.all())
    seat = person_seat(seats, user, table)
    if table.status == TableStatus.LOBBY:
        seat.delete()
        people_left = [s for s in seats if s.bot_level is None and s.pk != seat.pk]
        if table.created_by_id == user.pk and not people_left:
            table.status = TableStatus.ABORTED
            table.save(update_fields=["status", "updated_at"])
        followups_schedule(table=table)
        return table
    if table.status != TableStatus.PLAYING:
        raise table_over(table)
    seat.replaced_user = user
    _seats_to_bots(table, seats, [seat])
    return table


def _seats_to_bots(table: Table, seats: list[Seat], handed: list[Seat]) -> None:
    """A ``TAKEOVER_LEVEL`` bot takes over each of ``handed`` (people's seats
    of ``seats``, ``replaced_user`` set by the caller) in a match in play.

    Lock: the caller holds the table row. The follow-ups see the seats as
    they are now: the bot's turn is scheduled if a handed seat is to act.
    """
    bot = bot_account_get(level=TAKEOVER_LEVEL)
    for seat in handed:
        seat.user = bot
        seat.bot_level = TAKEOVER_LEVEL
        seat.away, seat.timeouts = False, 0
        seat.save(
            update_fields=["replaced_user", "user", "bot_level", "away", "timeouts"]
        )
    game = rules.get_game(table.game)
    state = state_load(game, table)
    followups_schedule(
        table=table, game=game, state=state, seats=seats, seats_changed=True
    )


@transaction.atomic
def table_seats_to_act_to_bots(*, table_id: int) -> list[Seat]:
    """Hand the seats of the people who may act now to basic bots.

    For a match a person walked away from with no turn timer (staff, from
    the admin): each leaves as if they had pressed Leave (``table_leave``),
    so a bot plays the seat to the end and they keep its result. Returns the
    seats handed over (``replaced_user`` is their person); none when only
    bots may act. A match not in play is refused as a move would be
    (``require_playing``).

    Lock: the table row, before the state is read: a move in progress is
    waited for, and the seats handed over are those to act after it, never
    the seat of a person who has just moved.
    """
    table = table_lock(table_id)
    require_playing(table)
    game = rules.get_game(table.game)
    to_act = set(game.to_act(state_load(game, table)))
    seats = list(table.seats.select_related("user"))
    handed = [s for s in seats if s.index in to_act and s.bot_level is None]
    for seat in handed:
        seat.replaced_user = seat.user
    if handed:
        _seats_to_bots(table, seats, handed)
    return handed


@transaction.atomic
def table_start(*, table_id: int, user: User, seed: str | None = None) -> Table:
    """Deal: creator only, every seat filled. Appends the opening events.

    The seed is a fresh secret (``rules.new_seed``) unless given
    (benchmarks and tests replaying a known match); only its SHA-256 is public
    until the match ends. Lock: the table row.
    """
    table = table_lock(table_id)
    require_creator(table, user)
    require_lobby(table)
    seats = list(table.seats.all())
    empty = sorted(set(range(table.players)) - {s.index for s in seats})
    if empty:
        listed = ", ".join(map(str, empty))
        raise Conflict(
            "seats_empty",
            f"Table {table.pk} cannot start: seat{'s' if len(empty) > 1 else ''} "
            f"{listed} {'are' if len(empty) > 1 else 'is'} empty. "
            "Join or add bots first.",
        )
    game = rules.get_game(table.game)
    secret = seed if seed is not None else rules.new_seed()
    events = game.start(players=table.players, options=table.options, seed=secret)
    state = game.replay(events)  # the opening events only
    table.seed = secret
    table.seed_sha256 = events[0].payload["seed_sha256"]
    table.status = TableStatus.PLAYING
    table.started_at = timezone.now()
    if table.rated and all(s.bot_level is not None for s in seats):
        table.rated = False  # bot-only tables are never rated
    record(
        table=table,
        game=game,
        state=state,
        events=events,
        actor_id=user.pk,
        seat=None,
        also_save=("seed", "seed_sha256", "status", "started_at", "rated"),
    )
    followups_schedule(table=table, game=game, state=state, seats=seats, events=events)
    return table
