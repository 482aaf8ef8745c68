"""``.env.example`` lists every variable the settings read."""

import re

from tests.helpers import REPO

SETTINGS_DIR = REPO / "config" / "settings"
# env.str("NAME", ...), env.bool("NAME", ...), env("NAME"), os.environ.setdefault("NAME"
READ = re.compile(
    r"""(?:\benv(?:\.\w+)?|os\.environ\.(?:get|setdefault))\(\s*["']([A-Z][A-Z0-9_]*)["']"""
)
# Set by pytest-xdist in its workers, not by people.
NOT_FOR_PEOPLE = {"PYTEST_XDIST_WORKER"}


def test_every_variable_the_settings_read_is_in_env_example() -> None:
    read = {
        name
        for path in SETTINGS_DIR.glob("*.py")
        for name in READ.findall(path.read_text())
    }
    listed = set(
        re.findall(
            r"^#?\s*([A-Z][A-Z0-9_]*)=", (REPO / ".env.example").read_text(), re.M
        )
    )

    assert {"SECRET_KEY", "DATABASE_URL", "REDIS_URL"} <= read  # the scan works
    assert read - listed - NOT_FOR_PEOPLE == set()
