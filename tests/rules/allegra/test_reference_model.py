"""Random matches checked move by move against a second, independent reading of the rules.

``Ref`` is written from the rules text (ALLEGRA.md §2-§13; the same rules as
docs/rules/allegra.md), not from ``rules/allegra``: cells are ``(seat, row,
col)`` tuples, triples come from a whole-table scan of every area row and
column (§8.2), the trigger from the 15-cell areas (§9.1), the exchange's
choices by brute force over ``canBeGiven`` (§7.4). It is dealt the engine's
decks (``round_dealt``, ``deck_reshuffled``) and given the same actions. After
every action both must agree on who acts, every seat's legal actions, every
cell and its face, the draw, discard and out-of-play piles, and the totals; and
at each round's end on the raw scores, the doubling, the trigger and the next
start player.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tests.rules.allegra.helpers import GAME

Cell = tuple[int, int, int]


class Ref:
    """ALLEGRA.md, one rule at a time."""

    def __init__(self, n: int, o: dict[str, Any]) -> None:
        self.n, self.o = n, o
        self.totals = [0] * n
        self.round = 0
        self.over = False
        self.scored: dict[str, Any] | None = None

    # §2 geometry
    def left(self, p: int) -> int:
        return (p + 1) % self.n

    def area(self, p: int) -> list[Cell]:
        return [
            (self.left(p), r, 3) if a == 0 else (p, r, a - 1)
            for r in range(3)
            for a in range(5)
        ]

    def occupied(self, cells: list[Cell]) -> list[Cell]:
        return [c for c in cells if self.card[c] is not None]

    def face_down(self, p: int) -> list[Cell]:
        return [c for c in self.occupied(self.area(p)) if not self.up[c]]

    # §5 setup
    def deal(self, number: int, deck: list[int], start: int) -> None:
        n = self.n
        cells = [(s, r, c) for s in range(n) for r in range(3) for c in range(4)]
        self.card: dict[Cell, int | None] = dict(zip(cells, deck, strict=False))
        self.up = dict.fromkeys(cells, False)
        self.draw = deck[12 * n + 1 :]
        self.discard: list[int | None] = [deck[12 * n]]
        self.out: list[int | None] = []
        self.round, self.start, self.active = number, start, start
        self.phase, self.reveals, self.turns = "initial_reveal", 0, 0
        self.trigger: int | None = None
        self.queue: list[int] = []
        self.forced = False
        self.scored = None

    def can_give(self, a: int, k: int) -> bool:
        """§7.4 ``canBeGiven(A, K)``."""
        ok, oa = self.occupied(self.area(k)), self.occupied(self.area(a))
        return any(
            k1 != k2 and any(x not in (k1, k2) for x in oa) for k1 in ok for k2 in ok
        )

    def to_act(self) -> list[int]:
        if self.phase == "knock_window":
            return sorted(self.pending)
        return [self.knocker] if self.phase == "knocker_place" else [self.active]

    def legal(self, seat: int) -> list[dict[str, Any]]:
        """§5 step 5, §7.1-§7.4, §11 and E-5."""
        if self.over or seat not in self.to_act():
            return []

        def j(c: Cell) -> dict[str, int]:
            return {"seat": c[0], "row": c[1], "col": c[2]}

        a, phase = self.active, self.phase
        mine = self.occupied(self.area(a))
        if phase == "initial_reveal":
            return [{"type": "reveal", "cell": j(c)} for c in self.face_down(seat)]
        if phase == "turn_start":
            out: list[dict[str, Any]] = [
                {"type": "take_discard", "cell": j(c)} for c in mine if self.discard
            ]
            if self.draw or len(self.discard) > 1:
                out.append({"type": "draw"})
            return out or [{"type": "pass"}]
        if phase == "knock_window":
            return [{"type": "knock"}, {"type": "pass"}]
        if phase == "decide_deck_card":
            out = [{"type": "swap", "cell": j(c)} for c in mine]
            flips = self.face_down(a)
            out += [{"type": "discard", "flip": j(c)} for c in flips] or [
                {"type": "discard"}
            ]
            return out + [{"type": "give", "to": k} for k in self.knockers]
        theirs = self.occupied(self.area(self.knocker))
        if phase == "knocker_place":
            return [
                {"type": "place", "cell": j(k1)}
                for k1 in theirs
                if any(
                    k2 != k1 and any(x not in (k1, k2) for x in mine) for k2 in theirs
                )
            ]
        if phase == "drawer_take":
            return [
                {"type": "take", "cell": j(k2)}
                for k2 in theirs
                if k2 != self.k1 and any(x not in (self.k1, k2) for x in mine)
            ]
        return [
            {"type": "put", "cell": j(x)} for x in mine if x not in (self.k1, self.k2)
        ]

    def triples(self) -> list[Cell]:
        """§8.2 over the whole table."""
        found: set[Cell] = set()

        def face(c: Cell) -> int | None:
            return self.card[c] if self.up[c] else None

        for p in range(self.n):
            for r in range(3):
                row = [c for c in self.area(p) if c[1] == r]
                values = [face(c) for c in row]
                start = 0
                while start < 5:  # maximal runs of equal face-up cards
                    end = start + 1
                    while end < 5 and values[end] == values[start]:
                        end += 1
                    if values[start] is not None and end - start >= 3:
                        leftmost = self.o["long_run_rule"] == "leftmost3"
                        found.update(
                            row[start : start + 3] if leftmost else row[start:end]
                        )
                    start = end
            for c in range(4):
                col = [(p, r, c) for r in range(3)]
                v = {face(x) for x in col}
                if len(v) == 1 and None not in v:
                    found.update(col)
        return sorted(found)

    def remove_triples(self) -> None:
        pile = self.out if self.o["triple_cards_to"] == "out_of_play" else self.discard
        for c in self.triples():
            pile.append(self.card[c])
            self.card[c] = None

    def apply(self, seat: int, a: dict[str, Any], reshuffled: list[int] | None) -> None:
        kind, active = a["type"], self.active

        def cell(key: str) -> Cell:
            return (a[key]["seat"], a[key]["row"], a[key]["col"])

        def put(c: Cell, card: int | None) -> int | None:
            old, self.card[c], self.up[c] = self.card[c], card, True
            return old

        if kind == "reveal":
            self.up[cell("cell")] = True
            self.reveals += 1
            if self.reveals == 2:
                self.reveals, self.active = 0, self.left(active)
                if self.active == self.start:
                    self.remove_triples()
                    self.phase = "turn_start"
        elif kind == "take_discard":
            self.discard.append(put(cell("cell"), self.discard.pop()))
            self.end_turn()
        elif kind == "draw":
            if not self.draw:  # §11
                assert reshuffled is not None
                pile = [c for c in self.discard[:-1] if c is not None]
                assert sorted(reshuffled) == sorted(pile)
                self.draw, self.discard = reshuffled, self.discard[-1:]
            self.drawn = self.draw.pop(0)
            self.knockers: list[int] = []
            self.pending = {
                k
                for k in range(self.n)
                if k != active
                and self.n >= self.o["knock_min_players"]
                and self.can_give(active, k)
            }
            self.phase = "knock_window" if self.pending else "decide_deck_card"
        elif self.phase == "knock_window":
            self.pending.discard(seat)
            if kind == "knock":
                self.knockers = sorted([*self.knockers, seat])
            if not self.pending:
                self.phase = "decide_deck_card"
        elif kind == "pass":
            self.end_turn()
        elif kind == "swap":
            self.discard.append(put(cell("cell"), self.drawn))
            self.end_turn()
        elif kind == "discard":
            self.discard.append(self.drawn)
            if "flip" in a:
                self.up[cell("flip")] = True
            self.end_turn()
        elif kind == "give":
            self.knocker, self.phase = a["to"], "knocker_place"
        elif kind == "place":
            self.k1 = cell("cell")
            self.hand = put(self.k1, self.drawn)
            self.phase = "drawer_take"
        elif kind == "take":
            self.k2 = cell("cell")
            self.taken = put(self.k2, None)
            self.phase = "drawer_place"
        else:  # put, then O fills k2
            self.discard.append(put(cell("cell"), self.taken))
            put(self.k2, self.hand)
            self.end_turn()

    def end_turn(self) -> None:
        """§7.5 and §9."""
        a, n = self.active, self.n
        self.remove_triples()
        self.turns += 1
        if self.trigger is None:
            order = [(a + i) % n for i in range(n)]
            if self.o["trigger_mode"] == "active_only":
                order = [a]
            finished = [p for p in order if not self.face_down(p)]
            if finished:
                self.trigger = finished[0]
                after = [(a + i) % n for i in range(1, n + 1)]
                self.queue = [q for q in after if q != self.trigger]
            elif self.turns >= (self.o["max_turns_per_round"] or 1000):
                self.trigger, self.queue, self.forced = a, [], True
        if self.trigger is None:
            self.active, self.phase = self.left(a), "turn_start"
        elif self.queue:
            self.active, self.phase = self.queue.pop(0), "turn_start"
        else:
            self.score()

    def score(self) -> None:
        """§10 and §12's start player of the next round."""
        for c in self.card:
            self.up[c] = True
        if self.o["remove_triples_on_final_reveal"]:
            self.remove_triples()
        raw = [sum(self.card[c] or 0 for c in self.area(p)) for p in range(self.n)]
        x = self.trigger
        assert x is not None
        others = [r for q, r in enumerate(raw) if q != x]
        if self.o["tie_counts_as_lowest"]:
            not_lowest = any(r < raw[x] for r in others)
        else:
            not_lowest = any(r <= raw[x] for r in others)
        doubled = not_lowest and (raw[x] > 0 or not self.o["double_only_positive"])
        scores = list(raw)
        scores[x] *= 2 if doubled else 1
        self.totals = [t + s for t, s in zip(self.totals, scores, strict=True)]
        self.scored = {
            "raw": raw,
            "scores": scores,
            "doubled": doubled,
            "trigger": x,
            "forced": self.forced,
            "totals": self.totals,
        }
        self.over = self.round >= self.o["rounds"]
        if self.o["next_round_start"] == "trigger":
            self.next_start = x
        else:
            self.next_start = (self.o["first_player"] + self.round) % self.n


def canonical(actions: list[dict[str, Any]]) -> list[str]:
    return sorted(json.dumps(a, sort_keys=True) for a in actions)


def play(seed: int, players: int, options: dict[str, Any]) -> int:
    """One random match against ``Ref``; returns the number of rounds."""
    rng = random.Random(seed)
    events = GAME.start(players=players, options=options, seed=f"ref{seed}")
    state = GAME.replay(events)
    ref = Ref(players, state.rules.to_options())

    def follow(new: list[Any]) -> None:
        for e in new:
            p = e.payload
            if e.type == "allegra.round_dealt":
                if ref.round == 0:
                    assert p["start_seat"] == ref.o["first_player"]
                else:
                    assert ref.scored is not None and not ref.over
                    assert p["start_seat"] == ref.next_start
                ref.deal(p["round"], list(p["deck"]), p["start_seat"])
            elif e.type == "allegra.round_scored":
                assert ref.scored is not None, "the engine scored a round too early"
                assert {k: p[k] for k in ref.scored} == ref.scored

    follow(events)
    while state.phase != "over":
        assert ref.scored is None, "the rules ended the round"
        acting = list(GAME.to_act(state))
        assert acting == ref.to_act()
        for seat in range(players):
            assert canonical(GAME.legal_actions(state, seat)) == canonical(
                ref.legal(seat)
            )
        seat = rng.choice(acting)
        legal = GAME.legal_actions(state, seat)
        action = rng.choice(legal)
        gives = [a for a in legal if a["type"] == "give"]
        if state.phase == "knock_window" and rng.random() < 0.5:
            action = {"type": "knock"}  # knocks and exchanges happen often
        elif gives and rng.random() < 0.7:
            action = rng.choice(gives)
        new = GAME.decide(state, seat, action)
        reshuffled = next(
            (
                list(e.payload["deck"])
                for e in new
                if e.type == "allegra.deck_reshuffled"
            ),
            None,
        )
        ref.apply(seat, action, reshuffled)
        for e in new:
            state = GAME.evolve(state, e)
        follow(new)
        if ref.scored is not None:
            continue  # the match is over (ref.over) or the next deal was compared
        for (s, r, c), card in ref.card.items():
            i = 12 * s + 4 * r + c
            assert state.cards[i] == card
            assert bool(state.down >> i & 1) == (
                card is not None and not ref.up[(s, r, c)]
            )
        assert list(state.draw) == ref.draw
        assert list(state.discard) == ref.discard
        assert list(state.out_of_play) == ref.out
        assert (state.phase, state.active) == (ref.phase, ref.active)
        assert list(state.totals) == ref.totals
    assert ref.over
    return ref.round


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {}),
        (3, {"deck": "published"}),
        (4, {"long_run_rule": "leftmost3", "triple_cards_to": "discard"}),
        (5, {"remove_triples_on_final_reveal": True, "knock_min_players": 3}),
        (3, {"tie_counts_as_lowest": False, "double_only_positive": False}),
        (4, {"trigger_mode": "active_only", "next_round_start": "trigger"}),
        (2, {"max_turns_per_round": 5, "first_player": 1, "deck": "published"}),
        (3, {"deck_composition": {"5": 40}, "triple_cards_to": "discard"}),
        (2, {"deck_composition": {"1": 30, "2": 30}, "rounds": 2}),
        (6, {}),
    ],
)
def test_random_matches_follow_the_rules_text(players, options):
    assert sum(play(seed, players, options) for seed in range(2)) >= 2
