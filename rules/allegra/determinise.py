"""Full states a seat cannot tell from the real one, for searching bots.

:func:`determinise` reads only what a bot is given — the seat's view and the
history redacted for that seat — and deals the cards the seat has not seen at
random among the places it cannot see: face-down cells, the draw pile and a
knocker's hidden hand card. What the seat knows is kept: every face-up card,
the discard and out-of-play piles, the drawn and taken cards, and — after a
reshuffle — exactly which cards the new draw pile holds (the discards that were
gathered, which the public history shows), only not their order. The seed in
the returned state is made up, so later reshuffles are as unknown as the cards.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from rules.allegra import events as ev
from rules.allegra.geometry import geometry
from rules.allegra.options import Rules, standard_deck_for
from rules.allegra.state import AllegraState, Knock, Phase, RoundResult
from rules.core import Event
from rules.dealing import Chance


def determinise(
    view: dict[str, Any], history: Sequence[Event], rng: random.Random
) -> AllegraState:
    """One sampled full state consistent with ``view`` and ``history``."""
    return Determiniser(view, history).sample(rng)


def reshuffled_cards(history: Sequence[Event]) -> Counter[int] | None:
    """The cards still in a draw pile made from the discards this round, if any.

    The discard pile is public, so following it through the history tells which
    cards a reshuffle gathered; those drawn since are taken off again.
    """
    pile: list[int] = []
    remaining: Counter[int] | None = None
    for event in history:
        kind, p = event.type, event.payload
        if kind == ev.ROUND_DEALT:
            pile, remaining = [p["discard"]], None
        elif kind == ev.DISCARD_TAKEN:
            pile[-1] = p["replaced"]
        elif kind in (ev.DRAWN_CARD_SWAPPED, ev.CARD_PUT):
            pile.append(p["replaced"])
        elif kind == ev.DRAWN_CARD_DISCARDED:
            pile.append(p["card"])
        elif kind == ev.TRIPLES_REMOVED and p["to"] == "discard":
            pile.extend(p["cards"])
        elif kind == ev.DECK_RESHUFFLED:
            remaining, pile = Counter(pile[:-1]), pile[-1:]
        elif kind == ev.CARD_DRAWN and remaining is not None:
            remaining[p["card"]] -= 1
    return remaining


def _index(cell: dict[str, int]) -> int:
    return 12 * cell["seat"] + 4 * cell["row"] + cell["col"]


class Determiniser:
    """Reads the seat's knowledge once; then samples as many worlds as asked."""

    def __init__(self, view: dict[str, Any], history: Sequence[Event]) -> None:
        self.view = view
        self.seat: int = view["seat"]
        n = self.players = view["players"]
        self.rules = Rules.from_options(view["options"])
        geo = geometry(n)
        cards: list[int | None] = [None] * geo.size
        down = 0
        seen: Counter[int] = Counter()
        for s, grid in enumerate(view["grids"]):
            for r, row in enumerate(grid):
                for c, v in enumerate(row):
                    i = 12 * s + 4 * r + c
                    if v == "down":
                        down |= 1 << i
                    elif v is not None:
                        cards[i] = v
                        seen[v] += 1
        self.down = down
        self.hidden_cells = [i for i in range(geo.size) if down >> i & 1]
        seen.update(view["discard_pile"])
        seen.update(view["out_of_play"])
        if view["drawn"] is not None:
            seen[view["drawn"]] += 1
        knock = view["knock"]
        self.hand_hidden = bool(knock and knock["hand_hidden"])
        if knock:
            for key in ("hand", "taken"):
                if knock[key] is not None:
                    seen[knock[key]] += 1
        reshuffled = reshuffled_cards(history) if view["phase"] != "over" else None
        if reshuffled is not None:
            self.pile: list[int] | None = sorted(reshuffled.elements())
            seen.update(reshuffled)
        else:
            self.pile = None
        unseen = Counter(standard_deck_for(self.rules))
        unseen.subtract(seen)
        self.unseen = sorted(unseen.elements())
        self.cards = cards
        self.hand_public = True
        for event in reversed(history):
            if event.type == ev.KNOCKER_PLACED:
                self.hand_public = event.payload["hand_public"]
                break

    def sample(self, rng: random.Random) -> AllegraState:
        """One sampled full state consistent with what the seat knows."""
        view = self.view
        unseen = list(self.unseen)
        rng.shuffle(unseen)
        cards = list(self.cards)
        for i in self.hidden_cells:
            cards[i] = unseen.pop()
        knock = view["knock"]
        hand = knock["hand"] if knock else None
        if self.hand_hidden:
            hand = unseen.pop()
        if self.pile is not None:
            draw = list(self.pile)
            rng.shuffle(draw)
        else:
            draw = unseen
        return AllegraState(
            players=self.players,
            rules=self.rules,
            chance=Chance(seed=f"determinised-{rng.getrandbits(64):x}"),
            seed_sha256=view["seed_sha256"],
            round=view["round"],
            start_seat=view["start_seat"],
            phase=self._phase(),
            active=view["active"],
            cards=tuple(cards),
            down=self.down,
            draw=tuple(draw),
            discard=tuple(view["discard_pile"]),
            out_of_play=tuple(view["out_of_play"]),
            reveals=2 - view["reveals_left"] if view["reveals_left"] else 0,
            turn=view["turn"],
            drawn=view["drawn"],
            knock=self._knock(hand),
            trigger=view["trigger"],
            queue=tuple(view["final_turns"]),
            totals=tuple(view["scores"]),
            results=tuple(
                RoundResult(
                    round=r["round"],
                    trigger=r["trigger"],
                    forced=r["forced"],
                    raw=tuple(r["raw"]),
                    scores=tuple(r["scores"]),
                    doubled=r["doubled"],
                )
                for r in view["round_results"]
            ),
        )

    def _phase(self) -> Phase:
        phase: Phase = self.view["phase"]
        return phase

    def _knock(self, hand: int | None) -> Knock | None:
        k = self.view["knock"]
        if k is None:
            return None
        window = self.view["phase"] == "knock_window"
        if window:
            # Other answers are hidden: the sample assumes they passed.
            knockers: tuple[int, ...] = (
                (self.seat,) if k["your_answer"] == "knock" else ()
            )
        else:
            knockers = tuple(k["knockers"])
        return Knock(
            eligible=tuple(k["eligible"]),
            pending=tuple(k["pending"]),
            knockers=knockers,
            knocker=k["knocker"],
            k1=None if k["k1"] is None else _index(k["k1"]),
            hand=hand,
            hand_public=self.hand_public,
            k2=None if k["k2"] is None else _index(k["k2"]),
            taken=k["taken"],
        )
