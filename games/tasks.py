"""Celery tasks of the games app. They take ids, are idempotent, may run twice.

Each task is also registered as a job of ``games.scheduler`` under its task
name, so the embedded default's scheduler thread (and the test runner) run the
same code without a broker.
"""

from celery import shared_task

from games import scheduler
from games.services.bots import bot_turn_play as bot_turn_play_service
from games.services.sweep import turns_sweep as turns_sweep_service
from games.services.timers import turn_timer_expire as turn_timer_expire_service


@shared_task(ignore_result=True)
def bot_turn_play(table_id: int, seq: int) -> int | None:
    """Play the bot turn of table ``table_id`` scheduled at ``seq``.

    Does nothing if the table has moved past ``seq`` (a later follow-up owns
    the new position), so a duplicate or late delivery is harmless.
    """
    return bot_turn_play_service(table_id=table_id, seq=seq)


@shared_task(ignore_result=True)
def turn_timer_expire(table_id: int, seq: int) -> int | None:
    """Play the safe default for the person whose time ran out at ``seq``.

    Does nothing if someone moved meanwhile (the table is past ``seq``).
    """
    return turn_timer_expire_service(table_id=table_id, seq=seq)


@shared_task(ignore_result=True)
def turns_sweep() -> int:
    """Re-schedule the turn of every table in play whose follow-up was lost."""
    return turns_sweep_service()


for _task in (bot_turn_play, turn_timer_expire, turns_sweep):
    scheduler.job_register(_task.name, _task)
