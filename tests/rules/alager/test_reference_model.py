"""Random matches checked move by move against a second, independent reading of the rules.

``Ref`` is written from the rules text's reference algorithm (ALAGER.md §14; the
same rules as docs/rules/alager.md), not from ``rules/alager``: plain lists, no
events. It is dealt the engine's own decks (read from ``deal_started``, and a
shuffled replenishment's order from ``stock_replenished``), is given the same
actions, and after every action the two must agree on the legal actions, every
hand, the table, the stock order, the discard pile, the pass streak, whose turn
it is, and at every deal's end on the reason, the specials, who was penalised,
the new totals and the next dealer. The contract test checks that the engine is
consistent with itself; this one checks that it plays the rules.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tests.rules.alager.helpers import GAME

VALUES = {**{str(i): i for i in range(2, 10)}, "T": 10, "J": 10, "Q": 10, "K": 10}
VALUES["A"] = 11


def value(hand: list[str]) -> int:
    """§11.1: the highest single-suit total."""
    return max(sum(VALUES[c[0]] for c in hand if c[1] == s) for s in "CDHS")


def special(hand: list[str], hori: bool) -> str | None:
    """§6.1: Q-K-A of one suit; three aces with Hoří."""
    if any(set(hand) == {"Q" + s, "K" + s, "A" + s} for s in "CDHS"):
        return "alager"
    if hori and all(c[0] == "A" for c in hand):
        return "hori"
    return None


class Ref:
    """ALAGER.md §14, step by step."""

    def __init__(self, n: int, o: dict[str, Any]) -> None:
        self.n, self.o = n, o
        self.pen = [0] * n
        self.out = [False] * n
        self.dealer = o["first_dealer"]
        self.deals = 0
        self.over = False
        self.ended: dict[str, Any] | None = None

    def next_active(self, seat: int) -> int:
        """§1: the first active seat clockwise after ``seat``."""
        return next(
            (seat + k) % self.n
            for k in range(1, self.n + 1)
            if not self.out[(seat + k) % self.n]
        )

    def start_deal(self, deck: list[str]) -> None:
        """§5 (D-3): packets (or single cards) from the eldest, table, stock."""
        self.deals += 1
        order = [self.next_active(self.dealer)]
        while len(order) < self.n - sum(self.out):
            order.append(self.next_active(order[-1]))
        m = len(order)
        self.order = order
        self.hand = {}
        for k, p in enumerate(order):
            if self.o["deal_pattern"] == "single":
                self.hand[p] = [deck[k], deck[k + m], deck[k + 2 * m]]
            else:
                self.hand[p] = deck[3 * k : 3 * k + 3]
        self.table = deck[3 * m : 3 * m + 3]
        self.stock = deck[3 * m + 3 :]
        self.discard: list[str] = []
        self.phase, self.streak, self.turns = "normal", 0, 0
        self.knocker: int | None = None
        self.queue: list[int] = []
        self.max_turns = self.o["max_turns_per_deal"] or 50 * m
        self.current = order[0]
        self.ended = None
        hori = self.o["hori_enabled"]
        specials = [(p, s) for p in order if (s := special(self.hand[p], hori))]
        if specials:
            self.end("special", specials)

    def legal(self) -> list[dict[str, Any]]:
        """§7.1 and the legality list of §14."""
        hand = self.hand[self.current]
        ex: list[dict[str, Any]] = [{"type": "draw", "discard": c} for c in hand]
        ex += [{"type": "swap", "give": c, "take": t} for c in hand for t in self.table]
        ex.append({"type": "swap_all"})
        knock = self.phase == "normal" and self.turns >= (
            self.o["konec_min_round"] - 1
        ) * len(self.order)
        out = list(ex)
        if knock and self.o["konec_after_exchange"]:
            out += [{**a, "konec": True} for a in ex]
        out.append({"type": "pass"})
        if knock:
            out.append({"type": "konec"})
        return out

    def replenish(self, shuffled: list[str] | None) -> None:
        """D-10: the discard pile under the stock (in the recorded shuffled order)."""
        self.stock += self.discard if shuffled is None else shuffled
        self.discard = []

    def apply(self, a: dict[str, Any], shuffled: list[str] | None) -> None:
        me, kind = self.current, a["type"]
        hand = self.hand[me]
        was_normal = self.phase == "normal"
        if kind == "draw":  # §7.2 A1
            i = hand.index(a["discard"])
            if self.o["a1_discard_to"] == "stock_bottom":
                self.stock.append(a["discard"])
            else:
                self.discard.append(a["discard"])
                if not self.stock:
                    self.replenish(shuffled)
            hand[i] = self.stock.pop(0)
        elif kind == "swap":  # A2
            i, j = hand.index(a["give"]), self.table.index(a["take"])
            hand[i], self.table[j] = self.table[j], hand[i]
        elif kind == "swap_all":  # A3
            self.hand[me], self.table = self.table, hand
        if kind in ("draw", "swap", "swap_all"):
            found = special(self.hand[me], self.o["hori_enabled"])
            if found:  # D-7 (b); a konec flag is void
                self.end("special", [(me, found)])
                return
            if self.phase == "normal":
                self.streak = 0
        if kind == "pass" and self.phase == "normal":  # §8
            self.streak += 1
            if self.streak == len(self.order):
                if len(self.stock) < 3:
                    self.replenish(shuffled)
                self.stock += self.table
                self.table = [self.stock.pop(0) for _ in range(3)]
                self.streak = 0
        if kind == "konec" or a.get("konec"):  # §9
            self.phase, self.knocker, self.streak = "final", me, 0
            i = self.order.index(me)
            self.queue = self.order[i + 1 :] + self.order[:i]
        if was_normal:
            self.turns += 1
        if self.phase == "normal":
            self.current = self.order[(self.order.index(me) + 1) % len(self.order)]
            if self.turns >= self.max_turns:
                self.end("forced", [])
            return
        if me != self.knocker:
            self.queue.remove(me)
        if self.queue:
            self.current = self.queue[0]
        else:
            self.end("konec", [])

    def end(self, reason: str, specials: list[tuple[int, str]]) -> None:
        """§11.3 penalties, §12 next dealer and end of the match."""
        o = self.o
        owners = {p for p, _ in specials}
        for p in owners:
            self.pen[p] -= 1
            if not o["allow_negative_penalties"]:
                self.pen[p] = max(0, self.pen[p])
        others = [p for p in self.order if p not in owners]
        lowest: list[int] = []
        if others:
            low = min(value(self.hand[p]) for p in others)
            lowest = sorted(p for p in others if value(self.hand[p]) == low)
            if o["tie_rule"] == "none" and len(lowest) > 1:
                lowest = []
        for p in lowest:
            knocked = reason == "konec" and p == self.knocker
            self.pen[p] += o["knocker_lowest_penalty"] if knocked else 1
        limit = o["penalty_limit"]
        if o["end_mode"] == "elimination":
            for p in self.order:
                self.out[p] = self.out[p] or self.pen[p] >= limit
            self.over = self.n - sum(self.out) <= 1
        elif o["end_mode"] == "first_to_limit":
            self.over = any(p >= limit for p in self.pen)
        else:
            self.over = self.deals >= o["num_deals"]
        self.over = self.over or self.deals >= 300
        if not self.over:
            clockwise = [(self.dealer + k) % self.n for k in range(1, self.n + 1)]
            losers = [p for p in clockwise if p in lowest and not self.out[p]]
            if o["dealer_rule"] == "loser_deals" and losers:
                self.dealer = losers[0]
            else:
                self.dealer = self.next_active(self.dealer)
        self.ended = {
            "reason": reason,
            "specials": [{"seat": p, "kind": k} for p, k in specials],
            "penalised": lowest,
            "penalties": list(self.pen),
            "next_dealer": None if self.over else self.dealer,
        }


def canonical(actions: list[dict[str, Any]]) -> list[str]:
    return sorted(json.dumps(a, sort_keys=True) for a in actions)


def play(seed: int, players: int, options: dict[str, Any]) -> int:
    """One random match against ``Ref``; returns the number of deals."""
    rng = random.Random(seed)
    events = GAME.start(players=players, options=options, seed=f"ref{seed}")
    state = GAME.replay(events)
    ref = Ref(players, {**GAME.validate_options(options)} | state.rules.to_options())

    def follow(new: list[Any]) -> None:
        for e in new:
            if e.type == "alager.deal_started":
                assert ref.deals == 0 or ref.ended, "a deal started while one ran"
                ref.start_deal(list(e.payload["deck"]))
            elif e.type == "alager.deal_ended":
                assert ref.ended is not None, "the engine ended a deal too early"
                got = {k: e.payload[k] for k in ref.ended}
                assert got == ref.ended

    follow(events)
    while state.phase != "over":
        assert ref.ended is None and not ref.over, "the rules ended the deal"
        seat = state.current
        legal = GAME.legal_actions(state, seat)
        assert canonical(legal) == canonical(ref.legal())
        r = rng.random()  # pass and knock often enough to reach refreshes and ends
        if r < 0.35:
            action = {"type": "pass"}
        elif r < 0.4 and {"type": "konec"} in legal:
            action = {"type": "konec"}
        else:
            action = rng.choice(legal)
        new = GAME.decide(state, seat, action)
        shuffled = next(
            (
                list(e.payload["deck"])
                for e in new
                if e.type == "alager.stock_replenished" and e.payload.get("reshuffle")
            ),
            None,
        )
        ref.apply(action, shuffled)
        for e in new:
            state = GAME.evolve(state, e)
        follow(new)
        if ref.ended is None:
            assert state.current == ref.current
            assert [list(state.hands[p]) for p in ref.order] == [
                ref.hand[p] for p in ref.order
            ]
            assert list(state.table) == ref.table
            assert list(state.stock) == ref.stock
            assert list(state.discard) == ref.discard
            assert (state.phase, state.pass_streak) == (ref.phase, ref.streak)
    assert ref.over
    assert list(state.penalties) == ref.pen
    return ref.deals


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (3, {}),
        (15, {}),
        (4, {"hori_enabled": True, "deal_pattern": "single"}),
        (3, {"a1_discard_to": "stock_bottom", "max_turns_per_deal": 9}),
        (8, {"replenish_shuffle": True}),
        (4, {"konec_after_exchange": True, "konec_min_round": 2}),
        (3, {"tie_rule": "none", "allow_negative_penalties": True}),
        (4, {"knocker_lowest_penalty": 0, "dealer_rule": "loser_deals"}),
        (5, {"end_mode": "elimination", "penalty_limit": 2, "first_dealer": 4}),
        (
            4,
            {
                "end_mode": "elimination",
                "dealer_rule": "loser_deals",
                "knocker_lowest_penalty": 2,
            },
        ),
        (2, {"end_mode": "fixed_deals"}),
        (8, {"deck": 32, "hori_enabled": True, "end_mode": "fixed_deals"}),
    ],
)
def test_random_matches_follow_the_reference_algorithm(players, options):
    deals = sum(play(seed, players, options) for seed in range(2))
    assert deals >= 2
