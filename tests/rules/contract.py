"""The contract test every game passes, and the strict refusal helper.

``check_playouts`` plays seeded random matches to the end, choosing uniformly
among ``legal_actions``, and checks at every step what docs/rules-api.md and docs/architecture.md (hidden information)
promise: legal actions exist until the outcome is set, every legal action is
accepted, replay equals the live state, every card is accounted for exactly once,
events, views and states survive a JSON round trip, every shuffle verifies and
has its documented key (deal ``j`` key ``j``, reshuffle ``m`` key ``"r<m>"``),
no seat's payloads change when the cards it cannot see are reshuffled (no
hidden-information leak), and the seed, hidden from every seat while the match is
in play, is shown to every seat by ``match_ended``. Each
game's own ``test_contract.py`` calls it with its player counts and options.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

import rules
from rules.core import Event, Game, places_for


def roundtrip(value: Any) -> Any:
    return json.loads(json.dumps(value))


def assert_json_safe(value: Any) -> None:
    assert roundtrip(value) == value, f"not JSON-safe: {value!r}"


def assert_refused(
    game: Game[Any],
    state: Any,
    seat: int,
    action: Any,
    error: type[rules.RulesError],
    message: str,
) -> None:
    """``action`` by ``seat`` is refused with exactly ``error`` and ``message``.

    Strict on purpose: the error's class (not a subclass), the whole message a
    player reads, and the state unchanged afterwards (its JSON form, so a
    mutated tuple or dict inside it would show).
    """
    before = json.dumps(game.dump_state(state), sort_keys=True)
    try:
        game.decide(state, seat, action)
    except rules.RulesError as exc:
        assert type(exc) is error, f"{type(exc).__name__}: {exc}"
        assert str(exc) == message, str(exc)
    else:  # pragma: no cover - a failure path
        raise AssertionError(f"{action!r} by seat {seat} was accepted")
    assert json.dumps(game.dump_state(state), sort_keys=True) == before


def check_no_leak(
    game: Game[Any], events: list[Event], state: Any, rng: random.Random, secret: str
) -> None:
    """Views and redacted histories of every seat are blind to unseen cards."""
    seats: list[int | None] = [None, *range(_players(events))]
    for seat in seats:
        view = game.view(state, seat)
        redacted = [game.redact(e, seat) for e in events]
        if game.outcome(state) is None:
            blob = json.dumps([view, [e.to_json() for e in redacted]])
            assert secret not in blob, f"the seed leaked to seat {seat}"
        alt_events = game.resample_unseen(events, seat, rng)
        alt_state = game.replay(alt_events)
        assert game.view(alt_state, seat) == view, f"view of seat {seat} leaks"
        alt_redacted = [game.redact(e, seat) for e in alt_events]
        for a, b in zip(alt_redacted, redacted, strict=True):
            assert a == b, f"event {b.type} leaks to seat {seat}:\n{a}\n{b}"


def _players(events: list[Event]) -> int:
    return int(events[0].payload["players"])


def check_shuffle_keys(events: list[Event]) -> None:
    """Deal ``j`` of the match (from 0) has shuffle key ``j``; the ``m``-th
    reshuffle has ``"r<m>"`` (``rules/dealing.py``), so no two shuffles of a
    match share a byte stream."""
    deals = reshuffles = 0
    for event in events:
        p = event.payload
        if "shuffle" not in p:
            continue
        if p.get("reshuffle"):
            assert p["shuffle"] == f"r{reshuffles}", (event.type, p["shuffle"])
            reshuffles += 1
        else:
            assert p["shuffle"] == deals, (event.type, p["shuffle"], deals)
            deals += 1


def _recorded_scores(name: str, events: list[Event]) -> tuple[list[Any], bool]:
    """Each seat's score as the match's own results add up, and whether its
    places follow the scores alone (no tie-break of another kind)."""
    players = _players(events)
    options = events[0].payload["options"]
    if name == "alager":
        totals = [0] * players
        for e in events:
            if e.type == "alager.deal_ended":
                totals = [
                    t + c for t, c in zip(totals, e.payload["changes"], strict=True)
                ]
        return totals, options["end_mode"] != "elimination"
    if name == "alkort":
        sides = [0, 0]
        for e in events:
            if e.type == "alkort.deal_scored":
                sides[e.payload["side"]] += e.payload["points"]
                assert e.payload["scores"] == sides, "a deal's scores do not add up"
        return [sides[s % 2] for s in range(players)], True
    totals = [0] * players
    for e in events:
        if e.type == "allegra.round_scored":
            totals = [t + s for t, s in zip(totals, e.payload["scores"], strict=True)]
            assert e.payload["totals"] == totals, "a round's totals do not add up"
    return totals, options["game_tie_break"] == "shared"


def check_outcome(
    game: Game[Any], events: list[Event], outcome: Mapping[str, Any]
) -> None:
    """docs/rules-api.md "Outcome": the final event carries the outcome; places
    are sports-style; the scores are the sum of what each deal or round scored
    (Alager's penalties, Alkort's side points for both partners, Allegra's
    totals); and where no tie-break applies, the places follow the scores."""
    assert events[-1].payload["outcome"] == outcome
    places = outcome["places"]
    assert places == [1 + sum(1 for q in places if q < p) for p in places], places
    scores, by_score = _recorded_scores(game.name, events)
    assert outcome["scores"] == scores, (outcome["scores"], scores)
    if by_score:
        lower = game.lower_score_is_better
        assert places == places_for(scores, lower_is_better=lower), outcome


def check_playouts(
    game_name: str,
    players: int,
    options: Mapping[str, Any] | None = None,
    *,
    matches: int = 5,
    seed: int = 0,
    max_steps: int = 20_000,
    leak_every: int = 17,
    replay_every: int = 13,
    step_check: Callable[[Game[Any], Any], None] | None = None,
    require_types: tuple[str, ...] = (),
) -> Counter[str]:
    """Play ``matches`` random matches; return how often each event type occurred.

    ``step_check(game, state)`` adds game-specific invariants at every step;
    ``require_types`` lists event types that must occur at least once over all
    the matches (so that a playout that never knocks, say, cannot pass).
    """
    game = rules.get_game(game_name)
    seen: Counter[str] = Counter()
    for m in range(matches):
        rng = random.Random(f"{seed}:{m}")
        secret = f"contract-seed-{game_name}-{seed}-{m}-z9q"
        events = game.start(players=players, options=dict(options or {}), seed=secret)
        assert events[0].type == f"{game_name}.match_started"
        state = game.replay(events)
        full_deck = Counter(game.standard_deck(game.validate_options(options)))
        for step in range(max_steps):
            to_act = game.to_act(state)
            outcome = game.outcome(state)
            assert (outcome is None) == bool(to_act), (to_act, outcome)
            if step_check is not None:
                step_check(game, state)
            assert Counter(game.inventory(state)) == full_deck, "cards not conserved"
            if step % replay_every == 0:
                assert game.replay(events) == state, "replay differs from live state"
                assert game.load_state(roundtrip(game.dump_state(state))) == state
            if step % leak_every == 0:
                check_no_leak(game, events, state, rng, secret)
            for seat in [None, *range(players)]:
                assert_json_safe(game.view(state, seat))
            if not to_act:
                break
            idle = [s for s in range(players) if s not in to_act]
            if idle:
                seat = rng.choice(idle)
                try:
                    game.decide(state, seat, {"type": "pass"})
                except rules.NotYourTurn:
                    pass
                else:  # pragma: no cover - a failure path
                    raise AssertionError(f"seat {seat} acted out of turn")
                assert game.legal_actions(state, seat) == []
            seat = rng.choice(to_act)
            legal = game.legal_actions(state, seat)
            assert legal, f"seat {seat} is to act but has no legal action"
            for action in legal:
                assert_json_safe(action)
            if step % leak_every == 0:
                for action in legal:  # every listed action is accepted
                    game.decide(state, seat, action)
            action = rng.choice(legal)
            new = game.decide(state, seat, action)
            assert new, "an accepted action produced no event"
            for event in new:
                assert Event.from_json(roundtrip(event.to_json())) == event
                seen[event.type] += 1
                state = game.evolve(state, event)
            events.extend(new)
        else:
            raise AssertionError(f"match {m} did not end within {max_steps} steps")
        assert events[-1].type == f"{game_name}.match_ended"
        assert events[-1].payload["seed"] == secret
        for seat in [None, *range(players)]:  # the seed is public once the match ends
            assert game.redact(events[-1], seat).payload["seed"] == secret, seat
        assert game.replay(events) == state
        check_no_leak(game, events, state, rng, secret)
        report = game.verify(events)
        assert report["ok"], report
        check_shuffle_keys(events)
        outcome = game.outcome(state)
        assert outcome is not None and set(outcome) >= {"scores", "places", "winners"}
        assert len(outcome["scores"]) == players and len(outcome["places"]) == players
        assert outcome["winners"] == [
            s for s in range(players) if outcome["places"][s] == 1
        ]
        check_outcome(game, events, outcome)
    missing = [t for t in require_types if not seen[t]]
    assert not missing, f"random playouts never produced {missing}"
    return seen
