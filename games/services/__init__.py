"""Writes on tables (HackSoft services): each takes keyword-only arguments and
says in its docstring which lock it takes."""

from games.services.actions import action_submit, move_apply
from games.services.bots import bot_turn_play
from games.services.tables import (
    table_add_bot,
    table_create,
    table_join,
    table_leave,
    table_seats_to_act_to_bots,
    table_start,
)
from games.services.timers import turn_timer_expire

__all__ = [
    "action_submit",
    "bot_turn_play",
    "move_apply",
    "table_add_bot",
    "table_create",
    "table_join",
    "table_leave",
    "table_seats_to_act_to_bots",
    "table_start",
    "turn_timer_expire",
]
