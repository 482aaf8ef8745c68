"""Deciding a move while its row lock is on the way (docs/event-store.md,
"A move's round trips").

A move waits for its first round trip (``BEGIN``, the row lock, the seats)
with nothing to do, then runs the rules. When this process remembers the
table's state at the seq the client says its view ends at
(``expected_seq``), and the seat the person sat in at the last move here,
``move_guess`` runs the rules during that wait instead: the same pure
functions on the same state value the move would use after the lock.

Nothing of a guess is used unless the locked row proves it right
(``Guess.fits``): the same seq and seed hash (the events up to a seq never
change, so the state is the same value) and the same seat. Every check the
move makes under the lock (seat, idempotency, stale seq, status) runs as
before; otherwise the move decides after the lock, as it always did.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import rules
from games.models import Seat, Table
from games.state_cache import CAPACITY, state_latest
from games.state_codec import json_text

#: Per table: its game and each person's seat, as the last move here found
#: them (a hint only: a guess is checked against the locked rows).
_seating: dict[int, tuple[str, dict[int, int]]] = {}


@dataclass(frozen=True, slots=True)
class Guess:
    """A move decided against the remembered state at ``seq``: its events,
    the state they lead to (also encoded, as the table's cached state is
    written), the seat's view and legal actions after it; or the rules'
    refusal."""

    seq: int
    seed_sha256: str
    seat: int
    events: list[rules.Event]
    state: Any
    view: Any
    legal_actions: Any
    dumped: tuple[Any, str] | None = None  # game.dump_state(state), its JSON
    refusal: rules.RulesError | None = None

    def fits(self, table: Table, seat: int) -> bool:
        """Whether the locked ``table`` is the state this guess started from."""
        return (self.seq, self.seed_sha256, self.seat) == (
            table.seq,
            table.seed_sha256,
            seat,
        )


def action_check(action: Any) -> None:
    """The shape every game requires of an action (a JSON object with a
    string ``type``), refused with the rules' own messages, so the service
    does not depend on every game checking it (``tests/rules/test_bad_input.py``
    holds the games to it)."""
    if not isinstance(action, dict):
        raise rules.MalformedAction("An action must be a JSON object with a 'type'")
    if not isinstance(action.get("type"), str):
        raise rules.MalformedAction("An action needs a 'type' string")


def seating_note(table: Table, seats: list[Seat]) -> None:
    """Remember the table's game and who sits where (the lock's read)."""
    if len(_seating) >= CAPACITY and table.pk not in _seating:
        _seating.clear()
    _seating[table.pk] = (
        table.game,
        {s.user_id: s.index for s in seats if s.bot_level is None and s.user_id},
    )


def move_guess(
    table_id: int, user_id: int, action: Any, expected_seq: int | None
) -> Guess | None:
    """The move ``user_id`` would make with ``action``, decided against the
    state this process remembers, if it remembers the state at
    ``expected_seq`` and the person's seat; else None.

    Never raises: a rules refusal is kept in the guess (and raised only if
    the guess fits), anything else leaves the move to decide after the lock,
    which reports it as it always does.
    """
    seating = _seating.get(table_id)
    latest = state_latest(table_id)
    if seating is None or latest is None or expected_seq is None:
        return None
    seq, seed_sha256, state = latest
    seat = seating[1].get(user_id)
    if seq != expected_seq or seat is None:
        return None
    game = rules.get_game(seating[0])
    try:
        action_check(action)
        events = game.decide(state, seat, action)
        for event in events:
            state = game.evolve(state, event)
        view = game.view(state, seat)
        legal_actions = game.legal_actions(state, seat)
        dumped = game.dump_state(state)
        dumped_text = json_text(dumped)
    except rules.RulesError as refusal:
        return Guess(seq, seed_sha256, seat, [], None, None, None, refusal=refusal)
    except Exception:  # the move decides again after the lock, and logs it
        return None
    return Guess(
        seq, seed_sha256, seat, events, state, view, legal_actions,
        (dumped, dumped_text),
    )  # fmt: skip
