"""§8.1's decisions on what is a line triple, and §8.3's triples formed for a
player who did not move (docs/rules/allegra.md §8)."""

from .helpers import area_sum, cell, of_type, play, position, types

TAKE = "take_discard"


def test_three_equal_cards_that_are_not_adjacent_are_no_triple():
    """§8.1: three 7s at area-columns 0, 2 and 4 of Area(A)'s row 0 (B.c3, A.c1
    and A.c3) with other face-up cards between them stay on the table."""
    state = position(
        3,
        grids={0: "5 7 6 (2) \n (3) (4) (5) (6) \n (8) (9) (10) (11)"},
        cells={(1, 0, 3): "7"},
        discard=(7,),
    )
    state, events = play(state, (0, {"type": TAKE, "cell": cell(0, 0, 3)}))
    assert types(events) == ["discard_taken", "turn_ended"]
    assert [state.cards[i] for i in (15, 0, 1, 2, 3)] == [7, 5, 7, 6, 7]


def test_a_diagonal_is_no_triple():
    """§8.1: diagonals never count."""
    state = position(
        3,
        grids={0: "7 (1) (2) (3) \n (4) 7 (5) (6) \n (8) (9) (10) (11)"},
        discard=(7,),
    )
    state, events = play(state, (0, {"type": TAKE, "cell": cell(0, 2, 2)}))
    assert types(events) == ["discard_taken", "turn_ended"]
    assert state.cards[4 * 2 + 2] == 7


def test_a_triple_in_another_players_area_is_removed_too():
    """§8.3: A's swap into A.c3 completes the window {0, 1, 2} of Area(C)'s row 0
    (A[0][3], C[0][0], C[0][1]); it is removed though A did not play into his own
    row triple, and A's column 3 loses the card in both areas."""
    state = position(
        3,
        grids={2: "4 4 (1) (2) \n (3) (5) (6) (7) \n (8) (9) (10) (11)"},
        discard=(4,),
    )
    before = [area_sum(state, p) for p in range(3)]
    state, events = play(state, (0, {"type": TAKE, "cell": cell(0, 0, 3)}))
    assert of_type(events, "triples_removed").payload["cells"] == [
        cell(0, 0, 3),
        cell(2, 0, 0),
        cell(2, 0, 1),
    ]
    after = [area_sum(state, p) for p in range(3)]
    # A gave up the face-down filler 0 at A[0][3]; the 4 placed there is gone too.
    assert [b - a for b, a in zip(before, after, strict=True)] == [0, 0, 8]
