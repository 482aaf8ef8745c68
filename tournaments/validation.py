"""A tournament's set-up checked against the game's rules.

Called by ``Tournament.clean`` (the admin's forms), so it takes the set-up's
fields (``SetUp``) and nothing of the models.
"""

from __future__ import annotations

from typing import Any, Protocol

from django.core.exceptions import ValidationError

import rules
from games.services.tables import TIME_CONTROL_MAX
from rules import bots
from tournaments.choices import FillPolicy, TournamentFormat


class SetUp(Protocol):
    """The fields of a tournament that its set-up is made of."""

    game: str
    options: Any
    table_size: int
    format: str
    team_event: bool
    fill_policy: str
    bot_level: str
    time_control: int | None


def tournament_validate(*, tournament: SetUp) -> None:
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
    if tournament.time_control is not None and not (
        1 <= tournament.time_control <= TIME_CONTROL_MAX
    ):
        # The tables' own limits: a clock they refuse would freeze with the
        # set-up and then refuse every round's start.
        errors["time_control"] = (
            f"Give from 1 to {TIME_CONTROL_MAX} seconds per move, or leave it empty."
        )
    if errors:
        raise ValidationError(errors)


def _bot_available(game: str, level: str) -> bool:
    try:
        bots.get_bot(game, level)
    except (ImportError, KeyError, AttributeError):
        return False
    return True
