"""Every shuffle of a match, derived from one secret seed. The only randomness.

The algorithm is fixed and independent of Python's ``random`` module, so that
anyone holding a revealed seed can re-derive every deal in any language:

1. The seed is text (an integer seed is written in decimal): ``s = str(seed)``.
2. The ``k``-th shuffle of a match (``k = 0, 1, 2, …``, counting every deal and
   every reshuffle in the order they happen) draws from the byte stream
   ``SHA-256(f"{s}:{k}:{c}")`` for ``c = 0, 1, 2, …``, each digest read as four
   big-endian unsigned 64-bit integers, in order.
3. A number below ``n`` is drawn by rejection: take the next integer ``x``; if
   ``x >= 2**64 - (2**64 % n)`` discard it and take another; else use ``x % n``.
4. Fisher–Yates from the end: for ``i = len - 1`` down to ``1``, draw
   ``j`` below ``i + 1`` and swap positions ``i`` and ``j``.
5. The input is the game's unshuffled deck (its rules file gives the order) or,
   for a reshuffle, the cards in the order they were gathered. ``deck[0]`` of
   the result is the top card, dealt first.

The SHA-256 of ``s`` (hex) is published when a match starts and ``s`` itself
when it ends.

>>> shuffle([1, 2, 3, 4, 5], "demo", 0) == shuffle([1, 2, 3, 4, 5], "demo", 0)
True
>>> sorted(shuffle(list("abcdef"), 7, 3))
['a', 'b', 'c', 'd', 'e', 'f']
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")

_MASK = 1 << 64


def seed_text(seed: int | str) -> str:
    """The text of a seed (an int is written in decimal); raises TypeError otherwise."""
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise TypeError("A seed is an integer or a string")
    return str(seed)


def seed_or_new(seed: int | str | None) -> str:
    """The text of a given seed, or a fresh secret one when none is given."""
    return new_seed() if seed is None else seed_text(seed)


def seed_hash(seed: int | str) -> str:
    """The public commitment to a seed: hex SHA-256 of its text."""
    return hashlib.sha256(seed_text(seed).encode()).hexdigest()


def new_seed() -> str:
    """A fresh secret seed (256 bits, hex)."""
    return secrets.token_hex(32)


_WORDS = struct.Struct(">4Q").unpack


def shuffle(items: Sequence[T], seed: int | str, k: int) -> list[T]:
    """The ``k``-th shuffle of ``items`` for ``seed`` (see the module docstring).

    Steps 2-4 are inlined (one digest gives four numbers) because every deal of
    every game runs through here; ``tests/rules/test_core.py`` checks the result
    against a plain transcription of the documented algorithm.
    """
    out = list(items)
    prefix = f"{seed_text(seed)}:{k}:"
    sha256 = hashlib.sha256
    words: tuple[int, ...] = ()
    pos = 4
    counter = 0
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = _MASK - (_MASK % n)
        while True:
            if pos == 4:
                words = _WORDS(sha256(f"{prefix}{counter}".encode()).digest())
                counter += 1
                pos = 0
            x = words[pos]
            pos += 1
            if x < limit:
                break
        j = x % n
        out[i], out[j] = out[j], out[i]
    return out


@dataclass(frozen=True, slots=True)
class Chance:
    """Where a match's next deck comes from: given decks first, then the seed.

    Kept inside a game's state (never in a view). ``deals`` counts deals made,
    ``shuffles`` counts shuffles drawn from the seed (the ``k`` of the next one).
    """

    seed: str
    decks: tuple[tuple[Any, ...], ...] = ()
    deals: int = 0
    shuffles: int = 0

    def next_deal(
        self, standard: Sequence[Any]
    ) -> tuple[list[Any], int | None, Chance]:
        """The deck for the next deal: ``(deck, k or None if given, new chance)``."""
        if self.deals < len(self.decks):
            deck = list(self.decks[self.deals])
            return (
                deck,
                None,
                Chance(self.seed, self.decks, self.deals + 1, self.shuffles),
            )
        deck = shuffle(standard, self.seed, self.shuffles)
        return (
            deck,
            self.shuffles,
            Chance(self.seed, self.decks, self.deals + 1, self.shuffles + 1),
        )

    def reshuffle(self, cards: Sequence[Any]) -> tuple[list[Any], int, Chance]:
        """A mid-deal reshuffle (e.g. the discards becoming a new stock)."""
        deck = shuffle(cards, self.seed, self.shuffles)
        return (
            deck,
            self.shuffles,
            Chance(self.seed, self.decks, self.deals, self.shuffles + 1),
        )

    def after(self, event_payload: dict[str, Any]) -> Chance:
        """The chance after a recorded deal/reshuffle event (used by ``evolve``).

        Deal payloads carry ``"shuffle": k | None`` and reshuffles carry
        ``"reshuffle": true``; this keeps replay free of any RNG.
        """
        k = event_payload.get("shuffle")
        if event_payload.get("reshuffle"):
            return Chance(self.seed, self.decks, self.deals, self.shuffles + 1)
        if k is None:
            return Chance(self.seed, self.decks, self.deals + 1, self.shuffles)
        return Chance(self.seed, self.decks, self.deals + 1, self.shuffles + 1)


def normalise_decks(deck: Sequence[Any] | None) -> tuple[tuple[Any, ...], ...]:
    """``start(deck=…)`` accepts one deck or a list of decks; return decks."""
    if deck is None:
        return ()
    deck = list(deck)
    if deck and all(isinstance(d, list | tuple) for d in deck):
        return tuple(tuple(d) for d in deck)
    return (tuple(deck),)
