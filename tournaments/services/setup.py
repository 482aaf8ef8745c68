"""A tournament's table layout: size, lead seat and partnerships (its set-up
is checked against the rules by ``tournaments.validation``)."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import rules
from tournaments.models import Tournament
from tournaments.seating import Layout

#: Seats that play as partners, per (game, table size): Alkort at four is
#: seats 0 & 2 against 1 & 3 (docs/rules-api-alkort.md).
PARTNERSHIPS: dict[tuple[str, int], tuple[tuple[int, ...], ...]] = {
    ("alkort", 4): ((0, 2), (1, 3)),
}


def layout_get(*, tournament: Tournament) -> Layout:
    """Size, first seat to act and partnerships of the tournament's tables."""
    size = tournament.table_size
    return Layout(
        size=size,
        lead=lead_seat(
            tournament.game, size, json.dumps(tournament.options, sort_keys=True)
        ),
        partners=PARTNERSHIPS.get((tournament.game, size), ()),
        team_event=tournament.team_event,
    )


@lru_cache(maxsize=256)
def lead_seat(game_name: str, players: int, options_json: str) -> int:
    """The seat that acts first in a match, as the rules deal it.

    Read from the rules rather than assumed: Alager's eldest and Alkort's
    forehand sit left of the first dealer (seat 1 by default), Allegra's
    ``first_player`` starts (seat 0 by default).
    """
    game = rules.get_game(game_name)
    options: dict[str, Any] = json.loads(options_json)
    state = game.replay(game.start(players=players, options=options, seed="lead"))
    to_act = game.to_act(state)
    return int(to_act[0]) if to_act else 0
