"""Alager's immutable values: the resolved options, a deal's result and the state.

The state is a flat frozen record so that one ``evolve`` builds one new object;
it holds the whole truth (every hand, the stock order, the chance), and only
``views.view`` and ``hidden.redact`` decide what a seat may see of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.cards import Card
from rules.dealing import Chance
from rules.records import OptionsRecord, replacer


@dataclass(frozen=True, slots=True)
class Rules(OptionsRecord):
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
        """The ``alager.deal_ended`` payload (JSON-safe)."""
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
        """Read back an ``alager.deal_ended`` payload."""
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
    """Everything about a match of Alager at one moment (docs/rules/alager.md)."""

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


#: ``replace_state(state, current=2, pass_streak=0)``: a copy with those fields.
replace_state = replacer(AlagerState)
