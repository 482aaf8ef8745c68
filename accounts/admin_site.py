"""The admin site: Django's, with its "Change password" page changing the
password the way the API does.

Django's page asks for the current password, then only sets the new one. Here
it also counts a wrong current password as a wrong log-in
(``accounts.login_limit``: a session left open is no way to find the password
out), and the new one is set by ``accounts.services.password_set``, which ends
the other browser sessions, revokes the API token and closes the person's live
sockets, as ``POST /api/accounts/password/`` does (docs/security.md). The
session changing it stays logged in.

``config.apps.AdminConfig`` makes this the default site (``admin.site``).
"""

from typing import Any

from django.contrib import admin
from django.contrib.admin.forms import AdminPasswordChangeForm
from django.contrib.auth.views import PasswordChangeView
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.urls import reverse

from accounts.login_limit import login_failed, login_wait
from accounts.services import password_set

TOO_MANY_GUESSES_MESSAGE = (
    "Too many wrong passwords: wait a quarter of an hour before trying again."
)


class OwnPasswordChangeForm(AdminPasswordChangeForm):
    """The current password (counted like a log-in), then the new one."""

    def __init__(self, user: Any, *args: Any, request: Any = None, **kwargs: Any):
        self.request = request
        super().__init__(user, *args, **kwargs)

    def clean_old_password(self) -> str:
        name = self.user.get_username()
        if login_wait(username=name, request=self.request) is not None:
            raise ValidationError(TOO_MANY_GUESSES_MESSAGE, code="throttled")
        try:
            return super().clean_old_password()
        except ValidationError:
            login_failed(username=name, request=self.request)
            raise

    def save(self, commit: bool = True) -> Any:
        if not commit:
            return super().save(commit=False)
        new_password = self.cleaned_data["new_password1"]
        self.user = password_set(user=self.user, new_password=new_password)
        return self.user


class OwnPasswordChangeView(PasswordChangeView):
    form_class = OwnPasswordChangeForm

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "request": self.request}


class AdminSite(admin.AdminSite):
    def password_change(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> Any:  # the page, or the redirect once changed
        """Django's page (same template, same "done" page), with the form above."""
        defaults: dict[str, Any] = {
            "success_url": reverse("admin:password_change_done", current_app=self.name),
            "extra_context": {**self.each_context(request), **(extra_context or {})},
        }
        if self.password_change_template is not None:
            defaults["template_name"] = self.password_change_template
        request.current_app = self.name
        return OwnPasswordChangeView.as_view(**defaults)(request)
