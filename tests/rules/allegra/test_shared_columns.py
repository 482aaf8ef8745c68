"""Shared columns at the edges of the player range (docs/rules/allegra.md §2.4, §7.4,
§8, §9.1, §10): two players, where each column 3 lies in both areas, six players,
where the ring wraps from seat 5 back to seat 0's column, and a player whose own
grid is cleared, whose area still holds the left neighbour's column."""

import pytest

from rules.allegra import GAME
from rules.allegra.geometry import geometry, idx
from rules.allegra.rounds import end_of_round
from rules.core import IllegalAction
from tests.rules.contract import assert_refused

from .helpers import area_sum, cell, of_type, play, position, types

DRAW = {"type": "draw"}
PASS = {"type": "pass"}


def test_six_players_the_ring_wraps_from_seat_5_to_seat_0s_column():
    """Area(5) = P0.c3 + P5; a row triple through it takes a card of seat 0."""
    geo = geometry(6)
    assert geo.areas_of[idx(0, 1, 3)] == (0, 5)
    assert geo.rows[5 * 3 + 1][0] == idx(0, 1, 3)
    state = position(
        6,
        cells={(0, 1, 3): "6", (5, 1, 0): "6", (5, 1, 1): "(10)"},
        discard=(3, 6),
        active=5,
    )
    before = [area_sum(state, p) for p in range(6)]
    state, events = play(state, (5, {"type": "take_discard", "cell": cell(5, 1, 1)}))
    assert types(events) == ["discard_taken", "triples_removed", "turn_ended"]
    assert events[1].payload["cells"] == [cell(0, 1, 3), cell(5, 1, 0), cell(5, 1, 1)]
    assert events[2].payload == {"seat": 5, "next": 0}  # left(5) = 0
    after = [area_sum(state, p) for p in range(6)]
    assert [b - a for b, a in zip(before, after, strict=True)] == [6, 0, 0, 0, 0, 22]


def test_six_players_every_area_scores_its_left_neighbours_column():
    """§10 step 2 and the sanity identity, on a full ring of six."""
    grids = {
        s: " \n ".join(
            " ".join(str((5 * s + 4 * r + c) % 13 - 1) for c in range(4))
            for r in range(3)
        )
        for s in range(6)
    }
    state = position(6, grids=grids, trigger=0)
    events = end_of_round(state, list(state.cards), state.down, 0, False)
    raw = of_type(events, "round_scored").payload["raw"]

    def value(s, r, c):
        return state.cards[idx(s, r, c)]

    own = [sum(value(s, r, c) for r in range(3) for c in range(4)) for s in range(6)]
    col3 = [sum(value(s, r, 3) for r in range(3)) for s in range(6)]
    assert raw == [own[p] + col3[(p + 1) % 6] for p in range(6)]
    assert sum(raw) == sum(own) + sum(col3)


def test_six_players_a_far_knocker_moves_two_other_players_cards():
    """§7.4 "Overlaps": seat 3 knocks on seat 0's draw. The drawer takes T from
    seat 4's column 3 (in Area(3)) and puts it on seat 1's column 3 (in Area(0)),
    so seats 1 and 4, who took no part, see their shared cards change."""
    state = position(
        6,
        cells={(3, 0, 0): "(9)", (4, 0, 3): "(8)", (1, 0, 3): "(4)"},
        draw=(7, 5),
    )
    state, events = play(state, (0, DRAW))
    assert events[0].payload["knock_window"] == [1, 2, 3, 4, 5]
    answers = [(s, {"type": "knock"} if s == 3 else PASS) for s in (1, 2, 3, 4, 5)]
    state, events = play(state, *answers)
    assert events[-1].payload == {"knockers": [3]}
    state, events = play(
        state,
        (0, {"type": "give", "to": 3}),
        (3, {"type": "place", "cell": cell(3, 0, 0)}),
        (0, {"type": "take", "cell": cell(4, 0, 3)}),
        (0, {"type": "put", "cell": cell(1, 0, 3)}),
    )
    assert [e.payload["card"] for e in events[:4]] == [7, 7, 8, 8]
    assert events[1].payload["hand"] == 9 and not events[1].payload["hand_public"]
    assert events[4].payload == {"seat": 3, "cell": cell(4, 0, 3), "card": 9}
    assert [state.cards[idx(*c)] for c in [(3, 0, 0), (4, 0, 3), (1, 0, 3)]] == [
        7,
        9,
        8,
    ]
    down = [state.down >> idx(*c) & 1 for c in [(3, 0, 0), (4, 0, 3), (1, 0, 3)]]
    assert down == [0, 0, 0]
    assert state.discard[-1] == 4 and GAME.to_act(state) == (1,)


@pytest.mark.parametrize(
    ("rule", "removed"),
    [
        ("union", [(0, 0, 1), (0, 0, 2), (0, 0, 3), (1, 0, 0), (1, 0, 1), (1, 0, 2)]),
        ("leftmost3", [(0, 0, 1), (0, 0, 2), (0, 0, 3), (1, 0, 0), (1, 0, 1)]),
    ],
)
def test_two_players_one_flip_makes_a_triple_in_both_areas(rule, removed):
    """With two players ``A.c3`` ends row 0 of Area(A) and starts row 0 of Area(B).

    Flipping it to 4 completes ``A1 A2 A3`` in Area(A) and the run
    ``A3 B0 B1 B2`` in Area(B). Runs are taken per area row (§8.2), never along
    the physical line of six 4s, so ``leftmost3`` still removes Area(A)'s three
    and the leftmost three of Area(B)'s run.
    """
    state = position(
        2,
        cells={
            (0, 0, 1): "4",
            (0, 0, 2): "4",
            (0, 0, 3): "(4)",
            (1, 0, 0): "4",
            (1, 0, 1): "4",
            (1, 0, 2): "4",
        },
        draw=(9, 5),
        options={"deck": "published", "long_run_rule": rule},
    )
    before = [area_sum(state, p) for p in range(2)]
    state, events = play(
        state, (0, DRAW), (1, PASS), (0, {"type": "discard", "flip": cell(0, 0, 3)})
    )
    assert of_type(events, "triples_removed").payload["cells"] == [
        cell(*c) for c in removed
    ]
    after = [area_sum(state, p) for p in range(2)]
    lost = [b - a for b, a in zip(before, after, strict=True)]
    # A.c3's 4 leaves both areas; B's cells leave Area(B) only.
    assert lost == [12, 4 * sum(1 for c in removed if c[2] == 3 or c[0] == 1)]


def test_two_players_the_knocker_puts_the_gift_in_the_drawers_own_column():
    """§7.4: with two players K = left(A) = right(A), so K may place the gift in
    A.c3; it is then protected from A's ``put`` as well as from his ``take``.
    A may take T from B.c3, a cell of both areas."""
    state = position(
        2, cells={(0, 1, 3): "(6)", (1, 0, 3): "5", (0, 0, 0): "(2)"}, draw=(7, 5)
    )
    state, events = play(state, (0, DRAW))
    assert events[0].payload["knock_window"] == [1]
    state, _ = play(
        state,
        (1, {"type": "knock"}),
        (0, {"type": "give", "to": 1}),
        (1, {"type": "place", "cell": cell(0, 1, 3)}),
        (0, {"type": "take", "cell": cell(1, 0, 3)}),
    )
    for target, message in [
        (
            cell(0, 1, 3),
            "You cannot put the card on the card you gave: it is protected until "
            "the exchange ends",
        ),
        (
            cell(1, 0, 3),
            "Cell (1,0,3) is the hole you took the card from; seat 1 fills it",
        ),
    ]:
        put = {"type": "put", "cell": target}
        assert_refused(GAME, state, 0, put, IllegalAction, message)
    state, events = play(state, (0, {"type": "put", "cell": cell(0, 0, 0)}))
    assert types(events)[:2] == ["card_put", "knock_hole_filled"]
    cells = [(0, 1, 3), (0, 0, 0), (1, 0, 3)]
    assert [state.cards[idx(*c)] for c in cells] == [7, 5, 6]
    assert state.discard[-1] == 2


HOLES = "-- -- -- -- \n -- -- -- -- \n -- -- -- --"
NO_KNOCKS = {"deck": "published", "knock_min_players": 7}


def test_own_grid_cleared_is_not_finished_while_the_neighbours_column_is_face_down():
    """§9.1 (D16): finished means the whole 15-cell area. A's own twelve cells are
    holes, but B.c3 still has a face-down card in Area(A): no trigger, until A
    flips it."""
    state = position(
        3, grids={0: HOLES}, columns={1: "(4) / 5 / 6"}, active=2, options=NO_KNOCKS
    )
    state, events = play(state, (2, {"type": "take_discard", "cell": cell(2, 0, 0)}))
    assert types(events) == ["discard_taken", "turn_ended"]  # checked C, A, B
    assert state.trigger is None and GAME.to_act(state) == (0,)
    state, events = play(
        state, (0, DRAW), (0, {"type": "discard", "flip": cell(1, 0, 3)})
    )
    assert of_type(events, "round_end_triggered").payload == {
        "trigger": 0,
        "final_turns": [1, 2],
        "forced": False,
    }


def test_an_area_with_no_cards_at_all_is_finished_on_someone_elses_turn():
    """§9.1: an area with no face-down card, even one with no cards, is finished.
    A's own grid is all holes; B flips the last card of B.c3, the column triple
    7/7/7 goes, and Area(A) is empty: A triggers although B moved (checked B, C,
    A), and the final turns are C's and B's."""
    state = position(
        3, grids={0: HOLES}, columns={1: "7 / 7 / (7)"}, active=1, options=NO_KNOCKS
    )
    state, events = play(
        state, (1, DRAW), (1, {"type": "discard", "flip": cell(1, 2, 3)})
    )
    assert types(events) == [
        "card_drawn",
        "drawn_card_discarded",
        "triples_removed",
        "round_end_triggered",
        "turn_ended",
    ]
    assert all(state.cards[i] is None for i in geometry(3).area[0])
    assert events[3].payload == {"trigger": 0, "final_turns": [2, 1], "forced": False}
    assert events[4].payload == {"seat": 1, "next": 2}


def test_one_move_finishes_two_other_players_the_first_clockwise_triggers():
    """§9.1/§9.2: the knocker (seat 2) puts the gift on seat 3's face-down column 3,
    the last face-down card of Area(2) and of Area(3). Checked from the drawer
    (seat 0) clockwise, seat 2 is the only trigger; seat 3, finished as well,
    still takes its final turn, and nobody else becomes a trigger."""
    state = position(
        4,
        grids={
            2: "1 2 3 4 \n 5 6 7 8 \n 9 10 11 -1",
            3: "2 3 4 (5) \n 6 7 8 9 \n 10 11 -1 0",
        },
        columns={0: "1 / 2 / 3"},
        draw=(7, 5, 5),
    )
    state, events = play(state, (0, DRAW))
    assert events[-1].payload["knock_window"] == [1, 2, 3]
    state, events = play(
        state,
        (1, PASS),
        (2, {"type": "knock"}),
        (3, PASS),
        (0, {"type": "give", "to": 2}),
        (2, {"type": "place", "cell": cell(3, 0, 3)}),
        (0, {"type": "take", "cell": cell(2, 0, 0)}),
        (0, {"type": "put", "cell": cell(0, 1, 0)}),
    )
    assert "triples_removed" not in types(events)
    assert of_type(events, "round_end_triggered").payload == {
        "trigger": 2,
        "final_turns": [1, 3, 0],
        "forced": False,
    }
    geo = geometry(4)
    assert not state.down & geo.area_mask[3]  # seat 3 is finished too
    assert GAME.to_act(state) == (1,)
    for seat, target in ((1, (1, 0, 0)), (3, (3, 1, 0)), (0, (0, 2, 0))):
        state, events = play(
            state, (seat, {"type": "take_discard", "cell": cell(*target)})
        )
        assert "round_end_triggered" not in types(events)
    scored = of_type(events, "round_scored").payload
    assert scored["trigger"] == 2 and not scored["forced"]
