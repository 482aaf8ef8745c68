"""What the projection reads: finished tables, their seats and their events.

Only finished tables are read (an unfinished table's hidden cards are never
looked at), and only from the event log, never from the cached state. Events
come through ``games.event_store.upcast`` so that stored old versions reach
the projection in their current form. Tables are read in batches named by
id (never by paging through events on a global ``id`` checkpoint):

* one grouped query counts each seat's moves (no payloads), one its timeouts
  (``games.SeatTimeout``, the moves its turn timer made for it), and
* one query reads the payloads of the few event types that carry facts the
  statistics need (``FACT_TYPES``), in ``seq`` order.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Count, Q

import rules
from games import event_store
from games.models import GameEvent, Seat, SeatTimeout, Table, TableStatus

#: Event types whose payload a statistic reads, per game.
FACT_TYPES: dict[str, frozenset[str]] = {
    "alager": frozenset(
        {
            "alager.deal_started",
            "alager.konec_called",
            "alager.special_announced",
            "alager.deal_ended",
            "alager.match_ended",
        }
    ),
    "alkort": frozenset(
        {
            "alkort.cards_dealt",
            "alkort.stock_exchanged",
            "alkort.trick_won",
            "alkort.deal_scored",
            "alkort.match_ended",
        }
    ),
    "allegra": frozenset(
        {
            "allegra.round_dealt",
            "allegra.triples_removed",
            "allegra.knock_answered",
            "allegra.card_given",
            "allegra.round_scored",
            "allegra.match_ended",
        }
    ),
}

#: Event types that record one move of the seat that made it (``GameEvent.seat``).
#: Alager's ``konec_called`` is a move unless it rode on an exchange; the
#: projection counts it from its payload.
MOVE_TYPES: dict[str, frozenset[str]] = {
    "alager": frozenset(
        {
            "alager.card_discarded",
            "alager.card_swapped",
            "alager.hand_swapped",
            "alager.passed",
        }
    ),
    "alkort": frozenset(
        {"alkort.exchange_passed", "alkort.stock_exchanged", "alkort.card_played"}
    ),
    "allegra": frozenset(
        {
            "allegra.card_revealed",
            "allegra.discard_taken",
            "allegra.card_drawn",
            "allegra.knock_answered",
            "allegra.drawn_card_swapped",
            "allegra.drawn_card_discarded",
            "allegra.card_given",
            "allegra.knocker_placed",
            "allegra.card_taken",
            "allegra.card_put",
            "allegra.turn_passed",
        }
    ),
}


@dataclass(frozen=True, slots=True)
class SeatInput:
    """A seat as statistics credit it: to the person who sat down there.

    A person who left a match in play (a bot took over, ``Seat.replaced_user``)
    is still credited with the seat's result: leaving does not dodge a loss.
    """

    index: int
    user_id: int
    is_bot: bool


@dataclass(slots=True)
class TableInput:
    table_id: int
    game: str
    players: int
    rated: bool
    started_at: datetime | None
    finished_at: datetime
    seats: list[SeatInput] = field(default_factory=list)
    moves: dict[int, int] = field(default_factory=dict)
    timeouts: dict[int, int] = field(default_factory=dict)
    facts: list[rules.Event] = field(default_factory=list)


def tables_load(table_ids: Sequence[int]) -> dict[int, TableInput]:
    """The finished tables among ``table_ids`` with their seats and events."""
    out: dict[int, TableInput] = {}
    rows = Table.objects.filter(pk__in=table_ids, status=TableStatus.FINISHED).values(
        "pk", "game", "players", "rated", "started_at", "finished_at", "updated_at"
    )
    for row in rows:
        out[row["pk"]] = TableInput(
            table_id=row["pk"],
            game=row["game"],
            players=row["players"],
            rated=row["rated"],
            started_at=row["started_at"],
            finished_at=row["finished_at"] or row["updated_at"],
        )
    if not out:
        return out
    ids = list(out)
    seats = Seat.objects.filter(table_id__in=ids).order_by("table_id", "index")
    for table_id, index, user_id, bot_level, replaced in seats.values_list(
        "table_id", "index", "user_id", "bot_level", "replaced_user_id"
    ):
        credited = replaced or user_id
        out[table_id].seats.append(
            SeatInput(index, credited, bot_level is not None and replaced is None)
        )
    _counts_load(out)
    _facts_load(out)
    return out


def _counts_load(tables: dict[int, TableInput]) -> None:
    by_game: dict[str, list[int]] = defaultdict(list)
    for t in tables.values():
        by_game[t.game].append(t.table_id)
    for game, ids in by_game.items():
        counts = (
            GameEvent.objects.filter(table_id__in=ids, seat__isnull=False)
            .values("table_id", "seat")
            .annotate(moves=Count("id", filter=Q(type__in=MOVE_TYPES[game])))
            .order_by()
        )
        for row in counts:
            tables[row["table_id"]].moves[row["seat"]] = row["moves"]
    # A move the server played for a person whose turn timer ran out is
    # recorded beside the log, one row per timed-out move (games.SeatTimeout).
    timeouts = (
        SeatTimeout.objects.filter(table_id__in=list(tables))
        .values("table_id", "seat")
        .annotate(n=Count("id"))
        .order_by()
    )
    for row in timeouts:
        tables[row["table_id"]].timeouts[row["seat"]] = row["n"]


def _facts_load(tables: dict[int, TableInput]) -> None:
    types = frozenset().union(*(FACT_TYPES[t.game] for t in tables.values()))
    rows = (
        GameEvent.objects.filter(table_id__in=list(tables), type__in=types)
        .order_by("table_id", "seq")
        .values_list("table_id", "type", "version", "payload")
    )
    for table_id, type_, version, payload in rows:
        tables[table_id].facts.append(event_store.upcast(type_, version, payload))
