"""Opening registration, registering and withdrawing.

Each service locks the tournament row (``tournament_lock``) for its whole
transaction, so a registration never races the first round's seating.
"""

from __future__ import annotations

import unicodedata

from django.db import transaction

from accounts.models import User
from games.errors import BadRequest, Conflict, Forbidden, NotFound
from tournaments import ratings
from tournaments.models import STATUS_PHRASES, Entry, Tournament, TournamentStatus


def tournament_lock(tournament_id: int, *, public: bool = False) -> Tournament:
    """The tournament row, locked until the transaction ends (drafts hidden if public)."""
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None or (public and tournament.status == TournamentStatus.DRAFT):
        raise NotFound("not_found", f"Tournament {tournament_id} does not exist.")
    return tournament


@transaction.atomic
def registration_open(*, tournament_id: int) -> Tournament:
    """Publish a draft and let players register. Lock: the tournament row."""
    tournament = tournament_lock(tournament_id)
    if tournament.status != TournamentStatus.DRAFT:
        raise Conflict(
            "not_draft",
            f"Registration for {tournament.name!r} cannot be opened: only a draft "
            f"can be opened, and it is already "
            f"{STATUS_PHRASES[TournamentStatus(tournament.status)]}.",
        )
    tournament.status = TournamentStatus.REGISTRATION
    tournament.save(update_fields=["status"])
    return tournament


def require_registration(tournament: Tournament) -> None:
    if tournament.status != TournamentStatus.REGISTRATION:
        raise Conflict(
            "registration_closed",
            f"Registration for {tournament.name!r} is closed: the tournament is "
            f"{tournament.get_status_display().lower()}.",
        )


#: Players per team in a team event.
TEAM_SIZE = 2


_UNSEEN_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})


def entry_team_clean(*, tournament: Tournament, team: str) -> str:
    """``team`` stripped (and spelt as already entered), if the tournament
    allows it.

    A team event needs a team (``team_required``); an individual event takes
    none (``team_not_allowed``); no name holds a control or invisible
    character (``invalid_team``). Shared by the API's registration and the
    admin's Entries rows.
    """
    team = team.strip()
    # Control, format (zero-width, bidirectional overrides) and separator
    # characters: a name that looks like another team's, or that turns the
    # standings' line around it, is not a name.
    if any(unicodedata.category(char) in _UNSEEN_CATEGORIES for char in team):
        raise BadRequest(
            "invalid_team",
            "A team name may not hold control or invisible characters.",
        )
    if tournament.team_event and not team:
        raise BadRequest(
            "team_required", "This is a team event: name your team to register."
        )
    if not tournament.team_event and team:
        raise BadRequest(
            "team_not_allowed", "Teams are only for team events; register alone."
        )
    if team and tournament.pk is not None:
        # Partners rarely type their team's name alike ("Ravens", "ravens"):
        # a name already entered is matched whatever its case and kept as
        # first spelt, so the two make one team, not two incomplete ones.
        spelt = (
            tournament.entries.filter(team__iexact=team)
            .order_by("created_at", "pk")
            .values_list("team", flat=True)
            .first()
        )
        team = spelt or team
    return team


def entry_team_room_check(*, team: str, mates: int) -> None:
    """Refuse (``team_full``) joining ``team`` when ``mates`` other active
    entries are already in it."""
    if team and mates >= TEAM_SIZE:
        raise Conflict("team_full", f"Team {team!r} already has two players.")


def entry_places_check(*, tournament: Tournament, taken: int) -> None:
    """Refuse (``tournament_full``) one more player when ``taken`` active
    entries already fill the tournament's places (``max_entries``).

    Shared by the API's registration and the admin's Entries rows; both hold
    the tournament's row lock, so two players after the last place never both
    get it.
    """
    places = tournament.max_entries
    if places is not None and taken >= places:
        raise Conflict(
            "tournament_full",
            f"{tournament.name!r} is full: all its {places} places are taken.",
        )


def entry_seed_rating(*, tournament: Tournament, player: User) -> float | None:
    """The seed rating stored on ``player``'s entry when they register."""
    return ratings.rating_get(user=player, game=tournament.game)


@transaction.atomic
def entry_register(*, tournament_id: int, user: User, team: str = "") -> Entry:
    """Register ``user`` (in a team event, in team ``team``). Lock: the tournament row.

    A player who withdrew may register again while registration is open,
    if a place is free (``entry_places_check``: a withdrawn player holds
    none). The seed rating is read now (``entry_seed_rating``).
    """
    tournament = tournament_lock(tournament_id, public=True)
    if user.is_bot:
        raise Forbidden("bot_account", "Bot accounts cannot enter tournaments.")
    require_registration(tournament)
    team = entry_team_clean(tournament=tournament, team=team)
    if tournament.team_event:
        mates = tournament.entries.filter(team=team, withdrawn=False).exclude(
            player=user
        )
        entry_team_room_check(team=team, mates=mates.count())
    entry = tournament.entries.filter(player=user).first()
    if entry is not None and not entry.withdrawn:
        raise Conflict(
            "already_registered", f"You are already registered for {tournament.name!r}."
        )
    entry_places_check(tournament=tournament, taken=tournament.places_taken())
    rating = entry_seed_rating(tournament=tournament, player=user)
    if entry is None:
        return Entry.objects.create(
            tournament=tournament, player=user, team=team, seed_rating=rating
        )
    entry.withdrawn = False
    entry.team = team
    entry.seed_rating = rating
    entry.save(update_fields=["withdrawn", "team", "seed_rating"])
    return entry


@transaction.atomic
def entry_withdraw(*, tournament_id: int, user: User) -> Entry:
    """Withdraw ``user``'s entry during registration. Lock: the tournament row."""
    tournament = tournament_lock(tournament_id, public=True)
    if tournament.status == TournamentStatus.RUNNING:
        # Said as a withdrawal: the registration's message read as if the
        # player had tried to register, and did not say who can withdraw them.
        raise Conflict(
            "registration_closed",
            f"You can no longer withdraw from {tournament.name!r} yourself: the "
            "tournament is running. Ask its organiser to withdraw you (a bot then "
            "plays your seat in a match in play).",
        )
    require_registration(tournament)
    entry = tournament.entries.filter(player=user, withdrawn=False).first()
    if entry is None:
        raise Conflict(
            "not_registered", f"You are not registered for {tournament.name!r}."
        )
    entry.withdrawn = True
    entry.save(update_fields=["withdrawn"])
    return entry
