"""What an Alager seat may see of a match: its view (docs/rules-api-alager.md)."""

from __future__ import annotations

from typing import Any

from rules.alager.decide import konec_allowed, to_act
from rules.alager.hands import hand_value
from rules.alager.scoring import outcome
from rules.alager.state import AlagerState
from rules.core import Seat


def view(state: AlagerState, seat: Seat) -> dict[str, Any]:
    """Everything ``seat`` may see: its own hand, public facts, never the stock order."""
    rules = state.rules
    own = state.hands[seat] if seat is not None and 0 <= seat < state.players else ()
    view: dict[str, Any] = {
        "game": "alager",
        "players": state.players,
        "options": rules.to_options(),
        "seat": seat,
        "phase": state.phase,
        "to_act": list(to_act(state)),
        "outcome": outcome(state),
        "deal": state.deal,
        "dealer": state.dealer,
        "eldest": state.order[0] if state.order else None,
        "order": list(state.order),
        "current": state.current,
        "hand": list(own) if own else None,
        "hand_value": hand_value(own) if len(own) == 3 else None,
        "hand_sizes": [len(h) for h in state.hands],
        "table": list(state.table),
        "discard_pile": list(state.discard),
        "stock_count": len(state.stock),
        "pass_streak": state.pass_streak,
        "knocker": state.knocker,
        "final_queue": list(state.final_queue),
        "turns_taken": state.turns_taken,
        "max_turns_per_deal": state.max_turns,
        "konec_allowed": konec_allowed(state),
        "penalties": list(state.penalties),
        "eliminated": [s for s, e in enumerate(state.eliminated_in) if e is not None],
        "last_deal": state.last_deal.to_json() if state.last_deal else None,
    }
    # The Czech names of the 32-card deck are static: clients read them once
    # from the game catalogue (rules.alager.MARIASH_NAMES), not from every view.
    return view
