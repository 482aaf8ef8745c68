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
