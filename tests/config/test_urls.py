"""The OpenAPI schema and its docs are served, without any CDN."""

import pytest
from django.test import Client


def test_schema_is_served(client: Client) -> None:
    response = client.get(
        "/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json"
    )

    assert response.status_code == 200
    schema = response.json()
    assert schema["info"]["title"] == "Cardroom API"
    assert "/healthz" in schema["paths"]


def test_docs_load_swagger_ui_from_our_own_static_files(client: Client) -> None:
    response = client.get("/api/docs/")

    assert response.status_code == 200
    page = response.content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in page
    assert "cdn.jsdelivr.net" not in page


def test_the_schema_says_request_text_may_not_hold_a_nul(client: Client) -> None:
    """DRF's CharField refuses a NUL character (and PostgreSQL cannot store
    one); every free text field of a request body says so with a pattern, so
    schemathesis does not send one as valid data."""
    import re

    schema = client.get(
        "/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json"
    ).json()
    checked = []
    for name, component in schema["components"]["schemas"].items():
        if not name.endswith("Request"):  # request bodies (COMPONENT_SPLIT_REQUEST)
            continue
        for field, prop in component.get("properties", {}).items():
            if prop.get("type") != "string" or {"enum", "format"} & set(prop):
                continue
            checked.append(f"{name}.{field}")
            assert re.search(prop["pattern"], "team\x00") is None, (name, prop)
            if prop.get("minLength", 0) >= 1:
                assert re.search(prop["pattern"], "   ") is None, (name, prop)
            assert re.search(prop["pattern"], "Team One") is not None, (name, prop)
    assert "TournamentRegisterInputRequest.team" in checked
    assert "ActionSubmitInputRequest.command_id" in checked


def _policy(response: object) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]  # type: ignore[index]
    return {
        name: value.split()
        for name, _, value in (
            part.strip().partition(" ") for part in header.split(";")
        )
    }


def test_the_docs_page_runs_only_this_servers_scripts(client: Client) -> None:
    """The docs page says the site's Content-Security-Policy, and its
    set-up script is a file of its own (``?script``), not inline, so the
    policy does not stop Swagger UI."""
    response = client.get("/api/docs/")

    assert _policy(response)["script-src"] == ["'self'"]
    page = response.content.decode()
    assert "<script>" not in page
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")
    assert "/api/schema/" in script.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/admin/login/", "/admin/", "/admin/nowhere/"])
def test_the_admins_pages_run_only_this_servers_scripts(
    client: Client, path: str
) -> None:
    """The admin shows what players wrote (names, team names); were one ever
    written as markup, no script in it would run and no site could frame it."""
    response = client.get(path, follow=True)

    policy = _policy(response)
    assert policy["script-src"] == ["'self'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["object-src"] == ["'none'"]
