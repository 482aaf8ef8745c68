"""The OpenAPI schema and its docs are served, without any CDN."""

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
