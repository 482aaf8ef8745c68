"""Alkort bots: a casual player's heuristic and a determinised Monte Carlo search.

Both see only a :class:`rules.bots.BotInput` (the seat's view, its legal actions
and the history redacted for it).

- ``basic`` exchanges a weak hand (keeping a seven, else its best card), leads a
  seven once it has won a trick, leads a card nobody can beat when it holds
  one and otherwise its cheapest card, lets a partner's winning card stand, and
  beats an opponent with the cheapest card that does it.
- ``strong`` samples the hidden cards consistently with everything the seat has
  seen (:mod:`rules.alkort.determinise`), then, in each sampled world, tries
  every legal action and plays the deal out with the ``basic`` heuristic for
  everyone; the action with the best total result (points won or lost in the
  deal) is chosen. The budget is a number of rollouts (deterministic given the
  rng), with a time cap as a safety net.
"""

from __future__ import annotations

import random
import time
from collections.abc import Collection, Sequence

from rules.alkort import GAME, decide
from rules.alkort import events as ev
from rules.alkort.determinise import Determiniser
from rules.alkort.state import State, side_of
from rules.alkort.tables import DEAD, DECK, ORDER, RUBBISH, STRENGTH, SUPREME
from rules.alkort.tricks import beats, power
from rules.bots import BotInput, Policy
from rules.core import Action

_ALL = frozenset(DECK)


def _keep_value(card: str) -> float:
    if card[0] == "7":
        return 9.5  # an unbeatable lead once its holder has won a trick
    strength = STRENGTH[card]
    if strength:
        return strength + 1.0
    # Rubbish: twos and threes can still capture kings and queens.
    return {"2": 0.6, "3": 0.4}.get(card[0], 0.0) + ORDER[card] / 1000


#: How much a card is worth keeping: the cheapest is played or thrown first.
KEEP: dict[str, float] = {c: _keep_value(c) for c in DECK}


def pick_card(
    playable: Sequence[str],
    *,
    seat: int,
    players: int,
    leader: int,
    trick: Sequence[str],
    has_won: Sequence[bool],
    seven_rule: str,
    out: Collection[str],
) -> str:
    """The heuristic card choice (shared by ``basic`` and the search's rollouts).

    ``out`` holds the cards that other players might still play.
    """
    keep = KEEP.__getitem__
    cheapest = min(playable, key=keep)
    mine = has_won[seat]
    if not trick:
        sevens = [c for c in playable if c[0] == "7"]
        if sevens and mine:
            return sevens[0]
        safe = _Threats(out, seven_rule).safe
        sure = [c for c in playable if c[0] != "7" and safe(c, True, mine)]
        return min(sure, key=keep) if sure else cheapest
    # Who is winning the trick so far?
    best, best_power = 0, power(trick[0], True, has_won[leader], seven_rule)
    for i in range(1, len(trick)):
        p = power(trick[i], False, has_won[(leader + i) % players], seven_rule)
        if beats(trick[i], p, trick[best], best_power):
            best, best_power = i, p
    if players == 4 and (leader + best) % players == (seat + 2) % 4:
        return cheapest  # the partner is winning: let the card stand
    top = trick[best]
    winning = [
        c
        for c in playable
        if beats(c, power(c, False, mine, seven_rule), top, best_power)
    ]
    if not winning:
        return cheapest
    if len(trick) < players - 1:  # opponents still to play after this card
        safe = _Threats(out, seven_rule).safe
        sure = [c for c in winning if safe(c, False, mine)]
        if sure:
            return min(sure, key=keep)
    return min(winning, key=keep)


class _Threats:
    """What the cards still out could do to a card (a summary, for speed)."""

    __slots__ = ("captures", "live_sevens", "ranked", "seven_rule")

    def __init__(self, out: Collection[str], seven_rule: str) -> None:
        self.seven_rule = seven_rule
        # Other players' sevens are dead when they follow, except under V2
        # (assume the worst: they have won a trick).
        self.live_sevens = seven_rule == "player_has_trick" and any(
            c[0] == "7" for c in out
        )
        self.ranked = max((STRENGTH[c] for c in out if c[0] != "7"), default=0)
        self.captures = {c[0] for c in out if c[0] in "23" and STRENGTH[c] == 0}

    def safe(self, card: str, led: bool, mine: bool) -> bool:
        """No card still out could beat ``card`` once it is played."""
        p = power(card, led, mine, self.seven_rule)
        if p == SUPREME:
            return True
        if self.live_sevens or p == DEAD:
            return False
        if p > RUBBISH:
            return p >= self.ranked  # an equal card played later loses
        if self.ranked:
            return False
        rank = card[0]
        return not (rank == "K" and "2" in self.captures) and not (
            rank == "Q" and self.captures
        )


def exchange_choice(legal: Sequence[Action]) -> Action:
    """Exchange when allowed, keeping a seven (else the most valuable card)."""
    keeps = [a["keep"] for a in legal if a["type"] == "exchange"]
    if not keeps:
        return {"type": "pass"}
    return {"type": "exchange", "keep": max(keeps, key=KEEP.__getitem__)}


class BasicPolicy(Policy):
    """The casual player's heuristic (see the module docstring)."""

    level = "basic"

    def choose(self, inp: BotInput, rng: random.Random) -> Action:
        """The heuristic's action for this position."""
        legal = inp.legal
        if len(legal) == 1:
            return dict(legal[0])
        view = inp.view
        if view["phase"] == "exchange":
            return exchange_choice(legal)
        playable = [a["card"] for a in legal]
        seen = set(view["hand"] or ())
        for trick in view["tricks"]:
            seen.update(trick["cards"])
        trick = [t["card"] for t in view["trick"]]
        seen.update(trick)
        exchange = view["exchange"]
        if exchange.get("discards"):
            seen.update(exchange["discards"])
        card = pick_card(
            playable,
            seat=inp.seat,
            players=view["players"],
            leader=view["leader"],
            trick=trick,
            has_won=view["has_won"],
            seven_rule=view["options"]["seven_rule"],
            out=_ALL - seen,
        )
        return {"type": "play", "card": card}


def rollout_card(state: State, seat: int) -> str:
    """``basic`` on a full (sampled) state: the card a rollout plays for ``seat``."""
    playable = decide.playable(state, seat)
    if len(playable) == 1:
        return playable[0]
    players = state.match.players
    trick = state.trick
    leader = state.leader
    hands = state.hands
    # The cards of the players after this one, in this world.
    out = [
        c for k in range(len(trick) + 1, players) for c in hands[(leader + k) % players]
    ]
    return pick_card(
        playable,
        seat=seat,
        players=players,
        leader=leader,
        trick=trick,
        has_won=[n > 0 for n in state.tally.seat_tricks],
        seven_rule=state.match.rules.seven_rule,
        out=out,
    )


def rollout(state: State, seat: int, action: Action) -> int:
    """Play ``action``, then the deal out with ``basic`` for everyone.

    Returns the points the deal gave ``seat``'s side, negative when the other
    side scored. Card plays go through :func:`rules.alkort.decide.play` without
    dealing the next deal.
    """
    side = side_of(seat)
    if action["type"] == "play":
        events = decide.play(state, seat, action["card"], next_deal=False)
    else:
        events = GAME.decide(state, seat, action)
    evolve = GAME.evolve
    while True:
        for event in events:
            if event.type == ev.DEAL_SCORED:
                p = event.payload
                return int(p["points"]) if p["side"] == side else -int(p["points"])
            state = evolve(state, event)
        who = state.turn
        if state.phase == "exchange":
            events = GAME.decide(
                state, who, exchange_choice(GAME.legal_actions(state, who))
            )
        else:
            events = decide.play(state, who, rollout_card(state, who), next_deal=False)


class StrongPolicy(Policy):
    """Determinised flat Monte Carlo over the engine (see the module docstring).

    ``rollouts`` is the budget per decision, shared among the legal actions;
    ``time_cap`` (seconds) stops early if the machine is slow.
    """

    level = "strong"

    def __init__(self, rollouts: int = 320, time_cap: float = 0.8) -> None:
        self.rollouts = rollouts
        self.time_cap = time_cap

    def choose(self, inp: BotInput, rng: random.Random) -> Action:
        """The candidate with the best mean result over sampled worlds."""
        legal = [dict(a) for a in inp.legal]
        if len(legal) == 1:
            return legal[0]
        deadline = time.perf_counter() + self.time_cap
        fallback = BasicPolicy().choose(inp, rng)
        worlds = max(2, self.rollouts // len(legal))
        source = Determiniser(inp.view, inp.history)
        totals = [0.0] * len(legal)
        for _ in range(worlds):
            state = source.sample(rng)
            for i, action in enumerate(legal):
                totals[i] += rollout(state, inp.seat, action)
            if time.perf_counter() > deadline:
                break
        # Ties go to the heuristic's choice, then to the first listed.
        best = max(
            range(len(legal)),
            key=lambda i: (totals[i], legal[i] == fallback, -i),
        )
        return legal[best]


POLICIES: dict[str, type[Policy]] = {"basic": BasicPolicy, "strong": StrongPolicy}
