"""Browser pages. The paths are fixed (docs/web.md lists them); every page is a
template that loads the client's ES modules from ``web/static/web/js``."""

from django.urls import path

from web import views

app_name = "web"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", views.login, name="login"),
    path("accounts/settings/", views.account, name="account"),
    path("tables/<int:table_id>/", views.table, name="table"),
    path("tables/<int:table_id>/replay/", views.replay, name="replay"),
    path(
        "tables/<int:table_id>/replay/frames/",
        views.replay_frames,
        name="replay-frames",
    ),
    path("players/<str:username>/", views.player, name="player"),
    path("leaderboards/<str:game>/", views.leaderboard, name="leaderboard"),
    path("games/<str:game>/", views.game_stats, name="game-stats"),
    path("rules/<str:game>/", views.rules_page, name="rules"),
    path("tournaments/", views.tournaments, name="tournaments"),
    path("tournaments/<int:tournament_id>/", views.tournament, name="tournament"),
    # Pages that name no icon (the admin's, the API's docs) make the browser
    # ask here: the site's own icon rather than a 404 in every console.
    path("favicon.ico", views.favicon, name="favicon"),
]
