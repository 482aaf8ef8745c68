"""The Content-Security-Policy every HTML page of the site says
(docs/security.md, "Pages").

Cardroom's own pages (``web.views``), the admin and the API's documentation
page all run only this server's script files: no inline script, no event
handler attribute, nothing from another site. Django's admin needs nothing
more (its templates hand data to scripts in ``data-`` attributes); the docs
page is drf-spectacular's "split" Swagger UI, whose set-up script is a file
served from the page's own path (``?script``) rather than inline.
"""

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern, URLResolver


def content_security_policy(request: HttpRequest) -> str:
    """Scripts only from this server's files, the live socket to this host,
    style attributes allowed (the meters set widths), no plugins, no
    ``<base>``, forms post here only, and no other site may frame a page."""
    host = request.get_host()
    return "; ".join(
        [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self' 'unsafe-inline'",
            "img-src 'self' data:",
            f"connect-src 'self' ws://{host} wss://{host}",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


def with_policy(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """``view``, its answers saying the policy unless they say their own."""

    @wraps(view)
    def policed(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        if "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = content_security_policy(request)
        return response

    return policed


def policed_urls(
    patterns: list[URLPattern | URLResolver],
) -> list[URLPattern | URLResolver]:
    """Every view under ``patterns`` (an app's URLs, such as the admin's,
    whose views are not ours to decorate) wrapped in ``with_policy``; the
    patterns are changed in place and returned. A view's attributes (CSRF
    exemption and the like) carry over."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            policed_urls(pattern.url_patterns)
        else:
            pattern.callback = with_policy(pattern.callback)
    return patterns
