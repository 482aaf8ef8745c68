"""A name in any case names one account on every path, not only the site's.

The site looks names up case-folded (``accounts.selectors.user_find``); so do
Django's and DRF's own commands and the admin's forms, through
``User.objects.get_by_natural_key`` and ``User.clean``. On PostgreSQL.
"""

import importlib
from io import StringIO
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.management.commands import changepassword
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import override_settings
from rest_framework.authtoken.models import Token

from accounts.models import User
from accounts.services import bot_accounts_ensure
from tests.accounts.factories import UserFactory, legacy_twin, token_for
from tests.accounts.prompts import createsuperuser_at_the_prompt

pytestmark = pytest.mark.django_db

TAKEN = "Error: That username is already taken."


@pytest.mark.parametrize("asked", ["alice", "ALICE", "Alice", "aLiCe"])
def test_the_manager_finds_the_account_in_any_case(asked: str) -> None:
    alice = UserFactory(username="Alice")

    assert User.objects.get_by_natural_key(asked) == alice


@pytest.mark.parametrize("asked", ["bob", "Alic", "al\x00ice", ""])
def test_the_manager_says_nobody_has_a_name_nobody_has(asked: str) -> None:
    UserFactory(username="Alice")

    with pytest.raises(User.DoesNotExist):
        User.objects.get_by_natural_key(asked)


@pytest.mark.parametrize("asked", ["alice", "ALICE", "Alice", "ÀLICE"])
def test_createsuperuser_refuses_a_name_taken_in_another_case(asked: str) -> None:
    UserFactory(username="alice" if asked != "ÀLICE" else "àlice")

    with pytest.raises(CommandError, match=TAKEN):
        call_command(
            "createsuperuser",
            interactive=False,
            username=asked,
            email="a@example.com",
            stdout=StringIO(),
            stderr=StringIO(),
        )

    assert User.objects.count() == 1
    assert not User.objects.filter(is_superuser=True).exists()


def test_createsuperuser_from_the_environment_is_refused_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    UserFactory(username="alice")
    monkeypatch.setenv("DJANGO_SUPERUSER_USERNAME", "Alice")
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", "correct-horse-battery-7")
    monkeypatch.setenv("DJANGO_SUPERUSER_EMAIL", "a@example.com")

    with pytest.raises(CommandError, match=TAKEN):
        call_command("createsuperuser", interactive=False, stdout=StringIO())

    assert User.objects.count() == 1


def test_createsuperuser_asking_at_the_prompt_asks_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Interactive: "Alice" beside "alice" is refused, and the next name taken."""
    UserFactory(username="alice")
    err = createsuperuser_at_the_prompt(
        monkeypatch, ["Alice", "carol", "c@example.com"]
    )

    assert TAKEN in err
    assert sorted(User.objects.values_list("username", flat=True)) == [
        "alice",
        "carol",
    ]
    assert User.objects.get(username="carol").is_superuser


@pytest.mark.parametrize("asked", ["alice", "ALICE", "Alice"])
def test_drf_create_token_finds_the_account_in_any_case(asked: str) -> None:
    alice = UserFactory(username="Alice")
    out = StringIO()

    call_command("drf_create_token", asked, stdout=out)

    token = Token.objects.get()
    assert token.user == alice
    assert token.key in out.getvalue()


def test_drf_create_token_reset_replaces_the_right_accounts_token() -> None:
    alice = UserFactory(username="Alice")
    bob = UserFactory(username="bob")
    old, bobs = token_for(alice), token_for(bob)

    call_command("drf_create_token", "-r", "ALICE", stdout=StringIO())

    assert Token.objects.get(user=alice).key != old
    assert Token.objects.get(user=bob).key == bobs


def test_drf_create_token_for_nobody_is_a_clear_error() -> None:
    with pytest.raises(CommandError, match="user nobody does not exist"):
        call_command("drf_create_token", "nobody", stdout=StringIO())


def test_legacy_twins_are_each_found_by_their_exact_spelling() -> None:
    """Two accounts left differing only in case (migration 0002 kept both)."""
    older = UserFactory(username="Ada")
    newer = legacy_twin(older, "ada")

    call_command("drf_create_token", "ada", stdout=StringIO())
    call_command("drf_create_token", "Ada", stdout=StringIO())
    call_command("drf_create_token", "ADA", stdout=StringIO())  # the older's again

    assert sorted(Token.objects.values_list("user_id", flat=True)) == sorted(
        [older.pk, newer.pk]
    )
    with pytest.raises(CommandError, match=TAKEN):
        call_command(
            "createsuperuser",
            interactive=False,
            username="aDA",
            email="a@example.com",
            stdout=StringIO(),
        )


def test_changepassword_is_ours_and_finds_the_account_in_any_case(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    alice = UserFactory(username="Alice")
    monkeypatch.setattr(
        changepassword.getpass, "getpass", lambda prompt="": "Xk9-q2v!zz7w"
    )
    out = StringIO()

    call_command("changepassword", "ALICE", stdout=out)

    assert "Changing password for user 'Alice'" in out.getvalue()
    alice.refresh_from_db()
    assert alice.check_password("Xk9-q2v!zz7w")


def test_changepassword_for_nobody_is_djangos_error() -> None:
    with pytest.raises(CommandError, match="user 'nobody' does not exist"):
        call_command("changepassword", "nobody", stdout=StringIO())


def test_the_admin_refuses_renaming_onto_a_name_in_another_case(
    admin_client: Any,
) -> None:
    UserFactory(username="alice")
    bob = UserFactory(username="bob")
    page = admin_client.get(f"/admin/accounts/user/{bob.pk}/change/")
    form = page.context["adminform"].form
    data = {
        name: value
        for name, value in form.initial.items()
        if value is not None and name not in {"password", "groups"}
    }
    data.update(
        username="ALICE",
        last_login_0="",
        last_login_1="",
        date_joined_0="2026-01-01",
        date_joined_1="00:00:00",
    )
    data.pop("last_login", None)
    data.pop("date_joined", None)

    response = admin_client.post(f"/admin/accounts/user/{bob.pk}/change/", data)

    assert response.status_code == 200  # the form again, with the error
    assert "A user with that username already exists." in response.content.decode()
    bob.refresh_from_db()
    assert bob.username == "bob"


@override_settings(DEBUG=True)
def test_the_demo_admin_is_found_in_another_case() -> None:
    UserFactory(username="Admin")

    out = StringIO()
    call_command("ensure_demo_accounts", stdout=out)

    # Its own password, not the published one: the command says so.
    assert "'Admin' already existed and keeps its own password" in out.getvalue()
    assert User.objects.filter(username_folded="admin").count() == 1


def test_a_person_holding_a_bots_name_in_another_case_is_never_made_a_bot() -> None:
    UserFactory(username="BOT-Basic")

    with pytest.raises(ValueError, match="'BOT-Basic' exists and is not a bot"):
        bot_accounts_ensure()


def test_migration_0002_keeps_both_twins_and_marks_the_later() -> None:
    """What 0002 does with accounts that already differ only in case."""
    fill_folded = importlib.import_module(
        "accounts.migrations.0002_username_folded"
    ).fill_folded
    older = UserFactory(username="Ada")
    newer = UserFactory(username="bea")
    # As the rows stood before 0002: two names that fold alike.
    User.objects.filter(pk=older.pk).update(username_folded="before-1")
    User.objects.filter(pk=newer.pk).update(username="ADA", username_folded="before-2")

    fill_folded(apps, None)

    assert dict(User.objects.values_list("username", "username_folded")) == {
        "Ada": "ada",
        "ADA": f"ada#{newer.pk}",
    }
    assert User.objects.get_by_natural_key("ADA") == newer
    assert User.objects.get_by_natural_key("ada") == older


def test_migration_0003_changes_no_table() -> None:
    out = StringIO()
    call_command("sqlmigrate", "accounts", "0003", stdout=out)

    sql = [
        line
        for line in out.getvalue().splitlines()
        if line.strip()
        and not line.startswith("--")
        and line.strip() not in {"BEGIN;", "COMMIT;"}
    ]
    assert connection.vendor == "postgresql"
    assert sql == []
