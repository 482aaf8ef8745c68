"""The dealing counter of earlier engines, kept to record matches "the old way".

Before deal ``j`` was always drawn with key ``j``, one counter numbered the
seeded deals and the mid-deal reshuffles together, in the order they happened,
and given decks did not count; a reshuffle's event carried an int ``shuffle``.
Tests put :class:`OldChance` where a game's ``evolve`` builds its chance, record
a match, and check that the current engine still replays and verifies it.
This is the old ``rules.dealing.Chance``, unchanged but for its name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.dealing import shuffle


@dataclass(frozen=True, slots=True)
class OldChance:
    """Given decks first, then the seed; ``shuffles`` is the next ``k``."""

    seed: str
    decks: tuple[tuple[Any, ...], ...] = ()
    deals: int = 0
    shuffles: int = 0

    def next_deal(
        self, standard: Sequence[Any]
    ) -> tuple[list[Any], int | None, OldChance]:
        if self.deals < len(self.decks):
            deck = list(self.decks[self.deals])
            return (
                deck,
                None,
                OldChance(self.seed, self.decks, self.deals + 1, self.shuffles),
            )
        deck = shuffle(standard, self.seed, self.shuffles)
        return (
            deck,
            self.shuffles,
            OldChance(self.seed, self.decks, self.deals + 1, self.shuffles + 1),
        )

    def reshuffle(self, cards: Sequence[Any]) -> tuple[list[Any], int, OldChance]:
        deck = shuffle(cards, self.seed, self.shuffles)
        return (
            deck,
            self.shuffles,
            OldChance(self.seed, self.decks, self.deals, self.shuffles + 1),
        )

    def after(self, event_payload: dict[str, Any]) -> OldChance:
        k = event_payload.get("shuffle")
        if event_payload.get("reshuffle"):
            return OldChance(self.seed, self.decks, self.deals, self.shuffles + 1)
        if k is None:
            return OldChance(self.seed, self.decks, self.deals + 1, self.shuffles)
        return OldChance(self.seed, self.decks, self.deals + 1, self.shuffles + 1)
