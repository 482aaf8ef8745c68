"""Each settings mode loads from the environment and picks the right stack.

Every case runs in a fresh interpreter: settings are read once per process.
"""

import hashlib
import subprocess
from pathlib import Path

import pytest

from tests.helpers import REPO, clean_env, run_django_json, run_python

DUMP = """
import json
from django.conf import settings as s
from config.celery import app
db = s.DATABASES["default"]
print(json.dumps({
    "debug": s.DEBUG,
    "secret_key": s.SECRET_KEY,
    "allowed_hosts": s.ALLOWED_HOSTS,
    "db_engine": db["ENGINE"],
    "db_name": str(db["NAME"]),
    "db_host": db.get("HOST", ""),
    "db_port": str(db.get("PORT", "")),
    "db_user": db.get("USER", ""),
    "test_db_name": db.get("TEST", {}).get("NAME"),
    "redis_url": s.REDIS_URL,
    "channel_layer": s.CHANNEL_LAYERS["default"]["BACKEND"],
    "channel_hosts": s.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("hosts"),
    "channel_prefix": s.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("prefix"),
    "cache": s.CACHES["default"]["BACKEND"],
    "cache_prefix": s.CACHES["default"].get("KEY_PREFIX", ""),
    "celery_broker": app.conf.broker_url,
    "celery_eager": app.conf.task_always_eager,
    "hashers": s.PASSWORD_HASHERS,
    "static_storage": s.STORAGES["staticfiles"]["BACKEND"],
    "session_cookie_secure": s.SESSION_COOKIE_SECURE,
    "renderers": s.REST_FRAMEWORK["DEFAULT_RENDERER_CLASSES"],
    "throttle_rates": s.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
    "db_options": db.get("OPTIONS", {}).get("options"),
}))
"""

POSTGRES_URL = "postgres://root@127.0.0.1:5432/cardroom"
REDIS_URL = "redis://127.0.0.1:6379/3"


def test_local_without_urls_runs_embedded(tmp_path: Path) -> None:
    """No DATABASE_URL or REDIS_URL: SQLite under the var dir, all in-process."""
    var_dir = tmp_path / "var"
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.local", CARDROOM_VAR_DIR=str(var_dir)
    )

    loaded = run_django_json(DUMP, env)

    assert loaded["debug"] is True
    assert loaded["secret_key"].startswith("django-insecure-")
    assert loaded["db_engine"] == "django.db.backends.sqlite3"
    assert loaded["db_name"] == str(var_dir / "cardroom.sqlite3")
    assert var_dir.is_dir()
    assert loaded["redis_url"] == ""
    assert loaded["channel_layer"] == "channels.layers.InMemoryChannelLayer"
    assert loaded["cache"] == "django.core.cache.backends.locmem.LocMemCache"
    assert loaded["celery_broker"] == "memory://"
    assert loaded["celery_eager"] is True
    assert loaded["renderers"] == [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ]


def test_local_with_urls_uses_postgres_and_redis(tmp_path: Path) -> None:
    """DATABASE_URL and REDIS_URL switch every backend to the real services."""
    var_dir = tmp_path / "var"
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        CARDROOM_VAR_DIR=str(var_dir),
        DATABASE_URL=POSTGRES_URL,
        REDIS_URL=REDIS_URL,
    )

    loaded = run_django_json(DUMP, env)

    assert loaded["db_engine"] == "config.postgresql"
    assert loaded["db_name"] == "cardroom"
    assert (loaded["db_host"], loaded["db_port"]) == ("127.0.0.1", "5432")
    assert not var_dir.exists()
    assert loaded["channel_layer"] == "config.channel_layer.LocalFirstPubSubLayer"
    assert loaded["channel_hosts"] == [REDIS_URL]
    assert loaded["cache"] == "config.cache.SharedPoolRedisCache"
    assert loaded["celery_broker"] == REDIS_URL
    assert loaded["celery_eager"] is False
    # Bounded waits, sent as startup options (docs/operations.md).
    assert loaded["db_options"] == (
        "-c lock_timeout=5000 -c idle_in_transaction_session_timeout=60000"
    )


def test_database_waits_follow_the_environment(tmp_path: Path) -> None:
    """The waits can be changed or left to the server (0), and options the
    URL carries are kept."""
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        CARDROOM_VAR_DIR=str(tmp_path / "var"),
        DATABASE_URL=POSTGRES_URL + "?options=-c%20search_path%3Dcardroom",
        DB_LOCK_TIMEOUT="250",
        DB_IDLE_IN_TRANSACTION_TIMEOUT="0",
    )

    loaded = run_django_json(DUMP, env)

    assert loaded["db_options"] == "-c search_path=cardroom -c lock_timeout=250"


def test_throttle_rates_follow_the_environment(tmp_path: Path) -> None:
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.local",
        CARDROOM_VAR_DIR=str(tmp_path),
        THROTTLE_ANON_RATE="7/minute",
        THROTTLE_USER_RATE="70/hour",
    )

    loaded = run_django_json(DUMP, env)

    assert loaded["throttle_rates"] == {"anon": "7/minute", "user": "70/hour"}


SECRET = "a-real-secret-for-this-test-only-0123456789-abcdefghijklmnop"


@pytest.mark.parametrize(
    ("variables", "error"),
    [
        (
            {"ALLOWED_HOSTS": "cardroom.example", "DATABASE_URL": POSTGRES_URL},
            "ImproperlyConfigured: SECRET_KEY is not set.",
        ),
        (
            {"SECRET_KEY": SECRET, "DATABASE_URL": POSTGRES_URL},
            "ImproperlyConfigured: ALLOWED_HOSTS is not set.",
        ),
        (
            {
                "SECRET_KEY": "django-insecure-local-development-key-do-not-deploy",
                "ALLOWED_HOSTS": "cardroom.example",
                "DATABASE_URL": POSTGRES_URL,
            },
            "SECRET_KEY is a development key.",
        ),
        (
            {
                "SECRET_KEY": "secret-from-the-env-file-0123456789",
                "ALLOWED_HOSTS": "cardroom.example",
                "DATABASE_URL": POSTGRES_URL,
            },
            "ImproperlyConfigured: SECRET_KEY is too weak: it needs at least 50 "
            "characters, 5 of them different.",
        ),
        (
            {
                "SECRET_KEY": "ab" * 40,
                "ALLOWED_HOSTS": "cardroom.example",
                "DATABASE_URL": POSTGRES_URL,
            },
            "ImproperlyConfigured: SECRET_KEY is too weak",
        ),
        (
            {
                "SECRET_KEY": SECRET,
                "ALLOWED_HOSTS": "cardroom.example,*",
                "DATABASE_URL": POSTGRES_URL,
            },
            "ImproperlyConfigured: ALLOWED_HOSTS must not be '*'",
        ),
        (
            {"SECRET_KEY": SECRET, "ALLOWED_HOSTS": "cardroom.example"},
            "ImproperlyConfigured: DATABASE_URL is not set (or is SQLite).",
        ),
        (
            {
                "SECRET_KEY": SECRET,
                "ALLOWED_HOSTS": "cardroom.example",
                "DATABASE_URL": "sqlite:////tmp/cardroom.sqlite3",
            },
            "ImproperlyConfigured: DATABASE_URL is not set (or is SQLite).",
        ),
    ],
    ids=[
        "no-secret-key",
        "no-allowed-hosts",
        "development-key",
        "short-key",
        "repetitive-key",
        "any-host",
        "no-database",
        "sqlite",
    ],
)
def test_production_refuses_to_start_without_a_real_key_and_hosts(
    tmp_path: Path, variables: dict[str, str], error: str
) -> None:
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        CARDROOM_VAR_DIR=str(tmp_path),
        **variables,
    )

    result = run_python("import django; django.setup()", env)

    assert result.returncode != 0
    assert error in result.stderr


def test_production_loads_with_its_required_variables(tmp_path: Path) -> None:
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        CARDROOM_VAR_DIR=str(tmp_path),
        SECRET_KEY=SECRET,
        ALLOWED_HOSTS="cardroom.example,www.cardroom.example",
        DEBUG="true",
        DATABASE_URL=POSTGRES_URL,
        REDIS_URL=REDIS_URL,
    )

    loaded = run_django_json(DUMP, env)

    assert loaded["debug"] is False  # DEBUG=true in the environment is ignored
    assert loaded["allowed_hosts"] == ["cardroom.example", "www.cardroom.example"]
    assert loaded["static_storage"] == (
        "whitenoise.storage.CompressedManifestStaticFilesStorage"
    )
    assert loaded["session_cookie_secure"] is True
    assert loaded["renderers"] == ["rest_framework.renderers.JSONRenderer"]
    assert loaded["celery_eager"] is False


def test_test_settings_default_to_the_local_services() -> None:
    env = clean_env(DJANGO_SETTINGS_MODULE="config.settings.test")

    loaded = run_django_json(DUMP, env)

    assert loaded["db_engine"] == "config.postgresql"
    # No user: libpq's default (PGUSER, else the OS user's name; root on CI).
    assert (loaded["db_host"], loaded["db_port"], loaded["db_user"]) == (
        "127.0.0.1",
        "5432",
        "",
    )
    assert loaded["db_name"] == "cardroom"
    assert loaded["redis_url"] == "redis://127.0.0.1:6379/15"
    assert loaded["channel_layer"] == "config.channel_layer.LocalFirstPubSubLayer"
    assert loaded["hashers"] == ["django.contrib.auth.hashers.MD5PasswordHasher"]
    assert loaded["celery_eager"] is True
    # Parallel workers and other checkouts keep their databases and keys apart.
    checkout_id = hashlib.sha256(str(REPO).encode()).hexdigest()[:8]
    assert loaded["test_db_name"] == f"test_cardroom_{checkout_id}"
    assert loaded["cache_prefix"] == f"cardroom-test-{checkout_id}-main"
    assert loaded["channel_prefix"] == f"cardroom-test-{checkout_id}-main"


FILE_SECRET = "secret-from-the-env-file-0123456789-abcdefghijklmnopqrstu"


def test_env_file_fills_gaps_but_never_overrides_the_environment(
    tmp_path: Path,
) -> None:
    env_file = tmp_path / "cardroom.env"
    env_file.write_text(
        f"SECRET_KEY={FILE_SECRET}\n"
        "ALLOWED_HOSTS=from-file.example\n"
        f"DATABASE_URL={POSTGRES_URL}\n"
    )
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        CARDROOM_VAR_DIR=str(tmp_path),
        ALLOWED_HOSTS="from-environment.example",
    )
    env["CARDROOM_ENV_FILE"] = str(env_file)

    loaded = run_django_json(DUMP, env)

    assert loaded["secret_key"] == FILE_SECRET
    assert loaded["allowed_hosts"] == ["from-environment.example"]


# The production checklist of docs/operations.md, as an operator sets it.
PRODUCTION_CHECKLIST = {
    "DJANGO_SETTINGS_MODULE": "config.settings.production",
    "SECRET_KEY": SECRET,
    "ALLOWED_HOSTS": "cardroom.example",
    "CSRF_TRUSTED_ORIGINS": "https://cardroom.example",
    "DATABASE_URL": POSTGRES_URL,
    "REDIS_URL": REDIS_URL,
    "TRUST_X_FORWARDED_PROTO": "true",
    "CARDROOM_NUM_PROXIES": "1",
    "SECURE_SSL_REDIRECT": "true",
    "SECURE_HSTS_SECONDS": "31536000",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "true",
    "SECURE_HSTS_PRELOAD": "true",
}


def test_check_deploy_is_clean_with_the_production_checklist(tmp_path: Path) -> None:
    env = clean_env(CARDROOM_VAR_DIR=str(tmp_path), **PRODUCTION_CHECKLIST)

    result = run_python(
        "import sys; from django.core.management import execute_from_command_line;"
        "execute_from_command_line(['manage.py', 'check', '--deploy',"
        " '--fail-level', 'WARNING'])",
        env,
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "System check identified no issues (0 silenced)."


def test_check_deploy_names_what_is_missing_without_the_checklist(
    tmp_path: Path,
) -> None:
    """The check itself is live: without HSTS and the redirect it warns."""
    variables = {
        **PRODUCTION_CHECKLIST,
        "SECURE_SSL_REDIRECT": "false",
        "SECURE_HSTS_SECONDS": "0",
    }
    env = clean_env(CARDROOM_VAR_DIR=str(tmp_path), **variables)

    result = run_python(
        "from django.core.management import execute_from_command_line;"
        "execute_from_command_line(['manage.py', 'check', '--deploy'])",
        env,
    )

    assert "security.W004" in result.stderr and "security.W008" in result.stderr


@pytest.mark.parametrize(
    ("variable", "value", "error"),
    [
        # django-environ read these as false, silently: cookies over plain HTTP.
        ("SECURE_COOKIES", "ture", "SECURE_COOKIES='ture' is not true or false"),
        ("DB_POOL", "maybe", "DB_POOL='maybe' is not true or false"),
        # ... this as 500 seconds (every character but the digits dropped),
        (
            "HEALTH_CHECK_TIMEOUT",
            "500ms",
            "HEALTH_CHECK_TIMEOUT='500ms' is not a number",
        ),
        # ... this as a ValueError naming no variable,
        ("DB_POOL_MAX_SIZE", "ten", "DB_POOL_MAX_SIZE='ten' is not a whole number"),
        # ... and this as a rate that made every API request answer 500.
        ("THROTTLE_ANON_RATE", "lots", "THROTTLE_ANON_RATE='lots' is not a rate"),
        ("THROTTLE_USER_RATE", "9/fortnight", "THROTTLE_USER_RATE='9/fortnight'"),
    ],
)
def test_a_value_that_cannot_be_read_stops_the_start_naming_the_variable(
    tmp_path: Path, variable: str, value: str, error: str
) -> None:
    result = _production_start(tmp_path, **{variable: value})

    assert result.returncode != 0
    assert f"ImproperlyConfigured: {error}" in result.stderr


def test_readable_values_in_any_spelling_still_load(tmp_path: Path) -> None:
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        CARDROOM_VAR_DIR=str(tmp_path),
        SECRET_KEY=SECRET,
        ALLOWED_HOSTS="cardroom.example",
        DATABASE_URL=POSTGRES_URL,
        SECURE_COOKIES="False",
        DB_POOL="1",
        SECURE_SSL_REDIRECT="yes",
        HEALTH_CHECK_TIMEOUT=" 0.5 ",
        THROTTLE_USER_RATE="100/min",
    )

    loaded = run_django_json(
        DUMP.replace(
            '"db_options"',
            '"pool": bool(db.get("OPTIONS", {}).get("pool")), '
            '"redirect": s.SECURE_SSL_REDIRECT, '
            '"health_timeout": s.HEALTH_CHECK_TIMEOUT, "db_options"',
        ),
        env,
    )

    assert loaded["session_cookie_secure"] is False
    assert loaded["pool"] is True
    assert loaded["redirect"] is True
    assert loaded["health_timeout"] == 0.5
    assert loaded["throttle_rates"]["user"] == "100/min"


@pytest.mark.parametrize(
    ("variable", "value", "error"),
    [
        # Every /healthz probe gave up at once: 503 from every web process.
        ("HEALTH_CHECK_TIMEOUT", "0", "HEALTH_CHECK_TIMEOUT=0 is not above 0"),
        ("HEALTH_CHECK_TIMEOUT", "-2", "HEALTH_CHECK_TIMEOUT=-2 is not above 0"),
        # A pool that can hold no connection failed the first request.
        ("DB_POOL_MAX_SIZE", "0", "DB_POOL_MAX_SIZE=0 is not at least 1"),
        ("BOT_MOVE_DELAY", "-1", "BOT_MOVE_DELAY=-1 is not at least 0"),
        ("BOT_THINK_TIME", "-0.5", "BOT_THINK_TIME=-0.5 is not at least 0"),
        # Beat would send heartbeats without pause, and never be ok.
        ("BEAT_HEARTBEAT_SECONDS", "0", "BEAT_HEARTBEAT_SECONDS=0 is not above 0"),
    ],
)
def test_a_value_out_of_its_range_stops_the_start_naming_the_variable(
    tmp_path: Path, variable: str, value: str, error: str
) -> None:
    result = _production_start(tmp_path, **{variable: value})

    assert result.returncode != 0
    assert f"ImproperlyConfigured: {error}" in result.stderr


def _production_start(
    tmp_path: Path, **variables: str
) -> subprocess.CompletedProcess[str]:
    """Production settings loaded with the required variables and ``variables``."""
    env = clean_env(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        CARDROOM_VAR_DIR=str(tmp_path),
        SECRET_KEY=SECRET,
        ALLOWED_HOSTS="cardroom.example",
        DATABASE_URL=POSTGRES_URL,
        **variables,
    )
    return run_python("import django; django.setup()", env)
