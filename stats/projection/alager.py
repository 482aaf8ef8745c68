"""Alager's own counters (``docs/stats.md``): specials, knocks, showdown hands.

Per seat: ``deals`` played, ``alager`` and ``hori`` (special hands
announced), ``knocks`` (Konec called), ``knocks_lowest`` (the knocker's hand
was the lowest at that showdown, so the knock cost them), ``showdowns`` and
``showdown_value_sum`` (hands revealed at a deal's end and their values).
Hands are read only from ``deal_ended``, where every hand is revealed.
"""

from __future__ import annotations

from typing import Any

from stats.sources import TableInput

KEYS = (
    "deals",
    "alager",
    "hori",
    "knocks",
    "knocks_lowest",
    "showdowns",
    "showdown_value_sum",
)


def project(
    table: TableInput,
) -> tuple[list[dict[str, Any]], dict[str, Any], int | None]:
    seats: list[dict[str, Any]] = [
        dict.fromkeys(KEYS, 0) | {"_moves": 0} for _ in range(table.players)
    ]
    game = dict.fromkeys(("deals", "alager", "hori", "knocks", "knocks_lowest"), 0)
    first: int | None = None
    for event in table.facts:
        p = event.payload
        if event.type == "alager.deal_started":
            if first is None:
                first = p["eldest"]
        elif event.type == "alager.konec_called":
            seats[p["seat"]]["knocks"] += 1
            game["knocks"] += 1
            if not p.get("after_exchange"):
                seats[p["seat"]]["_moves"] += 1
        elif event.type == "alager.special_announced":
            kind = "hori" if p["kind"] == "hori" else "alager"
            seats[p["seat"]][kind] += 1
            game[kind] += 1
        elif event.type == "alager.deal_ended":
            game["deals"] += 1
            values = p.get("values") or []
            hands = p.get("hands") or []
            shown = [v for v in values if v is not None]
            for s, value in enumerate(values):
                if s < len(hands) and hands[s] is None:
                    continue
                seats[s]["deals"] += 1
                if value is not None:
                    seats[s]["showdowns"] += 1
                    seats[s]["showdown_value_sum"] += int(value)
            knocker = p.get("knocker")
            if (
                p.get("reason") == "konec"
                and knocker is not None
                and shown
                and values[knocker] == min(shown)
            ):
                seats[knocker]["knocks_lowest"] += 1
                game["knocks_lowest"] += 1
    return seats, game, first
