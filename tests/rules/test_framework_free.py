"""The rules package stands alone: importing it loads no framework."""

import subprocess
import sys

FORBIDDEN = (
    "django",
    "rest_framework",
    "channels",
    "celery",
    "redis",
    "kombu",
    "psycopg",
)


def test_importing_rules_loads_no_framework():
    """Importing every game and the bots pulls in none of the service's frameworks."""
    code = (
        "import sys, rules, rules.bots\n"
        "for name in rules.GAMES: rules.get_game(name)\n"
        f"bad = [m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}]\n"
        "print(','.join(sorted(bad)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == ""
