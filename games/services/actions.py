"""Playing a move: ``action_submit``, the one path for people and bots.

REST and WebSocket both call ``action_submit``; bot turns and turn timers
call ``move_apply`` directly with the seat they play. Either way the move is decided by
the rules against the cached state, appended to the event log and folded into
the cache in one transaction with the table row locked; notifications and
follow-up tasks run on commit only.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction

import rules
from accounts.models import User
from config.logs import traceback_without_values
from games.errors import Conflict
from games.models import Seat, Table
from games.services.ahead import Guess, action_check, move_guess, seating_note
from games.services.answers import answer_at, answer_of, seat_answer
from games.services.followups import followups_schedule
from games.services.locking import (
    Vouch,
    person_seat,
    require_playing,
    table_lock_seats,
)
from games.services.presence import seat_back
from games.services.recording import record, state_load

logger = logging.getLogger(__name__)


def move_apply(
    *,
    table: Table,
    seats: list[Seat],
    seat: int,
    actor_id: int,
    action: Any,
    command_id: str | None = None,
    last: bool = False,
    guess: Guess | None = None,
) -> dict[str, Any]:
    """Decide ``action`` for ``seat``, store the events, update the cache.

    Lock: the caller holds the table row (``table_lock_seats``) and has
    checked that the table is in play. Raises ``rules.IllegalAction``
    (nothing written) when the rules refuse. Returns the seat's answer,
    ``{"seq", "status", "view", "legal_actions"}``; ``command_id``, when
    given, is stored with the seq (``games.services.answers``). ``last``: the
    caller returns from its ``atomic`` block with this answer and runs
    nothing else, so the write may carry the transaction's ``COMMIT``
    (``recording.record``).
    ``guess``: the same move decided during the lock's round trip
    (``games.services.ahead``), used only if it started from this table's
    locked seq and seed and this seat.
    """
    game = rules.get_game(table.game)
    if guess is not None and guess.fits(table, seat):
        if guess.refusal is not None:
            raise guess.refusal
        events, state, dumped = guess.events, guess.state, guess.dumped
        view, legal_actions = guess.view, guess.legal_actions
    else:
        dumped = None
        state = state_load(game, table)
        events = _decide(game, state, seat, action)
        for event in events:
            state = game.evolve(state, event)
        view, legal_actions = game.view(state, seat), game.legal_actions(state, seat)
    response = seat_answer(
        seq=table.seq + len(events),
        over=game.outcome(state) is not None,
        view=view,
        legal_actions=legal_actions,
    )
    command = None
    if command_id is not None:
        command = {"command_id": command_id, "action": action}
    followups = partial(
        followups_schedule,
        table=table,
        game=game,
        state=state,
        seats=seats,
        events=events,
        acting_seat=seat,
    )
    record(
        table=table,
        game=game,
        state=state,
        events=events,
        actor_id=actor_id,
        seat=seat,
        command=command,
        last=followups if last else None,
        dumped=dumped,
    )
    if not last:
        followups()
    return response


def _decide(
    game: rules.Game[Any], state: Any, seat: int, action: Any
) -> list[rules.Event]:
    """``game.decide``, answering a bad request with a rules error, never a crash.

    The shape every game requires is checked here too (``action_check``).
    Any other exception from the rules on a person's input is logged as the
    rules bug it is and answered as a malformed action.
    """
    action_check(action)
    try:
        return game.decide(state, seat, action)
    except rules.RulesError:
        raise
    except Exception as exc:
        # The action's type only, and the traceback without the exception's
        # message: either may name the seat's hidden cards, and no log line
        # may reveal them.
        logger.error(
            "%s.decide crashed on a %r action from seat %s\n%s",
            game.name,
            action.get("type"),
            seat,
            traceback_without_values(exc),
        )
        raise rules.MalformedAction(
            "This action could not be read; check it against legal_actions"
        ) from exc


def action_submit(
    *,
    table_id: int,
    user: User,
    action: Any,
    expected_seq: int | None = None,
    command_id: str | None = None,
    vouch: Vouch | None = None,
) -> dict[str, Any]:
    """Play ``action`` from ``user``'s seat; return ``{"seq", "status", "view",
    "legal_actions"}`` for that seat.

    Lock: takes the table row (``select_for_update``) for the whole
    transaction, so moves on one table are applied one at a time and a
    ``command_id`` check cannot race its own retry.

    - ``command_id`` (per seat): a command already processed returns its first
      answer and appends nothing; the same id with another action is refused
      (409 ``command_reused``). The answer is rebuilt from the table's
      cached state when the command was its last move, else from the log
      once the lock is released (``games.services.answers``).
    - ``expected_seq``: the seq the client's view ends at; any other value is
      refused (409 ``stale``) before the rules are asked.
    - The rules decide against the cached state (never a replay); their
      ``IllegalAction`` (``not_your_turn``, ``malformed_action`` …) rolls
      everything back.
    - ``vouch``: what still has to prove the request is ``user``'s (an API
      token not yet checked), checked with the lock before anything else.
    """
    clock = _Clock(time.perf_counter())
    try:
        answer = _action_submit_locked(
            table_id=table_id,
            user=user,
            action=action,
            expected_seq=expected_seq,
            command_id=command_id,
            vouch=vouch,
            clock=clock,
        )
    finally:
        clock.check(table_id)
    if isinstance(answer, _Retry):
        return answer_at(
            game=rules.get_game(answer.game),
            table_id=table_id,
            seed_sha256=answer.seed_sha256,
            seat=answer.seat,
            seq=answer.seq,
        )
    return answer


def _same_json(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` are the same JSON value. Python's ``==`` is
    not that: it takes ``true`` for ``1`` and ``1.0`` for ``1``, so an action
    written with those would pass for a retry of the one sent first."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same_json(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(map(_same_json, a, b))
    return bool(a == b)


@dataclass(slots=True)
class _Clock:
    """When a move started and got its table's lock, for the slow-move log.

    A move taking ``SLOW_MOVE_MS`` or more, answered or refused, is logged as
    one warning line: the table, how long in all, and how long until the
    lock's answer came (the wait for a move in progress or a stuck
    transaction, the lock's round trip, and the move decided meanwhile). Ids
    and times only: nothing of the move, which may name cards.
    """

    started: float
    locked: float | None = None

    def check(self, table_id: int) -> None:
        took = (time.perf_counter() - self.started) * 1000
        if took < settings.SLOW_MOVE_MS:
            return
        if self.locked is None:
            logger.warning(
                "Slow move: table %s, %.0f ms, without the table's lock",
                table_id,
                took,
            )
        else:
            logger.warning(
                "Slow move: table %s, %.0f ms, of which %.0f ms until the "
                "table's lock was held",
                table_id,
                took,
                (self.locked - self.started) * 1000,
            )


@dataclass(frozen=True, slots=True)
class _Retry:
    """A command the seat had sent already: where its answer is rebuilt."""

    game: str
    seed_sha256: str
    seat: int
    seq: int


@transaction.atomic
def _action_submit_locked(
    *,
    table_id: int,
    user: User,
    action: Any,
    expected_seq: int | None,
    command_id: str | None,
    vouch: Vouch | None,
    clock: _Clock,
) -> dict[str, Any] | _Retry:
    """``action_submit`` under the table's lock: the move's answer, or where
    a retried command's answer is."""
    ahead: list[Guess | None] = [None]

    def meanwhile() -> None:  # while the lock's round trip is on its way
        ahead[0] = move_guess(table_id, user.pk, action, expected_seq)

    table, seats, done = table_lock_seats(
        table_id, command_id=command_id, meanwhile=meanwhile, vouch=vouch
    )
    clock.locked = time.perf_counter()
    seating_note(table, seats)
    seat = person_seat(seats, user, table)
    if seat.index in done:
        if not _same_json(done[seat.index].action, action):
            raise Conflict(
                "command_reused",
                f"Command {command_id!r} was already used for another action.",
            )
        if done[seat.index].seq == table.seq:
            # The table's last move: its state is the cached one, no replay.
            game = rules.get_game(table.game)
            return answer_of(
                game, state_load(game, table), seat=seat.index, seq=table.seq
            )
        return _Retry(table.game, table.seed_sha256, seat.index, done[seat.index].seq)
    require_playing(table)
    if seat.away or seat.timeouts:  # live play: the person is back
        seat_back(table=table, seat=seat, seats=seats)
    if expected_seq is not None and expected_seq != table.seq:
        raise Conflict(
            "stale",
            f"Your view is stale: table {table.pk} is at seq {table.seq}, "
            f"not {expected_seq}. Fetch the table and try again.",
        )
    return move_apply(
        table=table,
        seats=seats,
        seat=seat.index,
        actor_id=user.pk,
        action=action,
        command_id=command_id,
        last=True,
        guess=ahead[0],
    )
