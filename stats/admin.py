"""Read-only admin pages of the statistics, with "recount this table".

Everything here is derived from the event log, so nothing is editable: a
wrong figure is fixed at its source (an upcaster, a rules fix) and the table
recounted, or the whole projection rebuilt (``manage.py stats_rebuild``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from stats.models import (
    CountedTable,
    GameStat,
    PlayerGameStat,
    PlayerResult,
    Rating,
    RatingChange,
)
from stats.ratings import PROVISIONAL_MATCHES
from stats.services import table_recount


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_recount_permission(self, request: HttpRequest) -> bool:
        """Recounting rewrites a game's statistics and replays its ratings
        from the table on: more than viewing, so it takes the right to change
        counted tables (a superuser has it), though no page edits them."""
        return request.user.has_perm("stats.change_countedtable")


@admin.action(description="Recount this table from its events", permissions=["recount"])
def recount_tables(
    modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Any]
) -> None:
    ids = sorted(set(queryset.values_list("table_id", flat=True)))
    counted = sum(table_recount(table_id=table_id) for table_id in ids)
    modeladmin.message_user(
        request,
        f"Recounted {counted} of {len(ids)} table{'s' if len(ids) != 1 else ''}: "
        + ", ".join(map(str, ids)),
        messages.SUCCESS,
    )


@admin.register(CountedTable)
class CountedTableAdmin(ReadOnlyAdmin):
    list_display = ("table", "game", "players", "rated", "finished_at", "counted_at")
    list_filter = ("game", "rated", "players")
    search_fields = ("table__id",)
    actions = [recount_tables]


@admin.register(PlayerResult)
class PlayerResultAdmin(ReadOnlyAdmin):
    list_display = ("table", "seat", "user", "game", "place", "score", "won", "rated")
    list_filter = ("game", "rated", "players")
    search_fields = ("user__username", "table__id")
    actions = [recount_tables]


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = (
        "user",
        "game",
        "display_rating",
        "mu",
        "sigma",
        "matches",
        "provisional",
    )
    list_filter = ("game",)
    search_fields = ("user__username",)

    @admin.display(description="μ − 3σ")
    def display_rating(self, obj: Rating) -> str:
        return f"{obj.display:.2f}"

    @admin.display(boolean=True)
    def provisional(self, obj: Rating) -> bool:
        return obj.matches < PROVISIONAL_MATCHES


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = (
        "table",
        "user",
        "seat",
        "game",
        "place",
        "expected_place",
        "before_mu",
        "after_mu",
        "after_sigma",
        "finished_at",
    )
    list_filter = ("game",)
    search_fields = ("user__username", "table__id")
    actions = [recount_tables]


@admin.register(PlayerGameStat)
class PlayerGameStatAdmin(ReadOnlyAdmin):
    list_display = ("user", "game", "matches")
    list_filter = ("game",)
    search_fields = ("user__username",)

    @admin.display(description="matches")
    def matches(self, obj: PlayerGameStat) -> int:
        return int(obj.counters.get("matches", 0))


@admin.register(GameStat)
class GameStatAdmin(ReadOnlyAdmin):
    list_display = ("game", "matches")

    @admin.display(description="matches")
    def matches(self, obj: GameStat) -> int:
        return int(obj.counters.get("matches", 0))
