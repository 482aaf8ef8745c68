"""The rules show no audience a card it has not seen, under every option.

Seeded random matches of each game, across table sizes and the options that
change what is hidden (face-down discards, reshuffles, the partner reveal,
knock exchanges, custom decks ...), checked after every move by the oracle of
``tests/rules/leak_oracle.py``, which works out what each seat and a spectator
have seen from the full events and the rules' "what each player sees" tables,
never from ``redact`` or ``view``:

- every seat's and the spectator's view, legal actions and redacted events;
- the refusal a seat gets for a move naming a card it has not seen: the same
  whatever the card is and wherever it lies (another hand, the stock, put
  aside), so that probing moves learn nothing.

The web layer serves exactly these values (``tests/games/test_leak_oracle.py``
checks every payload built from them); this test covers many more matches.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import rules
from tests.rules.leak_oracle import (
    Knowledge,
    alkort_exchange_seed,
    allegra_poisoned,
    cards_in_json,
    cards_in_text,
    knowledge,
    last_deal_end,
    poison_in_json,
    random_move,
)

ALAGER = [
    (2, {"end_mode": "fixed_deals", "num_deals": 3, "max_turns_per_deal": 12}),
    (3, {"a1_discard_to": "stock_bottom", "max_turns_per_deal": 20, "num_deals": 2,
         "end_mode": "fixed_deals"}),
    (4, {"replenish_shuffle": True, "deck": 32, "hori_enabled": True,
         "end_mode": "fixed_deals", "num_deals": 3, "max_turns_per_deal": 30}),
    (5, {"konec_after_exchange": True, "deal_pattern": "single", "konec_min_round": 2,
         "end_mode": "elimination", "penalty_limit": 2, "max_turns_per_deal": 15}),
    (8, {"deck": 32, "replenish_shuffle": True, "end_mode": "fixed_deals",
         "num_deals": 2, "max_turns_per_deal": 60}),
    (7, {"deck": 32, "a1_discard_to": "stock_bottom", "end_mode": "fixed_deals",
         "num_deals": 2, "max_turns_per_deal": 60}),
]  # fmt: skip
ALKORT = [
    (2, {"target": 12}),
    (4, {"target": 12}),
    (4, {"target": 8, "lead_rule": "winner", "seven_rule": "player_has_trick"}),
    (4, {"target": 6, "partner_reveal": False, "play_out_all_tricks": True}),
    (2, {"target": 8, "seven_rule": "player_has_trick", "lead_rule": "winner"}),
]
ALLEGRA = [
    (2, {"rounds": 2, "max_turns_per_round": 20}),
    (3, {"rounds": 1, "triple_cards_to": "discard", "long_run_rule": "leftmost3"}),
    (4, {"rounds": 2, "max_turns_per_round": 25, "trigger_mode": "active_only"}),
    (5, {"rounds": 1, "deck_composition": {"1": 30, "2": 30, "3": 15}}),
    (2, {"rounds": 2, "deck_composition": {"-2": 5, "4": 10, "7": 10, "9": 5}}),
    (6, {"rounds": 1, "deck": "published", "remove_triples_on_final_reveal": True,
         "max_turns_per_round": 15}),
]  # fmt: skip
SEEDS = range(4)


def _ids(cases: list[tuple[int, dict[str, Any]]]) -> list[str]:
    return [f"{n}p-{i}" for i, (n, _) in enumerate(cases)]


def _playout(
    name: str, players: int, options: dict[str, Any], seed: int, limit: int = 1500
) -> tuple[rules.Game[Any], list[list[rules.Event]], random.Random]:
    """A random match: the events after the start and after each move."""
    game = rules.get_game(name)
    rng = random.Random(f"leak-{name}-{players}-{seed}")
    secret = f"leak-{seed}"
    if name == "alkort":  # a first deal someone may exchange (1 hand in 200)
        secret = alkort_exchange_seed(players, options, seed)
    events = game.start(players=players, options=options, seed=secret)
    state = game.replay(events)
    logs = [list(events)]
    while (to_act := game.to_act(state)) and len(logs) < limit:
        seat = rng.choice(list(to_act))
        action = random_move(name, game.legal_actions(state, seat), rng)
        new = game.decide(state, seat, action)
        for event in new:
            state = game.evolve(state, event)
        events = events + new
        logs.append(list(events))
    return game, logs, rng


def _check_cards(know: Knowledge, who: Any, seq: int, label: str, value: Any) -> None:
    leaked = know.unseen(who, seq, cards_in_json(value))
    assert not leaked, f"{label} at seq {seq} shows {who} {sorted(leaked)}: {value}"


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    ("name", "case"),
    [("alager", c) for c in ALAGER] + [("alkort", c) for c in ALKORT],
    ids=[f"alager-{i}" for i in _ids(ALAGER)] + [f"alkort-{i}" for i in _ids(ALKORT)],
)
def test_views_events_and_refusals_name_no_unseen_card(
    name: str, case: tuple[int, dict[str, Any]], seed: int
) -> None:
    players, options = case
    game, logs, rng = _playout(name, players, options, seed)
    final = logs[-1]
    know = knowledge(name, final)
    audiences = [None, *range(players)]
    for who in audiences:
        for at, event in enumerate(final, start=1):
            shown = game.redact(event, who).to_json()
            _check_cards(know, who, at, f"{event.type} redacted", shown)
    hidden_any = 0
    for events in logs:
        seq = len(events)
        state = game.replay(events)
        for who in audiences:
            view = game.view(state, who)
            last = view.pop("last_deal", None)
            _check_cards(know, who, seq, "view", view)
            if last is not None:
                at = last_deal_end(final, seq)
                _check_cards(know, who, at, "last_deal", last)
            if who is not None and who in game.to_act(state):
                legal = game.legal_actions(state, who)
                _check_cards(know, who, seq, "legal actions", legal)
            hidden_any += len(know.unseen(who, seq, set(know.deck)))
        if rng.random() < 0.2:
            _probe(game, state, know, seq, rng)
    assert hidden_any > 0, "nothing was ever hidden: the test proves nothing"


def _probe(
    game: rules.Game[Any], state: Any, know: Knowledge, seq: int, rng: random.Random
) -> None:
    """Moves naming cards a seat has not seen are refused alike, whatever the
    card and wherever it lies, and the refusal names no other unseen card."""
    for seat in range(len(state.hands)):
        seen = know.seen[seat][seq]
        if seen is None:
            return
        own = set(state.hands[seat])
        unseen = sorted(know.deck - seen)
        sample = rng.sample(unseen, min(8, len(unseen)))
        sample += rng.sample(sorted(seen - own), min(3, len(seen - own)))
        legal = {json.dumps(a, sort_keys=True) for a in game.legal_actions(state, seat)}
        for template in _templates(game.name, state, seat):
            answers = set()
            for card in sample:
                action = template(card)
                if json.dumps(action, sort_keys=True) in legal:
                    continue
                with pytest.raises(rules.RulesError) as refused:
                    game.decide(state, seat, action)
                message = str(refused.value).replace(card, "<card>")
                answers.add((refused.value.code, message))
                leaked = know.unseen(seat, seq, cards_in_text(message))
                assert not leaked, f"refusal {message!r} names {sorted(leaked)}"
            assert len(answers) <= 1, f"seat {seat}: refusals differ: {answers}"


def _templates(name: str, state: Any, seat: int) -> list[Any]:
    if name == "alkort":
        return [
            lambda c: {"type": "play", "card": c},
            lambda c: {"type": "exchange", "keep": c},
        ]
    hand, table = state.hands[seat], state.table
    out: list[Any] = [lambda c: {"type": "draw", "discard": c}]
    if table:
        out.append(lambda c: {"type": "swap", "give": c, "take": table[0]})
    if hand:
        out.append(lambda c: {"type": "swap", "give": hand[0], "take": c})
    return out


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("case", ALLEGRA, ids=_ids(ALLEGRA))
def test_allegra_views_events_and_refusals_carry_no_hidden_card(
    case: tuple[int, dict[str, Any]], seed: int
) -> None:
    players, options = case
    game, logs, rng = _playout("allegra", players, options, seed)
    audiences = [None, *range(players)]
    checked = 0
    for events in logs:
        if rng.random() > 0.25:
            continue
        poisoned = allegra_poisoned(events)
        state = game.replay(poisoned.events)
        for who in audiences:
            allowed = poisoned.allowed(who)
            shown: list[Any] = [game.view(state, who)]
            shown += [game.redact(e, who).to_json() for e in poisoned.events]
            if who is not None and who in game.to_act(state):
                shown.append(game.legal_actions(state, who))
                shown += _refusals(game, state, who, rng)
            for value in shown:
                found = poison_in_json(value)
                assert not found - allowed, f"{who} is shown hidden cards: {value}"
        checked += len(poisoned.values)
    assert checked > 0, "nothing was ever hidden: the test proves nothing"


def _refusals(
    game: rules.Game[Any], state: Any, seat: int, rng: random.Random
) -> list[str]:
    """The messages of moves ``seat`` may not make now, on random cells."""
    legal = {json.dumps(a, sort_keys=True) for a in game.legal_actions(state, seat)}
    messages = []
    for kind in ("reveal", "take_discard", "swap", "discard", "place", "take", "put"):
        for _ in range(3):
            cell = {
                "seat": rng.randrange(state.players),
                "row": rng.randrange(3),
                "col": rng.randrange(4),
            }
            action = {"type": kind, "cell": cell}
            if json.dumps(action, sort_keys=True) in legal:
                continue
            try:
                game.decide(state, seat, action)
            except rules.RulesError as refused:
                messages.append(str(refused))
    return messages
