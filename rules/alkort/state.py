"""The state of an Alkort match: frozen values, folded from events.

The state is split by how often its parts change, because the engine's speed is
mostly the cost of building new frozen records: :class:`State` changes with
every card, :class:`Tally` with every trick, :class:`Deal` a few times per deal
(exchange, reveal) and :class:`Match` once per deal. Every part is loadable by
:mod:`rules.codec`, so the table row can cache it as JSON.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.alkort.options import Rules
from rules.dealing import Chance

Phase = Literal["exchange", "play", "over"]
Kind = Literal["muk", "stroke", "simple"]


@dataclass(frozen=True, slots=True)
class DealResult:
    """How one deal was scored (B9): ``side`` scored ``points``."""

    deal: int
    side: int
    points: int
    kind: Kind
    run: int
    tricks: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Match:
    """What outlives a deal: players, options, chance and the score."""

    players: int
    rules: Rules
    chance: Chance
    seed_sha256: str
    scores: tuple[int, int]
    results: tuple[DealResult, ...] = ()
    ended: bool = False


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal's cards away from the hands, its exchange and its reveal.

    ``reveals[seat]`` is the card that seat showed its partner (None for
    ``NONE``); the tuple is empty when no reveal took place.
    """

    number: int
    dealer: int
    forehand: int
    stock: tuple[str, ...]
    dead: tuple[str, ...]
    passed: tuple[int, ...] = ()
    exchanger: int | None = None
    shown: tuple[str, ...] = ()
    kept: str | None = None
    taken: tuple[str, ...] = ()
    discards: tuple[str, ...] = ()
    reveals: tuple[str | None, ...] = ()


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: who led, the cards in play order, the winning seat."""

    leader: int
    cards: tuple[str, ...]
    winner: int


@dataclass(frozen=True, slots=True)
class Tally:
    """The finished tricks of the deal and the counters derived from them."""

    done: tuple[Trick, ...]
    seat_tricks: tuple[int, ...]
    side_tricks: tuple[int, int]

    def has_won(self, seat: int) -> bool:
        """Has ``seat`` won a trick in this deal (the seven rule, B7)?"""
        return self.seat_tricks[seat] > 0


@dataclass(frozen=True, slots=True)
class State:
    """A whole match at one moment.

    ``turn`` is the seat to act (-1 when the match is over), ``trick`` the cards
    of the trick in progress in play order from ``leader``, and ``best`` the
    position in ``trick`` of the card winning it so far.
    """

    match: Match
    deal: Deal
    tally: Tally
    phase: Phase
    hands: tuple[tuple[str, ...], ...]
    turn: int
    leader: int
    trick: tuple[str, ...]
    best: int

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.match.players

    @property
    def rules(self) -> Rules:
        """The match's validated options."""
        return self.match.rules


def side_of(seat: int) -> int:
    """Side A (0) holds seats 0 and 2, side B (1) seats 1 and 3; 2p: the seat."""
    return seat % 2


def empty_tally(players: int) -> Tally:
    """The tally of a deal before its first trick."""
    return Tally((), (0,) * players, (0, 0))
