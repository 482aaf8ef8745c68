"""Every shuffle of a match, derived from one secret seed. The only randomness.

The algorithm is fixed and independent of Python's ``random`` module, so that
anyone holding a revealed seed can re-derive every deal in any language:

1. The seed is text (an integer seed is written in decimal): ``s = str(seed)``.
2. Every shuffle of a match has a key ``k``, recorded as ``"shuffle"`` in its
   event. Deal ``j`` of the match (``j = 0, 1, 2, …``, counting every deal of
   the match, given decks included) has the integer key ``k = j``; the ``m``-th
   mid-deal reshuffle of the match (``m = 0, 1, 2, …``) has the text key
   ``k = f"r{m}"``. The shuffle with key ``k`` draws from the byte stream
   ``SHA-256(f"{s}:{k}:{c}")`` for ``c = 0, 1, 2, …``, an integer key written
   in decimal (deal 3 hashes ``"s:3:0"``, ``"s:3:1"``, …; the first reshuffle
   ``"s:r0:0"``, …), each digest read as four big-endian unsigned 64-bit
   integers, in order. A text key starts with ``r`` and an integer key with a
   digit, so no reshuffle ever reads a deal's stream.
3. A number below ``n`` is drawn by rejection: take the next integer ``x``; if
   ``x >= 2**64 - (2**64 % n)`` discard it and take another; else use ``x % n``.
4. Fisher–Yates from the end: for ``i = len - 1`` down to ``1``, draw
   ``j`` below ``i + 1`` and swap positions ``i`` and ``j``.
5. The input is the game's unshuffled deck (its rules file gives the order) or,
   for a reshuffle, the cards in the order they were gathered. ``deck[0]`` of
   the result is the top card, dealt first.

A deal whose deck was given (``start(deck=…)``, tests and puzzles) records
``"shuffle": null``; it still counts as a deal, so the next deal's key is its
number ``j`` all the same.

Earlier versions of the engine numbered shuffles with one counter for seeded
deals and reshuffles together (given decks not counted; an integer ``k`` on a
reshuffle event too). Their events keep their recorded keys, so they replay
and verify as before, and such a match still in play goes on with that counter
(:attr:`Chance.legacy`) so that no later shuffle reuses one of its streams.

The SHA-256 of ``s`` (hex) is published when a match starts and ``s`` itself
when it ends.

>>> shuffle([1, 2, 3, 4, 5], "demo", 0) == shuffle([1, 2, 3, 4, 5], "demo", 0)
True
>>> sorted(shuffle(list("abcdef"), 7, 3))
['a', 'b', 'c', 'd', 'e', 'f']
>>> shuffle(list(range(10)), 7, "r0") == shuffle(list(range(10)), 7, 0)
False
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeGuard, TypeVar

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

#: The key of a shuffle: an int for a deal, ``"r<m>"`` for a reshuffle.
ShuffleKey = int | str


def shuffle_key_text(k: object) -> str:
    """The text of a shuffle key in the SHA-256 input; raises TypeError otherwise."""
    if isinstance(k, bool) or not isinstance(k, int | str):
        raise TypeError(
            "A shuffle key is an integer (a deal) or a string (a reshuffle)"
        )
    return str(k)


def reshuffle_key(m: int) -> str:
    """The key of the ``m``-th reshuffle of a match (0-based): ``"r<m>"``."""
    return f"r{m}"


def shuffle(items: Sequence[T], seed: int | str, k: ShuffleKey) -> list[T]:
    """The shuffle of ``items`` with key ``k`` for ``seed`` (see the module docstring).

    ``k`` is the deal number ``j`` (an int) or a reshuffle's key (``"r0"``, …).
    Steps 2-4 are inlined (one digest gives four numbers) because every deal of
    every game runs through here; ``tests/rules/test_core.py`` checks the result
    against a plain transcription of the documented algorithm.
    """
    out = list(items)
    prefix = f"{seed_text(seed)}:{shuffle_key_text(k)}:"
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


def _int_key(k: object) -> TypeGuard[int]:
    return isinstance(k, int) and not isinstance(k, bool)


@dataclass(frozen=True, slots=True)
class Chance:
    """Where a match's next deck comes from: given decks first, then the seed.

    Kept inside a game's state (never in a view). ``deals`` counts the deals
    made, given decks included: the next seeded deal has key ``deals``.
    ``reshuffles`` counts the mid-deal reshuffles: the next one has key
    ``f"r{reshuffles}"``. ``legacy`` is None, except for a match recorded by
    an earlier engine that numbered deals and reshuffles with one counter
    (found when a replayed reshuffle carries an int key): it is then that
    counter's next value, and the match keeps using it for every later deal
    and reshuffle, so no key of the match is used twice.
    """

    seed: str
    decks: tuple[tuple[Any, ...], ...] = ()
    deals: int = 0
    reshuffles: int = 0
    legacy: int | None = None

    def next_deal(
        self, standard: Sequence[Any]
    ) -> tuple[list[Any], int | None, Chance]:
        """The deck for the next deal: ``(deck, key, new chance)``.

        The key is the deal's number ``j`` (``deals``), or None for a given deck.
        """
        if self.deals < len(self.decks):
            deck = list(self.decks[self.deals])
            return deck, None, self._dealt(self.legacy)
        k = self.deals if self.legacy is None else self.legacy
        legacy = None if self.legacy is None else k + 1
        return shuffle(standard, self.seed, k), k, self._dealt(legacy)

    def reshuffle(self, cards: Sequence[Any]) -> tuple[list[Any], ShuffleKey, Chance]:
        """A mid-deal reshuffle (e.g. the discards becoming a new stock).

        Returns ``(deck, key, new chance)``; the key is ``"r<m>"``.
        """
        k: ShuffleKey
        if self.legacy is None:
            k, legacy = reshuffle_key(self.reshuffles), None
        else:
            k, legacy = self.legacy, self.legacy + 1
        return shuffle(cards, self.seed, k), k, self._reshuffled(legacy)

    def after(self, event_payload: dict[str, Any]) -> Chance:
        """The chance after a recorded deal/reshuffle event (used by ``evolve``).

        Deal payloads carry ``"shuffle": k | None`` and reshuffles carry
        ``"reshuffle": true`` and ``"shuffle": key``; this keeps replay free of
        any RNG. A reshuffle recorded with an int key comes from the earlier
        single counter: the match goes on with that counter (``legacy``).
        """
        k = event_payload.get("shuffle")
        if event_payload.get("reshuffle"):
            if _int_key(k):
                return self._reshuffled(k + 1)
            return self._reshuffled(self.legacy)
        if self.legacy is not None and _int_key(k):
            return self._dealt(k + 1)
        return self._dealt(self.legacy)

    def _dealt(self, legacy: int | None) -> Chance:
        return Chance(self.seed, self.decks, self.deals + 1, self.reshuffles, legacy)

    def _reshuffled(self, legacy: int | None) -> Chance:
        return Chance(self.seed, self.decks, self.deals, self.reshuffles + 1, legacy)


def normalise_decks(deck: Sequence[Any] | None) -> tuple[tuple[Any, ...], ...]:
    """``start(deck=…)`` accepts one deck or a list of decks; return decks.

    Raises TypeError for anything that is not a list (or tuple) of cards or of
    decks; ``Game.start`` reports it as InvalidOptions.
    """
    if deck is None:
        return ()
    if not isinstance(deck, list | tuple):
        raise TypeError("A given deck is a list of cards, or a list of decks")
    deck = list(deck)
    if deck and all(isinstance(d, list | tuple) for d in deck):
        return tuple(tuple(d) for d in deck)
    return (tuple(deck),)
