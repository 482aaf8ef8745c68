"""Bot turns: the server plays every seat a bot holds (or stands in for).

The bot-turn names form one family: ``followups.bot_turn_due`` says a bot may
act, ``followups.bot_turn_schedule`` schedules the job on commit,
:func:`bot_turn_play` (run by the ``games.tasks.bot_turn_play`` task) plays
one move, and :func:`bot_turn_choose` picks it. Each move is its own job,
``BOT_MOVE_DELAY`` seconds after the previous one, so people watching see the
moves arrive one by one; the move's own follow-ups schedule the next turn, so
a table of only bots plays to the end on its own.

A job carries the seq it was scheduled for and does nothing if the table has
moved on (someone else's follow-up covers the new position). The bot's choice
is computed without holding the table lock (a strong bot can think for a
while); the move is then applied under the lock only if the table is still at
the seq the choice was made for and the seat is still the server's to play.
A strong bot's move waits until ``BOT_THINK_TIME`` after its job began,
however soon it chose (:func:`bot_think_left`): its timing must not tell its
hand. The wait is a deferred call on the process's scheduler thread, so other
tables' jobs run meanwhile, on the embedded default's one scheduler thread as
in a Celery worker's pool.
"""

from __future__ import annotations

import hashlib
import logging
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from django.db import transaction

import rules
from accounts.services import bot_account_get
from config.logs import traceback_without_values
from games.errors import NotFound
from games.history_cache import history_known, history_redacted
from games.models import Table, TableStatus
from games.services.actions import move_apply
from games.services.followups import bot_think_time, bot_turn_seat, seat_bot_level
from games.services.locking import table_lock_seats, table_read_seats
from games.services.recording import state_load
from games.state_cache import state_put
from rules import bots

logger = logging.getLogger(__name__)


def bot_rng(table: Table, seat: int) -> random.Random:
    """A deterministic, server-side source of the bot's choices at this move.

    Seeded with a SHA-256 of ``bot:seed:seq:seat``, never the text itself:
    ``random.Random`` keeps a text seed's bytes in its key, and the Mersenne
    Twister is not a one-way function (docs/security.md, "The seed").
    """
    key = f"bot:{table.seed}:{table.seq}:{seat}".encode()
    return random.Random(hashlib.sha256(key).digest())


def bot_turn_choose(
    game: rules.Game[Any],
    state: Any,
    history: Sequence[rules.Event],
    table: Table,
    seat: int,
    level: str,
    redacted: Sequence[rules.Event] | None = None,
) -> dict[str, Any]:
    """The bot's action for ``seat``; a failing policy falls back to random.

    The bot sees only ``bots.bot_input``: its seat's view, legal actions and
    the history redacted for it (``redacted``, when the caller has it).
    """
    inp = bots.bot_input(game, state, history, seat, redacted)
    try:
        action = bots.get_bot(game.name, level).choose(inp, bot_rng(table, seat))
        if action in inp.legal:
            return dict(action)
        logger.error(  # the type only: the action may name hidden cards
            "%s bot %s chose an illegal %r action", game.name, level, action.get("type")
        )
    except Exception as exc:  # its message may name the bot's hidden cards
        logger.error(
            "%s bot %s failed at table %s\n%s",
            game.name,
            level,
            table.pk,
            traceback_without_values(exc),
        )
    return bots.RandomPolicy().choose(inp, bot_rng(table, seat))


def bot_think_left(level: str, started: float) -> float:
    """Seconds left of a ``level`` bot's think time since ``started``
    (``time.monotonic``): its move waits them out, so when it lands says
    nothing of how long the choice took. A strong bot answers a forced move
    at once and searches the others, and the difference would show watchers
    its hand (``followups.THINKING_LEVELS``; docs/security.md, "Bots' timing").
    """
    return max(started + bot_think_time(level) - time.monotonic(), 0.0)


#: Hands a call and its delay to the process's scheduler thread; whether it
#: took it (``games.scheduler.call_defer``, or the turn's job wrapping it).
Defer = Callable[[Callable[[], int | None], float], bool]


def bot_turn_play(*, table_id: int, seq: int, defer: Defer | None = None) -> int | None:
    """Play one bot move at table ``table_id`` as it stands at ``seq``.

    Returns the new seq, or None when there is nothing to do (the table moved
    on, is not in play, or no seat the server plays may act). Lock: none
    while choosing; the table row while applying (the move is dropped if the
    seq changed or the seat's person came back meanwhile).

    A strong bot's move waits out the rest of its think time first. ``defer``
    (the scheduled job): hand the wait to this process's scheduler thread as
    a deferred call and return None, the move still to come, so neither the
    embedded default's one scheduler thread nor a Celery worker's pool slot
    sleeps through it; otherwise (a direct caller, the inline runner, or
    ``defer`` declining) sleep, then play. The deferred call raises what the
    move raised: ``games.tasks`` tries it again after a passing database
    failure as it does the turn's job.
    """
    after = history_known(table_id)
    try:
        table, seats, events = table_read_seats(table_id, events_after=after)
    except NotFound:
        return None
    if table.status != TableStatus.PLAYING or table.seq != seq:
        return None
    game = rules.get_game(table.game)
    state = state_load(game, table)
    if not transaction.get_connection().in_atomic_block:
        # Read outside any transaction, the row is committed: remember its
        # state, so the lock's read below leaves the JSON in the database
        # and the move does not decode it again.
        state_put(table.pk, table.seq, table.seed_sha256, state)
    bot = bot_turn_seat(seats, game.to_act(state))
    if bot is None:
        return None
    level = seat_bot_level(bot) or ""
    started = time.monotonic()
    history, redacted = history_redacted(
        game, table_id, table.seed_sha256, seq, bot.index, read=(after, events)
    )
    action = bot_turn_choose(game, state, history, table, bot.index, level, redacted)
    left = bot_think_left(level, started)
    if left > 0:

        def later() -> int | None:  # its repr names no card: a failure's log shows it
            return bot_move_apply(
                table_id=table_id, seq=seq, seat=bot.index, level=level, action=action
            )

        if defer is not None and defer(later, left):
            return None  # the scheduler thread plays it; the caller is free
        time.sleep(left)
    return bot_move_apply(
        table_id=table_id, seq=seq, seat=bot.index, level=level, action=action
    )


def bot_move_apply(
    *, table_id: int, seq: int, seat: int, level: str, action: dict[str, Any]
) -> int | None:
    """Play the ``level`` bot's ``action`` for ``seat`` if the table is still
    at ``seq`` and the seat still the server's to play; the new seq, or None.
    Lock: the table row."""
    with transaction.atomic():
        table, seats, _ = table_lock_seats(table_id)
        if table.status != TableStatus.PLAYING or table.seq != seq:
            return None
        held = next((s for s in seats if s.index == seat), None)
        if held is None or seat_bot_level(held) != level:
            return None
        # A bot's seat is played by its own account; an away person's by the
        # house bot standing in (the events say who chose the move).
        actor = held.user_id if held.bot_level else bot_account_get(level=level).pk
        try:
            result = move_apply(
                table=table,
                seats=seats,
                seat=seat,
                actor_id=actor,
                action=action,
                last=True,  # the block ends with the move
            )
        except rules.IllegalAction as exc:
            # The refusal may quote the bot's own (hidden) cards.
            logger.error(
                "Bot %r move refused at table %s\n%s",
                action.get("type"),
                table_id,
                traceback_without_values(exc),
            )
            raise
    new_seq: int = result["seq"]
    return new_seq
