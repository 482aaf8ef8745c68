"""``/api/tournaments/...``: the paths docs/architecture.md fixes, described in docs/tournaments.md."""

from django.urls import path

from tournaments import apis

app_name = "tournaments"

urlpatterns = [
    path("", apis.TournamentListApi.as_view(), name="tournament-list"),
    path(
        "<int:tournament_id>/",
        apis.TournamentDetailApi.as_view(),
        name="tournament-detail",
    ),
    path(
        "<int:tournament_id>/register/",
        apis.TournamentRegisterApi.as_view(),
        name="tournament-register",
    ),
    path(
        "<int:tournament_id>/withdraw/",
        apis.TournamentWithdrawApi.as_view(),
        name="tournament-withdraw",
    ),
]
