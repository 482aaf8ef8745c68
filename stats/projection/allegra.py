"""Allegra's own counters (``docs/stats.md``): triples, knocks, doubling, rounds.

Per seat: ``rounds`` and ``round_score_sum`` (after doubling), ``doubled``
(rounds the seat triggered and had its score doubled), ``triples`` (removals of
three or more equal cards from the seat's area) and ``triple_cards``,
``knocks`` (knock answers "knock") and ``knocks_granted`` (a drawer gave the
seat its card). A seat's knock answer is read only once the match is over,
when every answer is public anyway.
"""

from __future__ import annotations

from typing import Any

from stats.sources import TableInput

KEYS = (
    "rounds",
    "round_score_sum",
    "doubled",
    "triples",
    "triple_cards",
    "knocks",
    "knocks_granted",
)


def project(
    table: TableInput,
) -> tuple[list[dict[str, Any]], dict[str, Any], int | None]:
    n = table.players
    seats: list[dict[str, Any]] = [dict.fromkeys(KEYS, 0) for _ in range(n)]
    game = dict.fromkeys(
        ("rounds", "doubled", "triples", "knocks", "knocks_granted"), 0
    )
    first: int | None = None
    for event in table.facts:
        p = event.payload
        if event.type == "allegra.round_dealt":
            if first is None:
                first = p["start_seat"]
        elif event.type == "allegra.triples_removed":
            owners: dict[int, int] = {}
            for cell in p["cells"]:
                owner = _area_owner(cell, p["cells"], n)
                owners[owner] = owners.get(owner, 0) + 1
            for owner, cells in owners.items():
                seats[owner]["triples"] += 1
                seats[owner]["triple_cards"] += cells
                game["triples"] += 1
        elif event.type == "allegra.knock_answered":
            if p.get("knock"):
                seats[p["seat"]]["knocks"] += 1
                game["knocks"] += 1
        elif event.type == "allegra.card_given":
            seats[p["to"]]["knocks_granted"] += 1
            game["knocks_granted"] += 1
        elif event.type == "allegra.round_scored":
            game["rounds"] += 1
            for s in range(n):
                seats[s]["rounds"] += 1
                seats[s]["round_score_sum"] += int(p["scores"][s])
            trigger = p.get("trigger")
            if p.get("doubled") and trigger is not None:
                seats[trigger]["doubled"] += 1
                game["doubled"] += 1
    return seats, game, first


def _area_owner(cell: dict[str, Any], cells: list[dict[str, Any]], n: int) -> int:
    """Whose area a removed cell was counted in.

    A cell belongs to its grid's owner, except that column 3 is also the left
    part of the right-hand neighbour's area (seat ``owner - 1``): when the
    same removal takes that neighbour's own cells and none of the owner's
    other columns, the run was the neighbour's.
    """
    seat: int = cell["seat"]
    if cell["col"] != 3:
        return seat
    own = {c["seat"] for c in cells if c["col"] != 3}
    neighbour = (seat - 1) % n
    if neighbour in own and seat not in own:
        return neighbour
    return seat
