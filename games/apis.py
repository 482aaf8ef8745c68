"""The tables API (docs/architecture.md §9): thin views over services and selectors.

Each view validates its input with a nested serializer, calls one service or
selector, and shapes the output. Service errors (``games.errors``), rules errors
(``rules.RulesError``) and everything else become ``{"code", "message"}`` with
their status in one place, the global handler ``config.errors``.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import rules
from accounts.authentication import PendingToken
from accounts.models import BotLevel
from config.fields import TextField
from config.pagination import Pagination, page_serializer
from config.schema import documented
from config.views import PrivateApi
from games import selectors, services
from games.models import TableStatus
from games.services.tables import TIME_CONTROL_MAX
from rules import bots


def _user(request: Request) -> Any:
    return request.user if request.user.is_authenticated else None


class TableApi(PrivateApi):
    """Base of the table views (errors map in ``config.errors``)."""

    #: These views build their answers from a match's state and events, so
    #: an unexpected exception is logged without its message, which may quote
    #: a hidden card (``config.errors.api_exception_handler``).
    reads_match_state = True


# --- output shapes ---------------------------------------------------------


class SeatOutputSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    username = serializers.CharField(allow_null=True)
    is_bot = serializers.BooleanField()
    bot_level = serializers.CharField(allow_null=True)


class TableSummaryOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    title = serializers.CharField()
    status = serializers.ChoiceField(choices=TableStatus.choices)
    players = serializers.IntegerField()
    options = serializers.DictField()
    rated = serializers.BooleanField()
    time_control = serializers.IntegerField(
        allow_null=True, help_text="Seconds per move; null for a casual table."
    )
    created_by = serializers.CharField()
    seats = SeatOutputSerializer(many=True)
    seq = serializers.IntegerField()
    seed_sha256 = serializers.CharField(
        allow_null=True, help_text="Published when the match starts."
    )
    seed = serializers.CharField(
        allow_null=True, help_text="Revealed only once the match has ended."
    )
    outcome = serializers.DictField(allow_null=True)
    created_at = serializers.DateTimeField()
    active_at = serializers.DateTimeField(
        help_text="When the table last moved on: its latest move (the deal at "
        "the start, the last move once ended; on a timed table also an away "
        "player back, whose clock restarts), or in the lobby the latest of "
        "its opening and a seat taken (a person joining, a bot added), or "
        "when it was abandoned there."
    )
    idle = serializers.BooleanField(
        help_text="An open table or a match in play with no activity "
        "(active_at) for TABLE_IDLE_HOURS (24) hours or more; false for every "
        "other table."
    )
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class TableOutputSerializer(TableSummaryOutputSerializer):
    seat = serializers.IntegerField(
        allow_null=True, help_text="The requester's seat; null for a spectator."
    )
    view = serializers.DictField(
        allow_null=True, help_text="What the requester's seat may see."
    )
    legal_actions = serializers.ListField(
        child=serializers.DictField(),
        help_text="The requester's moves; empty unless their seat may act now.",
    )
    deadline = serializers.DateTimeField(
        allow_null=True,
        help_text="When the current move's time runs out (timed tables in play).",
    )


class EventOutputSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    type = serializers.CharField()
    version = serializers.IntegerField()
    payload = serializers.DictField()
    seat = serializers.IntegerField(allow_null=True)


def _table_response(request: Request, table_id: int, code: int = 200) -> Response:
    table = selectors.table_get(table_id=table_id)
    detail = selectors.table_detail(table=table, user=_user(request))
    return Response(TableOutputSerializer(detail).data, status=code)


# --- the catalogue ---------------------------------------------------------


def _player_counts(
    game: rules.Game[Any], options: dict[str, Any] | None = None
) -> list[int]:
    """The table sizes ``game`` accepts with ``options`` (Alkort: 2 or 4, not
    3; Alager's 32-card deck: 2 to 8)."""
    counts = []
    for players in range(game.min_players, game.max_players + 1):
        try:
            game.validate_players(players, options)
        except rules.RulesError:
            continue
        counts.append(players)
    return counts


def _player_counts_by_option(game: rules.Game[Any]) -> dict[str, dict[str, list[int]]]:
    """For each option with a list of choices that changes the table sizes,
    the sizes each choice accepts (the other options at their defaults), the
    choice as a JSON object key: ``{"deck": {"52": [2, …, 15], "32": [2, …, 8]}}``."""
    anyhow = _player_counts(game)
    changes: dict[str, dict[str, list[int]]] = {}
    for name, spec in game.options_schema().items():
        by_choice = {
            str(choice): _player_counts(game, {name: choice})
            for choice in spec.get("choices") or ()
        }
        if any(counts != anyhow for counts in by_choice.values()):
            changes[name] = by_choice
    return changes


def _card_names(game: str) -> dict[str, str]:
    """A game's static card names (only Alager's 32-card deck has any)."""
    if game == "alager":
        from rules.alager import MARIASH_NAMES

        return dict(MARIASH_NAMES)
    return {}


class GameListApi(APIView):
    """Every game: names, titles, player counts and options."""

    permission_classes = [AllowAny]

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "GameOutput"

        name = serializers.CharField()
        title = serializers.CharField()
        min_players = serializers.IntegerField()
        max_players = serializers.IntegerField()
        options = serializers.DictField(help_text="game.options_schema()")
        player_counts = serializers.ListField(
            child=serializers.IntegerField(),
            help_text="Every number of players the game accepts.",
        )
        player_counts_by_option = serializers.DictField(
            child=serializers.DictField(
                child=serializers.ListField(child=serializers.IntegerField())
            ),
            help_text="For each option whose choices change the numbers of "
            "players accepted, those numbers per choice (the other options at "
            'their defaults): Alager {"deck": {"52": [2, ..., 15], '
            '"32": [2, ..., 8]}}; {} when no option changes them.',
        )
        bot_levels = serializers.ListField(
            child=serializers.CharField(),
            help_text="The house bot levels that can take a seat at this game.",
        )
        card_names = serializers.DictField(
            child=serializers.CharField(),
            help_text="Static card names, sent once here instead of in every view "
            "(Alager: the Czech mariáš names of the 32-card deck).",
        )

    @extend_schema(responses={200: OutputSerializer(many=True)})
    def get(self, request: Request) -> Response:
        return Response(_catalogue())


@functools.cache
def _catalogue() -> list[dict[str, Any]]:
    """The games' catalogue, built once per process: it changes only with the
    code, and building it (each option's choices tried against every table
    size) took about 2 ms, on a request every page makes."""
    games = [rules.get_game(name) for name in rules.GAMES]
    data = [
        {
            "name": game.name,
            "title": game.title,
            "min_players": game.min_players,
            "max_players": game.max_players,
            "options": game.options_schema(),
            "player_counts": _player_counts(game),
            "player_counts_by_option": _player_counts_by_option(game),
            "bot_levels": list(bots.levels(game.name)),
            "card_names": _card_names(game.name),
        }
        for game in games
    ]
    return list(GameListApi.OutputSerializer(data, many=True).data)


# --- tables ----------------------------------------------------------------


class TableListApi(TableApi):
    """List tables (filters: game, status, mine, idle; order) or open a new one."""

    class FilterSerializer(serializers.Serializer):
        class Meta:
            ref_name = "TableListFilter"

        game = serializers.ChoiceField(choices=list(rules.GAMES), required=False)
        status = serializers.ChoiceField(choices=TableStatus.choices, required=False)
        mine = serializers.BooleanField(required=False, default=False)
        idle = serializers.BooleanField(
            required=False,
            allow_null=True,
            default=None,
            help_text="true: only the idle tables (open or in play, no "
            "activity for TABLE_IDLE_HOURS (24) hours or more); false: every "
            "other table; absent: both.",
        )
        order = serializers.ChoiceField(
            choices=list(selectors.ORDERS),
            required=False,
            default="created",
            help_text="created: newest first (the default); active: latest "
            "activity (active_at) first.",
        )
        # Read by Pagination; checked here so a bad one is a 400.
        page = serializers.IntegerField(
            required=False, min_value=1, help_text="1-based page number."
        )
        page_size = serializers.IntegerField(
            required=False,
            min_value=1,
            max_value=Pagination.max_page_size,
            help_text="Tables per page (default 20).",
        )

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "TableCreateInput"

        # Any string reaches the service, which names the games on offer.
        game = documented(
            TextField(max_length=32),
            {"type": "string", "enum": list(rules.GAMES)},
        )
        players = serializers.IntegerField()
        # Any JSON reaches the rules, which say what is wrong with it.
        options = documented(
            serializers.JSONField(required=False, default=dict),
            {"type": "object", "additionalProperties": True},
        )
        rated = serializers.BooleanField(
            required=False,
            allow_null=True,
            default=None,
            help_text="Rated by default with two or more players; bot-only "
            "tables are never rated.",
        )
        time_control = serializers.IntegerField(
            required=False,
            allow_null=True,
            default=None,
            min_value=1,
            max_value=TIME_CONTROL_MAX,
            help_text="Seconds per move (turn timer); omit for a casual table.",
        )
        watch = serializers.BooleanField(
            required=False,
            default=False,
            help_text="True: the creator only watches instead of taking seat 0.",
        )
        # Taken exactly as sent, as a move's command_id is.
        request_id = TextField(
            required=False,
            min_length=1,
            max_length=64,
            trim_whitespace=False,
            help_text="Optional, chosen by the client (a UUID, say): sending the "
            "same request again with the same request_id returns the table the "
            "first one opened instead of opening another (a double click, a "
            "retry). The same id with other settings is a 409 request_reused.",
        )

    PageOutputSerializer = page_serializer(
        TableSummaryOutputSerializer, name="TablePage"
    )

    @extend_schema(
        parameters=[FilterSerializer],
        responses={200: PageOutputSerializer},
        operation_id="api_tables_list",
    )
    def get(self, request: Request) -> Response:
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        criteria = {
            name: value
            for name, value in filters.validated_data.items()
            if name not in ("page", "page_size")
        }
        tables = selectors.table_list(user=_user(request), **criteria)
        paginator = Pagination()
        page = paginator.paginate_queryset(tables, request, view=self)
        data = [selectors.table_summary(table=table) for table in page or []]
        return paginator.get_paginated_response(
            TableSummaryOutputSerializer(data, many=True).data
        )

    @extend_schema(request=InputSerializer, responses={201: TableOutputSerializer})
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        table = services.table_create(user=request.user, **serializer.validated_data)
        return _table_response(request, table.pk, status.HTTP_201_CREATED)


class TableDetailApi(TableApi):
    """The table as the requester sees it: seats, seq, view, legal actions."""

    @extend_schema(responses={200: TableOutputSerializer})
    def get(self, request: Request, table_id: int) -> Response:
        return _table_response(request, table_id)


class TableJoinApi(TableApi):
    """Take a seat in the lobby (a given one, or the lowest free one)."""

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "TableJoinInput"

        seat = serializers.IntegerField(required=False, allow_null=True)

    @extend_schema(request=InputSerializer, responses={200: TableOutputSerializer})
    def post(self, request: Request, table_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.table_join(
            table_id=table_id, user=request.user, **serializer.validated_data
        )
        return _table_response(request, table_id)


class TableLeaveApi(TableApi):
    """Leave: frees the seat in the lobby; a bot takes it over in play."""

    @extend_schema(request=None, responses={200: TableOutputSerializer})
    def post(self, request: Request, table_id: int) -> Response:
        services.table_leave(table_id=table_id, user=request.user)
        return _table_response(request, table_id)


class TableBotAddApi(TableApi):
    """Seat a house bot (creator only), or one in every empty seat (``fill``)."""

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "TableBotAddInput"

        seat = serializers.IntegerField(required=False, allow_null=True)
        level = documented(
            TextField(required=False, default="basic", max_length=16),
            {"type": "string", "enum": list(BotLevel.values), "default": "basic"},
        )
        fill = serializers.BooleanField(
            required=False,
            default=False,
            help_text="True: a bot in every empty seat, in one step (not with "
            "seat); a person joining meanwhile keeps the seat they got, or "
            "finds the table full.",
        )

    @extend_schema(request=InputSerializer, responses={200: TableOutputSerializer})
    def post(self, request: Request, table_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.table_add_bot(
            table_id=table_id, user=request.user, **serializer.validated_data
        )
        return _table_response(request, table_id)


class TableStartApi(TableApi):
    """Deal (creator only, every seat filled)."""

    @extend_schema(request=None, responses={200: TableOutputSerializer})
    def post(self, request: Request, table_id: int) -> Response:
        services.table_start(table_id=table_id, user=request.user)
        return _table_response(request, table_id)


#: What CharField refuses as well as null characters: lone UTF-16 halves,
#: which no database encoding can store.
_SURROGATE = re.compile("[\ud800-\udfff]")


def action_fields(content: dict[str, Any]) -> dict[str, Any] | None:
    """The fields of a move's request that is plainly well-formed, else None.

    What ``ActionSubmitApi.InputSerializer`` would validate to, for the
    requests every client sends (an object action, an integer seq, a short
    command id), without building a serializer per move (DRF
    deep-copies its fields for each one); anything else goes through the
    serializer for its exact error messages. REST and the socket's ``act``
    both use it (``tests/games/test_consumers.py`` holds it to the
    serializer).
    """
    action = content.get("action")
    if not isinstance(action, dict):
        return None
    fields: dict[str, Any] = {"action": action}
    if "expected_seq" in content:
        seq = content["expected_seq"]
        if type(seq) is not int or seq < 0:
            return None
        fields["expected_seq"] = seq
    if "command_id" in content:
        command_id = content["command_id"]
        if (
            not isinstance(command_id, str)
            or not 1 <= len(command_id) <= 64
            or "\x00" in command_id  # CharField refuses null characters
            or (not command_id.isascii() and _SURROGATE.search(command_id))
        ):
            return None
        fields["command_id"] = command_id
    return fields


class ActionSubmitApi(TableApi):
    """Play a move from the requester's seat.

    A token this process has seen before is checked in the move's own first
    message to the database, not in a query of its own
    (``accounts.authentication``); a request that fails before that gets it
    checked first, so a bad token is a 401 whatever else is wrong. A token
    checked by its own query is checked again in the move's message, which
    holds its row until the move commits: no move lands after the token's
    revocation has returned.
    """

    token_checked_in_move = True

    class InputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "ActionSubmitInput"

        action = documented(
            serializers.JSONField(
                help_text='One of the table\'s legal_actions, e.g. {"type": "pass"}.'
            ),
            {"type": "object", "additionalProperties": True},
        )
        expected_seq = serializers.IntegerField(required=False, min_value=0)
        # Taken exactly as sent: "c1 " is not "c1", or a new move could be
        # answered as a retry of an old one.
        command_id = TextField(
            required=False, min_length=1, max_length=64, trim_whitespace=False
        )

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "ActionSubmitOutput"

        seq = serializers.IntegerField()
        status = serializers.ChoiceField(choices=TableStatus.choices)
        view = serializers.DictField()
        legal_actions = serializers.ListField(child=serializers.DictField())

    @classmethod
    def validated(cls, data: Any) -> dict[str, Any]:
        """The move's fields from a request body or an ``act`` message:
        ``action_fields`` for the plainly well-formed, else the serializer
        (``ValidationError`` with its messages)."""
        fields = action_fields(data) if isinstance(data, dict) else None
        if fields is None:
            serializer = cls.InputSerializer(data=data)
            serializer.is_valid(raise_exception=True)
            fields = serializer.validated_data
        return fields

    @extend_schema(request=InputSerializer, responses={200: OutputSerializer})
    def post(self, request: Request, table_id: int) -> Response:
        fields = self.validated(request.data)
        auth = request.auth
        if isinstance(auth, Token):  # checked already: again, with the move
            auth = PendingToken(auth.key, request.user.pk)
        result = services.action_submit(
            table_id=table_id,
            user=request.user,
            vouch=auth if isinstance(auth, PendingToken) else None,
            **fields,
        )
        # The service's answer already has exactly this shape (and is what a
        # retried command_id returns); OutputSerializer documents it. Running
        # it too would deep-copy its fields on every move (docs/performance.md).
        return Response(result)

    def handle_exception(self, exc: Exception) -> Response:
        auth = getattr(self.request, "_auth", None)  # never authenticate here
        if isinstance(auth, PendingToken) and not isinstance(
            exc, exceptions.AuthenticationFailed | exceptions.NotAuthenticated
        ):
            try:
                auth.confirm()  # at most once: the move may have checked it
            except exceptions.AuthenticationFailed as failed:
                exc = failed
        return super().handle_exception(exc)


class EventListApi(TableApi):
    """The table's events after ``after``, redacted for the requester."""

    class FilterSerializer(serializers.Serializer):
        class Meta:
            ref_name = "EventListFilter"

        after = serializers.IntegerField(required=False, default=0, min_value=0)

    @extend_schema(
        parameters=[FilterSerializer],
        responses={200: EventOutputSerializer(many=True)},
    )
    def get(self, request: Request, table_id: int) -> Response:
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        table = selectors.table_get(table_id=table_id)
        events = selectors.event_list(
            table=table, user=_user(request), **filters.validated_data
        )
        return Response(EventOutputSerializer(events, many=True).data)


class ExportTableOutputSerializer(TableSummaryOutputSerializer):
    seat = serializers.IntegerField(allow_null=True)


class TableExportApi(TableApi):
    """The whole match as JSON, redacted for the requester."""

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "TableExportOutput"

        table = ExportTableOutputSerializer()
        events = EventOutputSerializer(many=True)

    @extend_schema(responses={200: OutputSerializer})
    def get(self, request: Request, table_id: int) -> Response:
        table = selectors.table_get(table_id=table_id)
        export = selectors.table_export(table=table, user=_user(request))
        return Response(self.OutputSerializer(export).data)


class TableVerifyApi(TableApi):
    """The fairness check of a finished match (409 before the end)."""

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "TableVerifyOutput"

        table = serializers.IntegerField()
        seed = serializers.CharField()
        seed_sha256 = serializers.CharField()
        ok = serializers.BooleanField()
        checked = serializers.IntegerField(help_text="Shuffles re-derived.")
        problems = serializers.ListField(child=serializers.CharField())

    @extend_schema(responses={200: OutputSerializer})
    def get(self, request: Request, table_id: int) -> Response:
        table = selectors.table_get(table_id=table_id)
        return Response(self.OutputSerializer(selectors.table_verify(table=table)).data)
