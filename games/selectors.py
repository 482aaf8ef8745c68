"""Reads on tables, always shaped for one requester (docs/architecture.md §5).

Whatever a selector returns is safe to send to that requester: views come
from ``game.view`` for their seat (None for a spectator), events from
``game.redact`` for their seat, and the seed only once the match has ended.
The cached state (which holds the seed) never leaves this module.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone

import rules
from accounts.models import User
from games import event_store
from games.clock import turn_deadline
from games.errors import Conflict, TableNotFound
from games.models import Seat, Table, TableStatus

REVEALED = (TableStatus.FINISHED,)


#: ``table_list``'s orders: newest first (the default), latest activity first.
ORDERS = {
    "created": ("-created_at", "-id"),
    "active": ("-updated_at", "-created_at", "-id"),
}


#: The tables that can be idle: those that go on only when someone acts.
IDLE_STATUSES = (TableStatus.LOBBY, TableStatus.PLAYING)


def idle_since() -> datetime:
    """An open table or a match in play whose last activity is older than
    this is idle (``TABLE_IDLE_HOURS``)."""
    return timezone.now() - timedelta(hours=settings.TABLE_IDLE_HOURS)


def table_idle(table: Table) -> bool:
    """Whether ``table`` is a match in play nobody has moved on for
    ``TABLE_IDLE_HOURS`` (everyone walked away, and with no turn clock no bot
    plays on), or an open table nobody has taken a seat at for as long (only
    its creator can start it, and they went away)."""
    return table.status in IDLE_STATUSES and table.updated_at < idle_since()


def table_list(
    *,
    user: User | None = None,
    game: str | None = None,
    status: str | None = None,
    mine: bool = False,
    idle: bool | None = None,
    order: str = "created",
) -> QuerySet[Table]:
    """Tables, newest first (``order="active"``: latest activity first);
    ``mine`` keeps those the user created or sits at; ``idle`` keeps only the
    open tables and matches in play idle for ``TABLE_IDLE_HOURS`` or more
    (True) or every other table (False).

    A table's activity is its ``updated_at``: its opening, then each seat
    taken in the lobby (``services.tables``), then every stored move
    (games.clock). It has no index of its own: one would make every move's
    rewrite of the table row a non-HOT update (games/0006), and the list reads
    the tables of a status anyway (docs/performance.md, "The lobby's lists").
    """
    tables = Table.objects.select_related("created_by").prefetch_related("seats__user")
    if game:
        tables = tables.filter(game=game)
    if status:
        tables = tables.filter(status=status)
    if idle is not None:
        idle_tables = Q(status__in=IDLE_STATUSES, updated_at__lt=idle_since())
        tables = tables.filter(idle_tables if idle else ~idle_tables)
    tables = tables.order_by(*ORDERS[order])
    if mine:
        if user is None or not user.is_authenticated:
            return tables.none()
        tables = tables.filter(
            Q(created_by=user) | Q(seats__user=user, seats__bot_level__isnull=True)
        ).distinct()
    return tables


def table_get(*, table_id: int) -> Table:
    """The table with its seats; ``NotFound`` otherwise."""
    table = (
        Table.objects.select_related("created_by")
        .prefetch_related("seats__user")
        .filter(pk=table_id)
        .first()
    )
    if table is None:
        raise TableNotFound(table_id)
    return table


def seat_of(*, table: Table, user: User | None) -> int | None:
    """The requester's own seat at ``table`` (None: a spectator)."""
    if user is None or not user.is_authenticated:
        return None
    for seat in table.seats.all():
        if seat.user_id == user.pk and seat.bot_level is None:
            return seat.index
    return None


def seats_list(*, table: Table) -> list[dict[str, Any]]:
    """Every seat, filled or empty: ``{"seat", "username", "is_bot", "bot_level"}``."""
    filled: dict[int, Seat] = {s.index: s for s in table.seats.all()}
    out = []
    for index in range(table.players):
        seat = filled.get(index)
        out.append(
            {
                "seat": index,
                "username": seat.user.username if seat else None,
                "is_bot": bool(seat and seat.is_bot),
                "bot_level": seat.bot_level if seat else None,
            }
        )
    return out


def table_summary(*, table: Table) -> dict[str, Any]:
    """What anyone may know about a table (no view, no secret)."""
    return {
        "id": table.pk,
        "game": table.game,
        "title": rules.get_game(table.game).title,
        "status": table.status,
        "players": table.players,
        "options": table.options,
        "rated": table.rated,
        "time_control": table.time_control,
        "created_by": table.created_by.username,
        "seats": seats_list(table=table),
        "seq": table.seq,
        "seed_sha256": table.seed_sha256 or None,
        "seed": table.seed if table.status in REVEALED else None,
        "outcome": table.outcome,
        "created_at": table.created_at,
        "active_at": table.updated_at,
        "idle": table_idle(table),
        "started_at": table.started_at,
        "finished_at": table.finished_at,
    }


def table_detail(*, table: Table, user: User | None) -> dict[str, Any]:
    """The table as the requester sees it: summary, their seat, view, moves.

    ``legal_actions`` is non-empty only when the requester's seat may act now,
    so a client can play from this answer alone.
    """
    seat = seat_of(table=table, user=user)
    view: dict[str, Any] | None = None
    legal: list[dict[str, Any]] = []
    if table.state is not None:
        game = rules.get_game(table.game)
        state = game.load_state(table.state)
        view = game.view(state, seat)
        if seat is not None and seat in game.to_act(state):
            legal = game.legal_actions(state, seat)
    return {
        **table_summary(table=table),
        "seat": seat,
        "view": view,
        "legal_actions": legal,
        "deadline": turn_deadline(table),
    }


def event_list(
    *, table: Table, user: User | None, after: int = 0
) -> list[dict[str, Any]]:
    """Events with ``seq > after`` as the requester may see them.

    Redacted for the requester's seat (spectators: seat None) while the match
    is in play; everything, unredacted, once it has ended.
    """
    stored = event_store.load(table, after=after)
    if table.status in REVEALED:
        return [item.to_json() for item in stored]
    game = rules.get_game(table.game)
    seat = seat_of(table=table, user=user)
    return [
        {
            "seq": item.seq,
            **game.redact(item.event, seat).to_json(),
            "seat": item.seat,
        }
        for item in stored
    ]


def table_export(*, table: Table, user: User | None) -> dict[str, Any]:
    """The whole match as JSON: the table and its events, redacted as above."""
    return {
        "table": {
            **table_summary(table=table),
            "seat": seat_of(table=table, user=user),
        },
        "events": event_list(table=table, user=user),
    }


def table_verify(*, table: Table) -> dict[str, Any]:
    """The fairness check of a finished match; ``Conflict`` before the end.

    Re-derives every shuffle from the revealed seed (``game.verify``) and
    checks the seed against the SHA-256 published when the match started.
    """
    if table.status not in REVEALED:
        raise Conflict(
            "not_finished",
            f"The seed of table {table.pk} is revealed when the match ends; "
            "verify it then.",
        )
    game = rules.get_game(table.game)
    report = game.verify(event_store.load_events(table))
    return {
        "table": table.pk,
        "seed": table.seed,
        "seed_sha256": table.seed_sha256,
        **report,
    }
