"""What the Django admin may never query: the secrets of a match.

The admin accepts a lookup on any local field from the query string
(``?seed__startswith=ab``) unless told otherwise, and a yes/no answer per guess
is enough to read a secret out one character at a time. The fields below hold
what hidden information forbids anyone to learn before the rules make it public
(docs/security.md): the seed behind every shuffle, the cached state (which
holds the seed, every hand and the stock order), the events' raw payloads and
the answers a seat's commands got (its own view, its hand).

``GuardedModelAdmin`` refuses any filter, search or ordering that reaches one
of them, for every user, superusers included, whatever the table's status: a
changelist filter spans every table at once, so no status can be checked per
row. Each admin that can reach these models (directly or through a relation)
subclasses it; ``tests/config/test_admin.py`` walks every registered
admin with forbidden lookups to hold that true.
"""

import re
from typing import Any

from django.contrib import admin
from django.core.exceptions import FieldDoesNotExist
from django.db.models import Model
from django.db.models.constants import LOOKUP_SEP
from django.http import HttpRequest
from django.utils.safestring import SafeData, mark_safe

# "app_label.ModelName.field"; the model name is compared without case.
SECRET_FIELDS = frozenset(
    {
        "games.table.seed",
        "games.table.state",
        "games.gameevent.payload",
        "games.processedcommand.action",
        "games.processedcommand.response",
        # An API token key is a password (accounts/admin.py shows a prefix).
        "authtoken.token.key",
        "authtoken.tokenproxy.key",
    }
)


def is_secret(model: type[Model], field_name: str) -> bool:
    """Whether ``model.field_name`` is one of ``SECRET_FIELDS``."""
    opts = model._meta
    return f"{opts.app_label}.{opts.model_name}.{field_name}" in SECRET_FIELDS


def reaches_secret(model: type[Model], path: str) -> bool:
    """Whether the lookup ``path`` (``a__b__c``) touches a secret field.

    Relations are followed part by part; the first part that is no relation is
    the field the lookup reads (what follows are transforms, JSON keys or the
    lookup type), so that is the one checked. An ``o=`` or search path starting
    with ``-`` or a search prefix (``^``, ``=``, ``@``) is read the same way.
    """
    path = path.lstrip("-^=@")
    current = model
    for part in path.split(LOOKUP_SEP):
        if part == "pk":
            part = current._meta.pk.name if current._meta.pk else part
        try:
            field = current._meta.get_field(part)
        except FieldDoesNotExist:
            return False
        if is_secret(current, field.name):
            return True
        related = field.related_model if field.is_relation else None
        if related is None or isinstance(related, str):
            return False
        current = related
    return False


class GuardedModelAdmin(admin.ModelAdmin):
    """``admin.ModelAdmin`` that never filters, searches or orders by a secret.

    Combine it with another admin class by listing it first
    (``class UserAdmin(GuardedModelAdmin, DjangoUserAdmin)``).
    """

    def lookup_allowed(self, lookup: str, value: Any, request: Any = None) -> bool:
        if reaches_secret(self.model, lookup):
            return False
        return bool(super().lookup_allowed(lookup, value, request))

    def get_search_fields(self, request: HttpRequest) -> Any:
        return self._without_secrets(super().get_search_fields(request))

    def get_list_filter(self, request: HttpRequest) -> Any:
        return self._without_secrets(super().get_list_filter(request))

    def get_list_display(self, request: HttpRequest) -> Any:
        # ``o=<index>`` orders by any column shown, whatever ``sortable_by`` says.
        return self._without_secrets(super().get_list_display(request))

    def get_ordering(self, request: HttpRequest) -> Any:
        return self._without_secrets(super().get_ordering(request))

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        """What a deletion would take with it, with API token keys cut short:
        Django names each related object by its ``str()``, and a token's is
        its whole key (deleting a person lists their token)."""
        to_delete, model_count, perms_needed, protected = super().get_deleted_objects(
            objs, request
        )
        return _masked(to_delete), model_count, perms_needed, _masked(protected)

    def _without_secrets(self, names: Any) -> list[Any]:
        return [
            name
            for name in names
            if not isinstance(name, str) or not reaches_secret(self.model, name)
        ]


#: An API token key (DRF's: 20 random bytes in hex), wherever it is printed.
_TOKEN_KEY = re.compile(r"\b([0-9a-f]{6})[0-9a-f]{34}\b")


def _masked(items: Any) -> Any:
    """The deletion summary's nested list with every token key shortened to
    its first characters, as the token list shows it (accounts.admin)."""
    if isinstance(items, list | tuple):
        return type(items)(_masked(item) for item in items)
    if isinstance(items, str):
        masked = _TOKEN_KEY.sub(r"\1…", items)
        return mark_safe(masked) if isinstance(items, SafeData) else masked  # noqa: S308
    return items
