"""The players' tournaments API (docs/tournaments.md): list, detail, register, withdraw.

Thin views: validate the input, call one selector or service, shape the
output. Service errors (``games.errors``) become ``{"code", "message"}`` with
their status, like the tables API.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

import rules
from config.fields import TextField
from config.pagination import Pagination, page_parameters, page_serializer
from games.apis import TableApi
from tournaments import selectors, services
from tournaments.models import TournamentFormat, TournamentStatus

PUBLIC_STATUSES = [s for s in TournamentStatus.values if s != TournamentStatus.DRAFT]


class TournamentSummaryOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField()
    options = serializers.DictField()
    table_size = serializers.IntegerField()
    format = serializers.ChoiceField(choices=TournamentFormat.choices)
    round_count = serializers.IntegerField(help_text="Rounds the tournament plays.")
    time_control = serializers.IntegerField(
        allow_null=True, help_text="Seconds per move; null for no clock."
    )
    rated = serializers.BooleanField()
    bot_level = serializers.CharField()
    fill_policy = serializers.CharField()
    team_event = serializers.BooleanField()
    # A plain string in the schema: "status" enums of tables and tournaments
    # would otherwise collide in drf-spectacular's enum naming.
    status = serializers.CharField(help_text="registration, running or finished.")
    entries_count = serializers.IntegerField(
        help_text="Players entered (not withdrawn)."
    )
    max_entries = serializers.IntegerField(
        allow_null=True,
        help_text="Places: the most players who can enter; null for no limit.",
    )
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class EntryOutputSerializer(serializers.Serializer):
    username = serializers.CharField()
    team = serializers.CharField()
    number = serializers.IntegerField(allow_null=True)
    seed_rating = serializers.FloatField(allow_null=True)
    withdrawn = serializers.BooleanField()


class RoundSeatOutputSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    username = serializers.CharField(allow_null=True)
    is_bot = serializers.BooleanField()
    bot_level = serializers.CharField(allow_null=True)


class RoundTableOutputSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    table = serializers.IntegerField(
        allow_null=True, help_text="The table's id once the round has started."
    )
    status = serializers.CharField(allow_null=True)
    outcome = serializers.DictField(allow_null=True)
    seats = RoundSeatOutputSerializer(many=True)


class RoundOutputSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.CharField()
    tables = RoundTableOutputSerializer(many=True)
    byes = serializers.ListField(child=serializers.CharField())


class StandingOutputSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    team = serializers.CharField()
    points = serializers.DecimalField(
        max_digits=7, decimal_places=1, coerce_to_string=False
    )
    buchholz = serializers.DecimalField(
        max_digits=8, decimal_places=1, coerce_to_string=False
    )
    game_score = serializers.DecimalField(
        max_digits=10, decimal_places=2, coerce_to_string=False
    )
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    byes = serializers.IntegerField()
    withdrawn = serializers.BooleanField()


class TournamentOutputSerializer(TournamentSummaryOutputSerializer):
    entries = EntryOutputSerializer(many=True)
    rounds = RoundOutputSerializer(many=True)
    standings = StandingOutputSerializer(many=True)


def _detail(tournament_id: int) -> dict[str, Any]:
    tournament = selectors.tournament_get(tournament_id=tournament_id)
    detail = selectors.tournament_detail(tournament=tournament)
    return dict(TournamentOutputSerializer(detail).data)


class TournamentListApi(TableApi):
    """Published tournaments, newest first (filters: status, game)."""

    permission_classes = [AllowAny]

    class FilterSerializer(serializers.Serializer):
        class Meta:
            ref_name = "TournamentListFilter"

        status = serializers.ChoiceField(
            choices=PUBLIC_STATUSES,
            required=False,
            help_text="registration, running or finished.",
        )
        game = serializers.ChoiceField(choices=list(rules.GAMES), required=False)

    @extend_schema(
        parameters=[FilterSerializer, *page_parameters(Pagination)],
        responses={
            200: page_serializer(
                TournamentSummaryOutputSerializer, name="TournamentPage"
            )
        },
        operation_id="api_tournaments_list",
    )
    def get(self, request: Request) -> Response:
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        tournaments = (
            selectors.tournament_list(**filters.validated_data)
            .annotate(
                entries_count=Count("entries", filter=Q(entries__withdrawn=False))
            )
            .order_by("-created_at", "-id")
        )
        paginator = Pagination()
        page = paginator.paginate_queryset(tournaments, request, view=self)
        data = [selectors.tournament_summary(tournament=t) for t in page or []]
        return paginator.get_paginated_response(
            TournamentSummaryOutputSerializer(data, many=True).data
        )


class TournamentDetailApi(TableApi):
    """One tournament: set-up, entries, rounds with tables and seats, standings."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: TournamentOutputSerializer})
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(_detail(tournament_id))


class TournamentRegisterApi(TableApi):
    """Register the requester (during registration only)."""

    permission_classes = [IsAuthenticated]

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "TournamentRegisterInput"

        team = TextField(required=False, default="", allow_blank=True, max_length=64)

    @extend_schema(request=InputSerializer, responses={200: TournamentOutputSerializer})
    def post(self, request: Request, tournament_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.entry_register(
            tournament_id=tournament_id, user=request.user, **serializer.validated_data
        )
        return Response(_detail(tournament_id))


class TournamentWithdrawApi(TableApi):
    """Withdraw the requester's entry (during registration only)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: TournamentOutputSerializer})
    def post(self, request: Request, tournament_id: int) -> Response:
        services.entry_withdraw(tournament_id=tournament_id, user=request.user)
        return Response(_detail(tournament_id))
