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


def test_rules_tests_run_without_django():
    """The rules tests need no Django: the package could be published alone."""
    root = __file__.rsplit("/tests/", 1)[0]
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "tests/rules/test_core.py",
            "-q",
            "-p",
            "no:django",
            "-p",
            "no:xdist",
            "-p",
            "no:cacheprovider",
        ],
        capture_output=True,
        text=True,
        cwd=root,
    )
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert " passed" in out.stdout
