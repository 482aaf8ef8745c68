"""The admin for accounts: people and bots, and API tokens.

A token key is as good as the account's password, so the token list is for
superusers only and shows the first characters of each key, never the whole
key (docs/security.md). Tokens are not created, edited or deleted here: a
person gets theirs from the API, and ``manage.py drf_create_token -r <username>``
replaces a leaked one.

Rights are for superusers to give: staff who may change people (without
being superusers) see who is staff, a superuser, in which groups and with
which permissions, but cannot change it, cannot change or delete another
staff or superuser account, and cannot change groups. Otherwise the change
permission on people or groups would let them make themselves superusers.
Turning a person into a bot, or a bot into a person (``is_bot``,
``bot_level``), is for superusers as well: the server plays a bot's seats and
refuses its log-ins, so it would take a player's seats and account away.

Logins are for superusers to give too: only a superuser sets (or removes)
another person's password (``accounts.services.password_set``, which also
ends the person's sessions, API token and live sockets, as the API's password
change does). Other staff change only their own; another person's page shows
them the password's summary without the button
to the password page, and that page refuses them (403). Otherwise the change
permission on people would let an organiser set a player's password, log in
as them and play their seats. Nothing else here gives a login for another
account: the add form makes a new account (never an existing one, in any
case of its name), the only action on people is deleting them, the token list
is for superusers, and the accounts API acts on the caller's own account.

One's own password, superusers' included, is changed with the current one:
one's own page leads to the admin's "Change password" page
(``accounts.admin_site``), and the password page, which asks for no current
password, sends one there for one's own account.
"""

import contextlib
from typing import Any

from django.contrib import admin
from django.contrib.admin.exceptions import NotRegistered
from django.contrib.admin.utils import unquote
from django.contrib.auth.admin import GroupAdmin as DjangoGroupAdmin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.forms import (
    AdminPasswordChangeForm,
    ReadOnlyPasswordHashField,
    ReadOnlyPasswordHashWidget,
    UserChangeForm,
)
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.views.decorators.debug import sensitive_post_parameters
from rest_framework.authtoken.admin import TokenAdmin as DrfTokenAdmin
from rest_framework.authtoken.models import TokenProxy

from accounts.models import User
from accounts.services import password_set
from config.admin import GuardedModelAdmin

TOKEN_PREFIX_LENGTH = 6
#: What only a superuser may change on a person's page.
RIGHTS_FIELDS = ("is_staff", "is_superuser", "groups", "user_permissions")
#: Whether the server plays the account, and how: a person made a bot has
#: their seats played by the server and their log-ins refused, and a house
#: bot made a person is no longer found by the tables. Superusers only too.
BOT_FIELDS = ("is_bot", "bot_level")


def _is_superuser(request: HttpRequest) -> bool:
    return bool(request.user.is_active and request.user.is_superuser)


OTHERS_PASSWORD_HELP = "Only a superuser may set another person's password."


class PasswordSummaryWidget(ReadOnlyPasswordHashWidget):
    """The password's summary, without the button to the password page."""

    template_name = "accounts/widgets/password_summary.html"


OWN_PASSWORD_HELP = (
    "Change your password on the admin's \u201cChange password\u201d page, "
    "which asks for your current one."
)


class OwnPasswordSummaryWidget(ReadOnlyPasswordHashWidget):
    """The password's summary, with a button to the admin's "Change
    password" page (the current password first), not to the person page's
    password page."""

    def get_context(self, name: str, value: Any, attrs: Any) -> dict[str, Any]:
        context = super().get_context(name, value, attrs)
        context["password_url"] = reverse("admin:password_change")
        context["button_label"] = "Change password"
        return context


class _PasswordRowForm(UserChangeForm):
    """A person's page whose password row says ``password_help`` under it."""

    password_help = ""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "password" in self.fields:  # Django's words lead to the password page
            self.fields["password"].help_text = self.password_help


class OwnUserChangeForm(_PasswordRowForm):
    """One's own page."""

    password_help = OWN_PASSWORD_HELP
    password = ReadOnlyPasswordHashField(
        label="Password", widget=OwnPasswordSummaryWidget
    )


class OthersUserChangeForm(_PasswordRowForm):
    """Another person's page for staff who are not superusers."""

    password_help = OTHERS_PASSWORD_HELP
    password = ReadOnlyPasswordHashField(label="Password", widget=PasswordSummaryWidget)


class PasswordSetForm(AdminPasswordChangeForm):
    """The person's password page: the password is set (or removed) the way
    the API's password change sets it, ending the person's sessions, API
    token and live sockets (``accounts.services.password_set``)."""

    def save(self, commit: bool = True) -> Any:
        if not commit:
            return super().save(commit=False)
        usable = self.cleaned_data["set_usable_password"]
        new_password = self.cleaned_data["password1"] if usable else None
        self.user = password_set(user=self.user, new_password=new_password)
        return self.user


@admin.register(User)
class UserAdmin(GuardedModelAdmin, DjangoUserAdmin):
    """Django's user admin plus the bot fields."""

    list_display = ("username", "email", "is_staff", "is_bot", "bot_level")
    change_password_form = PasswordSetForm
    list_filter = ("is_staff", "is_superuser", "is_active", "is_bot", "bot_level")
    fieldsets = (
        *(DjangoUserAdmin.fieldsets or ()),
        ("Bot", {"fields": ("is_bot", "bot_level")}),
    )

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = tuple(super().get_readonly_fields(request, obj))
        if _is_superuser(request):
            return fields
        guarded = RIGHTS_FIELDS + BOT_FIELDS
        return fields + tuple(f for f in guarded if f not in fields)

    def _may_manage(self, request: HttpRequest, obj: Any) -> bool:
        """A superuser manages anyone; other staff, people without rights and
        their own account (whose rights are read only)."""
        if obj is None or _is_superuser(request) or obj.pk == request.user.pk:
            return True
        return not (obj.is_staff or obj.is_superuser)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        allowed = super().has_change_permission(request, obj)
        return allowed and self._may_manage(request, obj)

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        if obj is not None and obj.pk == request.user.pk:
            kwargs.setdefault("form", OwnUserChangeForm)
        elif obj is not None and not _is_superuser(request):
            kwargs.setdefault("form", OthersUserChangeForm)
        return super().get_form(request, obj, change=change, **kwargs)

    @method_decorator(sensitive_post_parameters())
    def user_change_password(
        self, request: HttpRequest, id: str, form_url: str = ""
    ) -> HttpResponse:
        """Django's password page, for a superuser setting another person's
        password: a password set by someone else is a login to that account.

        It asks for no current password, so one's own is changed on the
        admin's "Change password" page instead (whatever was posted here is
        not applied): a session left open is no way to take the account."""
        user = self.get_object(request, unquote(id))
        if user is not None and user.pk == request.user.pk:
            return HttpResponseRedirect(
                reverse("admin:password_change", current_app=self.admin_site.name)
            )
        if user is not None and not _is_superuser(request):
            raise PermissionDenied
        return super().user_change_password(request, id, form_url)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        allowed = super().has_delete_permission(request, obj)
        return allowed and self._may_manage(request, obj)

    def save_model(
        self, request: HttpRequest, obj: User, form: Any, change: bool
    ) -> None:
        """Write only the fields the organiser changed.

        ``save()`` writes the whole row as the page read it: a password
        changed (or a login recorded) between that read and the save was
        written back to what it was, so the old password worked again.
        """
        if not change:
            super().save_model(request, obj, form, change)
            return
        columns = {f.name for f in obj._meta.concrete_fields if not f.primary_key}
        changed = [name for name in form.changed_data if name in columns]
        if changed:
            obj.save(update_fields=changed)


def token_prefix(key: str) -> str:
    """The first characters of a token key, enough to tell two tokens apart."""
    return f"{key[:TOKEN_PREFIX_LENGTH]}…"


# DRF registers its own token admin (full keys, any staff) before ours loads.
with contextlib.suppress(NotRegistered):
    admin.site.unregister(TokenProxy)


@admin.register(TokenProxy)
class TokenAdmin(GuardedModelAdmin, DrfTokenAdmin):
    """Superusers see whose tokens exist and when they were made, not the keys."""

    list_display = ("key_prefix", "user", "created")
    # A list only: the change page would print the key in its title.
    list_display_links = None

    @admin.display(description="key")
    def key_prefix(self, obj: TokenProxy) -> str:
        return token_prefix(obj.key)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_active and request.user.is_superuser)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None:
            return False
        return bool(request.user.is_active and request.user.is_superuser)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


with contextlib.suppress(NotRegistered):
    admin.site.unregister(Group)


@admin.register(Group)
class GroupAdmin(DjangoGroupAdmin):
    """Django's group admin; only superusers add, change or delete a group
    (a group's permissions are rights: staff in a group could raise their own)."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return _is_superuser(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _is_superuser(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _is_superuser(request)
