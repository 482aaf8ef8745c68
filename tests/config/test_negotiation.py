"""``config.negotiation``: the plain case answered as DRF's negotiation would."""

import pytest
from django.test import Client
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
