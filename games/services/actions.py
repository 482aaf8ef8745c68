"""Playing a move: ``action_submit``, the one path for people and bots.

REST and WebSocket both call ``action_submit``; bot turns and turn timers
call ``move_apply`` directly with the seat they play. Either way the move is decided by
the rules against the cached state, appended to the event log and folded into
the cache in one transaction with the table row locked; notifications and
follow-up tasks run on commit only.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from django.db import transaction

import rules
from accounts.models import User
from games.errors import Conflict
from games.models import Seat, Table, TableStatus
from games.services.followups import followups_schedule
from games.services.locking import person_seat, require_playing, table_lock_seats
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
) -> dict[str, Any]:
    """Decide ``action`` for ``seat``, store the events, update the cache.

    Lock: the caller holds the table row (``table_lock_seats``) and has
    checked that the table is in play. Raises ``rules.IllegalAction``
    (nothing written) when the rules refuse. Returns the seat's answer,
    ``{"seq", "status", "view", "legal_actions"}``, which is also stored
    under ``command_id`` when one is given. ``last``: the caller returns
    from its ``atomic`` block with this answer and runs nothing else, so the
    write may carry the transaction's ``COMMIT`` (``recording.record``).
    """
    game = rules.get_game(table.game)
    state = state_load(game, table)
    events = _decide(game, state, seat, action)
    for event in events:
        state = game.evolve(state, event)
    over = game.outcome(state) is not None
    response = {
        "seq": table.seq + len(events),
        "status": TableStatus.FINISHED.value if over else table.status,
        "view": game.view(state, seat),
        "legal_actions": game.legal_actions(state, seat),
    }
    command = None
    if command_id is not None:
        command = {"command_id": command_id, "action": action, "response": response}
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
    )
    if not last:
        followups()
    return response


def _decide(
    game: rules.Game[Any], state: Any, seat: int, action: Any
) -> list[rules.Event]:
    """``game.decide``, answering a bad request with a rules error, never a crash.

    The shape every game requires (a JSON object with a string ``type``) is
    checked here too, with the rules' own messages, so the service does not
    depend on every game getting it right (``tests/rules/test_bad_input.py``
    holds the games to it). Any other exception from the rules on a person's
    input is logged as the rules bug it is and answered as a malformed action.
    """
    if not isinstance(action, dict):
        raise rules.MalformedAction("An action must be a JSON object with a 'type'")
    if not isinstance(action.get("type"), str):
        raise rules.MalformedAction("An action needs a 'type' string")
    try:
        return game.decide(state, seat, action)
    except rules.RulesError:
        raise
    except Exception as exc:
        # The action's type only: the rest may name the seat's hidden cards,
        # and no log line may reveal them.
        logger.exception(
            "%s.decide crashed on a %r action from seat %s",
            game.name,
            action.get("type"),
            seat,
        )
        raise rules.MalformedAction(
            "This action could not be read; check it against legal_actions"
        ) from exc


@transaction.atomic
def action_submit(
    *,
    table_id: int,
    user: User,
    action: Any,
    expected_seq: int | None = None,
    command_id: str | None = None,
) -> dict[str, Any]:
    """Play ``action`` from ``user``'s seat; return ``{"seq", "status", "view",
    "legal_actions"}`` for that seat.

    Lock: takes the table row (``select_for_update``) for the whole
    transaction, so moves on one table are applied one at a time and a
    ``command_id`` check cannot race its own retry.

    - ``command_id`` (per seat): a command already processed returns its first
      answer and appends nothing; the same id with another action is refused
      (409 ``command_reused``).
    - ``expected_seq``: the seq the client's view ends at; any other value is
      refused (409 ``stale``) before the rules are asked.
    - The rules decide against the cached state (never a replay); their
      ``IllegalAction`` (``not_your_turn``, ``malformed_action`` …) rolls
      everything back.
    """
    table, seats, done = table_lock_seats(table_id, command_id=command_id)
    seat = person_seat(seats, user, table)
    if seat.index in done:
        if done[seat.index].action != action:
            raise Conflict(
                "command_reused",
                f"Command {command_id!r} was already used for another action.",
            )
        return done[seat.index].response
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
    )
