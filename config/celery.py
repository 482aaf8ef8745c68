"""The project's Celery app, configured from Django settings.

Settings named ``CELERY_*`` configure it (see ``config/settings/base.py``), and
every installed app's ``tasks.py`` is searched for tasks. Start a worker with
``celery -A config worker`` and the scheduler with ``celery -A config beat``.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("cardroom")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
