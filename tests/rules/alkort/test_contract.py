"""Alkort passes the shared random-playout contract for every player count and option."""

import pytest

from tests.rules.contract import check_playouts

EXCHANGED = "alkort.stock_exchanged"
REVEALED = "alkort.partners_revealed"


@pytest.mark.parametrize("players", [2, 4])
def test_default_rules(players):
    """Full matches to 10 points with the default options."""
    seen = check_playouts("alkort", players, {}, matches=3, seed=1)
    assert seen["alkort.match_ended"] == 3
    assert (seen[REVEALED] > 0) == (players == 4)


@pytest.mark.parametrize(
    ("players", "seed", "types"),
    [(2, 9, (EXCHANGED,)), (4, 86, (EXCHANGED, REVEALED))],
)
def test_stock_exchange_happens(players, seed, types):
    """Seeds whose first deal holds an eligible hand: the exchange path is played."""
    check_playouts(
        "alkort", players, {"target": 3}, matches=1, seed=seed, require_types=types
    )


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize(
    "options",
    [
        {"lead_rule": "winner"},
        {"seven_rule": "player_has_trick"},
        {"play_out_all_tricks": True, "first_dealer": 1},
        {"lead_rule": "winner", "seven_rule": "player_has_trick"},
    ],
    ids=["winner_leads", "v2_sevens", "play_out", "v1_and_v2"],
)
def test_variants(players, options):
    check_playouts("alkort", players, {"target": 5, **options}, matches=2, seed=2)


def test_no_partner_reveal():
    """Variant V3: no reveal event at all."""
    seen = check_playouts(
        "alkort", 4, {"partner_reveal": False, "target": 5}, matches=2
    )
    assert seen[REVEALED] == 0
