"""The state of an Allegra match: a small frozen record folded from events.

The table is two parallel values indexed by cell (see :mod:`.geometry`):
``cards[i]`` is the card in cell ``i`` (None for a hole) and bit ``i`` of
``down`` says that the card is face down. Everything else follows §13 of the
rules: the draw pile (top first), the discard pile (top last), the round's
out-of-play pile, the card in transit during a turn, the knock window and the
knock exchange, the round-end trigger and its final-turn queue, and the totals.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, Literal, TypeVar

from rules.allegra.options import Rules
from rules.dealing import Chance

T = TypeVar("T")

Phase = Literal[
    "setup",
    "initial_reveal",
    "turn_start",
    "knock_window",
    "decide_deck_card",
    "knocker_place",
    "drawer_take",
    "drawer_place",
    "game_over",
]


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How one round was scored (§10 step 4)."""

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


def knock_of(st: AllegraState) -> Knock:
    """The knock record, in a phase that has one."""
    if st.knock is None:  # pragma: no cover - a programming error
        raise AssertionError(f"no knock in phase {st.phase}")
    return st.knock


def to_act(st: AllegraState) -> tuple[int, ...]:
    """The seats that may act now; every pending seat in a knock window."""
    phase = st.phase
    if phase == "knock_window":
        return knock_of(st).pending
    if phase == "knocker_place":
        kn = knock_of(st)
        assert kn.knocker is not None
        return (kn.knocker,)
    if phase == "game_over" or phase == "setup":
        return ()
    return (st.active,)


def replacer(cls: type[T]) -> Callable[..., T]:
    """A fast ``dataclasses.replace`` for a frozen, slotted dataclass.

    ``dataclasses.replace`` goes through the frozen ``__init__`` (one
    ``object.__setattr__`` per field) and costs about 20 µs for the state; the
    engine applies one per event, so this straight-line copy through the slot
    descriptors (generated once per class) is several times faster. The result
    is an ordinary instance, equal to what ``replace`` would build.
    """
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    env: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    env["_set"] = {n: getattr(cls, n).__set__ for n in names}
    lines = ["def replace(st, **changes):", "    new = _new(_cls)"]
    for k, n in enumerate(names):
        env[f"_s{k}"] = getattr(cls, n).__set__
        lines.append(f"    _s{k}(new, st.{n})")
    lines += ["    for k, v in changes.items():", "        _set[k](new, v)"]
    lines.append("    return new")
    exec("\n".join(lines), env)
    fn: Callable[..., T] = env["replace"]
    return fn


replace_state = replacer(AllegraState)
replace_knock = replacer(Knock)
