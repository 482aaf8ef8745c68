"""Browser pages: thin views that render a template for the client's ES modules.

Every page is server-rendered HTML whose data comes from the public API
(docs/api.md) through ``web/static/web/js``; nothing is loaded from outside the
server. The views here only check that what the path names exists, so a wrong
link answers a friendly 404 page instead of an empty shell.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import ensure_csrf_cookie
from rest_framework.authtoken.models import Token

import rules
from accounts.selectors import user_find
from config.csp import content_security_policy
from games import selectors
from games.errors import TableError
from games.routing import websocket_urlpatterns
from tournaments import selectors as tournament_selectors
from web.replay import replay_frames as frames_build
from web.rules_docs import rules_html

GAMES = [(name, rules.get_game(name).title) for name in rules.GAMES]


def _page(
    request: HttpRequest, template: str, page: str, **context: Any
) -> HttpResponse:
    # Every page may write (log out is in the top bar), so every page sets the
    # CSRF cookie the client echoes in X-CSRFToken.
    get_token(request)
    response = render(
        request,
        f"web/{template}",
        {"page": page, "games": GAMES, **context},
    )
    response["Content-Security-Policy"] = content_security_policy(request)
    return response


def favicon(request: HttpRequest) -> HttpResponse:
    """The site's icon, for pages that name none (the admin's, the API's
    docs): the browser asks for ``/favicon.ico`` and would log a 404. The
    icon's address is looked up per request, as the production storage names
    its files by their content."""
    return redirect(static("web/favicon.svg"), permanent=True)


def friendly_404(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Answer a page's ``Http404`` with an HTML page (the API keeps its JSON)."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except Http404 as exc:
            response = _page(request, "404.html", "missing", message=str(exc))
            response.status_code = 404
            return response

    return wrapper


def _game_title(game: str) -> str:
    if game not in rules.GAMES:
        raise Http404(f"There is no game called {game!r}.")
    return rules.get_game(game).title


def _table_or_404(table_id: int) -> Any:
    try:
        return selectors.table_get(table_id=table_id)
    except TableError as exc:
        raise Http404(exc.message) from exc


@ensure_csrf_cookie
def lobby(request: HttpRequest) -> HttpResponse:
    """The lobby: create a table, play bots in one click, join or watch."""
    return _page(request, "lobby.html", "lobby", idle_hours=settings.TABLE_IDLE_HOURS)


@ensure_csrf_cookie
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account (the form posts to the accounts API, then logs in)."""
    if request.user.is_authenticated:
        return redirect("web:lobby")
    return _page(request, "signup.html", "signup", next=_next(request))


@ensure_csrf_cookie
def login(request: HttpRequest) -> HttpResponse:
    """Open a browser session."""
    if request.user.is_authenticated:
        return redirect(_next(request))
    return _page(request, "login.html", "login", next=_next(request))


def account(request: HttpRequest) -> HttpResponse:
    """Change the password, revoke the API token (the accounts API)."""
    if not request.user.is_authenticated:
        return redirect(f"/accounts/login/?next={request.path}")
    has_token = Token.objects.filter(user=request.user).exists()
    return _page(request, "account.html", "account", has_token=has_token)


def _next(request: HttpRequest) -> str:
    target = request.GET.get("next", "/")
    # Only paths on this server: never an open redirect. Django's check reads
    # the URL as a browser does: "/\evil.example" and "/<tab>/evil.example"
    # are "//evil.example", another site, to a browser.
    here = target.startswith("/") and url_has_allowed_host_and_scheme(
        target, allowed_hosts=None
    )
    return target if here else "/"


@ensure_csrf_cookie
@friendly_404
def table(request: HttpRequest, table_id: int) -> HttpResponse:
    """A live table: the requester's seat, or a spectator's view; a
    tournament's table names its round and links back to the tournament."""
    found = _table_or_404(table_id)
    return _page(
        request,
        "table.html",
        "table",
        live_socket=bool(websocket_urlpatterns),
        table_id=found.pk,
        game=found.game,
        game_title=_game_title(found.game),
        tournament_round=tournament_selectors.table_round(table_id=found.pk),
    )


@friendly_404
def replay(request: HttpRequest, table_id: int) -> HttpResponse:
    """Step through a finished match, and check that its deals were fair."""
    found = _table_or_404(table_id)
    return _page(
        request,
        "replay.html",
        "replay",
        table_id=found.pk,
        game=found.game,
        game_title=_game_title(found.game),
    )


def replay_frames(request: HttpRequest, table_id: int) -> JsonResponse:
    """The replay's frames as JSON (``?seat=n`` for one seat, else all open).

    JSON for every answer, a missing table too (``not_found`` with the API's
    message): the replay page's script reads it, whatever DEBUG says."""
    try:
        found = selectors.table_get(table_id=table_id)
    except TableError as exc:
        return JsonResponse({"code": exc.code, "message": exc.message}, status=404)
    raw = request.GET.get("seat", "")
    seat: int | None = None
    if raw not in ("", "all"):
        if not (raw.isascii() and raw.isdigit()) or int(raw) >= found.players:
            return JsonResponse(
                {
                    "code": "invalid_seat",
                    "message": f"seat must be all or 0 to {found.players - 1}.",
                },
                status=400,
            )
        seat = int(raw)
    try:
        frames = frames_build(table=found, seat=seat)
    except TableError as exc:
        return JsonResponse({"code": exc.code, "message": exc.message}, status=409)
    return JsonResponse({"table": found.pk, "seat": seat, "frames": frames})


@friendly_404
def player(request: HttpRequest, username: str) -> HttpResponse:
    """A player's ratings, rating history, statistics and recent matches."""
    user = user_find(username=username)
    if user is None:
        raise Http404(f"There is no player called {username!r}.")
    return _page(request, "player.html", "player", username=user.username)


@friendly_404
def leaderboard(request: HttpRequest, game: str) -> HttpResponse:
    """The best rated players of one game."""
    return _page(
        request,
        "leaderboard.html",
        "leaderboard",
        game=game,
        game_title=_game_title(game),
    )


@friendly_404
def game_stats(request: HttpRequest, game: str) -> HttpResponse:
    """A game's statistics with charts."""
    return _page(
        request,
        "game_stats.html",
        "game-stats",
        game=game,
        game_title=_game_title(game),
    )


@friendly_404
def rules_page(request: HttpRequest, game: str) -> HttpResponse:
    """The rules of one game, rendered from the repository's docs."""
    title = _game_title(game)
    return _page(
        request,
        "rules.html",
        "rules",
        game=game,
        game_title=title,
        rules_html=rules_html(game),
    )


def tournaments(request: HttpRequest) -> HttpResponse:
    """Every tournament: upcoming, running and finished."""
    return _page(request, "tournaments.html", "tournaments")


@friendly_404
@ensure_csrf_cookie
def tournament(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """One tournament: standings and rounds with links to their tables; the
    404 page for one that does not exist or is still a draft, as the API."""
    try:
        tournament_selectors.tournament_get(tournament_id=tournament_id)
    except TableError as exc:
        raise Http404(exc.message) from exc
    return _page(request, "tournament.html", "tournament", tournament_id=tournament_id)
