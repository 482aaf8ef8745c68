"""``manage.py ensure_demo_accounts``, as ``make run`` calls it."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import override_settings

from accounts.models import User

pytestmark = pytest.mark.django_db


@override_settings(DEBUG=True)
def test_creates_bots_and_admin_and_prints_the_credentials() -> None:
    out = StringIO()

    call_command("ensure_demo_accounts", stdout=out)

    assert out.getvalue().splitlines() == [
        "Bot account bot-random (random): created",
        "Bot account bot-basic (basic): created",
        "Bot account bot-strong (strong): created",
        "Demo admin: username 'admin', password 'cardroom-admin' (created)",
    ]
    assert User.objects.filter(is_bot=True).count() == 3
    assert User.objects.get(username="admin").is_superuser


@override_settings(DEBUG=True)
def test_second_run_changes_nothing() -> None:
    call_command("ensure_demo_accounts", stdout=StringIO())
    out = StringIO()

    call_command("ensure_demo_accounts", stdout=out)

    assert out.getvalue().splitlines()[-1] == (
        "Demo admin: username 'admin', password 'cardroom-admin' "
        "(already existed; its password was left unchanged)"
    )
    assert User.objects.count() == 4


@override_settings(DEBUG=False)
def test_refuses_the_demo_admin_without_debug() -> None:
    with pytest.raises(CommandError, match="Refusing to create the demo admin"):
        call_command("ensure_demo_accounts", stdout=StringIO())

    assert not User.objects.exists()


@override_settings(DEBUG=False)
def test_bots_only_is_safe_without_debug() -> None:
    call_command("ensure_demo_accounts", "--bots-only", stdout=StringIO())

    assert sorted(User.objects.values_list("username", flat=True)) == [
        "bot-basic",
        "bot-random",
        "bot-strong",
    ]
