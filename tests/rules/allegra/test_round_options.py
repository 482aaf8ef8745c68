"""Round and match options of docs/rules/allegra.md §3.2, §5, §10 and §12 played
through: ``rounds``, ``first_player``, ``next_round_start``,
``max_turns_per_round``, ``remove_triples_on_final_reveal`` and
``game_tie_break``."""

import pytest

from rules.allegra import GAME
from rules.allegra.options import Rules
from rules.allegra.scoring import outcome_for
from rules.allegra.state import RoundResult

from .helpers import cell, of_type, play, position, types


def quick_round(state):
    """Everyone reveals their first two face-down cells; the start player takes
    the top discard onto his first cell (one turn, which ``max_turns_per_round
    = 1`` turns into a forced end)."""
    events = []
    while state.phase == "initial_reveal":
        seat = GAME.to_act(state)[0]
        state, new = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
        events += new
    seat = GAME.to_act(state)[0]
    action = next(a for a in GAME.legal_actions(state, seat) if "cell" in a)
    state, new = GAME.apply(state, seat, action)
    return state, events + new


@pytest.mark.parametrize(("rule", "second"), [("rotate", 2), ("trigger", 1)])
def test_round_start_player_first_player_rounds_and_forced_ends(rule, second):
    """§5 step 4: round k starts at ``first_player + k − 1``; with ``"trigger"``
    round 2 starts with round 1's trigger. §9.3: the turn that reaches the
    limit ends the round with the active player as trigger and no final turns."""
    options = {
        "rounds": 2,
        "first_player": 1,
        "max_turns_per_round": 1,
        "next_round_start": rule,
    }
    events = GAME.start(3, options, seed=8)
    assert events[1].payload["start_seat"] == 1
    state, new = quick_round(GAME.replay(events))
    assert [e.payload["seat"] for e in new if e.type == "allegra.card_revealed"] == [
        1,
        1,
        2,
        2,
        0,
        0,
    ]
    trigger = of_type(new, "round_end_triggered").payload
    assert trigger == {"trigger": 1, "final_turns": [], "forced": True}
    scored = of_type(new, "round_scored").payload
    assert (scored["round"], scored["trigger"], scored["forced"]) == (1, 1, True)
    assert of_type(new, "round_dealt").payload["start_seat"] == second
    state, new = quick_round(state)
    assert of_type(new, "round_scored").payload["trigger"] == second
    assert types(new)[-1] == "match_ended" and GAME.to_act(state) == ()
    assert len(state.results) == 2


@pytest.mark.parametrize("remove", [False, True])
def test_triples_made_by_the_final_reveal_stay_unless_the_option_removes_them(remove):
    """§10 step 1: the column ``A.c0 = 5 / 5 / (5)`` becomes a triple only when
    the round's last face-down cards are turned up."""
    grids = {0: "5 1 2 3 \n 5 2 3 1 \n (5) 3 1 2"}
    options = {"deck": "published", "remove_triples_on_final_reveal": remove}
    state = position(3, grids=grids, active=1, trigger=2, draw=(9,), options=options)
    state, events = play(state, (1, {"type": "take_discard", "cell": cell(1, 0, 0)}))
    kinds = types(events)
    assert kinds[:2] == ["discard_taken", "round_revealed"]
    column = [cell(0, r, 0) for r in range(3)]
    raw = of_type(events, "round_scored").payload["raw"]
    if remove:
        removed = of_type(events, "triples_removed").payload
        assert set(map(str, column)) <= set(map(str, removed["cells"]))
        assert raw[0] == 18  # 1+2+3 + 2+3+1 + 3+1+2, the 5s gone; fillers are 0
    else:
        assert "triples_removed" not in kinds
        assert raw[0] == 33


def test_last_round_tie_break_still_shares_when_every_round_is_equal():
    """E-15: seats equal in every round share the place."""
    results = (
        RoundResult(1, 0, False, (10, 20, 10), (10, 20, 10), False),
        RoundResult(2, 1, False, (31, 37, 31), (31, 37, 31), False),
    )
    outcome = outcome_for(Rules(game_tie_break="last_round"), (41, 57, 41), results)
    assert outcome == {"scores": [41, 57, 41], "places": [1, 3, 1], "winners": [0, 2]}


def test_last_round_tie_break_goes_back_to_earlier_rounds():
    """§12: equal totals and an equal last round are split by the round before;
    seats with different totals keep the order of their totals."""
    results = (
        RoundResult(1, 0, False, (10, 5, 12, 30), (10, 5, 12, 30), False),
        RoundResult(2, 1, False, (20, 15, 18, 30), (20, 15, 18, 30), False),
        RoundResult(3, 2, False, (11, 21, 11, 30), (11, 21, 11, 30), False),
    )
    totals = (41, 41, 41, 90)
    shared = outcome_for(Rules(), totals, results)
    assert shared["places"] == [1, 1, 1, 4] and shared["winners"] == [0, 1, 2]
    split = outcome_for(Rules(game_tie_break="last_round"), totals, results)
    # Round 3: seats 0 and 2 (11) beat seat 1 (21); round 2: seat 2 (18) beats 0 (20).
    assert split == {"scores": [41, 41, 41, 90], "places": [2, 3, 1, 4], "winners": [2]}
