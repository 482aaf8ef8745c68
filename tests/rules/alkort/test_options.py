"""docs/rules/alkort.md "Options" and B12: every option the rules name, with its
default; and B2/B3's four-player deal of the unshuffled pack."""

from rules.alkort.tables import DECK
from tests.rules.alkort.helpers import GAME, cards

# The rules' options and defaults: target 10 (B9), the rotating lead (B7; V1 is
# "winner"), sevens unbeatable when led (B6; V2), the partner reveal on (B5; V3
# turns it off), seat 0 deals first (B9), and the deal stops once its score is
# fixed (B9's cosmetic play_out_all_tricks is off).
ALL_OPTIONS = {
    "target": 10,
    "lead_rule": "rotate",
    "seven_rule": "led",
    "partner_reveal": True,
    "first_dealer": 0,
    "play_out_all_tricks": False,
}


def test_schema_lists_every_option_of_the_rules_with_its_default():
    schema = GAME.options_schema()
    assert {name: o["default"] for name, o in schema.items()} == ALL_OPTIONS
    assert schema["lead_rule"]["choices"] == ["rotate", "winner"]
    assert schema["seven_rule"]["choices"] == ["led", "player_has_trick"]
    assert schema["partner_reveal"]["type"] == "bool"
    assert schema["play_out_all_tricks"]["type"] == "bool"


def test_match_started_records_every_option():
    for players in (2, 4):
        events = GAME.start(players, seed=1)
        assert events[0].payload["options"] == ALL_OPTIONS
        assert GAME.view(GAME.replay(events), None)["options"] == ALL_OPTIONS


def test_standard_deck_is_the_rules_unshuffled_order():
    """B2: suit by suit (C, D, H, S), each from 2 up to the ace, no fives or tens."""
    deck = GAME.standard_deck(GAME.validate_options({}))
    assert deck[:11] == cards("2C 3C 4C 6C 7C 8C 9C JC QC KC AC")
    assert deck == list(DECK) and len(deck) == 44
    assert [c[1] for c in deck] == [s for s in "CDHS" for _ in range(11)]


def test_four_players_deal_three_rounds_of_three_from_forehand_then_the_stock():
    """B3 with the unshuffled pack: dealer 0, forehand 1; deck[36..43] is the stock
    and no card is left over."""
    deck = list(DECK)
    dealt = GAME.start(4, seed=4, deck=deck)[1].payload
    assert (dealt["dealer"], dealt["forehand"]) == (0, 1)
    for k, seat in enumerate((1, 2, 3, 0)):
        packets = [deck[12 * r + 3 * k : 12 * r + 3 * k + 3] for r in range(3)]
        assert dealt["hands"][seat] == [c for p in packets for c in p], seat
    assert dealt["stock"] == deck[36:44]
    assert dealt["dead"] == []
    state = GAME.replay(GAME.start(4, seed=4, deck=deck))
    assert GAME.to_act(state) == (1,) and state.phase == "exchange"
