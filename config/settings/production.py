"""Settings for a deployment (the Docker image uses these).

Production never falls back to a built-in secret: without ``SECRET_KEY`` and
``ALLOWED_HOSTS`` in the environment it refuses to start, so a forgotten
variable fails the deploy instead of running with a guessable key or answering
for any host name.
"""

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import ALLOWED_HOSTS, SECRET_KEY, env

DEBUG = False

if not SECRET_KEY:
    raise ImproperlyConfigured(
        "SECRET_KEY is not set. Production needs its own secret key in the "
        "environment (see .env.example)."
    )
if SECRET_KEY.startswith("django-insecure"):
    raise ImproperlyConfigured(
        "SECRET_KEY is a development key. Generate a new one for production."
    )
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured(
        "ALLOWED_HOSTS is not set. Production needs the comma-separated host "
        "names it serves (see .env.example)."
    )

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# Behind a TLS-terminating proxy that sets X-Forwarded-Proto, trust it so that
# request.is_secure() and redirects see https.
if env.bool("TRUST_X_FORWARDED_PROTO", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=False)
# Health probes come over plain HTTP from inside the network.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0)
SESSION_COOKIE_SECURE = env.bool("SECURE_COOKIES", default=True)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
