#!/usr/bin/env python
"""Django's command-line utility; local settings unless told otherwise."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    from django.core.management import execute_from_command_line

    from config.commands import one_off_command_start

    # Before Django reads the settings: a one-off command opens no pool.
    one_off_command_start(sys.argv)
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
