"""Writes on tournaments (HackSoft services): keyword-only arguments, and each
says in its docstring which lock it takes (the tournament row)."""

from tournaments.services.registration import (
    entry_register,
    entry_withdraw,
    registration_open,
)
from tournaments.services.rounds import (
    RoundProposal,
    entry_tables_leave,
    round_finish,
    round_plan,
    round_seat,
    round_start,
    tournament_finish,
)
from tournaments.services.standings import standings_recompute

__all__ = [
    "RoundProposal",
    "entry_register",
    "entry_tables_leave",
    "entry_withdraw",
    "registration_open",
    "round_finish",
    "round_plan",
    "round_seat",
    "round_start",
    "standings_recompute",
    "tournament_finish",
]
