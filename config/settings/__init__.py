"""Settings per mode: ``base`` holds everything shared, the others adjust it.

Pick one with ``DJANGO_SETTINGS_MODULE``: ``config.settings.local`` (the default
for ``manage.py``, ASGI and Celery), ``config.settings.production`` or
``config.settings.test``.
"""
