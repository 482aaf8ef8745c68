"""Who is asked in a knock window (docs/rules/allegra.md §7.3, §7.4, §9.2).

The window is open to every non-active player who could complete an exchange
(``canBeGiven``), when the table has at least ``knock_min_players`` players;
that includes the round's trigger and players who have had their final turn.
"""

import pytest

from rules.allegra import GAME
from rules.core import NotYourTurn
from tests.rules.contract import assert_refused

from .helpers import cell, of_type, play, position, types
from .test_examples import example_7

DRAW = {"type": "draw"}
PASS = {"type": "pass"}
KNOCK = {"type": "knock"}


@pytest.mark.parametrize(
    ("players", "minimum", "window"),
    [
        (2, 2, [1]),
        (2, 3, []),
        (3, 3, [1, 2]),
        (6, 6, [1, 2, 3, 4, 5]),
        (6, 7, []),
    ],
)
def test_knock_min_players_opens_or_closes_the_window(players, minimum, window):
    options = {"deck": "published", "knock_min_players": minimum}
    state = position(players, draw=(7, 5), options=options)
    state, events = play(state, (0, DRAW))
    assert events[-1].payload["knock_window"] == window
    if window:
        assert state.phase == "knock_window" and GAME.to_act(state) == tuple(window)
    else:  # no window: the drawer decides at once and nobody may knock
        assert state.phase == "decide_deck_card" and GAME.to_act(state) == (0,)
        assert_refused(
            GAME,
            state,
            1,
            KNOCK,
            NotYourTurn,
            "You can knock only on a card just drawn from the deck; seat 0 is to act",
        )


def test_a_player_who_could_not_complete_an_exchange_is_not_asked():
    """Area(2) holds one card: no k1 != k2 exists, so seat 2 cannot be given the card."""
    holes = {(2, r, c): "--" for r in range(3) for c in range(4)}
    holes |= {(0, r, 3): "--" for r in range(3)}
    holes[(2, 0, 0)] = "(3)"
    state = position(3, cells=holes, draw=(7, 5))
    state, events = play(state, (0, DRAW))
    assert events[-1].payload["knock_window"] == [1]
    assert_refused(
        GAME,
        state,
        2,
        KNOCK,
        NotYourTurn,
        "You cannot knock on this card: no exchange with you could be completed",
    )


def test_the_trigger_and_a_player_done_with_his_final_turn_may_knock():
    """§7.4 "Who may knock" and §9.2, on Example 7's table: D (3) is the trigger;
    A (0) plays his final turn; on B's final draw A, C and D are all asked, D
    knocks and receives the card; C then plays the last final turn and D never
    plays again."""
    state, _ = example_7()
    assert (state.trigger, GAME.to_act(state)) == (3, (0,))
    state, _ = play(state, (0, {"type": "take_discard", "cell": cell(0, 0, 0)}))
    state, events = play(state, (1, DRAW))
    assert events[-1].payload["knock_window"] == [0, 2, 3]
    state, events = play(state, (0, PASS), (3, KNOCK), (2, PASS))
    assert events[-1].payload == {"knockers": [3]}
    state, events = play(
        state,
        (1, {"type": "give", "to": 3}),
        (3, {"type": "place", "cell": cell(3, 0, 0)}),
        (1, {"type": "take", "cell": cell(3, 1, 1)}),
        (1, {"type": "put", "cell": cell(1, 0, 0)}),
    )
    assert of_type(events, "turn_ended").payload == {"seat": 1, "next": 2}
    assert "round_end_triggered" not in types(events)
    state, events = play(state, (2, {"type": "take_discard", "cell": cell(2, 0, 0)}))
    scored = of_type(events, "round_scored").payload
    assert scored["trigger"] == 3 and state.round == 2


def test_with_several_knockers_the_drawer_chooses_and_the_others_are_untouched():
    state = position(3, draw=(7, 5))
    state, events = play(state, (0, DRAW), (2, KNOCK), (1, KNOCK))
    assert events[-1].payload == {"knockers": [1, 2]}
    gives = [a for a in GAME.legal_actions(state, 0) if a["type"] == "give"]
    assert gives == [{"type": "give", "to": 1}, {"type": "give", "to": 2}]
    area_1 = [state.cards[i] for i in range(12, 24)], state.down
    state, events = play(
        state,
        (0, {"type": "give", "to": 2}),
        (2, {"type": "place", "cell": cell(2, 0, 0)}),
        (0, {"type": "take", "cell": cell(2, 1, 1)}),
        (0, {"type": "put", "cell": cell(0, 0, 0)}),
    )
    assert [state.cards[i] for i in range(12, 24)] == area_1[0]
    assert state.down >> 12 & 0xFFF == area_1[1] >> 12 & 0xFFF
    assert of_type(events, "turn_ended").payload == {"seat": 0, "next": 1}
