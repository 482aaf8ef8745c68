"""The state of an Allegra match: a small frozen record folded from events.

The table is two parallel values indexed by cell (see :mod:`.geometry`):
``cards[i]`` is the card in cell ``i`` (None for a hole) and bit ``i`` of
``down`` says that the card is face down. Everything else follows §13 of the
rules: the draw pile (top first), the discard pile (top last), the round's
out-of-play pile, the card in transit during a turn, the knock window and the
knock exchange, the round-end trigger and its final-turn queue, and the totals.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.allegra.options import Rules
from rules.dealing import Chance
from rules.records import replacer

Phase = Literal[
    "setup",
    "initial_reveal",
    "turn_start",
    "knock_window",
    "decide_deck_card",
    "knocker_place",
    "drawer_take",
    "drawer_place",
    "over",
]


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How one round was scored (§10)."""

    round: int
    trigger: int
    forced: bool
    raw: tuple[int, ...]
    scores: tuple[int, ...]
    doubled: bool


@dataclass(frozen=True, slots=True)
class Knock:
    """The knock window of a deck draw and the exchange that may follow (§7.3-§7.4).

    ``eligible`` may answer, ``pending`` still have to, ``knockers`` knocked
    (hidden from views until ``pending`` is empty). Once the drawer gives the
    card: the knocker K, ``k1``, K's hand card O (``hand``; public only if
    ``k1`` was face up), ``k2`` and the taken card T.
    """

    eligible: tuple[int, ...]
    pending: tuple[int, ...]
    knockers: tuple[int, ...] = ()
    knocker: int | None = None
    k1: int | None = None
    hand: int | None = None
    hand_public: bool = False
    k2: int | None = None
    taken: int | None = None


@dataclass(frozen=True, slots=True)
class AllegraState:
    """Everything about a match of Allegra at one moment (docs/rules/allegra.md)."""

    players: int
    rules: Rules
    chance: Chance
    seed_sha256: str
    round: int = 0
    start_seat: int = 0
    phase: Phase = "setup"
    #: The active player (the drawer during a knock window and exchange).
    active: int = 0
    cards: tuple[int | None, ...] = ()
    down: int = 0
    draw: tuple[int, ...] = ()
    discard: tuple[int, ...] = ()
    out_of_play: tuple[int, ...] = ()
    #: Cards the active player has revealed so far in the initial reveal.
    reveals: int = 0
    #: Turns completed this round (§9.3).
    turn: int = 0
    #: The card drawn from the deck, shown to all, until it is placed.
    drawn: int | None = None
    knock: Knock | None = None
    trigger: int | None = None
    #: Seats still due a final turn after the active one.
    queue: tuple[int, ...] = ()
    totals: tuple[int, ...] = ()
    results: tuple[RoundResult, ...] = ()


def knock_of(state: AllegraState) -> Knock:
    """The knock record, in a phase that has one."""
    if state.knock is None:  # pragma: no cover - a programming error
        raise AssertionError(f"no knock in phase {state.phase}")
    return state.knock


def to_act(state: AllegraState) -> tuple[int, ...]:
    """The seats that may act now; every pending seat in a knock window."""
    phase = state.phase
    if phase == "knock_window":
        return knock_of(state).pending
    if phase == "knocker_place":
        kn = knock_of(state)
        assert kn.knocker is not None
        return (kn.knocker,)
    if phase == "over" or phase == "setup":
        return ()
    return (state.active,)


#: ``replace_state(state, phase="over")``: a copy with those fields changed.
replace_state = replacer(AllegraState)
#: ``replace_knock(knock, pending=())``: a copy of the knock record.
replace_knock = replacer(Knock)
