"""What each Allegra seat may see of a match: its view (§6; docs/rules-api.md).

Face-down cards are hidden from everyone, their owner included; the draw
pile shows only its size. The drawn card, the discard pile and the out-of-play
pile are public. In the knock window the answers stay hidden until all are in
(a seat sees only its own); in the exchange the knocker's hand card O is seen
by the knocker alone unless it was face up before.
"""

from __future__ import annotations

from typing import Any

from rules.allegra.geometry import geometry
from rules.allegra.scoring import outcome
from rules.allegra.state import AllegraState, to_act
from rules.core import Seat

#: A grid cell in a view: the card's value, "down" (face down) or None (hole).
DOWN = "down"


def view(state: AllegraState, seat: Seat) -> dict[str, Any]:
    """Everything ``seat`` may see (None: a spectator); docs/rules-api-allegra.md."""
    geo = geometry(state.players)
    cards, down = state.cards, state.down
    grids = [
        [
            [
                DOWN if down >> i & 1 else cards[i]
                for i in range(12 * p + 4 * r, 12 * p + 4 * r + 4)
            ]
            for r in range(3)
        ]
        for p in range(state.players)
    ]
    return {
        "game": "allegra",
        "players": state.players,
        "options": state.rules.to_options(),
        "seed_sha256": state.seed_sha256,
        "seat": seat,
        "phase": state.phase,
        "to_act": list(to_act(state)),
        "active": state.active,
        "round": state.round,
        "rounds": state.rules.rounds,
        "start_seat": state.start_seat,
        "turn": state.turn,
        "grids": grids if state.cards else [],
        "draw_pile": len(state.draw),
        "discard_pile": list(state.discard),
        "out_of_play": list(state.out_of_play),
        "drawn": state.drawn,
        "reveals_left": 2 - state.reveals if state.phase == "initial_reveal" else 0,
        "knock": _knock_view(state, seat, geo.cell),
        "trigger": state.trigger,
        "final_turns": list(state.queue),
        "scores": list(state.totals),
        "round_results": [
            {
                "round": r.round,
                "trigger": r.trigger,
                "forced": r.forced,
                "raw": list(r.raw),
                "scores": list(r.scores),
                "doubled": r.doubled,
            }
            for r in state.results
        ],
        "outcome": outcome(state),
    }


def _knock_view(state: AllegraState, seat: Seat, cell: Any) -> dict[str, Any] | None:
    k = state.knock
    if k is None:
        return None
    window_open = state.phase == "knock_window"
    answered = seat in k.eligible and seat not in k.pending
    hand_visible = k.hand is not None and (k.hand_public or seat == k.knocker)
    return {
        "eligible": list(k.eligible),
        "pending": list(k.pending),
        "your_answer": (
            ("knock" if seat in k.knockers else "pass") if answered else None
        ),
        "knockers": None if window_open else list(k.knockers),
        "knocker": k.knocker,
        "k1": None if k.k1 is None else cell(k.k1),
        "hand": k.hand if hand_visible else None,
        "hand_hidden": k.hand is not None and not hand_visible,
        "k2": None if k.k2 is None else cell(k.k2),
        "taken": k.taken,
    }
