"""Celery tasks of the games app. They take ids, are idempotent, may run twice."""

from celery import shared_task

from games.services.bots import bot_turns_run


@shared_task(ignore_result=True)
def bot_turns_play(table_id: int, seq: int) -> int:
    """Play the bot seats of table ``table_id`` scheduled at ``seq``.

    Does nothing if the table has moved past ``seq`` (a later follow-up owns
    the new position), so a duplicate or late delivery is harmless.
    """
    return bot_turns_run(table_id=table_id, seq=seq)
