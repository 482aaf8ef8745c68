"""The statistics API (``docs/stats.md``): read-only, public, cacheable.

Every response says how far the statistics have got (``computed_through``:
the last finished table counted, in finish order, and how many still wait),
and carries an ``ETag`` (a digest of the body) and ``Last-Modified`` (the
newest count): a client sending ``If-None-Match`` gets 304 when nothing
changed. Lists are paginated (``page``, ``page_size``). Unknown players and
games answer 404, bad filters 400, always as ``{"code", "message"}``.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.utils.http import http_date, parse_http_date_safe
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import rules
from config.pagination import Pagination, page_parameters
from games.errors import TableError
from stats import selectors


class StatsError(exceptions.APIException):
    def __init__(self, status_code: int, code: str, message: str) -> None:
        super().__init__(detail=message, code=code)
        self.status_code = status_code


class StatsPagination(Pagination):
    """Stats pages are longer: 50 rows by default, up to 500."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500


PAGE_PARAMETERS = page_parameters(StatsPagination)


class RatingSerializer(serializers.Serializer):
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    display = serializers.FloatField(help_text="μ − 3σ: the conservative rating.")
    matches = serializers.IntegerField(
        help_text=(
            "Rated tables the rating was updated at, once a table (a person's rated"
            " matches; a house bot's seats of one table count once here, once each"
            " in its statistics' rated_matches)."
        )
    )
    provisional = serializers.BooleanField(help_text="Fewer than 10 rated tables.")


class ComputedThroughSerializer(serializers.Serializer):
    table = serializers.IntegerField(
        allow_null=True, help_text="The last finished table counted (finish order)."
    )
    finished_at = serializers.DateTimeField(allow_null=True)
    tables = serializers.IntegerField(help_text="Tables counted.")
    pending = serializers.IntegerField(
        help_text="Finished tables whose count is still on its way."
    )
    counted_at = serializers.DateTimeField(allow_null=True)


class LeaderboardEntrySerializer(RatingSerializer):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    is_bot = serializers.BooleanField()
    bot_level = serializers.CharField(allow_null=True)


class HistoryEntrySerializer(serializers.Serializer):
    table = serializers.IntegerField()
    seat = serializers.IntegerField()
    finished_at = serializers.DateTimeField()
    place = serializers.IntegerField()
    expected_place = serializers.FloatField()
    before = inline_serializer(
        "RatingPoint",
        {"mu": serializers.FloatField(), "sigma": serializers.FloatField()},
    )
    after = inline_serializer(
        "RatingPointAfter",
        {"mu": serializers.FloatField(), "sigma": serializers.FloatField()},
    )
    display = serializers.FloatField()
    matches = serializers.IntegerField()


class PlayerTableSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    game = serializers.CharField()
    finished_at = serializers.DateTimeField()
    players = serializers.IntegerField()
    seat = serializers.IntegerField()
    place = serializers.IntegerField()
    score = serializers.IntegerField()
    won = serializers.BooleanField()
    rated = serializers.BooleanField()
    left = serializers.BooleanField(
        help_text="The player left the match in play; a bot played the seat on."
    )


def _page_schema(name: str, item: serializers.Serializer, **extra: Any) -> Any:
    return inline_serializer(
        name,
        {
            "count": serializers.IntegerField(),
            "next": serializers.URLField(allow_null=True),
            "previous": serializers.URLField(allow_null=True),
            "computed_through": ComputedThroughSerializer(),
            **extra,
            "results": item,
        },
    )


class StatsApi(APIView):
    """Base of the stats views: public reads, errors and conditional GET."""

    permission_classes = [AllowAny]

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, TableError):
            exc = StatsError(exc.status, exc.code, exc.message)
        return super().handle_exception(exc)

    def respond(
        self, request: Request, data: dict[str, Any], game: str | None
    ) -> Response:
        """``data`` with ETag and Last-Modified; 304 when the client has it."""
        body = json.dumps(data, cls=DjangoJSONEncoder, sort_keys=True)
        etag = '"' + hashlib.sha256(body.encode()).hexdigest()[:32] + '"'
        modified = selectors.last_modified(game=game)
        headers = {"ETag": etag, "Cache-Control": "public, max-age=0, must-revalidate"}
        if modified is not None:
            headers["Last-Modified"] = http_date(modified.timestamp())
        if_none = request.headers.get("If-None-Match")
        if if_none is not None:
            # Weak comparison, as RFC 9110 §13.1.2 asks of If-None-Match: a
            # proxy that compresses the body hands the client W/"…" instead.
            tags = [t.strip().removeprefix("W/") for t in if_none.split(",")]
            if etag in tags or if_none.strip() == "*":
                return Response(status=status.HTTP_304_NOT_MODIFIED, headers=headers)
        else:
            since = parse_http_date_safe(request.headers.get("If-Modified-Since", ""))
            if (
                since is not None
                and modified is not None
                and int(modified.timestamp()) <= since
            ):
                return Response(status=status.HTTP_304_NOT_MODIFIED, headers=headers)
        return Response(json.loads(body), headers=headers)

    def paginated(
        self,
        request: Request,
        items: Any,
        shape: Any,
        scope: str | None,
        **extra: Any,
    ) -> Response:
        """One page of ``items`` shaped by ``shape``; ``scope`` the game (or None)."""
        paginator = StatsPagination()
        page = paginator.paginate_queryset(items, request, view=self) or []
        data = {
            "count": paginator.page.paginator.count,
            "next": paginator.get_next_link(),
            "previous": paginator.get_previous_link(),
            "computed_through": selectors.computed_through_get(game=scope),
            **extra,
            "results": [shape(item) for item in page],
        }
        return self.respond(request, data, scope)


class LeaderboardApi(StatsApi):
    """Players of one game by conservative rating (μ − 3σ), best first."""

    class FilterSerializer(serializers.Serializer):
        min_matches = serializers.IntegerField(
            required=False,
            min_value=0,
            max_value=1_000_000,
            default=0,
            help_text="At least this many rated tables (the rating's matches).",
        )
        players = serializers.IntegerField(required=False, min_value=1, max_value=99)
        bots = serializers.BooleanField(
            required=False, default=True, help_text="False: people only."
        )

    @extend_schema(
        parameters=[FilterSerializer, *PAGE_PARAMETERS],
        responses={
            200: _page_schema("LeaderboardPage", LeaderboardEntrySerializer(many=True))
        },
    )
    def get(self, request: Request, game: str) -> Response:
        selectors.game_check(game=game)
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        players = filters.validated_data.get("players")
        if players is not None:
            rules_game = rules.get_game(game)
            try:
                rules_game.validate_players(players, rules_game.default_options())
            except rules.RulesError as exc:
                raise StatsError(400, "invalid_players", f"{exc}.") from exc
        ratings = selectors.leaderboard_list(
            game=game,
            min_matches=filters.validated_data["min_matches"],
            players=players,
            bots=filters.validated_data["bots"],
        )

        def shape(r: Any) -> dict[str, Any]:
            return {
                "rank": r.rank,
                "username": r.user.username,
                "is_bot": r.user.is_bot,
                "bot_level": r.user.bot_level,
                **selectors.rating_fields(r.mu, r.sigma, r.matches),
            }

        return self.paginated(request, ratings, shape, game)


class PlayerApi(StatsApi):
    """A player's rating and statistics in every game."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request, username: str) -> Response:
        user = selectors.user_get(username=username)
        data = selectors.player_stats_get(user=user)
        data["computed_through"] = selectors.computed_through_get()
        return self.respond(request, data, None)


class RatingHistoryApi(StatsApi):
    """One player's rating after each rated table of one game, oldest first."""

    @extend_schema(
        parameters=PAGE_PARAMETERS,
        responses={
            200: _page_schema("RatingHistoryPage", HistoryEntrySerializer(many=True))
        },
    )
    def get(self, request: Request, username: str, game: str) -> Response:
        user = selectors.user_get(username=username)
        selectors.game_check(game=game)
        return self.paginated(
            request,
            selectors.rating_history_list(user=user, game=game),
            selectors.rating_change_json,
            game,
            username=user.username,
            game=game,
            rating=selectors.rating_get(user=user, game=game),
        )


class UncountedTableSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    game = serializers.CharField()
    finished_at = serializers.DateTimeField()
    players = serializers.IntegerField()
    seat = serializers.IntegerField()
    place = serializers.IntegerField(allow_null=True)
    left = serializers.BooleanField(
        help_text="The player left the match in play; a bot played the seat on."
    )


class PlayerTablesApi(StatsApi):
    """A player's counted tables, newest first: rated or not, and those they
    left in play (the result is still theirs); beside them, ``uncounted``:
    the player's latest finished tables whose count is still on its way."""

    class FilterSerializer(serializers.Serializer):
        game = serializers.CharField(required=False, max_length=32)

    @extend_schema(
        parameters=[FilterSerializer, *PAGE_PARAMETERS],
        responses={
            200: _page_schema(
                "PlayerTablesPage",
                PlayerTableSerializer(many=True),
                uncounted=UncountedTableSerializer(many=True),
            )
        },
    )
    def get(self, request: Request, username: str) -> Response:
        user = selectors.user_get(username=username)
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        game = filters.validated_data.get("game")
        if game is not None:
            selectors.game_check(game=game)
        return self.paginated(
            request,
            selectors.player_tables_list(user=user, game=game),
            selectors.player_table_json,
            game,
            username=user.username,
            game=game,
            uncounted=selectors.player_tables_uncounted(user=user, game=game),
        )


class GameApi(StatsApi):
    """Figures over every counted match of one game."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request, game: str) -> Response:
        selectors.game_check(game=game)
        data = selectors.game_stats_get(game=game)
        data["computed_through"] = selectors.computed_through_get(game=game)
        return self.respond(request, data, game)


class HeadToHeadApi(StatsApi):
    """Two players' results at the tables of one game they both sat at."""

    class FilterSerializer(serializers.Serializer):
        a = serializers.CharField(max_length=150)
        b = serializers.CharField(max_length=150)
        game = serializers.CharField(max_length=32)

    @extend_schema(
        parameters=[FilterSerializer, *PAGE_PARAMETERS],
        responses={
            200: _page_schema(
                "HeadToHeadPage",
                serializers.DictField(),
                summary=serializers.DictField(),
            )
        },
    )
    def get(self, request: Request) -> Response:
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        names = filters.validated_data
        game = selectors.game_check(game=names["game"])
        a = selectors.user_get(username=names["a"])
        b = selectors.user_get(username=names["b"])
        if a.pk == b.pk:  # "ada" and "Ada" are one player
            raise StatsError(
                400, "same_player", "Head to head needs two different players."
            )
        found = selectors.head_to_head_get(a=a, b=b, game=game)
        return self.paginated(
            request,
            found["matches"],
            selectors.head_to_head_json,
            game,
            a=a.username,
            b=b.username,
            game=game,
            summary=found["summary"],
        )
