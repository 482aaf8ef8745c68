"""What one Alkort seat may see of a match: its view (B11).

A seat sees its own hand, every public announcement (exchange-phase passes, an
exchanger's shown hand, played cards, trick winners, scores), its partner's
revealed card and, as the exchanger, its kept card, discards and the stock it
took. Nobody sees another hand, the stock, the 2-player dead pile or the seed
while the match is in play.
"""

from __future__ import annotations

from typing import Any

from rules.alkort.scoring import outcome
from rules.alkort.state import State, side_of
from rules.alkort.tables import sort_hand
from rules.core import Seat


def view(state: State, seat: Seat) -> dict[str, Any]:
    """Everything ``seat`` may see (None: a spectator); docs/rules-api-alkort.md."""
    match = state.match
    deal = state.deal
    tally = state.tally
    players = match.players
    mine = seat is not None and 0 <= seat < players
    exchange: dict[str, Any] = {
        "passed": list(deal.passed),
        "exchanger": deal.exchanger,
        "shown": list(sort_hand(deal.shown)) if deal.exchanger is not None else None,
    }
    if mine and deal.exchanger == seat:
        exchange.update(
            kept=deal.kept, taken=list(deal.taken), discards=list(deal.discards)
        )
    reveal: dict[str, Any] | None = None
    if deal.reveals and mine:
        assert seat is not None
        partner = (seat + 2) % players
        reveal = {
            "partner": partner,
            "shown": deal.reveals[seat],
            "received": deal.reveals[partner],
        }
    turn = state.turn
    return {
        "game": "alkort",
        "players": players,
        "options": match.rules.to_options(),
        "seat": seat,
        "phase": state.phase,
        "to_act": [turn] if turn >= 0 else [],
        "outcome": outcome(state),
        "seed_sha256": match.seed_sha256,
        "sides": [[s for s in range(players) if side_of(s) == side] for side in (0, 1)],
        "scores": list(match.scores),
        "seat_scores": [match.scores[side_of(s)] for s in range(players)],
        "target": match.rules.target,
        "results": [
            {
                "deal": r.deal,
                "side": r.side,
                "points": r.points,
                "kind": r.kind,
                "run": r.run,
                "tricks": list(r.tricks),
            }
            for r in match.results
        ],
        "deal": deal.number,
        "dealer": deal.dealer,
        "forehand": deal.forehand,
        "hand": list(state.hands[seat]) if mine and seat is not None else None,
        "hand_sizes": [len(h) for h in state.hands],
        "exchange": exchange,
        "partner_reveal": deal.reveals != () and players == 4,
        "reveal": reveal,
        "leader": state.leader,
        "trick": [
            {"seat": (state.leader + i) % players, "card": c}
            for i, c in enumerate(state.trick)
        ],
        "winning": (state.leader + state.best) % players if state.trick else None,
        "tricks": [
            {"leader": t.leader, "cards": list(t.cards), "winner": t.winner}
            for t in tally.done
        ],
        "tricks_won": {
            "sides": list(tally.side_tricks),
            "seats": list(tally.seat_tricks),
        },
        "has_won": [n > 0 for n in tally.seat_tricks],
    }
