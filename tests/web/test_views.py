"""The browser pages: each fixed path answers HTML that loads its ES module."""

import pytest
from django.test import Client

from tests.accounts.factories import UserFactory, legacy_twin
from tests.tournaments.factories import TournamentFactory
from tournaments.choices import TournamentStatus

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("path", "module"),
    [
        ("/", "web/js/lobby.js"),
        ("/accounts/signup/", "web/js/auth.js"),
        ("/accounts/login/", "web/js/auth.js"),
        ("/leaderboards/alager/", "web/js/stats-pages.js"),
        ("/games/alkort/", "web/js/stats-pages.js"),
        ("/tournaments/", "web/js/tournaments.js"),
        ("/tournaments/{tournament}/", "web/js/tournaments.js"),
    ],
)
def test_page_loads_its_module_from_this_server(
    client: Client, path: str, module: str
) -> None:
    open_one = TournamentFactory(status=TournamentStatus.REGISTRATION)
    response = client.get(path.format(tournament=open_one.pk))

    assert response.status_code == 200
    assert response["Content-Type"] == "text/html; charset=utf-8"
    assert f'src="/static/{module}"'.encode() in response.content
    # Nothing from another origin: every src and href is a local path.
    assert b'src="http' not in response.content
    assert b'href="http' not in response.content


def test_lobby_sets_the_csrf_cookie_for_the_api_writes(client: Client) -> None:
    response = client.get("/")

    assert "csrftoken" in response.cookies


def test_the_create_form_starts_rated_as_the_api_does(client: Client) -> None:
    """A table of two or more players is rated unless its creator says not
    (docs/stats.md): the form's box starts ticked, where it used to start
    empty, so matches made from the form never reached a rating chart unless
    the person thought to tick it."""
    import re

    page = client.get("/").content.decode()
    box = re.search(r"<input[^>]*id=\"create-rated\"[^>]*>", page)

    assert box is not None
    assert " checked" in box.group(0)


def test_player_page_names_the_player_and_404s_for_nobody(client: Client) -> None:
    UserFactory(username="Ada")

    found = client.get("/players/ada/")
    missing = client.get("/players/nobody/")

    assert found.status_code == 200
    assert b'data-username="Ada"' in found.content
    assert missing.status_code == 404
    assert b"There is no player called &#x27;nobody&#x27;." in missing.content


def test_player_page_of_a_legacy_twin_is_the_exact_spelling(client: Client) -> None:
    ada = UserFactory(username="Ada")
    legacy_twin(ada, "ada")

    exact = client.get("/players/ada/")
    other = client.get("/players/ADA/")

    assert b'data-username="ada"' in exact.content
    assert b'data-username="Ada"' in other.content


def test_player_page_folds_case_beyond_ascii(client: Client) -> None:
    UserFactory(username="straße")

    response = client.get("/players/STRASSE/")

    assert response.status_code == 200
    assert 'data-username="straße"'.encode() in response.content


@pytest.mark.parametrize(
    "path", ["/leaderboards/chess/", "/games/chess/", "/rules/chess/"]
)
def test_unknown_game_is_a_friendly_html_404(client: Client, path: str) -> None:
    response = client.get(path)

    assert response.status_code == 404
    assert response["Content-Type"] == "text/html; charset=utf-8"
    assert b"There is no game called &#x27;chess&#x27;." in response.content


def test_unknown_or_draft_tournament_is_a_friendly_html_404(client: Client) -> None:
    draft = TournamentFactory()

    for tournament_id in (draft.pk, 999999):
        response = client.get(f"/tournaments/{tournament_id}/")

        assert response.status_code == 404
        assert response["Content-Type"] == "text/html; charset=utf-8"
        assert (
            f"Tournament {tournament_id} does not exist.".encode() in response.content
        )


def test_unknown_table_is_a_friendly_html_404(client: Client) -> None:
    response = client.get("/tables/999999/")

    assert response.status_code == 404
    assert b"Table 999999 does not exist." in response.content


def test_signed_in_visitor_skips_the_signup_page(client: Client) -> None:
    client.force_login(UserFactory())

    response = client.get("/accounts/signup/")

    assert response.status_code == 302
    assert response["Location"] == "/"


def test_login_never_redirects_off_the_server(client: Client) -> None:
    response = client.get("/accounts/login/?next=//evil.example/")

    assert b'data-next="/"' in response.content


# Browsers read a backslash as a slash and drop tabs and line breaks inside a
# URL, so each of these is "//evil.example/": another site.
OFF_SITE = [
    "//evil.example/",
    "/%5Cevil.example/",
    "/%5C%5Cevil.example/",
    "/%09/evil.example/",
    "/%0A/evil.example/",
    "/%0D/evil.example/",
    "%09//evil.example/",
    "https://evil.example/",
    "javascript:alert(1)",
]


@pytest.mark.parametrize("target", OFF_SITE)
@pytest.mark.parametrize("path", ["/accounts/login/", "/accounts/signup/"])
def test_forms_never_send_a_visitor_off_the_server(
    client: Client, path: str, target: str
) -> None:
    response = client.get(f"{path}?next={target}")

    assert b'data-next="/"' in response.content


@pytest.mark.parametrize("target", OFF_SITE)
def test_login_page_never_redirects_a_signed_in_visitor_off_the_server(
    client: Client, target: str
) -> None:
    client.force_login(UserFactory())

    response = client.get(f"/accounts/login/?next={target}")

    assert response.status_code == 302
    assert response["Location"] == "/"


def test_login_page_sends_a_signed_in_visitor_on_to_a_path_here(
    client: Client,
) -> None:
    client.force_login(UserFactory())

    response = client.get("/accounts/login/?next=/tables/7/%3Fa%3D1")

    assert response["Location"] == "/tables/7/?a=1"


def test_table_page_says_whether_the_server_has_a_live_socket(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.games.tables import table_started

    table = table_started(seating=[UserFactory(), UserFactory()])

    without = client.get(f"/tables/{table.pk}/")
    monkeypatch.setattr("web.views.websocket_urlpatterns", ["a route"])
    with_socket = client.get(f"/tables/{table.pk}/")

    assert f'data-table="{table.pk}" data-game="alkort"'.encode() in without.content
    from games.routing import websocket_urlpatterns

    expected = b'data-live="1"' if websocket_urlpatterns else b'data-live="0"'
    assert expected in without.content
    assert b'data-live="1"' in with_socket.content


@pytest.mark.parametrize("path", ["/leaderboards/alager/", "/rules/alkort/"])
def test_every_page_sets_the_csrf_cookie(client: Client, path: str) -> None:
    assert "csrftoken" in client.get(path).cookies


def test_the_account_page_is_for_a_logged_in_person(client: Client) -> None:
    from tests.accounts.factories import token_for

    anonymous = client.get("/accounts/settings/")
    ada = UserFactory()
    client.force_login(ada)
    without_token = client.get("/accounts/settings/")
    token_for(ada)
    with_token = client.get("/accounts/settings/")

    assert anonymous.status_code == 302
    assert anonymous["Location"] == "/accounts/login/?next=/accounts/settings/"
    assert b'src="/static/web/js/account.js"' in without_token.content
    assert ada.username.encode() in without_token.content
    assert b"You have no API token." in without_token.content
    assert b'id="token-revoke" disabled' in without_token.content
    assert b"You have an API token." in with_token.content
    assert b'id="token-revoke" disabled' not in with_token.content
    assert "csrftoken" in with_token.cookies


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/accounts/login/",
        "/leaderboards/alager/",
        "/rules/alkort/",
        "/tables/999999/",
    ],
)
def test_pages_run_only_this_servers_scripts(client: Client, path: str) -> None:
    """A Content-Security-Policy: were a name ever written into a page as
    markup, no script it carried (inline, an event handler, another site's)
    would run, and no other site may frame the page."""
    response = client.get(path, HTTP_HOST="testserver")

    policy = {
        name: value.split()
        for name, _, value in (
            part.strip().partition(" ")
            for part in response["Content-Security-Policy"].split(";")
        )
    }
    assert policy["script-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["form-action"] == ["'self'"]
    assert policy["default-src"] == ["'self'"]
    assert "ws://testserver" in policy["connect-src"]


def test_the_browsers_icon_request_finds_the_sites_icon(client: Client) -> None:
    """Pages that name no icon (the admin's, the API's docs) make the
    browser ask for /favicon.ico: it finds the site's icon, not a 404."""
    response = client.get("/favicon.ico")

    assert response.status_code == 301
    assert response["Location"].endswith("/web/favicon.svg")
    assert client.get(response["Location"]).status_code == 200
