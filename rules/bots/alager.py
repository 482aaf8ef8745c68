"""Alager bots: a hand-value heuristic (``basic``) and determinised rollouts (``strong``).

Both see only a :class:`~rules.bots.BotInput`: the seat's view, its legal
actions and the history redacted for it.

``basic`` plays as a casual player would: take an exchange that completes an
Alager; knock once the hand is worth at least a threshold that rises with the
number of players; otherwise take the table card (or the whole table) that
raises the hand most, draw from the stock when the expected gain of a draw is
better, and pass when nothing helps.

``strong`` samples the cards it cannot see (other hands and the stock,
consistent with every card it has seen: cards others took from the table stay
in their hands until they give them away), then, for each candidate action,
plays the deal out with the ``basic`` heuristic for every seat on the rules
engine and scores the penalty points it took. The candidate with the best mean
over the samples wins; a knock is never a candidate below ``KNOCK_FLOOR``. The budget is a number of samples, not a clock, so a
decision is reproducible from its seed; a deadline guards the 1-second limit.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Sequence
from typing import Any

from rules.alager import GAME, AlagerState
from rules.alager import events as ev
from rules.alager.determinise import Knowledge, LastTurn, read_knowledge, sample_world
from rules.alager.hands import CARD_VALUES, hand_value, special_kind
from rules.bots import BotInput, Policy
from rules.cards import Card
from rules.core import Action, Event

PASS: Action = {"type": "pass"}
KONEC: Action = {"type": "konec"}

#: Knock at or above this hand value, by number of active players.
KNOCK_AT = {2: 22, 3: 25, 4: 26, 5: 26}
KNOCK_AT_MANY = 27
#: ``strong`` never knocks below this hand value, whatever its samples say.
KNOCK_FLOOR = 20


def knock_threshold(players: int) -> int:
    """The hand value from which ``basic`` knocks, by number of active players."""
    return KNOCK_AT.get(players, KNOCK_AT_MANY)


class PoolStats:
    """The cards a seat has not seen, summarised per suit for fast draw estimates.

    The pool is the whole deck less the ``seen`` cards, so only the few seen
    cards are walked; the whole-deck part comes from a table per deck size.
    """

    __slots__ = ("seen", "size", "ranks_full")

    def __init__(self, deck_size: int, seen: Iterable[Card]) -> None:
        self.seen: dict[str, list[int]] = {"C": [], "D": [], "H": [], "S": []}
        count = 0
        for card in seen:
            self.seen[card[1]].append(CARD_VALUES[card])
            count += 1
        self.size = deck_size - count
        self.ranks_full = _FULL_SUIT[deck_size]

    def sum_max(self, k: int, suit: str) -> int:
        """Sum of ``max(k, v)`` over the values ``v`` of the pool's cards of ``suit``."""
        table, count = self.ranks_full
        full = table[k] if 0 <= k <= 11 else (table[0] if k < 0 else count * k)
        for w in self.seen[suit]:
            full -= w if w > k else k
        return full

    def count_sum(self, suit: str) -> tuple[int, int]:
        """How many unseen cards of ``suit`` there are, and their total value."""
        table, count = self.ranks_full
        seen = self.seen[suit]
        return count - len(seen), table[0] - sum(seen)


# Per deck size: sum of max(k, v) over one whole suit for k = 0 … 11, and the
# number of cards in a suit.
_FULL_SUIT: dict[int, tuple[tuple[int, ...], int]] = {}
for _size, _ranks in ((52, "23456789TJQKA"), (32, "789TJQKA")):
    _values = [CARD_VALUES[r + "C"] for r in _ranks]
    _FULL_SUIT[_size] = (
        tuple(sum(max(k, v) for v in _values) for k in range(12)),
        len(_values),
    )


def draw_value(kept: Sequence[Card], pool: PoolStats) -> float:
    """Expected hand value after keeping two cards and drawing one from ``pool``."""
    if pool.size <= 0:
        return 0.0
    a, b = kept
    va, vb, sa, sb = CARD_VALUES[a], CARD_VALUES[b], a[1], b[1]
    total = 0
    for suit in "CDHS":
        if suit == sa and suit == sb:
            n, s = pool.count_sum(suit)
            total += n * (va + vb) + s
        elif sa == sb:
            total += pool.sum_max(va + vb, suit)
        elif suit == sa:
            n, _ = pool.count_sum(suit)
            total += n * va + pool.sum_max(vb - va, suit)
        elif suit == sb:
            n, _ = pool.count_sum(suit)
            total += n * vb + pool.sum_max(va - vb, suit)
        else:
            total += pool.sum_max(max(va, vb), suit)
    return total / pool.size


def heuristic(
    hand: Sequence[Card],
    table: Sequence[Card],
    pool: PoolStats,
    *,
    hori: bool,
    may_knock: bool,
    threshold: int,
) -> Action:
    """The ``basic`` choice for one hand, from public facts and the seat's own cards."""
    value = hand_value(hand)
    best: Action = PASS
    best_value = float(value)
    for t in table:
        for i, h in enumerate(hand):
            new = (*hand[:i], t, *hand[i + 1 :])
            if special_kind(new, hori_enabled=hori):
                return {"type": "swap", "give": h, "take": t}
            v = hand_value(new)
            if v > best_value:
                best, best_value = {"type": "swap", "give": h, "take": t}, v
    if special_kind(table, hori_enabled=hori):
        return {"type": "swap_all"}
    if may_knock and value >= threshold:
        return KONEC
    v = hand_value(table)
    if v > best_value:
        best, best_value = {"type": "swap_all"}, v
    for i, h in enumerate(hand):
        ev = draw_value((*hand[:i], *hand[i + 1 :]), pool)
        # A draw is a gamble: prefer a sure swap of the same worth.
        if ev > best_value + 0.5:
            best, best_value = {"type": "draw", "discard": h}, ev
    return best


class BasicPolicy(Policy):
    """Keep the best suit, take table cards that raise the value, knock above a threshold."""

    level = "basic"

    def choose(self, inp: BotInput, rng: random.Random) -> Action:
        """The heuristic's action for this position."""
        view = inp.view
        hand = view["hand"]
        seen = [*hand, *view["table"], *view["discard_pile"]]
        action = heuristic(
            hand,
            view["table"],
            PoolStats(view["options"]["deck"], seen),
            hori=view["options"]["hori_enabled"],
            may_knock=view["konec_allowed"],
            threshold=knock_threshold(len(view["order"])),
        )
        return _as_legal(action, inp.legal)


def _as_legal(action: Action, legal: Sequence[Action]) -> Action:
    """The heuristic's choice, which is always legal; pass as a safety net."""
    if action in legal:
        return dict(action)
    return dict(PASS) if PASS in legal else dict(legal[0])


# ---------------------------------------------------------------- strong


def _consistent(
    hand: tuple[Card, ...], turn: LastTurn, know: Knowledge, n: int
) -> bool:
    """Would the ``basic`` heuristic have made ``turn`` holding ``hand`` now?"""
    before = hand
    if turn.kind == "swap":
        if turn.give is None or turn.take not in hand:
            return True
        give = turn.give
        before = tuple(give if c == turn.take else c for c in hand)
    choice = heuristic(
        before,
        turn.table,
        PoolStats(know.rules.deck, (*before, *turn.table)),
        hori=know.rules.hori_enabled,
        may_knock=turn.may_knock,
        threshold=knock_threshold(n),
    )
    if turn.kind == "swap":
        if choice["type"] != "swap":
            return False
        take: Card = choice["take"]
        after = tuple(take if c == choice["give"] else c for c in before)
        return hand_value(after) == hand_value(hand)
    return bool(choice["type"] == turn.kind)


def _rollout_action(state: AlagerState) -> Action:
    seat = state.current
    assert seat is not None
    hand = state.hands[seat]
    return heuristic(
        hand,
        state.table,
        PoolStats(state.rules.deck, (*hand, *state.table, *state.discard)),
        hori=state.rules.hori_enabled,
        may_knock=GAME.konec_allowed(state),
        threshold=knock_threshold(len(state.order)),
    )


def rollout(state: AlagerState, seat: int, action: Action) -> float:
    """Play ``action`` then the rest of the deal with the heuristic; the points ``seat`` took."""
    events: list[Event] = GAME.decide(state, seat, action)
    while True:
        for event in events:
            if event.type == ev.DEAL_ENDED:
                changes: list[int] = event.payload["changes"]
                return float(changes[seat])
            state = GAME.evolve(state, event)
        events = GAME.decide(state, state.current, _rollout_action(state))  # type: ignore[arg-type]


def candidates(inp: BotInput, limit_swaps: int = 3) -> list[Action]:
    """The legal actions worth simulating: every kind, the best few swaps."""
    view = inp.view
    hand = view["hand"]
    swaps = [a for a in inp.legal if a["type"] == "swap" and not a.get("konec")]

    def after_swap(a: Action) -> int:
        new = [a["take"] if c == a["give"] else c for c in hand]
        return hand_value(new)

    swaps.sort(key=after_swap, reverse=True)
    keep = swaps[:limit_swaps]
    out = [a for a in inp.legal if a["type"] != "swap"] + keep
    if any(a.get("konec") for a in out):
        # With konec_after_exchange: the flag only on the exchanges we keep anyway.
        kept = {
            (a["type"], a.get("discard"), a.get("give"), a.get("take")) for a in out
        }
        out = [
            a
            for a in inp.legal
            if (a["type"], a.get("discard"), a.get("give"), a.get("take")) in kept
        ]
    # Knocking below the floor took a point about every other deal (the samples'
    # opponents hold weaker hands than real ones): never.
    sure = [
        a for a in out if not _knocks(a) or _knock_value(a, hand, view) >= KNOCK_FLOOR
    ]
    return sure or out


def _knocks(action: Action) -> bool:
    return bool(action["type"] == "konec" or action.get("konec"))


def _knock_value(action: Action, hand: Sequence[Card], view: dict[str, Any]) -> int:
    """The value of the hand a knock freezes (for a draw, the two cards kept)."""
    kind = action["type"]
    if kind == "swap":
        return hand_value([action["take"] if c == action["give"] else c for c in hand])
    if kind == "swap_all":
        return hand_value(view["table"])
    if kind == "draw":
        kept = [c for c in hand if c != action["discard"]]
        return max(sum(CARD_VALUES[c] for c in kept if c[1] == s) for s in "CDHS")
    return hand_value(hand)


class StrongPolicy(Policy):
    """Determinised flat Monte Carlo over the rules engine, ``basic`` as rollout policy."""

    level = "strong"

    def __init__(self, samples: int = 24, deadline: float = 0.6) -> None:
        self.samples = samples
        self.deadline = deadline

    def choose(self, inp: BotInput, rng: random.Random) -> Action:
        """The candidate with the fewest expected points over sampled worlds."""
        if len(inp.legal) == 1:
            return dict(inp.legal[0])
        view = inp.view
        hand = view["hand"]
        hori = view["options"]["hori_enabled"]
        for a in inp.legal:  # an Alager ends the deal in our favour: no search
            if a["type"] == "swap":
                new = [a["take"] if c == a["give"] else c for c in hand]
                if special_kind(new, hori_enabled=hori) and not a.get("konec"):
                    return dict(a)
        options = candidates(inp)
        know = read_knowledge(inp.view, inp.history, inp.seat)
        local = random.Random(rng.random())
        totals = [0.0] * len(options)
        runs = 0
        stop = time.perf_counter() + self.deadline
        while runs < self.samples:
            world = sample_world(inp.view, know, local, _consistent)
            sample = []
            for action in options:
                # Past the deadline, a sample cut short is dropped (its
                # candidates would be unevenly counted): the clock overshoots
                # by one rollout, not by a whole sample of them. The first
                # sample always completes.
                if runs and time.perf_counter() > stop:
                    break
                sample.append(rollout(world, inp.seat, action))
            if len(sample) < len(options):
                break
            totals = [
                total + points for total, points in zip(totals, sample, strict=True)
            ]
            runs += 1
            if time.perf_counter() > stop:
                break
        # Fewest expected points; ties go to the earlier (simpler) candidate.
        best = min(range(len(options)), key=lambda i: (totals[i] / runs, i))
        return dict(options[best])


POLICIES: dict[str, Any] = {"basic": BasicPolicy, "strong": StrongPolicy}
