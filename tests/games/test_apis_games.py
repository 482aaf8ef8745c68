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
