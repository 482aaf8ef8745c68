"""Alkort's own counters (``docs/stats.md``): múk, strokes, tricks, exchanges.

Per seat: ``deals`` scored, ``tricks`` won by the seat itself, ``muk`` and
``strokes`` (deals its side scored that way), ``deal_points`` (points its side
scored), ``stock_exchanges`` (the seat exchanged with the stock; the kept and
taken cards stay private) and ``sevens_led`` (tricks the seat led with a 7).
"""

from __future__ import annotations

from typing import Any

from stats.sources import TableInput

KEYS = (
    "deals",
    "tricks",
    "muk",
    "strokes",
    "deal_points",
    "stock_exchanges",
    "sevens_led",
)


def project(
    table: TableInput,
) -> tuple[list[dict[str, Any]], dict[str, Any], int | None]:
    n = table.players
    seats: list[dict[str, Any]] = [dict.fromkeys(KEYS, 0) for _ in range(n)]
    game = dict.fromkeys(
        (
            "deals",
            "tricks",
            "muk",
            "strokes",
            "simple",
            "stock_exchanges",
            "sevens_led",
        ),
        0,
    )
    first: int | None = None
    for event in table.facts:
        p = event.payload
        if event.type == "alkort.cards_dealt":
            if first is None:
                first = p["forehand"]
        elif event.type == "alkort.stock_exchanged":
            seats[p["seat"]]["stock_exchanges"] += 1
            game["stock_exchanges"] += 1
        elif event.type == "alkort.trick_won":
            seats[p["seat"]]["tricks"] += 1
            game["tricks"] += 1
            cards = p.get("cards") or []
            if cards and cards[0][0] == "7":
                seats[p["leader"]]["sevens_led"] += 1
                game["sevens_led"] += 1
        elif event.type == "alkort.deal_scored":
            game["deals"] += 1
            kind = p["kind"]
            game[
                "muk" if kind == "muk" else "strokes" if kind == "stroke" else "simple"
            ] += 1
            for s in range(n):
                seats[s]["deals"] += 1
                if s % 2 == p["side"]:  # 2 players: side = seat
                    seats[s]["deal_points"] += p["points"]
                    if kind == "muk":
                        seats[s]["muk"] += 1
                    elif kind == "stroke":
                        seats[s]["strokes"] += 1
    return seats, game, first
