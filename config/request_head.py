"""How long a request's URL and header block may be, and the answer beyond.

Both web servers read a request's head before the application sees it, and
each has its own limits and its own way to refuse: Twisted (under daphne,
``make run``) dropped the connection without a word on a request line longer
than 16 KiB and answered a bare ``400`` with no body on a longer head;
uvicorn with httptools (``scripts/web.sh``: ``make up``, the containers)
took URLs up to 64 KiB and answered ``400 Invalid HTTP request received.``
beyond. Cardroom's own adjustments (``config.daphne_http``,
``config.uvicorn_http``) give both the same limits and a clear answer with
the API's error body:

* a URL (the request target: path and query, as sent) of more than
  ``MAX_URL_BYTES``: ``414 URI Too Long``, code ``uri_too_long``;
* a head (request line and header fields) of more than ``MAX_HEAD_BYTES``,
  or a header line longer than ``MAX_URL_BYTES``: ``431 Request Header
  Fields Too Large``, code ``headers_too_large`` (uvicorn with httptools has
  no limit of its own on header fields: it buffered a line for as long as
  it lasted).

Each answer closes the connection: the rest of the request is not read.
Nothing here imports Django: uvicorn loads its protocol before the
application.
"""

import json

#: The longest URL served, in bytes as sent (percent-escapes count as three).
MAX_URL_BYTES = 16 * 1024
#: The longest request head read: the URL's room plus 16 KiB of header
#: fields (Twisted's own total was 16 KiB in all).
MAX_HEAD_BYTES = MAX_URL_BYTES + 16 * 1024

URI_TOO_LONG_CODE = "uri_too_long"
HEADERS_TOO_LARGE_CODE = "headers_too_large"


def uri_too_long_message() -> str:
    return f"The URL is longer than the limit of {MAX_URL_BYTES} bytes."


def headers_too_large_message() -> str:
    return (
        f"The request's header fields are larger than the limit of "
        f"{MAX_HEAD_BYTES} bytes."
    )


def refusal(status: int, reason: str, code: str, message: str) -> bytes:
    """A whole HTTP/1.1 response, status line to body, that closes the
    connection; the body is the API's ``{"code", "message"}``."""
    body = json.dumps({"code": code, "message": message}).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\n"
        "Content-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n"
        "X-Content-Type-Options: nosniff\r\n"
        "Connection: close\r\n"
        "\r\n"
    )
    return head.encode("ascii") + body


def uri_too_long() -> bytes:
    """The ``414 URI Too Long`` answer."""
    return refusal(414, "URI Too Long", URI_TOO_LONG_CODE, uri_too_long_message())


def headers_too_large() -> bytes:
    """The ``431 Request Header Fields Too Large`` answer."""
    return refusal(
        431,
        "Request Header Fields Too Large",
        HEADERS_TOO_LARGE_CODE,
        headers_too_large_message(),
    )
