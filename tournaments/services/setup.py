"""A tournament's set-up checked against the game's rules, and its table layout."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from django.core.exceptions import ValidationError

import rules
from rules import bots
from tournaments.models import FillPolicy, Tournament, TournamentFormat
from tournaments.seating import Layout

#: Seats that play as partners, per (game, table size): Alkort at four is
#: seats 0 & 2 against 1 & 3 (docs/rules-api-alkort.md).
PARTNERSHIPS: dict[tuple[str, int], tuple[tuple[int, ...], ...]] = {
    ("alkort", 4): ((0, 2), (1, 3)),
}


def tournament_validate(*, tournament: Tournament) -> None:
    """Check the set-up; store the options complete. Raises ``ValidationError``.

    The rules validate the options and the table size (``rules.get_game``);
    the formats and the team flag have their own conditions.
    """
    if tournament.game not in rules.GAMES:
        raise ValidationError({"game": f"Unknown game {tournament.game!r}."})
    game = rules.get_game(tournament.game)
    try:
        complete = game.validate_options(tournament.options or {})
    except rules.RulesError as exc:
        raise ValidationError({"options": str(exc)}) from None
    try:
        game.validate_players(tournament.table_size, complete)
    except rules.RulesError as exc:
        raise ValidationError({"table_size": str(exc)}) from None
    try:
        game.start(players=tournament.table_size, options=complete, seed="dry-run")
    except rules.RulesError as exc:
        raise ValidationError({"options": str(exc)}) from None
    tournament.options = complete
    errors: dict[str, str] = {}
    if tournament.format == TournamentFormat.ROUND_ROBIN and tournament.table_size != 2:
        errors["format"] = "A round robin is played at 2-player tables."
    if tournament.team_event and (tournament.game, tournament.table_size) not in {
        ("alkort", 4)
    }:
        errors["team_event"] = "Team events are for Alkort at 4-player tables."
    if tournament.team_event and tournament.format != TournamentFormat.SWISS:
        errors["team_event"] = "Team events are played in the Swiss format."
    if tournament.fill_policy == FillPolicy.BOTS and not _bot_available(
        tournament.game, tournament.bot_level
    ):
        errors["bot_level"] = f"{game.title} has no {tournament.bot_level!r} bot."
    if tournament.time_control is not None and tournament.time_control < 1:
        errors["time_control"] = "Give at least one second per move, or leave it empty."
    if errors:
        raise ValidationError(errors)


def _bot_available(game: str, level: str) -> bool:
    try:
        bots.get_bot(game, level)
    except (ImportError, KeyError, AttributeError):
        return False
    return True


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
