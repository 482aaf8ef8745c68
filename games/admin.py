"""The admin for tables and their events.

Events are read-only (the database refuses changes anyway), and until a match
has finished they are shown as a spectator sees them: nobody in the admin,
superusers included, sees the deck, the seed or anyone's hand before the match
ends; then the seed and the full payloads are public anyway (the
``match_ended`` event reveals the seed). No filter, search or ordering may read
the seed, the cached state or a payload (``config.admin.GuardedModelAdmin``).
A table with events cannot be deleted (the events PROTECT it); lobby tables
can. See docs/security.md.
"""

import logging
from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

import rules
from config.admin import GuardedModelAdmin
from config.logs import traceback_without_values
from games import event_store
from games.errors import TableError
from games.models import GameEvent, Seat, Table, TableStatus
from games.services import table_seats_to_act_to_bots

#: The refusals of a table whose match is not in play (``require_playing``).
NOT_IN_PLAY = frozenset({"not_started", "table_finished", "table_aborted"})

logger = logging.getLogger(__name__)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "user", "bot_level", "replaced_user", "joined_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(GuardedModelAdmin):
    list_display = ("id", "game", "players", "status", "seq", "rated", "created_at")
    list_filter = ("game", "status", "rated")
    search_fields = ("id", "created_by__username")
    # Never the seed field itself or the cached state (which holds the seed,
    # every hand and the stock order): ``revealed_seed`` shows it once public.
    fields = (
        "game",
        "players",
        "options",
        "status",
        "rated",
        "seq",
        "seed_sha256",
        "revealed_seed",
        "outcome",
        "created_by",
        "created_at",
        "started_at",
        "finished_at",
    )
    # Every field: ``rated`` too, chosen when the table is created (the
    # statistics count a table once, as it was then; docs/stats.md).
    readonly_fields = fields
    inlines = [SeatInline]
    actions = ["seats_to_act_to_bots"]

    @admin.action(
        description="Hand the seats to act to basic bots (players who are not coming back)",
        permissions=["change"],
    )
    def seats_to_act_to_bots(
        self, request: HttpRequest, queryset: QuerySet[Table]
    ) -> None:
        """A match a person walked away from, with no turn timer, would wait
        for ever (a tournament round with it): the person to act leaves as
        if they had pressed Leave, so a basic bot plays their seat to the end
        and they are still credited with the result (docs/stats.md)."""
        for table in queryset:
            # The service reads who is to act under the table's lock: a move
            # in progress is waited for, so the seat handed over is the one
            # to act after it (games.services.tables).
            try:
                handed = table_seats_to_act_to_bots(table_id=table.pk)
            except TableError as exc:
                if exc.code in NOT_IN_PLAY:
                    self.message_user(
                        request,
                        f"Table {table.pk} is not in play: nothing to hand over.",
                        messages.WARNING,
                    )
                else:  # gone meanwhile (a lobby table deleted)
                    self.message_user(
                        request, f"Table {table.pk}: {exc.message}", messages.ERROR
                    )
                continue
            if not handed:
                self.message_user(
                    request,
                    f"Table {table.pk}: a bot is to act already.",
                    messages.INFO,
                )
            for seat in handed:
                self.message_user(
                    request,
                    f"Table {table.pk}: {seat.replaced_user}'s seat {seat.index + 1} "
                    "is played by a basic bot from now on.",
                    messages.SUCCESS,
                )

    @admin.display(description="seed")
    def revealed_seed(self, obj: Table) -> str:
        """The seed once the match has finished; before, only that it is hidden."""
        if obj.status == TableStatus.FINISHED:
            return obj.seed
        return "(hidden until the match ends)"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # tables are opened through the API, with validated options

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """A table's page only shows it: nothing on it is editable, and saving
        it would write the whole row back as the page read it. A move stored
        in between would be undone in the cache (its state and seq behind the
        event log, and every later move refused). Staff who may change tables
        keep the list's actions, which go through the services and the lock.
        """
        if obj is not None:
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None and obj.seq > 0:
            return False
        return super().has_delete_permission(request, obj)


@admin.register(GameEvent)
class GameEventAdmin(GuardedModelAdmin):
    list_display = ("table", "seq", "type", "version", "seat", "created_at")
    list_filter = ("type",)
    search_fields = ("table__id",)
    list_select_related = ("table",)
    fields = ("table", "seq", "type", "version", "seat", "actor", "created_at", "shown")
    readonly_fields = fields

    @admin.display(description="payload (as a spectator sees it while in play)")
    def shown(self, obj: GameEvent) -> Any:
        try:
            event = event_store.upcast(obj.type, obj.version, obj.payload)
            if obj.table.status != TableStatus.FINISHED:
                event = rules.get_game(obj.table.game).redact(event, None)
        except Exception as exc:
            # Django would log the failure with its message, which may quote
            # a card of the raw payload: the line says where, not what.
            logger.error(
                "The admin could not show event %s of table %s\n%s",
                obj.seq,
                obj.table_id,
                traceback_without_values(exc),
            )
            return "(could not be shown: the failure is logged)"
        return event.payload

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
