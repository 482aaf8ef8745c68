"""Running ``createsuperuser`` as a person at a terminal would."""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from io import StringIO

import pytest
from django.core.management import call_command

PASSWORD = "Xk9-q2v!zz7w"


class _Terminal(StringIO):
    def isatty(self) -> bool:
        return True


def createsuperuser_at_the_prompt(
    monkeypatch: pytest.MonkeyPatch, answers: Iterable[str]
) -> str:
    """Answer the prompts with ``answers`` (name, …, email) and ``PASSWORD``
    twice; what the command wrote to its error stream."""
    module = importlib.import_module(
        "django.contrib.auth.management.commands.createsuperuser"
    )
    given = iter(answers)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(given))
    monkeypatch.setattr(module.getpass, "getpass", lambda prompt="": PASSWORD)
    err = StringIO()
    call_command("createsuperuser", stdin=_Terminal(), stdout=StringIO(), stderr=err)
    return err.getvalue()
