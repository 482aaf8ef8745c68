"""Settings for a deployment (the Docker image uses these).

Production never falls back to something unsafe: it refuses to start without
its own strong ``SECRET_KEY``, with ``ALLOWED_HOSTS`` unset or ``*``, or on
SQLite (the embedded default is one process and no place for real matches), so
a forgotten or careless variable fails the deploy instead of running with a
guessable key, answering for any host name or losing data. With the variables
of docs/operations.md's production checklist set, ``manage.py check --deploy``
reports nothing (``tests/config/test_settings.py`` holds it to that).
"""

from django.core.checks.security.base import (
    SECRET_KEY_INSECURE_PREFIX,
    SECRET_KEY_MIN_LENGTH,
    SECRET_KEY_MIN_UNIQUE_CHARACTERS,
)
from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import ALLOWED_HOSTS, DATABASES, SECRET_KEY, env

DEBUG = False

if not SECRET_KEY:
    raise ImproperlyConfigured(
        "SECRET_KEY is not set. Production needs its own secret key in the "
        "environment (see .env.example)."
    )
if SECRET_KEY.startswith(SECRET_KEY_INSECURE_PREFIX):
    raise ImproperlyConfigured(
        "SECRET_KEY is a development key. Generate a new one for production."
    )
if (
    len(SECRET_KEY) < SECRET_KEY_MIN_LENGTH
    or len(set(SECRET_KEY)) < SECRET_KEY_MIN_UNIQUE_CHARACTERS
):
    raise ImproperlyConfigured(
        f"SECRET_KEY is too weak: it needs at least {SECRET_KEY_MIN_LENGTH} "
        f"characters, {SECRET_KEY_MIN_UNIQUE_CHARACTERS} of them different. "
        "Generate one with: python -c 'import secrets; "
        "print(secrets.token_urlsafe(50))'"
    )
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured(
        "ALLOWED_HOSTS is not set. Production needs the comma-separated host "
        "names it serves (see .env.example)."
    )
if "*" in ALLOWED_HOSTS:
    raise ImproperlyConfigured(
        "ALLOWED_HOSTS must not be '*': name the hosts this service answers for "
        "(a wildcard lets any Host header through, and with it poisoned links "
        "in e-mails and caches)."
    )
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    raise ImproperlyConfigured(
        "DATABASE_URL is not set (or is SQLite). Production needs PostgreSQL: "
        "DATABASE_URL=postgres://user:password@host:5432/cardroom"
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
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool(
    "SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False
)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
SESSION_COOKIE_SECURE = env.bool("SECURE_COOKIES", default=True)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
# Django's defaults, stated so that nobody loosens them by accident: no
# sniffing of content types, no framing, referrers only to our own pages.
# (The CSRF cookie stays readable by our scripts: the web client sends it back
# in X-CSRFToken.)
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
