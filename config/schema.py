"""Make the OpenAPI schema say which errors each operation can answer.

drf-spectacular documents what a view returns on success; the errors come from
layers it does not see (authentication, throttling, the body limits, the
services). ``error_responses`` (a ``POSTPROCESSING_HOOKS`` entry) adds them to
every operation, each with the one error shape (``Error``), by what the
operation takes:

* every operation: 401 (a bad or a bot's token is refused before any view
  runs), 429 (throttled) and 503 (busy: a database wait ran out,
  ``config.errors``);
* a request body: 400 (invalid), 413 (too large), 415 (unsupported type);
* query parameters: 400;
* path parameters, or a page number: 404 (no such object, no such page);
* writes, and reads that need an account: 403 (not yours, CSRF, a bot);
* the table writes, the fairness check and a tournament's registration: 409
  (not now: full, started, stale, not over yet, already or not registered;
  opening a table with a ``request_id`` already used for other settings).

It also says that an optional query parameter may be empty (DRF reads that as
"not given"), that text may not hold a NUL character and a trimmed required
one cannot be blank (``pattern``), and
``documented`` describes a field that takes any value on purpose. ``schemathesis``
then holds the API to the schema (``tests/config/test_schema.py``).

``SchemaView`` and ``SchemaDocsView`` serve the schema (YAML, or JSON) and its
docs page, and answer their errors in JSON like every other ``/api/`` path.
"""

from typing import Any, TypeVar

from drf_spectacular.utils import extend_schema_field
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

FieldT = TypeVar("FieldT", bound=serializers.Field)

ERROR_SCHEMA = {
    "type": "object",
    "description": "Every error: a stable code to branch on and a plain message.",
    "properties": {
        "code": {"type": "string", "example": "not_found"},
        "message": {"type": "string", "example": "Not found."},
        "errors": {
            "type": "object",
            "additionalProperties": True,
            "description": "Validation errors only: the details per field.",
        },
    },
    "required": ["code", "message"],
}

DESCRIPTIONS = {
    "400": "Invalid input (bad JSON, a field the server refuses, a rules error).",
    "401": "Missing, unknown or bot credentials.",
    "403": "Not allowed: not your seat or table, a CSRF failure, a bot account.",
    "404": "No such object.",
    "409": "Not now: the table's or tournament's state forbids it (full, started, "
    "stale, not over, already registered or not registered), or a request id "
    "was used before for another request.",
    "413": "The request body is larger than the server accepts.",
    "415": "The request body's media type is not accepted.",
    "429": "Throttled: too many requests; retry after the Retry-After header.",
    "503": "Busy: a lock or database connection the request needed was not free "
    "in time, and nothing was done; retry after the Retry-After header.",
}

# Operations whose services can answer "not now" (games.errors.Conflict).
CONFLICT_SUFFIXES = (
    "/join/",
    "/leave/",
    "/bots/",
    "/start/",
    "/actions/",
    "/verify/",
    "/register/",
    "/withdraw/",
)
# And these operations: opening a table with a request_id used before for
# other settings (request_reused).
CONFLICT_OPERATIONS = {("/api/tables/", "post")}


def documented(field: FieldT, schema: dict[str, Any]) -> FieldT:
    """``field``, documented with ``schema`` instead of what its type suggests.

    For fields that take any value on purpose so that the service or the rules
    can refuse it with their own message (a game's name, an action), while the
    schema says what a client should send. The field's ``help_text`` is kept.
    """
    if field.help_text:
        schema = {**schema, "description": str(field.help_text)}
    # A serializer deep-copies its fields by class and arguments, so the
    # annotation goes on a subclass made for this one field.
    base = type(field)
    annotated = type(f"Documented{base.__name__}", (base,), {})
    extend_schema_field(schema)(annotated)
    field.__class__ = annotated
    return field


#: A request's text: no NUL character (DRF's CharField refuses it, and
#: PostgreSQL cannot store it).
TEXT_PATTERN = "^[^\\u0000]*$"
#: The same, and not blank: some character other than whitespace.
NON_BLANK_TEXT_PATTERN = "^[^\\u0000]*[^\\s\\u0000][^\\u0000]*$"


def _text_patterns(result: dict[str, Any]) -> None:
    """Say what a request's text fields refuse.

    DRF's ``CharField`` refuses a NUL character, and it trims whitespace and
    then refuses an empty string, so " " is refused though ``minLength: 1``
    allows it. A ``pattern`` says what the server checks: no NUL in any text
    field, and for a required one also some character other than whitespace.
    Fields with an ``enum``, a ``format`` or a pattern of their own are left
    as they are.
    """
    schemas = result.get("components", {}).get("schemas", {})
    for path_item in result.get("paths", {}).values():
        for operation in path_item.values():
            if not isinstance(operation, dict):
                continue
            content = operation.get("requestBody", {}).get("content", {})
            for media in content.values():
                ref = media.get("schema", {}).get("$ref", "")
                component = schemas.get(ref.rsplit("/", 1)[-1], {})
                for prop in component.get("properties", {}).values():
                    if prop.get("type") == "string" and not (
                        {"pattern", "enum", "format"} & set(prop)
                    ):
                        prop["pattern"] = (
                            NON_BLANK_TEXT_PATTERN
                            if prop.get("minLength", 0) >= 1
                            else TEXT_PATTERN
                        )


def _empty_query_values(result: dict[str, Any]) -> None:
    """Say that an optional query parameter may be sent empty (``?status=``).

    DRF reads an empty value of an optional field as "not given" (here: no
    filter), so the server accepts it whatever the parameter's type.
    """
    for path_item in result.get("paths", {}).values():
        for operation in path_item.values():
            if not isinstance(operation, dict):
                continue
            for parameter in operation.get("parameters", []):
                if parameter.get("in") != "query" or parameter.get("required"):
                    continue
                schema = parameter.get("schema", {})
                if schema.get("type") == "string":
                    schema.pop("minLength", None)
                    if "enum" in schema and "" not in schema["enum"]:
                        schema["enum"] = [*schema["enum"], ""]
                elif "type" in schema:
                    parameter["schema"] = {
                        "anyOf": [schema, {"type": "string", "maxLength": 0}]
                    }


def _statuses(path: str, method: str, operation: dict[str, Any]) -> set[str]:
    parameters = operation.get("parameters", [])
    statuses = {"401", "429", "503"}
    if "requestBody" in operation:
        statuses |= {"400", "413", "415"}
    if any(p.get("in") == "query" for p in parameters):
        statuses.add("400")
    if any(p.get("in") == "path" for p in parameters):
        statuses.add("404")
    anonymous_allowed = {} in operation.get("security", [{}])
    if method != "get" or not anonymous_allowed:
        statuses.add("403")
    if path.endswith(CONFLICT_SUFFIXES) or (path, method) in CONFLICT_OPERATIONS:
        statuses.add("409")
    if any(p.get("name") == "page" for p in parameters):
        statuses.add("404")  # a page past the last one
    return statuses


def error_responses(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Add the ``Error`` schema and each operation's error responses."""
    _text_patterns(result)
    _empty_query_values(result)
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components["Error"] = ERROR_SCHEMA
    reference = {"$ref": "#/components/schemas/Error"}
    for path, item in result.get("paths", {}).items():
        for method, operation in item.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses = operation["responses"]
            for status in sorted(_statuses(path, method, operation)):
                responses.setdefault(
                    status,
                    {
                        "content": {"application/json": {"schema": reference}},
                        "description": DESCRIPTIONS[status],
                    },
                )
    return result


class _JSONErrors:
    """Errors answered as JSON, whatever formats the view serves otherwise.

    A view that renders YAML or an HTML page would render its errors (a wrong
    method, an unknown ``?format=``, throttling) that way too: as YAML text
    or a bare page, where every ``/api/`` error is ``{"code", "message"}``
    JSON (docs/api.md, "Errors").
    """

    def handle_exception(self, exc: Exception) -> Response:
        response: Response = super().handle_exception(exc)  # type: ignore[misc]
        request = self.request  # type: ignore[attr-defined]
        request.accepted_renderer = JSONRenderer()
        request.accepted_media_type = JSONRenderer.media_type
        return response


class SchemaView(_JSONErrors, SpectacularAPIView):
    """The OpenAPI schema, ``/api/schema/``."""


class SchemaDocsView(_JSONErrors, SpectacularSwaggerSplitView):
    """The schema's browsable docs, ``/api/docs/``: Swagger UI with its
    set-up script served from the same path (``?script``), not inline, so
    that the page runs under the site's Content-Security-Policy."""
