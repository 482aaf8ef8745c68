"""Settings for a developer's machine and ``make run``.

DEBUG is on, a fixed development secret key stands in when none is set, and
only local host names are served. The database, channel layer and Celery follow
``DATABASE_URL`` / ``REDIS_URL`` as in ``base`` (embedded when unset).
"""

from .base import *  # noqa: F403
from .base import REST_FRAMEWORK, SECRET_KEY, env

DEBUG = env.bool("DEBUG", default=True)

# Only for local use: production refuses to start without its own key.
SECRET_KEY = SECRET_KEY or "django-insecure-local-development-key-do-not-deploy"

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])

# The browsable API helps while developing; production speaks JSON only.
REST_FRAMEWORK = {
    **REST_FRAMEWORK,
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
}
