#!/usr/bin/env bash
# What the service needs before it serves, on the settings the environment
# picks: migrations, the accounts it creates itself, static files. `make run`
# (scripts/run.sh) and `make up` both call it.
#
# With DEBUG on, the demo admin (its password is published in README.md) and
# the house bots; with DEBUG off, the house bots only (docs/security.md).
#
# All in one process (`manage.py prepare`, web/management/commands/
# prepare.py): one Python and Django start instead of four. collectstatic is
# skipped when no static source changed since the last run (a stamp in
# CARDROOM_VAR_DIR); migrate always runs (with nothing to apply it is as quick as
# asking whether there is). A failing step stops the start, with its message.
set -euo pipefail

bin=${BIN:-.venv/bin}

exec "$bin/python" manage.py prepare
