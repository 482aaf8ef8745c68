"""End of turn, round end and the deals (ALLEGRA.md §5, §7.5, §9, §10, §12).

These functions build events; :mod:`.evolve` applies them. ``decide`` calls
:func:`end_of_turn` with the table as it is after the turn's own events, so the
triples, the trigger, the next player, the round scoring and the next deal are
all decided once and recorded as facts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.allegra.geometry import Geometry, geometry
from rules.allegra.options import MAX_TURNS_PER_ROUND, Rules, standard_deck_for
from rules.allegra.state import AllegraState, RoundResult
from rules.allegra.triples import find_triples
from rules.core import Event, match_ended, outcome_from_scores
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
        "allegra.triples_removed",
        1,
        {
            "cells": [geo.cell(i) for i in removed],
            "cards": values,
            "to": rules.triple_cards_to,
        },
    )


def end_of_turn(
    st: AllegraState,
    cards: list[int | None],
    down: int,
    changed: Sequence[int],
) -> list[Event]:
    """§7.5: resolve triples, check the trigger, pass the turn or score."""
    geo = geometry(st.players)
    rules = st.rules
    a = st.active
    events: list[Event] = []
    removed = find_triples(
        geo, cards, down, changed, leftmost3=rules.long_run_rule == "leftmost3"
    )
    if removed:
        events.append(triples_event(geo, rules, cards, removed))
    trigger = st.trigger
    queue = st.queue
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
            if st.turn + 1 >= limit:
                trigger, queue, forced = a, (), True
        if trigger is not None:
            events.append(
                Event(
                    "allegra.round_end_triggered",
                    1,
                    {"trigger": trigger, "final_turns": list(queue), "forced": forced},
                )
            )
    if trigger is None:
        nxt = geo.left[a]
    elif queue:
        nxt = queue[0]
    else:
        events.extend(end_of_round(st, cards, down, trigger, forced))
        return events
    events.append(Event("allegra.turn_ended", 1, {"seat": a, "next": nxt}))
    return events


def end_of_round(
    st: AllegraState,
    cards: list[int | None],
    down: int,
    trigger: int,
    forced: bool,
) -> list[Event]:
    """§10: final reveal, scoring, then the next deal or the match's end."""
    geo = geometry(st.players)
    rules = st.rules
    events: list[Event] = []
    hidden = [i for i in range(geo.size) if down >> i & 1]
    if hidden:
        events.append(
            Event(
                "allegra.round_revealed",
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
    raw = [sum(cards[i] or 0 for i in geo.area[p]) for p in range(st.players)]
    scores, doubled = round_scores(rules, raw, trigger)
    totals = [t + s for t, s in zip(st.totals, scores, strict=True)]
    result = RoundResult(st.round, trigger, forced, tuple(raw), tuple(scores), doubled)
    events.append(
        Event(
            "allegra.round_scored",
            1,
            {
                "round": st.round,
                "trigger": trigger,
                "forced": forced,
                "raw": raw,
                "scores": scores,
                "doubled": doubled,
                "totals": totals,
            },
        )
    )
    if st.round < rules.rounds:
        start = (
            trigger
            if rules.next_round_start == "trigger"
            else (rules.first_player + st.round) % st.players
        )
        events.append(deal_event(st.players, rules, st.chance, st.round + 1, start))
    else:
        results = (*st.results, result)
        events.append(
            match_ended(
                "allegra",
                outcome=outcome_for(rules, tuple(totals), results),
                seed=st.chance.seed,
            )
        )
    return events


def round_scores(
    rules: Rules, raw: Sequence[int], trigger: int
) -> tuple[list[int], bool]:
    """§10 step 3: the trigger's raw score is doubled unless it is the lowest.

    >>> round_scores(Rules(), [18, 32, 22], 2)
    ([18, 32, 44], True)
    >>> round_scores(Rules(), [22, 32, 22], 2)
    ([22, 32, 22], False)
    """
    mine = raw[trigger]
    others = [r for q, r in enumerate(raw) if q != trigger]
    if rules.tie_counts_as_lowest:
        not_lowest = any(r < mine for r in others)
    else:
        not_lowest = any(r <= mine for r in others)
    doubled = not_lowest and (mine > 0 or not rules.double_only_positive)
    scores = list(raw)
    if doubled:
        scores[trigger] = 2 * mine
    return scores, doubled


def deal_event(
    players: int, rules: Rules, chance: Chance, round_no: int, start: int
) -> Event:
    """§5: the next deck (given or shuffled from the seed), dealt as recorded."""
    deck, k, _ = chance.next_deal(standard_deck_for(rules))
    return Event(
        "allegra.round_dealt",
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


def outcome_for(
    rules: Rules, totals: tuple[int, ...], results: tuple[RoundResult, ...]
) -> dict[str, Any]:
    """§12: lowest total wins; ties shared or split by later rounds first."""
    if rules.game_tie_break == "shared":
        return outcome_from_scores(totals, lower_is_better=True)
    keys = [
        (t, *(r.scores[s] for r in reversed(results))) for s, t in enumerate(totals)
    ]
    places = [1 + sum(1 for o in keys if o < k) for k in keys]
    return outcome_from_scores(totals, lower_is_better=True, places=places)
