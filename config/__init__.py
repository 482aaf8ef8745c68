"""Project configuration: settings, ASGI entry point, URLs, Celery app.

Importing the Celery app here makes ``@shared_task`` bind to it whenever Django
starts, so web processes can queue tasks without importing ``config.celery``.
"""

from config.celery import app as celery_app

__all__ = ["celery_app"]
