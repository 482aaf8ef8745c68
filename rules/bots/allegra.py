"""Allegra bots: a casual player's heuristic and a determinised Monte Carlo search.

Both see only a :class:`rules.bots.BotInput` (the seat's view, its legal actions
and the history redacted for that seat), and both answer whenever their seat is
in ``to_act`` — the knock window included.

- ``basic`` (:mod:`rules.bots.allegra_heuristic`) lowers its area sum, chases
  triples, avoids ending a round it is not winning, knocks for a card that
  completes a triple, and gives a drawn card when the card it takes back is
  worth more.
- ``strong`` ranks the legal actions with that heuristic, keeps the best few,
  and plays each of them in many sampled worlds (:mod:`rules.allegra.determinise`:
  the unseen cards dealt at random among the unseen places), continuing with
  ``basic`` for every seat for a couple of table rounds or to the round's end,
  whose score (doubling included) is exact. The action with the best average
  result is chosen. The budget is a number of rollouts (deterministic given the
  rng), with a time cap as a safety net.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from rules.allegra import decide as deciding
from rules.allegra import knock
from rules.allegra.determinise import Determiniser
from rules.allegra.evolve import evolve
from rules.allegra.geometry import geometry
from rules.allegra.options import standard_deck_for
from rules.allegra.scoring import round_scores
from rules.allegra.state import AllegraState
from rules.bots import BotInput, Policy
from rules.bots.allegra_heuristic import (
    DRAW,
    Table,
    best,
    give_value,
    knock_worth,
    reveal_choice,
    score_actions,
    take_value,
)
from rules.core import Action


def _cell_index(cell: dict[str, int] | None) -> int | None:
    return None if cell is None else 12 * cell["seat"] + 4 * cell["row"] + cell["col"]


class BasicPolicy(Policy):
    """The casual player's heuristic (see the module docstring)."""

    level = "basic"

    def choose(self, inp: BotInput, rng: random.Random) -> Action:
        """The heuristic's action for this position."""
        legal = inp.legal
        if len(legal) == 1:
            return dict(legal[0])
        view = inp.view
        table = Table.from_view(view)
        phase = view["phase"]
        if phase == "initial_reveal":
            return reveal_choice(table, inp.seat, legal, rng)
        return best(legal, _view_scores(table, inp.seat, view, legal))


def _view_scores(
    table: Table, seat: int, view: dict[str, object], legal: Sequence[Action]
) -> list[float]:
    knock = view["knock"] or {}
    assert isinstance(knock, dict)
    pile = view["discard_pile"]
    assert isinstance(pile, list)
    drawn = view["drawn"]
    active = view["active"]
    assert isinstance(active, int) and (drawn is None or isinstance(drawn, int))
    return score_actions(
        table,
        seat,
        str(view["phase"]),
        legal,
        top=pile[-1] if pile else None,
        drawn=drawn,
        active=active,
        k1=_cell_index(knock.get("k1")),
        taken=knock.get("taken"),
    )


# ---------------------------------------------------------------- rollouts


def _deck_mean(state: AllegraState) -> float:
    deck = standard_deck_for(state.rules)
    return sum(deck) / len(deck)


def rollout_action(state: AllegraState, seat: int, mean: float) -> Action:
    """``basic`` on a full (sampled) state, reading no face-down value.

    The same scores as :func:`score_actions`, computed on cell indices so that
    a rollout builds only the action it plays.
    """
    phase = state.phase
    geo = geometry(state.players)
    cell = geo.cell
    cards, down = state.cards, state.down
    table = Table(state.players, cards, down, mean, state.trigger)
    area = geo.area[seat]
    if phase == "initial_reveal":
        hidden = [i for i in area if down >> i & 1]
        own = [i for i in hidden if i // 12 == seat and i % 4 != 3]
        return {"type": "reveal", "cell": cell((own or hidden)[0])}
    if phase == "knock_window":
        assert state.drawn is not None
        worth = knock_worth(table, seat, state.drawn)
        return {"type": "knock"} if worth > 0 else {"type": "pass"}
    occupied = [i for i in area if cards[i] is not None]
    if phase == "turn_start":
        can_draw = bool(state.draw) or len(state.discard) > 1
        best_i, best_g = -1, -1e9
        if state.discard:
            top = state.discard[-1]
            for i in occupied:
                g = table.place(seat, i, top)[0]
                if down >> i & 1:
                    g += table.finishing(seat, i)
                if g > best_g:
                    best_i, best_g = i, g
        if can_draw and (DRAW if state.trigger is None else DRAW - 0.5) > best_g:
            return {"type": "draw"}
        if best_i >= 0:
            return {"type": "take_discard", "cell": cell(best_i)}
        return {"type": "pass"}
    k = state.knock
    if phase == "decide_deck_card":
        drawn = state.drawn
        assert drawn is not None
        choice: Action = {"type": "discard"}
        best_g = -1e9
        for i in occupied:
            g = table.place(seat, i, drawn)[0]
            if down >> i & 1:
                g += table.finishing(seat, i)
            if g > best_g:
                choice, best_g = {"type": "swap", "cell": cell(i)}, g
        if down & geo.area_mask[seat]:
            for i in area:
                if down >> i & 1:
                    g = table.flip_value(seat, i)
                    if g > best_g:
                        choice, best_g = {"type": "discard", "flip": cell(i)}, g
        elif best_g < 0.0:
            choice, best_g = {"type": "discard"}, 0.0
        for knocker in k.knockers if k else ():
            g = give_value(table, seat, knocker, drawn)
            if g > best_g:
                choice, best_g = {"type": "give", "to": knocker}, g
        return choice
    assert k is not None and k.knocker is not None
    if phase == "knocker_place":
        assert state.drawn is not None
        options = knock.k1_choices(geo, cards, state.active, seat)
        gains = [table.place(seat, i, state.drawn)[0] for i in options]
        return {"type": "place", "cell": cell(options[_argmax(gains)])}
    assert k.k1 is not None
    if phase == "drawer_take":
        options = knock.k2_choices(geo, cards, seat, k.knocker, k.k1)
        gains = [take_value(table, seat, i, k.k1) for i in options]
        return {"type": "take", "cell": cell(options[_argmax(gains)])}
    assert k.taken is not None
    options = knock.a1_choices(geo, cards, seat, k.k1)
    gains = [table.place(seat, i, k.taken)[0] for i in options]
    return {"type": "put", "cell": cell(options[_argmax(gains)])}


def _argmax(values: Sequence[float]) -> int:
    return max(range(len(values)), key=values.__getitem__)


def _apply(state: AllegraState, seat: int, action: Action) -> AllegraState:
    for event in deciding.decide(state, seat, action):
        state = evolve(state, event)
    return state


def evaluate(state: AllegraState, seat: int, others_weight: float) -> float:
    """Higher is better for ``seat``: its round score, and a little of the others'."""
    n = state.players
    area = geometry(n).area
    raw = [sum(state.cards[i] or 0 for i in area[p]) for p in range(n)]
    scores = raw
    if state.trigger is not None:
        scores, _ = round_scores(state.rules, raw, state.trigger)
    others = sum(scores) - scores[seat]
    return -scores[seat] + others_weight * others / (n - 1)


def rollout(
    state: AllegraState,
    seat: int,
    action: Action,
    *,
    horizon: int,
    others_weight: float,
    mean: float,
) -> float:
    """Play ``action``, then ``basic`` for everyone for ``horizon`` turns or to the round's end."""
    played = len(state.results)
    state = _apply(state, seat, action)
    turns = 0
    while True:
        if len(state.results) > played:
            r = state.results[played]
            others = sum(r.scores) - r.scores[seat]
            return -r.scores[seat] + others_weight * others / (state.players - 1)
        acting = deciding.to_act(state)
        if not acting:  # pragma: no cover - results were recorded first
            break
        if state.phase == "turn_start":
            turns += 1
            if turns > horizon:
                break
        s = acting[0]
        state = _apply(state, s, rollout_action(state, s, mean))
    return evaluate(state, seat, others_weight)


class StrongPolicy(Policy):
    """Determinised rollouts over the heuristic's best few actions.

    ``rollouts`` is the budget per decision, shared among the candidates;
    ``candidates`` how many of the heuristic's best actions are searched;
    ``horizon`` how many turns a rollout plays before the table is scored
    (``None``: two table rounds); ``time_cap`` (seconds) stops early on a slow
    machine.
    """

    level = "strong"

    def __init__(
        self,
        rollouts: int = 120,
        candidates: int = 4,
        horizon: int | None = None,
        time_cap: float = 0.75,
        others_weight: float = 0.3,
    ) -> None:
        self.rollouts = rollouts
        self.candidates = candidates
        self.horizon = horizon
        self.time_cap = time_cap
        self.others_weight = others_weight

    def choose(self, inp: BotInput, rng: random.Random) -> Action:
        """The candidate with the best mean result over sampled worlds."""
        legal = inp.legal
        if len(legal) == 1:
            return dict(legal[0])
        view = inp.view
        phase = view["phase"]
        table = Table.from_view(view)
        if phase == "initial_reveal":
            return reveal_choice(table, inp.seat, legal, rng)
        scores = _view_scores(table, inp.seat, view, legal)
        if phase == "knock_window" and max(scores) <= 0:
            return {"type": "pass"}  # no triple to complete: nothing to gain
        order = sorted(range(len(legal)), key=lambda k: -scores[k])
        cands = [legal[k] for k in order[: self.candidates]]
        det = Determiniser(view, inp.history)
        horizon = self.horizon if self.horizon is not None else 2 * view["players"]
        totals = [0.0] * len(cands)
        deadline = time.perf_counter() + self.time_cap
        worlds = max(1, self.rollouts // len(cands))
        mean = 0.0
        for _ in range(worlds):
            world = det.sample(rng)
            if not mean:
                mean = _deck_mean(world)
            for k, action in enumerate(cands):
                totals[k] += rollout(
                    world,
                    inp.seat,
                    action,
                    horizon=horizon,
                    others_weight=self.others_weight,
                    mean=mean,
                )
            if time.perf_counter() > deadline:
                break
        top = max(range(len(cands)), key=totals.__getitem__)
        return dict(cands[top])


POLICIES: dict[str, type[Policy]] = {"basic": BasicPolicy, "strong": StrongPolicy}
