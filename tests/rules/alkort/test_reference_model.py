"""Random matches checked against a second, independent reading of the rules.

Written from the rules text (ALKORT.md B3-B9; the same rules as
docs/rules/alkort.md), not from ``rules/alkort``: the B8 algorithm transcribed
literally, the B9 score formula, the dealer rotation, the lead order of B7 and
its variant V1, the seven-lead restriction, and B4's exchange eligibility. At
every step the engine's legal actions must be the ones these rules allow, and
every trick winner and deal score it records must be the one they give.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.rules.alkort.helpers import GAME

RANKED = {"KD": 10, "2H": 9, "4C": 8, "8S": 7, "9H": 6, "9D": 5}
RANKED |= {r + s: v for r, v in (("A", 4), ("J", 3), ("6", 2)) for s in "CDHS"}
RANKED |= {"8" + s: 1 for s in "CDH"}
HIGH = {c for c, v in RANKED.items() if v >= 2}


def power(card: str, led: bool, has_won: bool, seven_rule: str) -> tuple[Any, ...]:
    """B8 ``power`` (V2 under ``seven_rule = "player_has_trick"``)."""
    if card[0] == "7":
        supreme = has_won and (led or seven_rule == "player_has_trick")
        return ("SUPREME",) if supreme else ("DEAD",)
    if card in RANKED:
        return ("RANKED", RANKED[card])
    return ("RUBBISH",)


def beats(c: str, cp: tuple[Any, ...], w: str, wp: tuple[Any, ...]) -> bool:
    """B8 ``beats``, line by line."""
    if wp[0] == "SUPREME":
        return False
    if cp[0] == "SUPREME":
        return True
    if cp[0] == "DEAD":
        return False
    if cp[0] == "RANKED":
        return wp[0] != "RANKED" or cp[1] > wp[1]
    if wp[0] == "RANKED":
        return False
    if wp[0] == "DEAD":
        return True
    if c[0] == "2" and w[0] in "KQ":
        return True
    return c[0] == "3" and w[0] == "Q"


def play(seed: int, players: int, options: dict[str, Any]) -> int:
    """One random match; returns the number of deals checked."""
    rng = random.Random(seed)
    o = GAME.validate_options(options)
    events = GAME.start(players=players, options=options, seed=seed)
    state = GAME.replay(events)
    won = [0] * players
    sides: list[int] = []
    scores = [0, 0]
    dealer, forehand, leader, deals = -1, -1, -1, 0

    def follow(events: list[Any]) -> None:
        nonlocal dealer, forehand, leader, won, sides, deals
        for e in events:
            p = e.payload
            if e.type == "alkort.cards_dealt":  # B3, B9 rotation
                expected = o["first_dealer"] if dealer < 0 else (dealer + 1) % players
                assert p["dealer"] == expected
                dealer, deals = p["dealer"], deals + 1
                forehand = leader = (dealer + 1) % players
                won, sides = [0] * players, []
                deck = p["deck"]
                for k in range(3):
                    for j in range(players):
                        got = deck[3 * (k * players + j) :][:3]
                        assert set(got) <= set(p["hands"][(forehand + j) % players])
                assert p["stock"] == deck[9 * players : 9 * players + 8]
            elif e.type == "alkort.trick_won":  # B7 lead, B8 winner
                cards = p["cards"]
                assert p["leader"] == leader
                seats = [(leader + i) % players for i in range(players)]
                best = 0
                best_power = power(cards[0], True, won[seats[0]] > 0, o["seven_rule"])
                for i in range(1, players):
                    cp = power(cards[i], False, won[seats[i]] > 0, o["seven_rule"])
                    if beats(cards[i], cp, cards[best], best_power):
                        best, best_power = i, cp
                assert p["seat"] == seats[best], cards
                won[seats[best]] += 1
                sides.append(seats[best] % 2)
                if o["lead_rule"] == "winner":
                    leader = seats[best]
                else:
                    leader = (forehand + len(sides)) % players
            elif e.type == "alkort.deal_scored":  # B9
                a, b = sides.count(0), sides.count(1)
                assert max(a, b) >= 5
                if not o["play_out_all_tricks"]:
                    assert len(sides) == 9 or min(a, b) >= 1
                winner = 0 if a >= 5 else 1
                run = next((i for i, s in enumerate(sides) if s != sides[0]), 9)
                run = min(run, len(sides))
                points = run if winner == sides[0] and run >= 5 else 1
                assert (p["side"], p["points"]) == (winner, points), sides
                scores[winner] += points
                assert p["scores"] == scores

    follow(events)
    while state.phase != "over":
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_actions(state, seat)
        hand = state.hands[seat]
        if state.phase == "exchange":  # B4: a pass always, an exchange if eligible
            keeps = sorted(hand) if HIGH.isdisjoint(hand) else []
            assert legal[0] == {"type": "pass"}
            assert sorted(a["keep"] for a in legal[1:]) == keeps
        else:  # B7: any card, but no 7 led before its player has won a trick
            allowed = list(hand)
            barred = not state.trick and o["seven_rule"] == "led" and not won[seat]
            if barred and any(c[0] != "7" for c in hand):
                allowed = [c for c in hand if c[0] != "7"]
            assert sorted(a["card"] for a in legal) == sorted(allowed)
        new = GAME.decide(state, seat, rng.choice(legal))
        for e in new:
            state = GAME.evolve(state, e)
        follow(new)
    assert max(scores) >= o["target"] > min(scores)
    return deals


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"lead_rule": "winner"},
        {"seven_rule": "player_has_trick"},
        {"play_out_all_tricks": True, "first_dealer": 1},
    ],
)
def test_random_matches_follow_the_rules_text(players, options):
    assert sum(play(seed, players, options) for seed in range(8)) >= 8
