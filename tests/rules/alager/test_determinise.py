"""World sampling for Alager's searching bot: what a seat knows, and worlds that fit it."""

import random

from rules.alager.determinise import read_knowledge, sample_world
from tests.rules.alager.helpers import GAME, Match, stack


def test_strong_tracks_the_cards_others_took_from_the_table():
    hands = {0: ["2C", "3C", "9D"], 1: ["5H", "6S", "7D"], 2: ["8S", "9S", "TD"]}
    m = Match(3, {"first_dealer": 2}, [stack(3, 2, hands, table=["JC", "QC", "KC"])])
    m.act(0, {"type": "swap", "give": "9D", "take": "JC"})
    m.act(1, {"type": "swap", "give": "7D", "take": "QC"})
    m.act(2, {"type": "draw", "discard": "TD"})
    history = [GAME.redact(e, 0) for e in m.events]
    know = read_knowledge(GAME.view(m.state, 0), history, 0)
    assert know.known == {1: frozenset({"QC"}), 2: frozenset()}
    assert "QC" not in know.unseen and "TD" not in know.unseen
    assert len(know.unseen) == 2 + 3 + len(m.state.stock)


def test_a_sampled_world_keeps_everything_the_seat_has_seen():
    hands = {0: ["2C", "3C", "9D"], 1: ["5H", "6S", "7D"], 2: ["8S", "9S", "TD"]}
    m = Match(3, {"first_dealer": 2}, [stack(3, 2, hands, table=["JC", "QC", "KC"])])
    m.act(0, {"type": "swap", "give": "9D", "take": "JC"})
    m.act(1, {"type": "swap", "give": "7D", "take": "QC"})
    view = GAME.view(m.state, 0)
    know = read_knowledge(view, [GAME.redact(e, 0) for e in m.events], 0)
    world = sample_world(view, know, random.Random(5))
    assert world.hands[0] == m.state.hands[0]
    assert "QC" in world.hands[1]
    assert world.table == m.state.table and len(world.stock) == len(m.state.stock)
    assert sorted(GAME.inventory(world)) == sorted(GAME.inventory(m.state))
    assert GAME.view(world, 0) == view
