"""Building blocks for Alager scenario tests: stacked decks and a small match driver.

Scenario tests never set up a state by hand: they stack full decks with
``start(deck=[...])`` and reach every situation through play (docs/rules/alager.md, "For maintainers").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import rules
from rules.alager import AlagerState
from rules.cards import deck32, deck52
from rules.core import Event

GAME = rules.get_game("alager")

# Hands for "quick" deals that only move penalty points: the target's hand is
# the unique lowest; everyone else holds a high ordinary hand.
_LOW = {52: ["2C", "3D", "4H"], 32: ["7C", "8D", "9H"]}
_HIGH = [["TS", "JS", "QS"], ["TH", "JH", "QH"], ["TD", "JD", "QD"], ["TC", "JC", "QC"]]


def stack(
    players: int,
    dealer: int,
    hands: Mapping[int, Sequence[str]],
    table: Sequence[str] = (),
    stock: Sequence[str] = (),
    size: int = 52,
    out: Iterable[int] = (),
) -> list[str]:
    """A full deck that deals ``hands`` (by seat) with dealer ``dealer``.

    Seats in ``out`` (eliminated) are dealt nothing.

    Packets go to the eldest first (D-3); unnamed hands, the table and the rest
    of the stock are filled from the unused cards in their standard order, after
    the named ``stock`` top cards.
    """
    named = [c for h in hands.values() for c in h] + list(table) + list(stock)
    assert len(set(named)) == len(named), "a card is named twice"
    rest = [c for c in (deck32() if size == 32 else deck52()) if c not in named]
    deck: list[str] = []
    skipped = set(out)
    for i in range(1, players + 1):
        seat = (dealer + i) % players
        if seat in skipped:
            continue
        hand = list(hands[seat]) if seat in hands else [rest.pop(0) for _ in range(3)]
        deck += hand
    deck += list(table) if table else [rest.pop(0) for _ in range(3)]
    return deck + list(stock) + rest


def quick_decks(
    players: int, first_dealer: int, targets: Iterable[int], size: int = 52
) -> list[list[str]]:
    """One deck per target seat, in which that seat holds the unique lowest hand."""
    decks = []
    for j, target in enumerate(targets):
        dealer = (first_dealer + j) % players
        others = [s for s in range(players) if s != target]
        hands = {target: _LOW[size], **dict(zip(others, _HIGH, strict=False))}
        decks.append(stack(players, dealer, hands, size=size))
    return decks


class Match:
    """A match driven action by action, keeping the event list and the state."""

    def __init__(
        self,
        players: int,
        options: Mapping[str, Any] | None = None,
        decks: Sequence[Sequence[str]] | None = None,
        seed: int | str = "scenario",
    ) -> None:
        self.events: list[Event] = GAME.start(
            players=players,
            options=dict(options or {}),
            seed=seed,
            deck=[list(d) for d in decks] if decks else None,
        )
        self.state: AlagerState = GAME.replay(self.events)

    def act(self, seat: int, action: Mapping[str, Any]) -> list[Event]:
        new = GAME.decide(self.state, seat, action)
        for event in new:
            self.state = GAME.evolve(self.state, event)
        self.events += new
        return new

    def quick_deals(self, count: int) -> None:
        """Play ``count`` deals in which the eldest knocks and everyone else passes."""
        for _ in range(count):
            deal = self.state.deal
            self.act(self.state.current, {"type": "konec"})  # type: ignore[arg-type]
            while self.state.deal == deal and self.state.phase != "over":
                self.act(self.state.current, {"type": "pass"})  # type: ignore[arg-type]

    def view(self, seat: int | None) -> dict[str, Any]:
        return GAME.view(self.state, seat)

    def types(self, events: Sequence[Event]) -> list[str]:
        return [e.type.removeprefix("alager.") for e in events]

    def last(self, event_type: str) -> dict[str, Any]:
        """Payload of the most recent event of ``event_type`` ("deal_ended" …)."""
        for event in reversed(self.events):
            if event.type == f"alager.{event_type}":
                return event.payload
        raise AssertionError(f"no {event_type} event")
