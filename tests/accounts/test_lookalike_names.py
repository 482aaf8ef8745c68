"""Names that only look like another: letters of two scripts in one name
("bоt-strong" with a Cyrillic о, "аdmin" with a Cyrillic а) are refused, so
nobody passes for a house bot or the staff; one script, or Latin with the
scripts Japanese, Chinese and Korean write alongside it, is fine."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import MIXED_SCRIPTS_MESSAGE, User, username_mixes_scripts
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "correct horse battery"

LOOKALIKES = [
    "b\u043et-strong",  # Cyrillic о: looks like the house bot
    "\u0430dmin",  # Cyrillic а
    "p\u0430ypal",
    "\u0392ob",  # Greek capital beta
    "ad\u0456min",  # Cyrillic і
]
FINE = [
    "ada",
    "Émile",
    "straße",
    "ゆうき",
    "山田taro",
    "Ελένη",
    "Иван_1",
    "김민준",
    "user.name+1@x",
]


@pytest.mark.parametrize("name", LOOKALIKES)
def test_sign_up_refuses_a_name_mixing_scripts(
    api_client: APIClient, name: str
) -> None:
    response = api_client.post(
        "/api/accounts/register/",
        {"username": name, "password": GOOD_PASSWORD},
        format="json",
    )

    assert response.status_code == 400
    assert response.json()["message"] == f"username: {MIXED_SCRIPTS_MESSAGE}"
    assert not User.objects.exists()


@pytest.mark.parametrize("name", FINE)
def test_sign_up_takes_a_name_in_one_script(api_client: APIClient, name: str) -> None:
    response = api_client.post(
        "/api/accounts/register/",
        {"username": name, "password": GOOD_PASSWORD},
        format="json",
    )

    assert response.status_code == 201, response.json()
    assert not username_mixes_scripts(name)


def test_the_admin_refuses_renaming_to_a_lookalike(admin_client: Any) -> None:
    from tests.accounts.test_bot_names import _change_data

    bob = UserFactory(username="bob")

    response = admin_client.post(
        f"/admin/accounts/user/{bob.pk}/change/",
        _change_data(admin_client, bob, username="b\u043eb"),
    )

    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert errors["username"] == [MIXED_SCRIPTS_MESSAGE]
    bob.refresh_from_db()
    assert bob.username == "bob"


def test_a_person_who_already_holds_such_a_name_keeps_it(admin_client: Any) -> None:
    from tests.accounts.test_bot_names import _change_data

    old = UserFactory(username="\u0430dmin")

    response = admin_client.post(
        f"/admin/accounts/user/{old.pk}/change/",
        _change_data(admin_client, old, email="a@example.com"),
    )

    assert response.status_code == 302
