"""``accounts.selectors.user_find``: a player by name, whatever the case."""

import pytest

from accounts.selectors import user_find
from tests.accounts.factories import UserFactory, legacy_twin

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("asked", ["Ada", "ada", "ADA", "aDa"])
def test_any_case_finds_the_one_account(asked: str) -> None:
    ada = UserFactory(username="Ada")

    assert user_find(username=asked) == ada


def test_case_folding_goes_beyond_ascii() -> None:
    emile = UserFactory(username="Émile")
    strasse = UserFactory(username="straße")

    assert user_find(username="éMILE") == emile
    assert user_find(username="STRASSE") == strasse


def test_legacy_twins_each_found_by_their_exact_spelling() -> None:
    older = UserFactory(username="Ada")
    newer = legacy_twin(older, "ada")

    assert user_find(username="Ada") == older
    assert user_find(username="ada") == newer
    assert user_find(username="ADA") == older  # the unmarked folded name


@pytest.mark.parametrize("asked", ["nobody", "Ad", "a\x00da", ""])
def test_nobody_is_none(asked: str) -> None:
    UserFactory(username="Ada")

    assert user_find(username=asked) is None
