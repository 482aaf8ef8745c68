"""Every worked example of docs/rules/allegra.md §15, replayed through the engine.

The examples use the published deck. Examples 2-6 show the discard pile under
``triple_cards_to = "discard"``; each also runs under the default
``"out_of_play"``, where the removed cards leave the round and the discard pile
keeps only the turn's own discard (the rules name its top card for each case).
"""

import pytest

from rules.allegra.geometry import geometry, idx
from rules.allegra.options import Rules
from rules.allegra.rounds import end_of_round
from rules.allegra.scoring import outcome_for, round_scores
from rules.allegra.state import RoundResult
from rules.allegra.triples import find_triples
from rules.core import IllegalAction

from .helpers import area_sum, cell, grid_text, of_type, play, position, types

DRAW = {"type": "draw"}
PASS = {"type": "pass"}
BOTH = ["discard", "out_of_play"]


def opts(to: str) -> dict:
    return {"deck": "published", "triple_cards_to": to}


def piles(state, to, *, discard, removed):
    """The discard pile under ``to``: the removed cards go last, or out of play."""
    if to == "discard":
        assert state.discard == discard + removed and state.out_of_play == ()
    else:
        assert state.discard == discard and state.out_of_play == removed


# ---------------------------------------------------------------- Example 1


def test_example_1_geometry_with_four_players():
    g = geometry(4)
    assert g.left == (1, 2, 3, 0)
    for p in range(4):
        own = {idx(p, r, c) for r in range(3) for c in range(4)}
        neighbour = {idx(g.left[p], r, 3) for r in range(3)}
        assert g.area_set[p] == own | neighbour
    assert g.areas_of[idx(0, 1, 3)] == (0, 3)  # P0.c3: Area(0) and Area(right(0))
    assert g.areas_of[idx(0, 1, 2)] == (0,)
    row = g.rows[2 * 3 + 1]  # areaCell(2, 1, a) for a = 0..4
    assert row[0] == idx(3, 1, 3) and row[4] == idx(2, 1, 3)


def test_example_1_geometry_with_two_players():
    g = geometry(2)
    assert g.area_set[0] >= {idx(1, r, 3) for r in range(3)}
    assert g.area_set[1] >= {idx(0, r, 3) for r in range(3)}
    for r in range(3):  # each column 3 is in both areas
        assert g.areas_of[idx(0, r, 3)] == g.areas_of[idx(1, r, 3)] == (0, 1)


# ---------------------------------------------------------------- Example 2


@pytest.mark.parametrize("to", BOTH)
def test_example_2_column_triple_after_discard_and_flip(to):
    state = position(
        3,
        grids={0: "4 2 (9) 5 \n (6) 2 7 (3) \n 8 (2) 10 (1)"},
        columns={1: "(4) / 0 / (7)"},
        draw=(11, 5),
        discard=(3,),
        options=opts(to),
    )
    before = area_sum(state, 0)
    state, events = play(state, (0, DRAW), (1, PASS), (2, PASS))
    assert of_type(events, "card_drawn").payload["knock_window"] == [1, 2]
    assert of_type(events, "knocks_revealed").payload == {"knockers": []}
    state, events = play(state, (0, {"type": "discard", "flip": cell(0, 2, 1)}))
    assert types(events) == ["drawn_card_discarded", "triples_removed", "turn_ended"]
    assert events[0].payload == {
        "seat": 0,
        "card": 11,
        "flip": cell(0, 2, 1),
        "flipped": 2,
    }
    assert events[1].payload == {
        "cells": [cell(0, 0, 1), cell(0, 1, 1), cell(0, 2, 1)],
        "cards": [2, 2, 2],
        "to": to,
    }
    assert events[2].payload == {"seat": 0, "next": 1}
    assert grid_text(state, 0) == ["4 -- (9) 5", "(6) -- 7 (3)", "8 -- 10 (1)"]
    piles(state, to, discard=(3, 11), removed=(2, 2, 2))
    assert state.discard[-1] == (2 if to == "discard" else 11)
    assert area_sum(state, 0) == before - 6


# ---------------------------------------------------------------- Example 3


@pytest.mark.parametrize("to", BOTH)
def test_example_3_row_triple_through_the_left_neighbours_column(to):
    state = position(
        3,
        grids={0: "1 (5) 3 (8) \n 6 (10) 9 2 \n (7) 4 (11) (0)"},
        columns={1: "(4) / 6 / (0)"},
        discard=(3, 6),
        options=opts(to),
    )
    b_before, c_before = area_sum(state, 1), area_sum(state, 2)
    state, events = play(state, (0, {"type": "take_discard", "cell": cell(0, 1, 1)}))
    assert types(events) == ["discard_taken", "triples_removed", "turn_ended"]
    assert events[0].payload == {
        "seat": 0,
        "cell": cell(0, 1, 1),
        "card": 6,
        "replaced": 10,
    }
    assert events[1].payload["cells"] == [cell(0, 1, 0), cell(0, 1, 1), cell(1, 1, 3)]
    assert grid_text(state, 0) == ["1 (5) 3 (8)", "-- -- 9 2", "(7) 4 (11) (0)"]
    assert [state.cards[idx(1, r, 3)] for r in range(3)] == [4, None, 0]
    piles(state, to, discard=(3, 10), removed=(6, 6, 6))
    assert area_sum(state, 1) == b_before - 6  # B loses the 6 of his own column
    assert area_sum(state, 2) == c_before  # C's area (A.c3) is unchanged


# ---------------------------------------------------------------- Example 4


@pytest.mark.parametrize("to", BOTH)
def test_example_4_what_is_not_a_triple_then_window_2_3_4(to):
    state = position(
        3,
        grids={0: "-- 7 7 (7) \n -- 0 (4) 1 \n -- (9) 5 (5)"},
        columns={1: "7 / (2) / 9"},
        cells={(2, 0, 0): "3"},
        draw=(3, 5),
        discard=(4,),
        options=opts(to),
    )
    geo = geometry(3)
    # Row 0 of Area(A) = 7 -- 7 7 (7): the hole and the face-down card break it.
    assert find_triples(geo, state.cards, state.down, range(geo.size)) == []
    c_before = area_sum(state, 2)
    state, events = play(
        state,
        (0, DRAW),
        (2, PASS),
        (1, PASS),
        (0, {"type": "discard", "flip": cell(0, 0, 3)}),
    )
    removed = of_type(events, "triples_removed").payload
    assert removed["cells"] == [cell(0, 0, 1), cell(0, 0, 2), cell(0, 0, 3)]
    assert grid_text(state, 0)[0] == "-- -- -- --"
    assert state.cards[idx(1, 0, 3)] == 7  # B[0][3] stays
    piles(state, to, discard=(4, 3), removed=(7, 7, 7))
    assert area_sum(state, 2) == c_before - 7  # A[0][3] was also in C's area


# ---------------------------------------------------------------- Example 5

EXAMPLE_5 = {
    "grids": {0: "5 5 (8) 5 \n (3) 0 5 (11) \n 9 (4) 5 -1"},
    "columns": {1: "2 / (6) / 1"},
    "cells": {(2, 0, 0): "10"},
    "draw": (5, 5),
    "discard": (4,),
}


def example_5(options: dict):
    """A draws 5, nobody knocks, and A swaps it for the face-down 8 at A[0][2]."""
    return play(
        position(3, options=options, **EXAMPLE_5),
        (0, DRAW),
        (1, PASS),
        (2, PASS),
        (0, {"type": "swap", "cell": cell(0, 0, 2)}),
    )


@pytest.mark.parametrize("to", BOTH)
def test_example_5_run_of_four_plus_a_crossing_column(to):
    c_before = area_sum(position(3, options=opts(to), **EXAMPLE_5), 2)
    state, events = example_5(opts(to))
    assert of_type(events, "drawn_card_swapped").payload["replaced"] == 8
    removed = of_type(events, "triples_removed").payload
    assert removed["cells"] == [
        cell(0, 0, 0),
        cell(0, 0, 1),
        cell(0, 0, 2),
        cell(0, 0, 3),
        cell(0, 1, 2),
        cell(0, 2, 2),
    ]
    assert sum(removed["cards"]) == 30
    assert grid_text(state, 0) == ["-- -- -- --", "(3) 0 -- (11)", "9 (4) -- -1"]
    piles(state, to, discard=(4, 8), removed=(5,) * 6)
    assert area_sum(state, 2) == c_before - 5  # C's area loses A[0][3]'s 5 too


def test_example_5_with_the_leftmost3_rule():
    """The row loses only A[0][0..2]; the column triple is unaffected."""
    state, events = example_5({"deck": "published", "long_run_rule": "leftmost3"})
    removed = of_type(events, "triples_removed").payload["cells"]
    assert removed == [
        cell(0, 0, 0),
        cell(0, 0, 1),
        cell(0, 0, 2),
        cell(0, 1, 2),
        cell(0, 2, 2),
    ]
    assert grid_text(state, 0)[0] == "-- -- -- 5"
    assert state.cards[idx(0, 0, 3)] == 5  # still in C's area


# ---------------------------------------------------------------- Example 6


def example_6(to: str = "discard"):
    return position(
        3,
        grids={
            0: "3 (9) 8 (2) \n (5) 11 4 (6) \n 1 (7) (10) 9",
            2: "10 7 (3) -1 \n (5) 7 6 (9) \n 2 11 (0) (8)",
        },
        columns={1: "4 / (8) / 2"},
        cells={(1, 0, 0): "3"},
        draw=(7, 5),
        discard=(4,),
        options=opts(to),
    )


def knock_up_to_the_gift(state):
    """A draws 7; C knocks first, B passes; A gives the 7 to C."""
    state, events = play(state, (0, DRAW), (2, {"type": "knock"}))
    assert of_type(events, "card_drawn").payload["knock_window"] == [1, 2]
    state, events = play(state, (1, PASS))
    assert types(events) == ["knock_answered", "knocks_revealed"]
    assert events[1].payload == {"knockers": [2]}
    state, events = play(state, (0, {"type": "give", "to": 2}))
    assert events[0].payload == {"seat": 0, "to": 2, "card": 7}
    return state


@pytest.mark.parametrize("to", BOTH)
def test_example_6_a_full_knock_exchange(to):
    from rules.allegra import GAME

    state = example_6(to)
    sums = [area_sum(state, p) for p in range(3)]
    state = knock_up_to_the_gift(state)
    assert GAME.to_act(state) == (2,)
    state, events = play(state, (2, {"type": "place", "cell": cell(2, 2, 1)}))
    assert events[0].payload == {
        "seat": 2,
        "cell": cell(2, 2, 1),
        "card": 7,
        "hand": 11,
        "hand_public": True,
    }
    with pytest.raises(IllegalAction, match="protected"):
        GAME.decide(state, 0, {"type": "take", "cell": cell(2, 2, 1)})
    state, events = play(state, (0, {"type": "take", "cell": cell(2, 0, 3)}))
    assert events[0].payload == {"seat": 0, "cell": cell(2, 0, 3), "card": -1}
    state, events = play(state, (0, {"type": "put", "cell": cell(0, 1, 1)}))
    assert types(events) == [
        "card_put",
        "knock_hole_filled",
        "triples_removed",
        "turn_ended",
    ]
    assert events[0].payload == {
        "seat": 0,
        "cell": cell(0, 1, 1),
        "card": -1,
        "replaced": 11,
    }
    assert events[1].payload == {"seat": 2, "cell": cell(2, 0, 3), "card": 11}
    assert events[2].payload["cells"] == [cell(2, 0, 1), cell(2, 1, 1), cell(2, 2, 1)]
    assert events[3].payload == {"seat": 0, "next": 1}
    assert grid_text(state, 0) == ["3 (9) 8 (2)", "(5) -1 4 (6)", "1 (7) (10) 9"]
    assert grid_text(state, 2) == ["10 -- (3) 11", "(5) -- 6 (9)", "2 -- (0) (8)"]
    piles(state, to, discard=(4, 11), removed=(7, 7, 7))
    assert [area_sum(state, p) - sums[p] for p in range(3)] == [-12, 12, -13]


def test_example_6_taking_another_card_of_the_would_be_triple_is_legal():
    state = knock_up_to_the_gift(example_6())
    state, events = play(
        state,
        (2, {"type": "place", "cell": cell(2, 2, 1)}),
        (0, {"type": "take", "cell": cell(2, 0, 1)}),
        (0, {"type": "put", "cell": cell(0, 1, 1)}),
    )
    assert "triples_removed" not in types(events)
    assert grid_text(state, 2)[0] == "10 11 (3) -1"  # C.c1 reads 11/7/7


def test_example_6_answers_stay_hidden_until_all_are_in():
    from rules.allegra import GAME

    state, events = play(example_6(), (0, DRAW), (2, {"type": "knock"}))
    answer = events[-1]
    assert GAME.redact(answer, 1).payload == {"seat": 2}
    assert GAME.redact(answer, None).payload == {"seat": 2}
    assert GAME.redact(answer, 2).payload == {"seat": 2, "knock": True}
    for seat in (None, 0, 1):
        knock = GAME.view(state, seat)["knock"]
        assert knock["knockers"] is None and knock["pending"] == [1]
        assert knock["your_answer"] is None
    assert GAME.view(state, 2)["knock"]["your_answer"] == "knock"
    assert GAME.to_act(state) == (1,)


def test_example_6_a_hand_card_from_a_face_down_cell_is_private():
    from rules.allegra import GAME

    state = knock_up_to_the_gift(example_6())
    state, events = play(state, (2, {"type": "place", "cell": cell(2, 1, 0)}))
    placed = events[0]
    assert placed.payload["hand"] == 5 and placed.payload["hand_public"] is False
    assert "hand" not in GAME.redact(placed, 0).payload
    assert GAME.redact(placed, 2).payload["hand"] == 5
    assert GAME.view(state, 0)["knock"]["hand"] is None
    assert GAME.view(state, 0)["knock"]["hand_hidden"] is True
    assert GAME.view(state, 2)["knock"]["hand"] == 5


# ---------------------------------------------------------------- Example 7


def example_7(c_grid: str | None = None):
    """C draws 9, nobody knocks, and C discards it, flipping D's last card."""
    grids = {3: "1 2 3 4 \n 5 6 7 8 \n 9 10 11 (2)"}
    if c_grid:
        grids[2] = c_grid
    state = position(
        4, grids=grids, columns={0: "3 / 4 / 5"}, draw=(9, 5), discard=(6,), active=2
    )
    return play(
        state,
        (2, DRAW),
        (0, PASS),
        (1, PASS),
        (3, PASS),
        (2, {"type": "discard", "flip": cell(3, 2, 3)}),
    )


def test_example_7_round_end_triggered_on_someone_elses_turn():
    from rules.allegra import GAME

    state, events = example_7()
    assert types(events)[-3:] == [
        "drawn_card_discarded",
        "round_end_triggered",
        "turn_ended",
    ]
    assert events[-2].payload == {
        "trigger": 3,
        "final_turns": [0, 1, 2],
        "forced": False,
    }
    assert events[-1].payload == {"seat": 2, "next": 0}
    for seat in (0, 1, 2):  # A, B, C play their final turns; D does not move
        assert GAME.to_act(state) == (seat,)
        state, events = play(
            state, (seat, {"type": "take_discard", "cell": cell(seat, 0, 0)})
        )
    assert types(events)[-3:] == ["round_revealed", "round_scored", "round_dealt"]
    assert of_type(events, "round_scored").payload["trigger"] == 3


def test_example_7_the_active_player_is_checked_first():
    _, events = example_7(c_grid="1 3 5 7 \n 2 4 6 8 \n 9 10 11 1")
    assert of_type(events, "round_end_triggered").payload == {
        "trigger": 2,
        "final_turns": [3, 0, 1],
        "forced": False,
    }


# ---------------------------------------------------------------- Example 8

EXAMPLE_8 = {
    0: "1 2 0 3 \n -- -- -- 4 \n 2 1 -1 5",
    1: "6 5 4 -1 \n 3 2 8 0 \n -- -- -- 2",
    2: "0 1 2 2 \n 1 0 3 1 \n -- -- -- 0",
}


def test_example_8_round_scoring_with_shared_columns_and_doubling():
    state = position(3, grids=EXAMPLE_8, trigger=2)
    geo = geometry(3)
    assert find_triples(geo, state.cards, state.down, range(geo.size)) == []
    events = end_of_round(state, list(state.cards), state.down, 2, False)
    scored = of_type(events, "round_scored").payload
    assert scored["raw"] == [18, 32, 22]
    assert scored["scores"] == [18, 32, 44] and scored["doubled"] is True
    own = sum(v for v in state.cards if v is not None)
    col3 = sum(state.cards[idx(p, r, 3)] or 0 for p in range(3) for r in range(3))
    assert (own, col3) == (56, 16) and sum(scored["raw"]) == own + col3


def test_example_8_played_through_the_last_final_turn():
    """B's final turn: he draws, nobody knocks, he discards (nothing to flip)."""
    grids = {**EXAMPLE_8, 0: "(1) 2 0 3 \n -- -- -- 4 \n 2 1 -1 5"}
    state = position(3, grids=grids, active=1, trigger=2, draw=(9, 5))
    state, events = play(
        state, (1, DRAW), (0, PASS), (2, PASS), (1, {"type": "discard"})
    )
    assert types(events)[-4:] == [
        "drawn_card_discarded",
        "round_revealed",
        "round_scored",
        "round_dealt",
    ]
    assert of_type(events, "round_revealed").payload == {
        "cells": [{"cell": cell(0, 0, 0), "card": 1}]
    }
    scored = of_type(events, "round_scored").payload
    assert scored["scores"] == [18, 32, 44] and scored["totals"] == [18, 32, 44]
    assert state.round == 2 and state.totals == (18, 32, 44)


@pytest.mark.parametrize(
    ("raw", "trigger", "rules", "scores"),
    [
        ([18, 32, 22], 0, Rules(), [18, 32, 22]),  # A lowest: nobody doubled
        ([22, 32, 22], 2, Rules(), [22, 32, 22]),  # a tie counts as lowest
        ([22, 32, 22], 2, Rules(tie_counts_as_lowest=False), [22, 32, 44]),
        ([-5, 32, -3], 2, Rules(), [-5, 32, -3]),  # only positive points double
        ([-5, 32, -3], 2, Rules(double_only_positive=False), [-5, 32, -6]),
    ],
)
def test_example_8_doubling_variants(raw, trigger, rules, scores):
    assert round_scores(rules, raw, trigger)[0] == scores


def test_example_8_equal_totals_share_the_win():
    results = (
        RoundResult(1, 0, False, (10, 20, 20), (10, 20, 20), False),
        RoundResult(2, 1, False, (31, 37, 21), (31, 37, 21), False),
    )
    outcome = outcome_for(Rules(), (41, 57, 41), results)
    assert outcome == {"scores": [41, 57, 41], "places": [1, 3, 1], "winners": [0, 2]}
    split = outcome_for(Rules(game_tie_break="last_round"), (41, 57, 41), results)
    assert split["places"] == [2, 3, 1] and split["winners"] == [2]


# ---------------------------------------------------------------- Example 9

EXAMPLE_9 = {
    0: "(3) 4 (9) 2 \n 7 (1) 6 5 \n (8) 2 0 (6)",
    1: "1 8 0 6 \n 3 3 10 4 \n 9 5 2 11",
}


def test_example_9_a_move_that_finishes_the_opponent_gives_two_turns_in_a_row():
    from rules.allegra import GAME

    state = position(2, grids=EXAMPLE_9, draw=(10, 7, 5), discard=(4,))
    state, events = play(
        state, (0, DRAW), (1, PASS), (0, {"type": "discard", "flip": cell(0, 2, 3)})
    )
    assert types(events)[-3:] == [
        "drawn_card_discarded",
        "round_end_triggered",
        "turn_ended",
    ]
    assert events[-2].payload == {"trigger": 1, "final_turns": [0], "forced": False}
    assert events[-1].payload == {"seat": 0, "next": 0}
    state, events = play(state, (0, DRAW))
    assert GAME.to_act(state) == (1,)  # B may still knock on A's draw
    state, events = play(state, (1, PASS), (0, {"type": "swap", "cell": cell(0, 0, 0)}))
    scored = of_type(events, "round_scored").payload
    assert scored["trigger"] == 1 and scored["round"] == 1


def test_example_9_with_active_only_trigger_mode():
    state = position(
        2,
        grids=EXAMPLE_9,
        draw=(10, 5),
        options={"deck": "published", "trigger_mode": "active_only"},
    )
    state, events = play(
        state, (0, DRAW), (1, PASS), (0, {"type": "discard", "flip": cell(0, 2, 3)})
    )
    assert types(events)[-2:] == ["drawn_card_discarded", "turn_ended"]
    assert events[-1].payload == {"seat": 0, "next": 1}
    # "B would play his next turn normally and trigger at its end, leaving A
    # one final turn."
    state, events = play(state, (1, {"type": "take_discard", "cell": cell(1, 0, 0)}))
    assert of_type(events, "round_end_triggered").payload == {
        "trigger": 1,
        "final_turns": [0],
        "forced": False,
    }
    assert events[-1].payload == {"seat": 1, "next": 0}
    state, events = play(state, (0, {"type": "take_discard", "cell": cell(0, 0, 1)}))
    assert of_type(events, "round_scored").payload["trigger"] == 1
