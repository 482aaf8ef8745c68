"""docs/rules/alkort.md C3: the eight scoring sequences, the game-end example, and B9's
early stop, played through the engine on forced deals."""

import pytest

from tests.rules.alkort.helpers import (
    GAME,
    of_type,
    pass_all,
    play_cards,
    script_deal,
)

# (example, trick winners by side, tricks played, side, points, kind, players)
C3 = [
    (1, "AAAAAB", 6, 0, 5, "muk", 4),
    (2, "AAAAAAAB", 8, 0, 7, "stroke", 4),
    (3, "AAAAAAAAA", 9, 0, 9, "stroke", 4),
    (4, "BAAAAA", 6, 0, 1, "simple", 4),
    (5, "AABABABA", 8, 0, 1, "simple", 4),
    (6, "AAAABBBBB", 9, 1, 1, "simple", 4),
    (7, "AAAAABAAA", 6, 0, 5, "muk", 4),
    (8, "AAAAAAB", 7, 0, 6, "stroke", 2),
]


def winners(sides: str, players: int) -> list[int]:
    """Seats winning each trick: A's tricks alternate seats 0 and 2, B's 1 and 3."""
    seats = {"A": [0, 2] if players == 4 else [0], "B": [1, 3] if players == 4 else [1]}
    return [seats[s][i % len(seats[s])] for i, s in enumerate(sides)]


def play_deal(state, orders):
    state, events = pass_all(state)
    for order in orders:
        if of_type(events, "deal_scored"):
            break
        state, new = play_cards(state, order)
        events.extend(new)
    return state, events


@pytest.mark.parametrize(
    ("n", "sides", "played", "side", "points", "kind", "players"),
    C3,
    ids=[f"C3-{row[0]}" for row in C3],
)
def test_scoring_sequence(n, sides, played, side, points, kind, players):
    deck, orders = script_deal(players, 0, winners(sides, players))
    state = GAME.replay(GAME.start(players, seed=3, deck=deck))
    state, events = play_deal(state, orders)
    won = of_type(events, "trick_won")
    assert "".join("AB"[t["side"]] for t in won) == sides[:played]
    run = len(sides) - len(sides.lstrip(sides[0]))
    b = sides[:played].count("B")
    scores = [0, 0]
    scores[side] = points
    assert of_type(events, "deal_scored") == [
        {
            "deal": 1,
            "side": side,
            "points": points,
            "kind": kind,
            "run": min(run, played),
            "tricks": [played - b, b],
            "scores": scores,
        }
    ]
    assert events[-1].type == "alkort.cards_dealt"
    assert events[-1].payload["deal"] == 2 and events[-1].payload["dealer"] == 1
    assert state.deal.number == 2 and state.phase == "exchange"


def test_play_out_all_tricks_changes_nothing_but_the_trick_count():
    """C3 #7 with play_out_all_tricks: tricks 7-9 are played, still a múk of 5."""
    deck, orders = script_deal(4, 0, winners("AAAAABAAA", 4))
    start = GAME.start(4, {"play_out_all_tricks": True}, seed=3, deck=deck)
    state, events = play_deal(GAME.replay(start), orders)
    assert len(of_type(events, "trick_won")) == 9
    (scored,) = of_type(events, "deal_scored")
    assert (scored["side"], scored["points"], scored["kind"]) == (0, 5, "muk")
    assert scored["tricks"] == [8, 1]


def test_game_end_example():
    """A has 8 and B has 9; A's múk in the next deal takes A to 13 and wins."""
    plan = ["AAAAAB", "BBBBBBBBB", "BAAAAA", "BAAAAA", "BAAAAA", "AAAAAB"]
    scripted = [script_deal(4, d % 4, winners(s, 4)) for d, s in enumerate(plan)]
    events = GAME.start(4, seed=5, deck=[deck for deck, _ in scripted])
    state = GAME.replay(events)
    totals = []
    for _deck, orders in scripted:
        state, new = play_deal(state, orders)
        events.extend(new)
        totals.append(of_type(new, "deal_scored")[0]["scores"])
    assert totals == [[5, 0], [5, 9], [6, 9], [7, 9], [8, 9], [13, 9]]
    assert events[-1].type == "alkort.match_ended"
    outcome = {"scores": [13, 9, 13, 9], "places": [1, 3, 1, 3], "winners": [0, 2]}
    assert events[-1].payload == {"outcome": outcome, "seed": "5"}
    assert GAME.outcome(state) == outcome
    assert GAME.to_act(state) == ()
    assert [e.payload["dealer"] for e in events if e.type == "alkort.cards_dealt"] == [
        0,
        1,
        2,
        3,
        0,
        1,
    ]
