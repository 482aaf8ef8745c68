#!/usr/bin/env bash
# What the service needs before it serves, on the settings the environment
# picks: migrations, the accounts it creates itself, static files. `make run`
# (scripts/run.sh) and `make up` both call it.
#
# With DEBUG on, the demo admin (its password is published in README.md) and
# the house bots; with DEBUG off, the house bots only (docs/security.md).
set -euo pipefail

bin=${BIN:-.venv/bin}

debug=$("$bin/python" -c 'import django; django.setup()
from django.conf import settings; print("on" if settings.DEBUG else "off")')

"$bin/python" manage.py migrate --noinput
if [ "$debug" = on ]; then
  "$bin/python" manage.py ensure_demo_accounts
else
  "$bin/python" manage.py ensure_demo_accounts --bots-only
fi
"$bin/python" manage.py collectstatic --noinput --verbosity 0
