"""GET /api/games/: the catalogue, with the static data clients need once."""

import pytest
from rest_framework.test import APIClient

from rules.alager import MARIASH_NAMES

pytestmark = pytest.mark.django_db


def test_catalogue_lists_player_counts_bot_levels_and_card_names(
    api_client: APIClient,
) -> None:
    body = {game["name"]: game for game in api_client.get("/api/games/").json()}

    assert body["alkort"]["player_counts"] == [2, 4]
    assert body["allegra"]["player_counts"] == [2, 3, 4, 5, 6]
    assert body["alager"]["player_counts"] == list(range(2, 16))
    assert body["alager"]["card_names"] == MARIASH_NAMES
    assert body["alager"]["card_names"]["QS"] == "zelený svršek"
    assert body["alkort"]["card_names"] == {}
    for game in body.values():
        assert game["bot_levels"] == ["random", "basic", "strong"]
        for spec in game["options"].values():
            assert spec["description"]


def test_catalogue_lists_the_player_counts_an_option_changes(
    api_client: APIClient,
) -> None:
    """Alager's 32-card deck seats at most 8: the catalogue says so, so the
    create form offers no count the table would refuse. Options that change
    no count are not listed."""
    body = {game["name"]: game for game in api_client.get("/api/games/").json()}

    assert body["alager"]["player_counts_by_option"] == {
        "deck": {"52": list(range(2, 16)), "32": list(range(2, 9))}
    }
    assert body["alkort"]["player_counts_by_option"] == {}
    assert body["allegra"]["player_counts_by_option"] == {}
