"""The answer a seat gets for its move, and the same answer for a retry.

A move answers its seat with ``{"seq", "status", "view", "legal_actions"}``
at the seq the move left the table at (``seat_answer``). A command sent again
with the same ``command_id`` gets that same answer without acting again
(docs/event-store.md, "A move: ``action_submit``"): the processed command keeps only
that seq, and ``answer_at`` rebuilds the answer from the log, whose events up
to a seq never change. Nothing is locked for it: it reads committed events.
"""

from __future__ import annotations

from typing import Any

import rules
from games import event_store
from games.models import TableStatus
from games.state_cache import state_get


def seat_answer(
    *, seq: int, over: bool, view: dict[str, Any], legal_actions: list[Any]
) -> dict[str, Any]:
    """A move's answer to its seat: the table was in play when the move was
    made, so it is ``playing`` unless the move ended the match."""
    return {
        "seq": seq,
        "status": (TableStatus.FINISHED if over else TableStatus.PLAYING).value,
        "view": view,
        "legal_actions": legal_actions,
    }


def answer_at(
    *, game: rules.Game[Any], table_id: int, seed_sha256: str, seat: int, seq: int
) -> dict[str, Any]:
    """The answer the move that left ``table_id`` at ``seq`` gave ``seat``.

    The state at ``seq`` is this process's remembered one when it has it (a
    retry right after its move), else the replay of the events up to ``seq``.
    """
    state = state_get(table_id, seq, seed_sha256)
    if state is None:
        state = game.replay(event_store.load_events(table_id, until=seq))
    return answer_of(game, state, seat=seat, seq=seq)


def answer_of(
    game: rules.Game[Any], state: Any, *, seat: int, seq: int
) -> dict[str, Any]:
    """The answer a move that left the table at ``seq`` in ``state`` gave
    ``seat``."""
    return seat_answer(
        seq=seq,
        over=game.outcome(state) is not None,
        view=game.view(state, seat),
        legal_actions=game.legal_actions(state, seat),
    )
