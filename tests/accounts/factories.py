"""factory_boy factories for accounts."""

from typing import Any

import factory
from rest_framework.authtoken.models import Token

from accounts.models import User

PASSWORD = "correct-horse-battery-7"


class UserFactory(factory.django.DjangoModelFactory):
    """A person with the password ``PASSWORD``."""

    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    password = factory.django.Password(PASSWORD)


class BotFactory(UserFactory):
    """A bot account (unusable password), as ``bot_accounts_ensure`` makes."""

    username = factory.Sequence(lambda n: f"bot-test-{n}")
    is_bot = True
    bot_level = "basic"
    password = factory.LazyFunction(lambda: "!unusable")


def token_for(user: Any) -> str:
    """The user's API token key (created on first use)."""
    token, _ = Token.objects.get_or_create(user=user)
    return str(token.key)


def legacy_twin(of: User, username: str) -> User:
    """A person whose name differs from ``of``'s only in case, as migration 0002
    left such pairs: the later one's folded name marked with its id."""
    twin = UserFactory()
    User.objects.filter(pk=twin.pk).update(
        username=username, username_folded=f"{of.username_folded}#{twin.pk}"
    )
    twin.refresh_from_db()
    return twin


def user_change_form_data(client: Any, user: User) -> dict[str, Any]:
    """What a person's admin page posts back unchanged, as ``client`` sees
    it (read-only fields left out, dates in the split widget's fields)."""
    page = client.get(f"/admin/accounts/user/{user.pk}/change/")
    form = page.context["adminform"].form
    data = {
        name: value
        for name, value in form.initial.items()
        if name in form.fields and value is not None and name != "password"
    }
    if "date_joined" in form.fields:
        data.pop("date_joined", None)
        data["date_joined_0"] = user.date_joined.strftime("%Y-%m-%d")
        data["date_joined_1"] = user.date_joined.strftime("%H:%M:%S")
    data.pop("last_login", None)
    return data
