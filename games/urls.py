"""``/api/games/`` and ``/api/tables/...``: the paths docs/architecture.md §9 fixes."""

from django.urls import path

from games import apis

app_name = "games"

urlpatterns = [
    path("games/", apis.GameListApi.as_view(), name="game-list"),
    path("tables/", apis.TableListApi.as_view(), name="table-list"),
    path("tables/<int:table_id>/", apis.TableDetailApi.as_view(), name="table-detail"),
    path("tables/<int:table_id>/join/", apis.TableJoinApi.as_view(), name="table-join"),
    path(
        "tables/<int:table_id>/leave/", apis.TableLeaveApi.as_view(), name="table-leave"
    ),
    path(
        "tables/<int:table_id>/bots/", apis.TableBotAddApi.as_view(), name="table-bots"
    ),
    path(
        "tables/<int:table_id>/start/", apis.TableStartApi.as_view(), name="table-start"
    ),
    path(
        "tables/<int:table_id>/actions/",
        apis.ActionSubmitApi.as_view(),
        name="action-submit",
    ),
    path(
        "tables/<int:table_id>/events/", apis.EventListApi.as_view(), name="event-list"
    ),
    path(
        "tables/<int:table_id>/export/",
        apis.TableExportApi.as_view(),
        name="table-export",
    ),
    path(
        "tables/<int:table_id>/verify/",
        apis.TableVerifyApi.as_view(),
        name="table-verify",
    ),
]
