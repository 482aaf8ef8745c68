"""Full states a seat cannot tell from the real one, for searching bots.

:func:`determinise` reads only what a bot is given — the seat's view and the
history redacted for that seat — samples the hidden cards with
:func:`rules.alkort.knowledge.sample` (so shown hands, the partner's reveal and
forced seven leads are respected), and folds a complete history of the current
deal through the engine. The seed inside the returned state is made up: later
deals in it are as unknown as the cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rules.alkort import events as ev
from rules.alkort.decide import partners_revealed
from rules.alkort.evolve import evolve
from rules.alkort.knowledge import (
    Knowledge,
    Layout,
    deal_events,
    knowledge_from,
    sample,
)
from rules.alkort.state import State
from rules.core import Event


def determinise(
    view: dict[str, Any], history: Sequence[Event], rng: random.Random
) -> State:
    """One sampled full state consistent with ``view`` and ``history``."""
    return Determiniser(view, history).sample(rng)


class Determiniser:
    """Reads the seat's knowledge once; then samples as many worlds as asked."""

    def __init__(self, view: dict[str, Any], history: Sequence[Event]) -> None:
        self.view = view
        self.players: int = view["players"]
        self.deal = deal_events(history)
        self.scored = [e for e in history if e.type == ev.DEAL_SCORED]
        self.knowledge: Knowledge = knowledge_from(
            self.deal, view["seat"], self.players, view["options"]["seven_rule"]
        )

    def sample(self, rng: random.Random) -> State:
        """One sampled full state consistent with what the seat knows."""
        return self.build(sample(self.knowledge, rng), rng)

    def build(self, world: Layout, rng: random.Random) -> State:
        """Fold the deal's history with the hidden parts taken from ``world``."""
        k = self.knowledge
        started = Event(
            ev.MATCH_STARTED,
            1,
            {
                "players": self.players,
                "options": self.view["options"],
                "seed_sha256": self.view["seed_sha256"],
                "seed": f"determinised-{rng.getrandbits(64):016x}",
                "decks": [],
            },
        )
        state = evolve(None, started)
        for event in self.scored:
            state = evolve(state, event)
        # An exchanger was dealt the shown hand; anyone else holds now what
        # they were dealt, less what they played.
        dealt = [
            list(k.shown) if p == k.exchanger else [*world.hands[p], *k.played[p]]
            for p in range(self.players)
        ]
        payload = {
            "deal": k.deal,
            "dealer": k.dealer,
            "forehand": k.forehand,
            "hands": dealt,
            "stock": world.taken if k.exchanger is not None else world.stock,
            "dead": world.dead,
            "deck": [],
            "shuffle": None,
        }
        state = evolve(state, Event(ev.CARDS_DEALT, 1, payload))
        for event in self.deal[1:]:
            if event.type == ev.STOCK_EXCHANGED:
                event = Event(
                    ev.STOCK_EXCHANGED,
                    1,
                    {
                        "seat": event.payload["seat"],
                        "shown": list(k.shown),
                        "keep": world.keep,
                        "discards": world.discards,
                        "taken": world.taken,
                    },
                )
            elif event.type == ev.PARTNERS_REVEALED:
                event = partners_revealed(state.hands)
            state = evolve(state, event)
        return state
