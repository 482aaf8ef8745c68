"""Helpers for tests that run the project in a separate process.

Settings are read once per process, so checking another mode (local,
production) or an unreachable service means starting a fresh interpreter with
a controlled environment.
"""

import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]

# Only what a process needs to run; nothing of the caller's Django, database,
# Redis or make configuration leaks in.
_PASSED_THROUGH = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT")


def clean_env(**overrides: str) -> dict[str, str]:
    """A minimal environment that ignores any ``.env`` file, plus ``overrides``."""
    env = {name: os.environ[name] for name in _PASSED_THROUGH if name in os.environ}
    env["CARDROOM_ENV_FILE"] = os.devnull
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.update(overrides)
    return env


def run_python(
    code: str, env: dict[str, str], timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """Run ``code`` with this interpreter in the repository root."""
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def run_django_json(code: str, env: dict[str, str]) -> Any:
    """Set Django up in a fresh process, run ``code``, return its JSON output.

    ``code`` must print exactly one JSON document as its last line.
    """
    result = run_python("import django\ndjango.setup()\n" + code, env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port
