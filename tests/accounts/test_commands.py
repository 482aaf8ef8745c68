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


@override_settings(DEBUG=False)
def test_without_debug_a_demo_admin_left_from_a_debug_run_loses_its_password() -> None:
    # A database first served by `make run` (DEBUG on) kept the demo admin;
    # served to a network with DEBUG off, anyone could log in as a superuser.
    with override_settings(DEBUG=True):
        call_command("ensure_demo_accounts", stdout=StringIO())
    out = StringIO()

    call_command("ensure_demo_accounts", "--bots-only", stdout=out)

    assert out.getvalue().splitlines()[-1] == (
        "Demo admin 'admin' still had its published password: it no longer "
        "logs in, since DEBUG is off. Give it one of your own with: "
        "manage.py changepassword admin"
    )
    admin = User.objects.get(username="admin")
    assert admin.is_superuser and not admin.has_usable_password()


@override_settings(DEBUG=False)
def test_without_debug_an_admin_with_its_own_password_is_left_alone() -> None:
    with override_settings(DEBUG=True):
        call_command("ensure_demo_accounts", stdout=StringIO())
    admin = User.objects.get(username="admin")
    admin.set_password("a-password-of-its-own")
    admin.save()
    out = StringIO()

    call_command("ensure_demo_accounts", "--bots-only", stdout=out)

    assert "published" not in out.getvalue()
    assert User.objects.get(username="admin").check_password("a-password-of-its-own")


@override_settings(DEBUG=True)
def test_with_debug_the_demo_admin_keeps_its_password() -> None:
    call_command("ensure_demo_accounts", stdout=StringIO())

    call_command("ensure_demo_accounts", "--bots-only", stdout=StringIO())

    assert User.objects.get(username="admin").check_password("cardroom-admin")


@override_settings(DEBUG=True)
@pytest.mark.parametrize("name", ["admin", "Admin"])
def test_an_existing_admin_with_its_own_password_is_not_shown_the_demo_one(
    name: str,
) -> None:
    User.objects.create_superuser(username=name, password="a-password-of-its-own")
    out = StringIO()

    call_command("ensure_demo_accounts", stdout=out)

    last = out.getvalue().splitlines()[-1]
    assert last == (
        f"Demo admin: username {name!r} already existed and keeps its own "
        "password (not 'cardroom-admin'); change it with: manage.py "
        f"changepassword {name}"
    )
    assert User.objects.get(username=name).check_password("a-password-of-its-own")
