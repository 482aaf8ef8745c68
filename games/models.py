"""Tables, seats, the append-only event log and processed commands.

A ``Table`` is one match of one game: the event-sourced aggregate. Its events
(``GameEvent``) are numbered ``seq = 1, 2, ...`` without gaps and never change:
a database trigger refuses UPDATE, DELETE and TRUNCATE on them (migration
``0002``). The table row caches the state those events fold to, so playing a
move never replays the history; ``manage.py rebuild_table_state`` proves the
cache equals the replay. Game rules live in ``rules``, never here.
"""

from django.conf import settings
from django.db import models

import rules
from accounts.models import BotLevel
from games.fields import JSONTextField

GAME_CHOICES = [(name, rules.get_game(name).title) for name in rules.GAMES]


class TableStatus(models.TextChoices):
    """Where a table is in its life: lobby → playing → finished (or aborted)."""

    LOBBY = "lobby", "Lobby"
    PLAYING = "playing", "Playing"
    FINISHED = "finished", "Finished"
    ABORTED = "aborted", "Aborted"


class Table(models.Model):
    """One match of one game, from the lobby to the final result.

    ``state`` is ``game.dump_state`` of the fold of every event up to ``seq``
    (a cache: it holds the secret seed, so it is never serialised). ``seed`` is
    the secret behind every shuffle; only ``seed_sha256`` is public until the
    match ends, when the ``match_ended`` event reveals the seed.
    """

    game = models.CharField(max_length=32, choices=GAME_CHOICES)
    options = models.JSONField(
        default=dict, help_text="The validated, complete options."
    )
    players = models.PositiveSmallIntegerField()
    status = models.CharField(
        max_length=16, choices=TableStatus.choices, default=TableStatus.LOBBY
    )
    rated = models.BooleanField(default=False)
    time_control = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Seconds a person has per move; empty for a casual table.",
    )
    state = JSONTextField(null=True, blank=True, editable=False)
    seq = models.PositiveIntegerField(default=0, help_text="The last event's seq.")
    seed = models.CharField(max_length=128, blank=True, default="", editable=False)
    seed_sha256 = models.CharField(max_length=64, blank=True, default="")
    outcome = models.JSONField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    #: Not a column: ``(audience, process)`` of every open socket (audience:
    #: a seat, or None for spectators; process: ``SeatConnection.process``),
    #: as the row lock's read found them (``table_lock_seats`` on
    #: PostgreSQL); None where they were not read.
    listening: frozenset[tuple[int | None, str]] | None = None

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["status", "game"], name="games_table_status_game"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(players__gte=1), name="games_table_players_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.pk} ({self.game}, {self.status})"


class Seat(models.Model):
    """A filled seat: a person, or a house bot account playing at ``bot_level``.

    Empty seats have no row. One person holds at most one seat per table; a
    house bot account may hold several (one per bot seat). When a person
    leaves a match in play, a bot takes the seat over and ``replaced_user``
    remembers who sat there.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats"
    )
    # NULL, not "": a person's seat has no level, which the constraints use.
    bot_level = models.CharField(  # noqa: DJ001
        max_length=16, choices=BotLevel.choices, null=True, blank=True
    )
    replaced_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    away = models.BooleanField(
        default=False,
        help_text="Timed out too often: a basic bot plays until the person is back.",
    )
    timeouts = models.PositiveSmallIntegerField(
        default=0, help_text="Turn timers that expired in a row for this seat."
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "index"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "index"], name="games_seat_unique_index"
            ),
            models.UniqueConstraint(
                fields=["table", "user"],
                condition=models.Q(bot_level__isnull=True),
                name="games_seat_one_per_person",
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.table_id} seat {self.index}: {self.user_id}"

    @property
    def is_bot(self) -> bool:
        return self.bot_level is not None


class GameEvent(models.Model):
    """One stored fact of a match: ``rules.Event`` plus its place and author.

    Append-only (a trigger refuses UPDATE, DELETE and TRUNCATE); the table is
    PROTECTed so Django refuses to delete a table that has events.
    """

    # The unique (table, seq) index leads with table_id: no second index.
    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, related_name="events", db_index=False
    )
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=100)
    version = models.PositiveSmallIntegerField(default=1)
    payload = models.JSONField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "seq"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "seq"], name="games_gameevent_unique_seq"
            ),
        ]
        indexes = [models.Index(fields=["type"], name="games_gameevent_type")]

    def __str__(self) -> str:
        return f"Table {self.table_id} #{self.seq} {self.type}"


class SeatTimeout(models.Model):
    """A move the server played for a person whose turn timer expired.

    ``seq`` is the first event of that move; ``user`` the person who sat at
    ``seat`` then. One row per timed-out move (statistics count them).
    """

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "seq"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "seq"], name="games_seattimeout_unique_seq"
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.table_id} #{self.seq} seat {self.seat} timed out"


class SeatConnection(models.Model):
    """One open WebSocket on a table, and the audience it listens to.

    A row is added when the socket connects and removed when it closes.
    ``seat`` is the audience (docs/live-protocol.md): the seat a person holds,
    or None for a spectator. Two things read the rows:

    * presence: the seats with a fresh row are connected; ``seen_at`` is
      refreshed by the client's pings, so rows a crashed server process left
      behind stop counting after ``PRESENCE_STALE_SECONDS``;
    * a move: the row lock's read lists the audiences with a row, and the
      server processes that hold them (``process``), so frames are built only
      for those, and go through Redis only for audiences another process
      holds (``games.services.locking``, ``games.realtime.frames_push``).
      A row is written under a share lock on the table row, so a move either
      sees it or commits before the socket's first read.
    """

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    process = models.CharField(
        max_length=32,
        blank=True,
        default="",
        help_text="The channel layer's id of the server process holding the "
        "socket (empty: a layer without one).",
    )
    channel_name = models.CharField(max_length=200, unique=True)
    seen_at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["table", "seat"], name="games_seatconn_table_seat")
        ]

    def __str__(self) -> str:
        if self.seat is None:
            return f"Table {self.table_id} spectator connected"
        return f"Table {self.table_id} seat {self.seat} connected"


class ProcessedCommand(models.Model):
    """A command a seat sent with a ``command_id``, and where it left the table.

    A retry with the same id acts no more: it gets the answer the command got,
    rebuilt from the log up to ``seq`` (the events up to a seq never change;
    ``games.services.answers``). Only the seq is kept, not the answer itself,
    so the hot path writes a few bytes instead of the seat's whole view, and
    the seat's hidden cards are not copied out of the log.
    """

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    seat = models.PositiveSmallIntegerField()
    command_id = models.CharField(max_length=64)
    action = models.JSONField()
    seq = models.PositiveIntegerField(
        help_text="The table's seq once the command was played."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            # command_id before seat: the hot-path lookup joins on the seat,
            # so (table, command_id) must be a tight index prefix.
            models.UniqueConstraint(
                fields=["table", "command_id", "seat"],
                name="games_command_unique_per_seat",
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.table_id} seat {self.seat} command {self.command_id}"


class TableRequest(models.Model):
    """A client's ``request_id`` for opening a table, and the table it opened.

    The same person sending the same id again gets that table back instead of
    a second one (a double click, a retry after a lost answer); the unique
    constraint makes two sent at once open one table
    (``games.services.tables.table_create``). Kept apart from ``Table`` so
    the row every move locks and rewrites does not grow.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        db_index=False,  # the unique constraint's index starts with it
    )
    request_id = models.CharField(max_length=64)
    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "request_id"], name="games_tablerequest_unique"
            ),
        ]

    def __str__(self) -> str:
        return (
            f"Request {self.request_id!r} of user {self.user_id}: table {self.table_id}"
        )
