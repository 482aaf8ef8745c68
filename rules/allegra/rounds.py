"""End of turn, round end and the deals (docs/rules/allegra.md §5, §7.5, §9, §10, §12).

These functions build events; :mod:`.evolve` applies them. ``decide`` calls
:func:`end_of_turn` with the table as it is after the turn's own events, so the
triples, the trigger, the next player, the round scoring and the next deal are
all decided once and recorded as facts.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.allegra import events as ev
from rules.allegra.geometry import Geometry, geometry
from rules.allegra.options import MAX_TURNS_PER_ROUND, Rules, standard_deck_for
from rules.allegra.scoring import outcome_for, round_scores
from rules.allegra.state import AllegraState, RoundResult
from rules.allegra.triples import find_triples
from rules.core import Event, match_ended
from rules.dealing import Chance


def triples_event(
    geo: Geometry, rules: Rules, cards: list[int | None], removed: Sequence[int]
) -> Event:
    """Record ``removed`` and take the cards out of ``cards`` (mutated)."""
    values = []
    for i in removed:
        values.append(cards[i])
        cards[i] = None
    return Event(
        ev.TRIPLES_REMOVED,
        1,
        {
            "cells": [geo.cell(i) for i in removed],
            "cards": values,
            "to": rules.triple_cards_to,
        },
    )


def end_of_turn(
    state: AllegraState,
    cards: list[int | None],
    down: int,
    changed: Sequence[int],
) -> list[Event]:
    """§7.5: resolve triples, check the trigger, pass the turn or score."""
    geo = geometry(state.players)
    rules = state.rules
    a = state.active
    events: list[Event] = []
    removed = find_triples(
        geo, cards, down, changed, leftmost3=rules.long_run_rule == "leftmost3"
    )
    if removed:
        events.append(triples_event(geo, rules, cards, removed))
    trigger = state.trigger
    queue = state.queue
    forced = False
    if trigger is None:
        order = (a,) if rules.trigger_mode == "active_only" else geo.turn_order[a]
        for p in order:
            if not down & geo.area_mask[p]:
                trigger = p
                queue = tuple(q for q in geo.turn_order[a][1:] + (a,) if q != p)
                break
        else:
            limit = rules.max_turns_per_round
            if limit is None:  # "no limit" still stops at the engine's cap
                limit = MAX_TURNS_PER_ROUND
            if state.turn + 1 >= limit:
                trigger, queue, forced = a, (), True
        if trigger is not None:
            events.append(
                Event(
                    ev.ROUND_END_TRIGGERED,
                    1,
                    {"trigger": trigger, "final_turns": list(queue), "forced": forced},
                )
            )
    if trigger is None:
        nxt = geo.left[a]
    elif queue:
        nxt = queue[0]
    else:
        events.extend(end_of_round(state, cards, down, trigger, forced))
        return events
    events.append(Event(ev.TURN_ENDED, 1, {"seat": a, "next": nxt}))
    return events


def end_of_round(
    state: AllegraState,
    cards: list[int | None],
    down: int,
    trigger: int,
    forced: bool,
) -> list[Event]:
    """§10: final reveal, scoring, then the next deal or the match's end."""
    geo = geometry(state.players)
    rules = state.rules
    events: list[Event] = []
    hidden = [i for i in range(geo.size) if down >> i & 1]
    if hidden:
        events.append(
            Event(
                ev.ROUND_REVEALED,
                1,
                {"cells": [{"cell": geo.cell(i), "card": cards[i]} for i in hidden]},
            )
        )
        if rules.remove_triples_on_final_reveal:
            removed = find_triples(
                geo,
                cards,
                0,
                range(geo.size),
                leftmost3=rules.long_run_rule == "leftmost3",
            )
            if removed:
                events.append(triples_event(geo, rules, cards, removed))
    raw = [sum(cards[i] or 0 for i in geo.area[p]) for p in range(state.players)]
    scores, doubled = round_scores(rules, raw, trigger)
    totals = [t + s for t, s in zip(state.totals, scores, strict=True)]
    result = RoundResult(
        state.round, trigger, forced, tuple(raw), tuple(scores), doubled
    )
    events.append(
        Event(
            ev.ROUND_SCORED,
            1,
            {
                "round": state.round,
                "trigger": trigger,
                "forced": forced,
                "raw": raw,
                "scores": scores,
                "doubled": doubled,
                "totals": totals,
            },
        )
    )
    if state.round < rules.rounds:
        start = (
            trigger
            if rules.next_round_start == "trigger"
            else (rules.first_player + state.round) % state.players
        )
        events.append(
            deal_event(state.players, rules, state.chance, state.round + 1, start)
        )
    else:
        results = (*state.results, result)
        events.append(
            match_ended(
                "allegra",
                outcome=outcome_for(rules, tuple(totals), results),
                seed=state.chance.seed,
            )
        )
    return events


def deal_event(
    players: int, rules: Rules, chance: Chance, round_no: int, start: int
) -> Event:
    """§5: the next deck (given, or the shuffle with key ``round_no - 1``)."""
    deck, k, _ = chance.next_deal(standard_deck_for(rules))
    return Event(
        ev.ROUND_DEALT,
        1,
        {
            "round": round_no,
            "start_seat": start,
            "deck": deck,
            "shuffle": k,
            "discard": deck[12 * players],
            "draw_pile": len(deck) - 12 * players - 1,
        },
    )
