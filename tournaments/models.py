"""Tournaments, their entries, rounds, the tables of a round and standings.

A ``Tournament`` goes draft → registration → running → finished. Each
``Round`` is seated (``RoundTable`` and ``RoundSeat`` say who sits where, and
``Bye`` who sits out), then started (each round table gets its ``games.Table``,
created and started through the games services), then finished once every
table's match has ended. ``Standing`` rows are a cache of what the finished
tables' outcomes give (``tournaments.standings``); nobody edits them.
Game rules live in ``rules``, never here.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from accounts.models import BotLevel
from games.models import GAME_CHOICES, Table
from tournaments.choices import FillPolicy, TournamentFormat, TournamentStatus
from tournaments.seating import round_robin_rounds
from tournaments.validation import tournament_validate

#: The fields that define the event. The game settings are frozen once
#: registration opens (players entered for them); the number of rounds too
#: once the tournament has left registration (running or finished).
SETUP_FIELDS = (
    "game",
    "options",
    "table_size",
    "format",
    "team_event",
    "fill_policy",
    "bot_level",
    "time_control",
    "rated",
)
ROUND_FIELDS = ("rounds",)
#: The places (``max_entries``): they can change while players may enter,
#: and are frozen with the rounds once round 1 is seated.
ENTRY_FIELDS = ("max_entries",)

#: How a field reads in "its … can no longer change", where not its name.
FIELD_PHRASES = {"max_entries": "places"}

#: The fewest places a tournament with a limit may have.
MIN_PLACES = 2

#: The most: far beyond any room's event, and a clear answer to a typo of
#: many digits (the column itself would take two thousand million).
MAX_PLACES = 10_000

PLACES_MAX_MESSAGE = f"Give at most {MAX_PLACES:,} places, or leave it empty."

#: The most rounds a Swiss tournament may be set up with. A Swiss at
#: 2-player tables seats people together again after ``players - 1`` rounds
#: (the seating avoids repeats while it can, never refuses one), and no event
#: an organiser runs has more than a few dozen rounds: 100000 is a typo.
#: A round robin's count follows from its players and is not bounded here.
MAX_SWISS_ROUNDS = 50

#: How a status reads in "the tournament is …".
STATUS_PHRASES = {
    TournamentStatus.DRAFT: "a draft",
    TournamentStatus.REGISTRATION: "open for registration",
    TournamentStatus.RUNNING: "running",
    TournamentStatus.FINISHED: "finished",
}


def frozen_fields(status: str) -> tuple[str, ...]:
    """The set-up fields that can no longer change in ``status``."""
    if status == TournamentStatus.DRAFT:
        return ()
    if status == TournamentStatus.REGISTRATION:
        return SETUP_FIELDS
    return (*SETUP_FIELDS, *ROUND_FIELDS, *ENTRY_FIELDS)


class Tournament(models.Model):
    """One event: a game with fixed options, a format and its rounds.

    ``options`` are stored complete (the game's defaults filled in) once the
    rules have validated them. ``rounds`` is the number of Swiss rounds; for
    a round robin it is set when the first round is seated. ``time_control``
    (seconds per move) is passed to each table when table creation accepts it.
    """

    name = models.CharField(max_length=200)
    game = models.CharField(max_length=32, choices=GAME_CHOICES)
    options = models.JSONField(
        default=dict, blank=True, help_text="The game's options; defaults filled in."
    )
    table_size = models.PositiveSmallIntegerField(help_text="Players per table.")
    format = models.CharField(
        max_length=16, choices=TournamentFormat.choices, default=TournamentFormat.SWISS
    )
    rounds = models.PositiveSmallIntegerField(
        default=3, help_text="Swiss rounds; a round robin sets its own count."
    )
    time_control = models.PositiveIntegerField(
        null=True, blank=True, help_text="Seconds per move; empty for no clock."
    )
    rated = models.BooleanField(default=False, help_text="Tables count for ratings.")
    bot_level = models.CharField(
        max_length=16,
        choices=BotLevel.choices,
        default=BotLevel.BASIC,
        help_text="Level of the bots that make up an incomplete table.",
    )
    fill_policy = models.CharField(
        max_length=8, choices=FillPolicy.choices, default=FillPolicy.BOTS
    )
    team_event = models.BooleanField(
        default=False,
        help_text="Alkort at 4: entries play in fixed pairs (same team name).",
    )
    max_entries = models.PositiveIntegerField(
        "places",
        null=True,
        blank=True,
        help_text="The most players who can enter (a team event: players, in "
        "pairs); empty for no limit. Withdrawn players hold no place.",
    )
    status = models.CharField(
        max_length=16,
        choices=TournamentStatus.choices,
        default=TournamentStatus.DRAFT,
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    standings_counted = models.PositiveIntegerField(
        default=0,
        editable=False,
        help_text="Finished tables the cached standings include.",
    )
    standings_updated_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["status", "game"], name="tournaments_status_game"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(table_size__gte=2),
                name="tournaments_table_size_at_least_2",
            ),
            models.CheckConstraint(
                condition=models.Q(rounds__gte=1),
                name="tournaments_rounds_positive",
            ),
            models.CheckConstraint(
                condition=models.Q(max_entries__isnull=True)
                | models.Q(max_entries__gte=MIN_PLACES),
                name="tournaments_max_entries_at_least_2",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, setup_change: bool = False, **kwargs: Any) -> None:
        """Save, refusing changes to frozen set-up fields (``ValidationError``).

        ``setup_change`` lets the seating services set a round robin's number
        of rounds as its first round is seated.
        """
        if not setup_change and self.pk is not None and not kwargs.get("force_insert"):
            changed = self.frozen_changes(kwargs.get("update_fields"))
            if changed:
                raise ValidationError(changed)
        super().save(*args, **kwargs)

    def clean(self) -> None:
        """Validate the set-up against the game's rules (admin forms call it).

        Also refuses a number of rounds below one, a Swiss set to more than
        ``MAX_SWISS_ROUNDS`` (when the rounds or the format are set or
        changed: a tournament saved before the bound keeps its count), and
        any change to a set-up field the tournament's stored status has
        frozen (``frozen_fields``), and places (``max_entries``) that are
        fewer than two, odd in a team event, or fewer than the players
        already entered.
        """
        errors: dict[str, Any] = {}
        if self.rounds is not None and self.rounds < 1:
            errors["rounds"] = "A tournament has at least one round."
        elif (
            self.format == TournamentFormat.SWISS
            and self.rounds is not None
            and self.rounds > MAX_SWISS_ROUNDS
            and self._rounds_set_or_changed()
        ):
            errors["rounds"] = (
                f"A Swiss tournament plays at most {MAX_SWISS_ROUNDS} rounds."
            )
        errors.update(self._places_errors())
        errors.update(self.frozen_changes())
        try:
            tournament_validate(tournament=self)
        except ValidationError as exc:
            for name, messages in exc.message_dict.items():
                errors.setdefault(name, messages)
        if errors:
            raise ValidationError(errors)

    def places_taken(self) -> int:
        """The players entered and not withdrawn: the places they hold (a
        withdrawn player holds none)."""
        return self.entries.filter(withdrawn=False).count()

    def _places_errors(self) -> dict[str, str]:
        """What is wrong with ``max_entries``: fewer than two places, an odd
        number in a team event (its last place could never make a team), or
        fewer places than the players already entered (withdraw them first)."""
        places = self.max_entries
        if places is None:
            return {}
        if places < MIN_PLACES:
            return {
                "max_entries": f"Give at least {MIN_PLACES} places, or leave it empty."
            }
        if places > MAX_PLACES:
            return {"max_entries": PLACES_MAX_MESSAGE}
        if self.team_event and places % 2:
            return {
                "max_entries": "In a team event players enter in pairs: give an "
                "even number of places."
            }
        if self.pk is not None:
            entered = self.places_taken()
            if entered > places:
                return {
                    "max_entries": f"{entered} players are entered: give at least "
                    f"{entered} places, or withdraw players first."
                }
        return {}

    def _rounds_set_or_changed(self) -> bool:
        """Whether this is a new tournament, or its rounds or format changed."""
        if self.pk is None:
            return True
        stored = Tournament.objects.filter(pk=self.pk).values("rounds", "format")
        return list(stored) != [{"rounds": self.rounds, "format": self.format}]

    def round_count(self, entries: int) -> int:
        """The rounds the tournament plays, ``entries`` its players entered
        (not withdrawn). A round robin's follow from its players (each meets
        every other once) until seating round 1 fixes them in ``rounds``."""
        if self.format == TournamentFormat.ROUND_ROBIN and self.status in (
            TournamentStatus.DRAFT,
            TournamentStatus.REGISTRATION,
        ):
            return round_robin_rounds(max(entries, 2))
        return self.rounds

    def frozen_changes(self, fields: Any = None) -> dict[str, str]:
        """Frozen set-up fields (of ``fields``, default all) that differ from the row."""
        if self.pk is None:
            return {}
        stored = (
            Tournament.objects.filter(pk=self.pk)
            .values("status", *SETUP_FIELDS, *ROUND_FIELDS, *ENTRY_FIELDS)
            .first()
        )
        if stored is None:
            return {}
        frozen = frozen_fields(stored["status"])
        status = STATUS_PHRASES[TournamentStatus(stored["status"])]
        return {
            name: f"The tournament is {status}: its "
            f"{FIELD_PHRASES.get(name, name.replace('_', ' '))} can no longer change."
            for name in frozen
            if (fields is None or name in fields)
            and getattr(self, name) != stored[name]
        }


class Entry(models.Model):
    """A player's registration; ``withdrawn`` entries are seated no more.

    ``seed_rating`` is the player's rating in the game when they registered
    (from the statistics app; None when there is none). ``number`` is the
    starting number, given by seed when the first round is seated. ``team``
    names the pair in a team event.
    """

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="entries"
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="entries"
    )
    team = models.CharField(max_length=64, blank=True, default="")
    seed_rating = models.FloatField(null=True, blank=True)
    number = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    withdrawn = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number", "created_at", "id"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="tournaments_entry_one_per_player"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"


class RoundStatus(models.TextChoices):
    SEATED = "seated", "Seated"
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"


class Round(models.Model):
    """One round: seated → running (tables in play) → finished."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="round_set"
    )
    number = models.PositiveSmallIntegerField()
    status = models.CharField(
        max_length=16, choices=RoundStatus.choices, default=RoundStatus.SEATED
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="tournaments_round_unique_number"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"


class RoundTable(models.Model):
    """A table of a round; ``table`` is its match once the round has started."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    table = models.OneToOneField(
        Table,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_table",
    )

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "number"], name="tournaments_roundtable_unique_number"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"


class RoundSeat(models.Model):
    """Who sits at ``seat``: an entry, or a bot at ``bot_level``."""

    round_table = models.ForeignKey(
        RoundTable, on_delete=models.CASCADE, related_name="seats"
    )
    seat = models.PositiveSmallIntegerField()
    entry = models.ForeignKey(
        Entry, on_delete=models.PROTECT, null=True, blank=True, related_name="seats"
    )
    bot_level = models.CharField(  # noqa: DJ001 - NULL for a person, as in games.Seat
        max_length=16, choices=BotLevel.choices, null=True, blank=True
    )

    class Meta:
        ordering = ["round_table", "seat"]
        constraints = [
            models.UniqueConstraint(
                fields=["round_table", "seat"], name="tournaments_roundseat_unique"
            ),
            models.CheckConstraint(
                condition=models.Q(entry__isnull=True, bot_level__isnull=False)
                | models.Q(entry__isnull=False, bot_level__isnull=True),
                name="tournaments_roundseat_entry_or_bot",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round_table} seat {self.seat}"


class Bye(models.Model):
    """An entry that sits out a round (it scores the bye's points)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="byes")

    class Meta:
        ordering = ["round", "entry"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "entry"], name="tournaments_bye_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round}: bye for {self.entry}"


class Standing(models.Model):
    """One row of the cached standings (``tournaments.standings`` computes it)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="standings"
    )
    entry = models.OneToOneField(
        Entry, on_delete=models.CASCADE, related_name="standing"
    )
    rank = models.PositiveSmallIntegerField()
    points = models.DecimalField(max_digits=7, decimal_places=1, default=Decimal(0))
    buchholz = models.DecimalField(max_digits=8, decimal_places=1, default=Decimal(0))
    game_score = models.DecimalField(
        max_digits=10, decimal_places=2, default=Decimal(0)
    )
    played = models.PositiveSmallIntegerField(default=0)
    wins = models.PositiveSmallIntegerField(default=0)
    byes = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["tournament", "rank", "entry"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "entry"], name="tournaments_standing_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} #{self.rank}: {self.entry.player}"
