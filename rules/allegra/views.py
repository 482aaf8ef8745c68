"""What each seat may see (ALLEGRA.md §6; ARCHITECTURE.md §5).

Face-down cards are hidden from everyone, their owner included; the draw
pile shows only its size. The drawn card, the discard pile and the out-of-play
pile are public. In the knock window the answers stay hidden until all are in
(a seat sees only its own); in the exchange the knocker's hand card O is seen
by the knocker alone unless it was face up before.
"""

from __future__ import annotations

from typing import Any

from rules.allegra.geometry import geometry
from rules.allegra.rounds import outcome_for
from rules.allegra.state import AllegraState, to_act
from rules.core import Event, Seat, strip_secrets

#: A grid cell in a view: the card's value, "down" (face down) or None (hole).
DOWN = "down"


def outcome(st: AllegraState) -> dict[str, Any] | None:
    if st.phase != "game_over":
        return None
    return outcome_for(st.rules, st.totals, st.results)


def view(st: AllegraState, seat: Seat) -> dict[str, Any]:
    geo = geometry(st.players)
    cards, down = st.cards, st.down
    grids = [
        [
            [
                DOWN if down >> i & 1 else cards[i]
                for i in range(12 * p + 4 * r, 12 * p + 4 * r + 4)
            ]
            for r in range(3)
        ]
        for p in range(st.players)
    ]
    return {
        "game": "allegra",
        "players": st.players,
        "options": st.rules.to_options(),
        "seed_sha256": st.seed_sha256,
        "seat": seat,
        "phase": st.phase,
        "to_act": list(to_act(st)),
        "active": st.active,
        "round": st.round,
        "rounds": st.rules.rounds,
        "start_seat": st.start_seat,
        "turn": st.turn,
        "grids": grids if st.cards else [],
        "draw_pile": len(st.draw),
        "discard_pile": list(st.discard),
        "out_of_play": list(st.out_of_play),
        "drawn": st.drawn,
        "reveals_left": 2 - st.reveals if st.phase == "initial_reveal" else 0,
        "knock": _knock_view(st, seat, geo.cell),
        "trigger": st.trigger,
        "final_turns": list(st.queue),
        "scores": list(st.totals),
        "round_results": [
            {
                "round": r.round,
                "trigger": r.trigger,
                "forced": r.forced,
                "raw": list(r.raw),
                "scores": list(r.scores),
                "doubled": r.doubled,
            }
            for r in st.results
        ],
        "outcome": outcome(st),
    }


def _knock_view(st: AllegraState, seat: Seat, cell: Any) -> dict[str, Any] | None:
    k = st.knock
    if k is None:
        return None
    window_open = st.phase == "knock_window"
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


def redact(event: Event, seat: Seat) -> Event:
    kind = event.type
    p = event.payload
    if kind == "allegra.match_ended":
        return event  # the seed is revealed at the end, on purpose
    if kind == "allegra.knock_answered" and seat != p["seat"]:
        return Event(kind, event.version, {"seat": p["seat"]})
    if kind == "allegra.knocker_placed" and not p["hand_public"] and seat != p["seat"]:
        return Event(kind, event.version, {k: v for k, v in p.items() if k != "hand"})
    return strip_secrets(event)
