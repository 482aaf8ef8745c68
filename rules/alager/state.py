"""Alager's immutable values: the resolved options, a deal's result and the state.

The state is a flat frozen record so that one ``evolve`` builds one new object;
it holds the whole truth (every hand, the stock order, the chance), and only
``AlagerGame.view`` decides what a seat may see of it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.cards import Card
from rules.dealing import Chance


@dataclass(frozen=True, slots=True)
class Rules:
    """The validated options of a match, with the defaults that depend on ``n`` resolved.

    ``max_turns_per_deal`` stays None when it follows the number of active
    players (50 × n); ``AlagerState.max_turns`` holds the limit of the deal in play.
    """

    deck: int
    hori_enabled: bool
    deal_pattern: str
    a1_discard_to: str
    replenish_shuffle: bool
    konec_after_exchange: bool
    konec_min_round: int
    tie_rule: str
    knocker_lowest_penalty: int
    allow_negative_penalties: bool
    end_mode: str
    penalty_limit: int
    num_deals: int
    dealer_rule: str
    first_dealer: int
    max_turns_per_deal: int | None

    def as_options(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}


@dataclass(frozen=True, slots=True)
class DealResult:
    """How a deal ended and how it was scored (the ``alager.deal_ended`` facts)."""

    deal: int
    reason: str  # "special" | "konec" | "forced"
    knocker: int | None
    specials: tuple[tuple[int, str], ...]  # (seat, "alager" | "hori")
    hands: tuple[tuple[Card, ...], ...]  # every seat's revealed hand; () if eliminated
    values: tuple[int | None, ...]
    penalised: tuple[int, ...]  # the lowest hands that took the penalty
    changes: tuple[int, ...]
    penalties: tuple[int, ...]
    eliminated: tuple[int, ...]  # seats eliminated after this deal
    next_dealer: int | None

    def to_json(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "reason": self.reason,
            "knocker": self.knocker,
            "specials": [{"seat": s, "kind": k} for s, k in self.specials],
            "hands": [list(h) if h else None for h in self.hands],
            "values": list(self.values),
            "penalised": list(self.penalised),
            "changes": list(self.changes),
            "penalties": list(self.penalties),
            "eliminated": list(self.eliminated),
            "next_dealer": self.next_dealer,
        }

    @classmethod
    def from_json(cls, p: dict[str, Any]) -> DealResult:
        return cls(
            deal=p["deal"],
            reason=p["reason"],
            knocker=p["knocker"],
            specials=tuple((d["seat"], d["kind"]) for d in p["specials"]),
            hands=tuple(tuple(h) if h else () for h in p["hands"]),
            values=tuple(p["values"]),
            penalised=tuple(p["penalised"]),
            changes=tuple(p["changes"]),
            penalties=tuple(p["penalties"]),
            eliminated=tuple(p["eliminated"]),
            next_dealer=p["next_dealer"],
        )


#: Phases: before the first deal, the two phases of play, between deals, over.
PHASES = ("setup", "normal", "final", "scoring", "over")


@dataclass(frozen=True, slots=True)
class AlagerState:
    """Everything about a match of Alager at one moment (ALAGER.md §14's variables)."""

    players: int
    rules: Rules
    chance: Chance
    penalties: tuple[int, ...]
    #: The deal after which each seat was eliminated (elimination mode), else None.
    eliminated_in: tuple[int | None, ...]
    deal: int  # number of the current (or last) deal, 1-based; 0 before the first
    dealer: int
    order: tuple[int, ...]  # the active seats of this deal, clockwise from the eldest
    hands: tuple[tuple[Card, ...], ...]
    table: tuple[Card, ...]
    stock: tuple[Card, ...]  # stock[0] is the top card
    discard: tuple[Card, ...]  # chronological: the last is the most recent
    phase: str
    current: int | None
    pass_streak: int
    knocker: int | None
    final_queue: tuple[int, ...]  # seats still owed a final turn; [0] is to act
    turns_taken: int  # normal-phase turns of this deal (the knock included)
    max_turns: int
    last_deal: DealResult | None


def _slot_setters(cls: type) -> tuple[list[str], dict[str, Any]]:
    names = [f for f in cls.__slots__ if not f.startswith("__")]  # type: ignore[attr-defined]
    namespace: dict[str, Any] = {"new": object.__new__, "C": cls}
    namespace.update({f"S_{n}": getattr(cls, n).__set__ for n in names})
    return names, namespace


def _make_replacer(cls: type) -> Any:
    """A fast ``dataclasses.replace`` for one frozen, slotted dataclass.

    ``dataclasses.replace`` goes through the frozen ``__init__``, which sets each
    field with ``object.__setattr__``; for a twenty-field state that was most of
    the cost of an action. This builds the copy through the slot descriptors
    instead (same result, about a third of the time). Only keyword arguments
    naming fields are accepted, as with ``replace``.
    """
    names, namespace = _slot_setters(cls)
    namespace["_M"] = object()
    params = ", ".join(f"{n}=_M" for n in names)
    body = "".join(f"    S_{n}(o, s.{n} if {n} is _M else {n})\n" for n in names)
    source = f"def with_(s, *, {params}):\n    o = new(C)\n{body}    return o\n"
    exec(source, namespace)  # noqa: S102 - built from the class's own field names
    return namespace["with_"]


def setter(*changed: str) -> Callable[..., AlagerState]:
    """A copy function for the hottest evolvers: ``setter("a", "b")(state, a, b)``.

    Positional, and with no per-field test of which fields change: a further
    third off ``with_`` for the few events every turn produces.
    """
    names, namespace = _slot_setters(AlagerState)
    unknown = set(changed) - set(names)
    if unknown:
        raise TypeError(f"AlagerState has no field {min(unknown)!r}")
    body = "".join(f"    S_{n}(o, {n if n in changed else 's.' + n})\n" for n in names)
    source = f"def copy(s, {', '.join(changed)}):\n    o = new(C)\n{body}    return o\n"
    exec(source, namespace)  # noqa: S102 - built from the class's own field names
    result: Callable[..., AlagerState] = namespace["copy"]
    return result


#: ``with_(state, current=2, pass_streak=0)``: a copy of ``state`` with those fields.
with_: Callable[..., AlagerState] = _make_replacer(AlagerState)
