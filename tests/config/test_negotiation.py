"""``config.negotiation``: the plain case answered as DRF's negotiation would;
an ``Accept`` that allows none of the formats gets the first (JSON), not 406."""

import pytest
from django.test import Client
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import (
    BrowsableAPIRenderer,
    JSONRenderer,
    StaticHTMLRenderer,
)
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from config.negotiation import Negotiation

ACCEPTS = [
    None,
    "*/*",
    "application/json",
    "application/json; indent=4",
    "text/html",
    "text/html, */*;q=0.1",
    "application/*",
    "image/png",
    "",
]
RENDERERS = [
    [JSONRenderer()],
    [JSONRenderer(), BrowsableAPIRenderer()],
    [StaticHTMLRenderer(), JSONRenderer()],
]


def _choice(
    negotiation: object, accept: str | None, renderers: list, query: str = ""
) -> object:
    headers = {} if accept is None else {"HTTP_ACCEPT": accept}
    request = Request(APIRequestFactory().get("/" + query, **headers))
    try:
        renderer, media_type = negotiation.select_renderer(request, renderers)  # type: ignore[attr-defined]
    except NotAcceptable:  # DRF's refusal; ours sends the first format instead
        return type(renderers[0]).__name__, renderers[0].media_type
    except Exception as exc:  # the same refusal, whatever it is
        return type(exc).__name__
    return type(renderer).__name__, media_type


@pytest.mark.parametrize("accept", ACCEPTS)
@pytest.mark.parametrize("renderers", range(len(RENDERERS)))
@pytest.mark.parametrize("query", ["", "?format=json", "?format=api", "?format=xml"])
def test_the_same_choice_as_drfs_negotiation(
    accept: str | None, renderers: int, query: str
) -> None:
    chosen = RENDERERS[renderers]

    assert _choice(Negotiation(), accept, chosen, query) == _choice(
        DefaultContentNegotiation(), accept, chosen, query
    )


def test_an_api_request_gets_json_through_it(client: Client) -> None:
    response = client.get("/api/games/", HTTP_ACCEPT="*/*")

    assert response["Content-Type"] == "application/json"


@pytest.mark.parametrize("accept", ["application/xml", "image/png, text/plain"])
def test_an_accept_without_json_still_gets_json_not_a_406(
    client: Client, accept: str
) -> None:
    response = client.get("/api/games/", HTTP_ACCEPT=accept)

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert [game["name"] for game in response.json()] == ["alager", "alkort", "allegra"]


@pytest.mark.django_db
def test_an_error_under_an_accept_without_json_keeps_its_status_and_shape(
    client: Client,
) -> None:
    response = client.get("/api/tables/987654/", HTTP_ACCEPT="application/xml")

    assert response.status_code == 404
    assert response.json() == {
        "code": "not_found",
        "message": "Table 987654 does not exist.",
    }
