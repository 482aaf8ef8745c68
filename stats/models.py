"""Read models of the statistics: what finished tables add up to.

Everything here is a projection of the event log (``docs/stats.md``): it can
be thrown away and rebuilt with ``manage.py stats_rebuild``. Sums are stored,
never averages, so that counting tables in any order gives the same rows;
ratings depend on order and are applied in finish order (``stats.ratings``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import GAME_CHOICES, Table


class CountedTable(models.Model):
    """The marker that ``table`` is counted, written with its statistics.

    Unique per table: a repeat or concurrent count finds it and changes
    nothing. ``contribution`` keeps what the table added (per seat and per
    game) so that a recount can take exactly that back out; ``rating_input``
    is what the rating update needs (teams and places), so ratings can be
    replayed in finish order without reading events again.
    """

    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, related_name="stats_counted"
    )
    game = models.CharField(max_length=32, choices=GAME_CHOICES)
    players = models.PositiveSmallIntegerField()
    finished_at = models.DateTimeField()
    rated = models.BooleanField()
    rating_input = models.JSONField(null=True, blank=True)
    contribution = models.JSONField()
    counted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "finished_at", "table"]
        indexes = [
            models.Index(
                fields=["game", "finished_at", "table"], name="stats_counted_order"
            )
        ]

    def __str__(self) -> str:
        return f"Table {self.table_id} ({self.game}) counted"


class PendingTable(models.Model):
    """A finished table waiting for its count: the statistics' queue.

    Written in the transaction that finishes the table (``games.signals.
    table_finishing``), so a table is finished and queued, or neither; deleted
    in the transaction that writes its ``CountedTable`` marker (a count, a
    recount, the rebuild). So the queue holds exactly the finished tables
    still to count, and "still to count" (``pending``, a player's
    ``uncounted``, the sweep) reads it alone, however many tables the site
    has finished. ``game`` and ``finished_at`` are the table's, copied so
    those reads need not join the tables.
    """

    table = models.OneToOneField(
        Table,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="stats_pending",
    )
    game = models.CharField(max_length=32, choices=GAME_CHOICES)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["finished_at", "table"]
        indexes = [
            models.Index(fields=["finished_at", "table"], name="stats_pending_order")
        ]

    def __str__(self) -> str:
        return f"Table {self.table_id} ({self.game}) waiting for its count"


class GameProgress(models.Model):
    """How far the counting of one game has got: what ``computed_through``
    and ``Last-Modified`` answer, without reading every ``CountedTable``.

    Kept by the statistics writer in the transaction that writes or removes
    the game's markers, under the game's writer lock (``stats.services.
    progress``): ``tables`` is how many markers the game has, ``last_table``
    and ``last_finished_at`` the last of them in finish order
    (``finished_at``, then table id), ``counted_at`` their newest
    ``counted_at``. A game with no counted table has no row. ``last_table``
    is a plain id, not a foreign key: the row describes the markers, and
    follows them only through the writer.
    """

    game = models.CharField(max_length=32, choices=GAME_CHOICES, primary_key=True)
    tables = models.PositiveIntegerField(default=0)
    last_table = models.BigIntegerField()
    last_finished_at = models.DateTimeField()
    counted_at = models.DateTimeField()

    class Meta:
        ordering = ["game"]
        verbose_name_plural = "game progress"

    def __str__(self) -> str:
        return f"{self.game}: {self.tables} tables counted"


class PlayerResult(models.Model):
    """One seat's result at one counted table (head to head, history)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    game = models.CharField(max_length=32, choices=GAME_CHOICES)
    players = models.PositiveSmallIntegerField()
    side = models.PositiveSmallIntegerField(
        help_text="The seat's team: Alkort 4-player partnerships share a side."
    )
    place = models.PositiveSmallIntegerField()
    score = models.IntegerField()
    won = models.BooleanField()
    rated = models.BooleanField()
    finished_at = models.DateTimeField()

    class Meta:
        ordering = ["finished_at", "table", "seat"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "seat"], name="stats_result_unique_seat"
            )
        ]
        indexes = [
            models.Index(
                fields=["user", "game", "finished_at"], name="stats_result_user_game"
            ),
            # A player's tables, newest first (seats in order): read backwards.
            models.Index(
                fields=["user", "finished_at", "table", "-seat"],
                name="stats_result_user_order",
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.table_id} seat {self.seat}: place {self.place}"


class PlayerGameStat(models.Model):
    """Sums of one player's counted matches of one game.

    ``counters`` holds integer sums whose names ``docs/stats.md`` lists (common
    ones and the game's own); averages are computed when read.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    game = models.CharField(max_length=32, choices=GAME_CHOICES)
    counters = models.JSONField(default=dict)

    class Meta:
        ordering = ["game", "user"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "game"], name="stats_playergame_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.game}"


class GameStat(models.Model):
    """Sums over every counted match of one game (``counters`` as above)."""

    game = models.CharField(max_length=32, choices=GAME_CHOICES, unique=True)
    counters = models.JSONField(default=dict)

    class Meta:
        ordering = ["game"]

    def __str__(self) -> str:
        return self.game


class Rating(models.Model):
    """A player's current OpenSkill rating in one game (one per player per game)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    game = models.CharField(max_length=32, choices=GAME_CHOICES)
    mu = models.FloatField()
    sigma = models.FloatField()
    matches = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "-mu"]
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="stats_rating_unique")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.game}: {self.mu:.2f}±{self.sigma:.2f}"

    @property
    def display(self) -> float:
        return self.mu - 3 * self.sigma


class RatingChange(models.Model):
    """One rating update: a player at one rated table, before and after.

    ``expected_place`` is what the ratings before the match predicted for
    ``seat`` (1 + the chance of each other side finishing ahead, times its
    seats), ``place`` what that seat got (the rules' place: 1, 1, 3, 3 at
    four-player Alkort). A person has one row a table; a house bot holding
    several seats has one per seat, sharing the one update of its rating.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    seat = models.PositiveSmallIntegerField(default=0)
    game = models.CharField(max_length=32, choices=GAME_CHOICES)
    finished_at = models.DateTimeField()
    place = models.PositiveSmallIntegerField()
    expected_place = models.FloatField()
    before_mu = models.FloatField()
    before_sigma = models.FloatField()
    after_mu = models.FloatField()
    after_sigma = models.FloatField()
    matches = models.PositiveIntegerField(help_text="Rated matches after this one.")

    class Meta:
        ordering = ["finished_at", "table", "user", "seat"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "seat"], name="stats_ratingchange_unique_seat"
            )
        ]
        indexes = [
            models.Index(
                fields=["user", "game", "finished_at", "table"],
                name="stats_change_user_game",
            ),
            models.Index(
                fields=["game", "finished_at", "table"], name="stats_change_order"
            ),
        ]

    def __str__(self) -> str:
        return (
            f"Table {self.table_id} seat {self.seat} {self.user_id}: "
            f"{self.before_mu:.2f}→{self.after_mu:.2f}"
        )
