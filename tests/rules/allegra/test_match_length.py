"""An Allegra round never lasts more than MAX_TURNS_PER_ROUND turns, even with no limit.

``max_turns_per_round = null`` means "no limit" in the rules; the engine still
ends such a round as a forced end after MAX_TURNS_PER_ROUND turns
(docs/rules-decisions.md, Allegra E-19). With at most 20 rounds, every match
is bounded.
"""

from rules.allegra import GAME, options, rounds


def test_the_cap_is_a_thousand_turns():
    assert options.MAX_TURNS_PER_ROUND == rounds.MAX_TURNS_PER_ROUND == 1000
    assert GAME.options_schema()["rounds"]["max"] == 20


def test_a_round_with_no_limit_is_forced_to_end_at_the_cap(monkeypatch):
    monkeypatch.setattr(rounds, "MAX_TURNS_PER_ROUND", 4)
    events = GAME.start(2, options={"max_turns_per_round": None, "rounds": 1}, seed=3)
    state = GAME.replay(events)
    while GAME.to_act(state):
        seat = GAME.to_act(state)[0]
        # Discarding the drawn card without turning anything never finishes a grid.
        legal = GAME.legal_actions(state, seat)
        quiet = [a for a in legal if a.get("flip", "") is None]
        state, new = GAME.apply(state, seat, quiet[0] if quiet else legal[0])
        events += new
    triggered = [e.payload for e in events if e.type == "allegra.round_end_triggered"]
    assert triggered == [
        {"trigger": triggered[0]["trigger"], "final_turns": [], "forced": True}
    ]
    scored = [e.payload for e in events if e.type == "allegra.round_scored"]
    assert len(scored) == 1 and scored[0]["forced"] is True
    assert state.turn == 3  # the fourth turn ended the round
