"""Alager passes the shared random-playout contract for every player count and option."""

import pytest

from rules.alager.options import deck_for
from tests.rules.contract import check_playouts

REFRESHED = "alager.table_refreshed"


def card_flow(game, state):
    """§7.3's invariant at every step of play: each active player holds three
    cards and nobody else any, the table three, and stock plus discard pile
    ``S0 = D − 3n − 3`` cards (n: the active players), never fewer than three."""
    if state.phase not in ("normal", "final"):
        return
    deck = len(deck_for(state.rules.deck))
    for seat, hand in enumerate(state.hands):
        assert len(hand) == (3 if seat in state.order else 0), (seat, hand)
    assert len(state.table) == 3
    s0 = deck - 3 * len(state.order) - 3
    assert len(state.stock) + len(state.discard) == s0 >= 3
    if state.rules.a1_discard_to == "stock_bottom":
        assert not state.discard


REPLENISHED = "alager.stock_replenished"
SPECIAL = "alager.special_announced"


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_default_rules(players):
    seen = check_playouts(
        "alager", players, {}, matches=3, seed=1, step_check=card_flow
    )
    assert seen["alager.match_ended"] == 3


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (4, {"deck": 32}),
        (8, {"deck": 32, "penalty_limit": 2}),
        (
            5,
            {
                "hori_enabled": True,
                "konec_after_exchange": True,
                "dealer_rule": "loser_deals",
            },
        ),
        (3, {"end_mode": "elimination", "penalty_limit": 2, "konec_min_round": 3}),
        (
            4,
            {
                "a1_discard_to": "stock_bottom",
                "end_mode": "fixed_deals",
                "deal_pattern": "single",
            },
        ),
        (
            3,
            {
                "tie_rule": "none",
                "allow_negative_penalties": True,
                "knocker_lowest_penalty": 2,
            },
        ),
        (4, {"end_mode": "elimination", "penalty_limit": 1, "first_dealer": 3}),
    ],
    ids=[
        "deck32",
        "deck32_8p",
        "hori_flag_loser",
        "elimination",
        "stock_bottom_fixed",
        "ties",
        "elim_fast",
    ],
)
def test_variants(players, options):
    check_playouts("alager", players, options, matches=2, seed=2, step_check=card_flow)


def test_fifteen_players_replenish_the_stock():
    """With 15 players the stock holds 4 cards, so the discard pile is recycled often."""
    check_playouts(
        "alager",
        15,
        {"penalty_limit": 1},
        matches=1,
        seed=3,
        leak_every=41,
        step_check=card_flow,
        require_types=(REPLENISHED,),
    )


def test_replenish_shuffle_on_a_short_stock():
    check_playouts(
        "alager",
        8,
        {"deck": 32, "replenish_shuffle": True, "penalty_limit": 1},
        matches=1,
        seed=4,
        leak_every=29,
        step_check=card_flow,
        require_types=(REPLENISHED,),
    )


def test_long_deals_refresh_the_table_and_hit_the_turn_limit():
    """No knock before round 50: deals run to the turn limit, with all-pass refreshes."""
    seen = check_playouts(
        "alager",
        2,
        {"konec_min_round": 50, "max_turns_per_deal": 60, "penalty_limit": 2},
        matches=2,
        seed=5,
        require_types=(REFRESHED,),
    )
    assert seen["alager.konec_called"] == 0
