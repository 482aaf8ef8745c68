"""Bot turns: the server plays every bot seat that may act.

``bot_turns_run`` is what the ``bot_turns_play`` task runs. It carries the
seq it was scheduled for and does nothing if the table has moved on (someone
else's follow-up covers the new position). Otherwise it loops: choose a bot's
move from what that seat may see (``rules.bots``), apply it through
``move_apply`` without queuing another task, until no bot seat may act (a
person must move, or the match is over). Looping instead of re-queuing keeps
the in-process (eager) mode free of recursion.

The bot's choice is computed without holding the table lock (a strong bot can
think for a while); the move is then applied under the lock only if the table
is still at the seq the choice was made for.
"""

from __future__ import annotations

import logging
import random
from typing import Any

from django.db import transaction

import rules
from games import event_store
from games.errors import Conflict
from games.models import Table, TableStatus
from games.services.actions import move_apply
from games.services.common import bot_turns_queue
from games.services.locking import table_lock_seats
from games.services.recording import state_load
from rules import bots

logger = logging.getLogger(__name__)

#: Moves one task plays before handing over to a fresh task (a whole match of
#: bots, or a runaway, never holds one worker for long).
MOVES_PER_TASK = 400


class _History:
    """The table's events, read once and extended as the loop plays on."""

    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        self.events: list[rules.Event] = []
        self.seq = 0

    def up_to(self, seq: int) -> list[rules.Event]:
        """Events 1..seq (never later ones, even if the table moved on)."""
        if seq < self.seq:  # pragma: no cover - seqs only grow
            self.events, self.seq = [], 0
        if seq > self.seq:
            self.events.extend(
                event_store.load_events(self.table_id, after=self.seq, until=seq)
            )
            self.seq = seq
        return self.events


def bot_rng(table: Table, seat: int) -> random.Random:
    """A deterministic, server-side source of the bot's choices at this move."""
    return random.Random(f"{table.seed}:{table.seq}:{seat}")


def bot_choose(
    game: rules.Game[Any],
    state: Any,
    history: list[rules.Event],
    table: Table,
    seat: int,
    level: str,
) -> dict[str, Any]:
    """The bot's action for ``seat``; a failing policy falls back to random.

    The bot sees only ``bots.bot_input``: its seat's view, legal actions and
    the history redacted for it.
    """
    inp = bots.bot_input(game, state, history, seat)
    try:
        action = bots.get_bot(game.name, level).choose(inp, bot_rng(table, seat))
        if action in inp.legal:
            return dict(action)
        logger.error(  # the type only: the action may name hidden cards
            "%s bot %s chose an illegal %r action", game.name, level, action.get("type")
        )
    except Exception:
        logger.exception("%s bot %s failed at table %s", game.name, level, table.pk)
    return bots.RandomPolicy().choose(inp, bot_rng(table, seat))


def bot_turn_play(
    *, table_id: int, seq: int, history: _History | None = None
) -> int | None:
    """Play one bot move at table ``table_id`` as it stands at ``seq``.

    Returns the new seq, or None when there is nothing to do (the table moved
    on, is not in play, or no bot seat may act). Lock: none while choosing;
    the table row while applying (the move is dropped if the seq changed).
    """
    table = Table.objects.filter(pk=table_id).first()
    if table is None or table.status != TableStatus.PLAYING or table.seq != seq:
        return None
    game = rules.get_game(table.game)
    state = state_load(game, table)
    to_act = game.to_act(state)
    seats = list(table.seats.all())
    bot = next((s for s in seats if s.bot_level and s.index in to_act), None)
    if bot is None:
        return None
    events = (history or _History(table_id)).up_to(seq)
    action = bot_choose(game, state, events, table, bot.index, bot.bot_level or "")
    with transaction.atomic():
        table, seats, _ = table_lock_seats(table_id)
        if table.status != TableStatus.PLAYING or table.seq != seq:
            return None
        seat = next((s for s in seats if s.index == bot.index), None)
        # Seats change in play only from a person to a bot, never back.
        if seat is None or seat.bot_level is None:  # pragma: no cover
            return None
        try:
            result = move_apply(
                table=table,
                seats=seats,
                seat=seat.index,
                actor_id=seat.user_id,
                action=action,
                queue_bots=False,
            )
        except rules.IllegalAction:
            logger.exception(
                "Bot %r move refused at table %s", action.get("type"), table_id
            )
            raise
    new_seq: int = result["seq"]
    return new_seq


def bot_turns_run(*, table_id: int, seq: int, limit: int = MOVES_PER_TASK) -> int:
    """Play bot moves from ``seq`` on until a person must act; return how many.

    Does nothing if the table is no longer at ``seq``. After ``limit`` moves
    with bots still to act, queues a fresh task to go on.
    """
    history = _History(table_id)
    played = 0
    while played < limit:
        try:
            new_seq = bot_turn_play(table_id=table_id, seq=seq, history=history)
        except Conflict:  # pragma: no cover - the lock and seq check prevent it
            return played
        if new_seq is None:
            return played
        seq = new_seq
        played += 1
    transaction.on_commit(lambda: bot_turns_queue(table_id, seq), robust=True)
    return played
