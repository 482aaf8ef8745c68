"""What happens after a change to a table commits: notify, then the next turn.

Every write service ends with :func:`followups_schedule`. On commit (never for
a rolled-back change) it pushes each audience its frame of the new events
(``realtime.frames_push``; ``realtime.table_changed`` when only the seats
changed), announces a finished match
(``signals.table_finished``), and schedules the next turn's job:

* a **bot turn** (``bot_turn_play``) when a bot seat may act, ``BOT_MOVE_DELAY``
  seconds later, so people can follow each move (a strong bot's turn sooner,
  as its move then takes ``BOT_THINK_TIME``: :func:`bot_turn_delay`);
* a **turn timer** (``turn_timer_expire``) when a person may act at a table
  with a ``time_control``, due at the deadline.

Jobs carry the seq they were scheduled for and do nothing if the table has
moved on, so a late, repeated or superseded job is harmless. They run outside
the request that made them due, by ``games.scheduler`` (Celery on the full
stack, a scheduler thread on the embedded default). This module imports no
other service, so services can import it without cycles.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import Any

from django.conf import settings
from django.db import transaction

import rules
from config.logs import traceback_without_values
from games import frames, realtime, scheduler, signals
from games.models import Seat, Table, TableStatus

logger = logging.getLogger(__name__)

#: The job (and Celery task) names.
BOT_TURN_JOB = "games.tasks.bot_turn_play"
TURN_TIMER_JOB = "games.tasks.turn_timer_expire"

#: The level of the bot that plays an away seat (and a seat left mid-match).
STAND_IN_LEVEL = "basic"

#: The bot levels whose choice takes a visible, position-dependent time: the
#: strong bots search for up to most of a second, but answer a forced move
#: (one legal action) at once, so how long one took would tell watchers
#: about its hand (an Alkort bot that follows suit at once holds one card of
#: that suit). Their moves take ``BOT_THINK_TIME`` each, whatever the search
#: took. The other levels choose in well under a millisecond.
THINKING_LEVELS = frozenset({"strong"})


def seat_bot_level(seat: Seat) -> str | None:
    """The bot level that plays ``seat`` now: its own, ``basic`` while its
    person is away, None when the person plays."""
    if seat.bot_level is not None:
        return seat.bot_level
    return STAND_IN_LEVEL if seat.away else None


def bot_turn_due(seats: Iterable[Seat], to_act: Iterable[int]) -> bool:
    """Whether a seat the server plays (a bot, or an away person) may act."""
    return bot_turn_seat(seats, to_act) is not None


def bot_turn_seat(seats: Iterable[Seat], to_act: Iterable[int]) -> Seat | None:
    """The seat the next bot turn plays: the lowest one the server plays
    among those that may act (None: a person must act)."""
    acting = set(to_act)
    due = [s for s in seats if s.index in acting and seat_bot_level(s)]
    return min(due, key=lambda s: s.index, default=None)


def bot_think_time(level: str | None) -> float:
    """Seconds a move of a ``level`` bot takes from its job's start to its
    move, however long the choice took (``THINKING_LEVELS``; 0: as it comes)."""
    return settings.BOT_THINK_TIME if level in THINKING_LEVELS else 0.0


def bot_turn_delay(level: str | None) -> float:
    """The countdown of a ``level`` bot's turn job: ``BOT_MOVE_DELAY`` after
    the previous move, the think time included, so a strong bot's moves come
    ``max(BOT_MOVE_DELAY, BOT_THINK_TIME)`` apart."""
    return max(settings.BOT_MOVE_DELAY - bot_think_time(level), 0.0)


def turn_timer_due(table: Table, seats: Iterable[Seat], to_act: Iterable[int]) -> bool:
    """Whether a person plays against the clock now (a timed table, a
    present person among the seats that may act)."""
    if not table.time_control:
        return False
    acting = set(to_act)
    return any(seat.index in acting and not seat_bot_level(seat) for seat in seats)


def followups_schedule(
    *,
    table: Table,
    game: rules.Game[Any] | None = None,
    state: Any = None,
    seats: Iterable[Seat] = (),
    seats_changed: bool = False,
    events: Sequence[rules.Event] = (),
    acting_seat: int | None = None,
) -> None:
    """On commit: push the change to live play, then schedule the next turn
    or announce the end.

    ``game``, ``state`` and ``seats`` describe the table after the change (the
    caller holds the table row); without a state (lobby changes) only the
    notification is sent. ``events`` are the events the change appended (by
    ``acting_seat``): their frames are built and pushed to every audience
    (``realtime.frames_push``). ``seats_changed``: who sits where changed
    (lobby changes always are), so every connection reads its frame afresh.
    """
    table_id, seq = table.pk, table.seq
    seats = list(seats)
    if events and game is not None and state is not None and not seats_changed:
        transaction.on_commit(
            lambda: _frames_push(table, game, state, seats, events, acting_seat),
            robust=True,
        )
    else:
        refresh = seats_changed or state is None
        transaction.on_commit(
            lambda: realtime.table_changed(table_id, seq, seats=refresh), robust=True
        )
    if table.status == TableStatus.FINISHED:
        transaction.on_commit(lambda: _table_finished_send(table_id), robust=True)
        return
    if table.status != TableStatus.PLAYING or game is None or state is None:
        return
    to_act = game.to_act(state)
    bot = bot_turn_seat(seats, to_act)
    if bot is not None:
        bot_delay = bot_turn_delay(seat_bot_level(bot))
        transaction.on_commit(
            lambda: bot_turn_schedule(table_id, seq, bot_delay), robust=True
        )
    if turn_timer_due(table, seats, to_act):
        delay = float(table.time_control or 0)
        transaction.on_commit(
            lambda: turn_timer_schedule(table_id, seq, delay), robust=True
        )


def bot_turn_schedule(table_id: int, seq: int, delay: float | None = None) -> None:
    """Schedule the bot turn of the table as it stands at ``seq``."""
    if delay is None:
        delay = settings.BOT_MOVE_DELAY
    scheduler.job_schedule(BOT_TURN_JOB, table_id, seq, delay=delay)


def turn_timer_schedule(table_id: int, seq: int, delay: float) -> None:
    """Schedule the turn timer of the move expected at ``seq``."""
    scheduler.job_schedule(TURN_TIMER_JOB, table_id, seq, delay=delay)


def _frames_push(
    table: Table,
    game: rules.Game[Any],
    state: Any,
    seats: list[Seat],
    events: Sequence[rules.Event],
    acting_seat: int | None,
) -> None:
    """Push the committed events to every audience that listens.

    The frames are built after the commit, so the table row is not held
    while they are, and only for audiences someone listens to
    (``realtime.frames_push``; ``table.listening`` when the row lock read
    them). If building fails (a rules bug), the table is
    announced instead and every connection reads its own frame: slower,
    never lost.
    """

    def build(only: list[int | None]) -> list[frames.Pushed]:
        try:
            return frames.frames_after_move(
                table=table,
                game=game,
                state=state,
                seats=seats,
                events=events,
                acting_seat=acting_seat,
                only=only,
            )
        except Exception as exc:  # its message may quote a seat's hand
            logger.error(
                "Building the frames of table %s failed\n%s",
                table.pk,
                traceback_without_values(exc),
            )
            realtime.table_changed(table.pk, table.seq)
            return []

    realtime.frames_push(
        table.pk, frames.audiences(seats), build, listening=table.listening
    )


def _table_finished_send(table_id: int) -> None:
    # send_robust logs a failing receiver and goes on with the others.
    signals.table_finished.send_robust(sender=Table, table_id=table_id)
