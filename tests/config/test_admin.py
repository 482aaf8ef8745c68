"""No admin page or query string reveals a secret of a match in play.

Every changelist registered with the admin is walked, as staff with every view
permission and as a superuser, with lookups that would answer a guess about a
secret (the seed, the cached state, an event's payload, a token key): each must
be refused, and the answer to a true guess must equal the answer to a false one.
Every page of every object is then read for the secrets themselves.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.db.models import Model
from django.test import Client
from django.urls import NoReverseMatch, reverse

from accounts.models import User
from accounts.services import token_get_or_create
from config.admin import SECRET_FIELDS, reaches_secret
from games.models import GameEvent, Table
from tests.accounts.factories import UserFactory
from tests.games.tables import SEED, table_started

pytestmark = pytest.mark.django_db

WRONG = "zq"  # no seed, card, key or state starts with or contains this


@pytest.fixture
def in_play() -> dict[str, Any]:
    """A two-player Alkort table just dealt, and a player's API token."""
    table = table_started(seating=[UserFactory(), UserFactory()])
    deal = GameEvent.objects.get(table=table, seq=2)
    key = token_get_or_create(user=table.seats.get(index=0).user)
    return {"table": table, "hands": deal.payload["hands"], "key": key}


def _staff_client() -> Client:
    staff = User.objects.create_user(username="viewer", password="x", is_staff=True)
    staff.user_permissions.set(Permission.objects.filter(codename__startswith="view_"))
    client = Client()
    client.force_login(staff)
    return client


def _superuser_client() -> Client:
    root = User.objects.create_superuser(username="root", password="x")
    client = Client()
    client.force_login(root)
    return client


@pytest.fixture(params=["staff", "superuser"])
def who(request: pytest.FixtureRequest) -> Client:
    return _staff_client() if request.param == "staff" else _superuser_client()


def _secret_paths(model: type[Model], depth: int = 3) -> Iterator[tuple[str, str]]:
    """Every lookup path from ``model`` to a secret field: (path, secret name)."""
    queue: list[tuple[Any, str, int]] = [(model, "", 0)]
    seen: set[tuple[Any, str]] = set()
    while queue:
        current, prefix, level = queue.pop(0)
        for field in current._meta.get_fields():
            name = field.name  # a reverse relation's name is its query name
            path = f"{prefix}{name}"
            opts = current._meta
            secret = f"{opts.app_label}.{opts.model_name}.{name}"
            if secret in SECRET_FIELDS:
                yield path, secret
            related = field.related_model if field.is_relation else None
            if (
                related is not None
                and level + 1 < depth
                and (related, path) not in seen
            ):
                seen.add((related, path))
                queue.append((related, f"{path}__", level + 1))


def _guesses(secret: str, facts: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(lookup suffix, true guess, false guess) for one kind of secret."""
    card = facts["hands"][1][0]
    key = facts["key"]
    text = {
        "games.table.seed": SEED,
        "games.table.state": card,
        "games.gameevent.payload": card,
        "authtoken.token.key": key,
        "authtoken.tokenproxy.key": key,
    }.get(secret, SEED)
    guesses = [
        ("", text, WRONG),
        ("__exact", text, WRONG),
        ("__startswith", text[:3], WRONG),
        ("__istartswith", text[:3], WRONG),
        ("__icontains", text[:3], WRONG),
        ("__contains", text[:3], WRONG),
        ("__regex", f"^{text[:3]}", f"^{WRONG}"),
        ("__iregex", text[:3], WRONG),
        ("__gt", text[:3], "~"),
        ("__in", text, WRONG),
    ]
    if secret.endswith((".state", ".payload")):
        guesses += [
            ("__hands__1__0", card, WRONG),
            ("__hands__1__0__startswith", card[:1], "Z"),
            ("__hands__1__contains", f'["{card}"]', f'["{WRONG}"]'),
            ("__has_key", "hands", WRONG),
            ("__seed__startswith", SEED[:3], WRONG),
            ("__match__seed", SEED, WRONG),
        ]
    return guesses


def _changelists() -> list[tuple[type[Model], str]]:
    found = []
    for model in admin.site._registry:
        opts = model._meta
        try:
            url = reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
        except NoReverseMatch:  # pragma: no cover - every admin has a list
            continue
        found.append((model, url))
    return found


def _answer(response: Any) -> tuple[Any, ...]:
    """What a response tells: its status, where it redirects, which rows."""
    context = getattr(response, "context_data", None) or {}
    changelist = context.get("cl")
    rows = (
        sorted(obj.pk for obj in changelist.result_list)
        if changelist is not None
        else None
    )
    return (response.status_code, response.get("Location"), rows)


def _refused(answer: tuple[Any, ...]) -> bool:
    status, location, _ = answer
    return status == 400 or (status == 302 and (location or "").endswith("?e=1"))


def test_every_changelist_can_reach_a_secret_somewhere() -> None:
    reached = {
        secret for model, _ in _changelists() for _, secret in _secret_paths(model)
    }

    # The walk below is only as good as the paths it finds.
    assert {"games.table.seed", "games.table.state", "games.gameevent.payload"} <= (
        reached
    )


# Walks every registered changelist: about 10 s on an idle machine, and it
# grows with each app's admin pages, so it gets more than the default limit.
@pytest.mark.timeout(180)
def test_no_lookup_on_a_secret_answers_a_guess(
    in_play: dict[str, Any], who: Client
) -> None:
    probed = 0
    leaks = []
    for model, url in _changelists():
        for path, secret in _secret_paths(model):
            for suffix, right, wrong in _guesses(secret, in_play):
                lookup = f"{path}{suffix}"
                true_answer = _answer(who.get(url, {lookup: right}))
                false_answer = _answer(who.get(url, {lookup: wrong}))
                probed += 1
                forbidden = true_answer[0] == 403  # no view permission at all
                if true_answer != false_answer or not (
                    forbidden or _refused(true_answer)
                ):
                    leaks.append((url, lookup, true_answer, false_answer))

    assert probed > 100
    assert leaks == []


def test_search_and_ordering_never_read_a_secret(
    in_play: dict[str, Any], who: Client
) -> None:
    for model, url in _changelists():
        model_admin = admin.site._registry[model]
        request = who.get(url).wsgi_request
        shown = [
            name
            for name in (
                *model_admin.get_search_fields(request),
                *model_admin.get_list_display(request),
                *model_admin.get_list_filter(request),
                *(model_admin.get_ordering(request) or ()),
            )
            if isinstance(name, str) and reaches_secret(model, name)
        ]
        assert shown == [], url
        for guess_right, guess_wrong in [
            (SEED[:4], WRONG),
            (in_play["hands"][1][0], WRONG),
            (in_play["key"][:6], WRONG),
        ]:
            assert _answer(who.get(url, {"q": guess_right})) == _answer(
                who.get(url, {"q": guess_wrong})
            ), (url, guess_right)
        columns = len(model_admin.get_list_display(request))
        for index in range(columns):
            for order in (str(index), f"-{index}"):
                assert who.get(url, {"o": order}).status_code in (200, 403)


def test_the_secret_paths_are_refused_with_a_400() -> None:
    client = _staff_client()

    response = client.get("/admin/games/table/", {"seed__startswith": "te"})

    assert response.status_code == 400
    assert response.json() == {"code": "bad_request", "message": "Bad request."}


def _pages(model: type[Model], obj: Model) -> list[str]:
    opts = model._meta
    name = f"admin:{opts.app_label}_{opts.model_name}"
    pk = obj.pk if model is not admin.site._registry.__class__ else obj.pk
    if opts.model_name == "tokenproxy":
        pk = obj.user_id  # type: ignore[attr-defined]
    return [
        reverse(f"{name}_change", args=[pk]),
        reverse(f"{name}_history", args=[pk]),
        reverse(f"{name}_delete", args=[pk]),
    ]


def test_no_page_shows_a_secret_of_a_table_in_play(
    in_play: dict[str, Any], who: Client
) -> None:
    hidden = [f"&#x27;{card}&#x27;" for hand in in_play["hands"] for card in hand]
    hidden += [f"&quot;{card}&quot;" for hand in in_play["hands"] for card in hand]
    secrets = [SEED, in_play["key"], *hidden]
    read = 0
    for model, url in _changelists():
        pages = [url]
        for obj in model._default_manager.all()[:20]:
            pages += _pages(model, obj)
        for page in pages:
            response = who.get(page)
            assert response.status_code in (200, 302, 403), (page, response.status_code)
            text = response.content.decode()
            read += 1
            found = [secret for secret in secrets if secret in text]
            assert found == [], page

    assert read > 20
    assert Table.objects.get(pk=in_play["table"].pk).seed == SEED
