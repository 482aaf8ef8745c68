"""Paths of the statistics API (fixed by ``docs/stats.md`` and ``docs/api.md``)."""

from django.urls import path

from stats import apis

urlpatterns = [
    path(
        "leaderboards/<str:game>/",
        apis.LeaderboardApi.as_view(),
        name="stats-leaderboard",
    ),
    path("players/<str:username>/", apis.PlayerApi.as_view(), name="stats-player"),
    path(
        "players/<str:username>/ratings/<str:game>/",
        apis.RatingHistoryApi.as_view(),
        name="stats-rating-history",
    ),
    path(
        "players/<str:username>/tables/",
        apis.PlayerTablesApi.as_view(),
        name="stats-player-tables",
    ),
    path("games/<str:game>/", apis.GameApi.as_view(), name="stats-game"),
    path("head-to-head/", apis.HeadToHeadApi.as_view(), name="stats-head-to-head"),
]
