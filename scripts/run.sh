#!/usr/bin/env bash
# `make run`: migrate, the demo accounts, static files (scripts/prepare.sh), then
# daphne in front, on the settings the environment picks (config.settings.local
# by default).
#
# DEBUG pages show settings and tracebacks, and the demo admin's password is
# published in README.md: both are for this machine only. So with DEBUG on,
# only a loopback HOST is served; any other HOST needs DEBUG=false, and then no
# demo admin is created (the house bots are). See docs/security.md.
# `scripts/run.sh --check-only` applies that rule and stops (`make up` uses it).
set -euo pipefail

bin=${BIN:-.venv/bin}
host=${HOST:-127.0.0.1}
port=${PORT:-8000}

# A value the settings refuse (ImproperlyConfigured) stops here in one line,
# not in the traceback around it. Reading the settings is enough (they check
# every value they read); loading the apps too (django.setup()) took most of a
# second more, and scripts/prepare.sh loads them next anyway.
debug=$("$bin/python" -c 'import sys
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
try:
    debug = settings.DEBUG
except ImproperlyConfigured as error:
    sys.exit(f"make run/up: ImproperlyConfigured: {error}")
print("on" if debug else "off")')

case "$host" in
  localhost | ::1 | "[::1]" | 127.*) loopback=yes ;;
  *) loopback=no ;;
esac

if [ "$debug" = on ] && [ "$loopback" = no ]; then
  cat >&2 <<MESSAGE
make run/up: refusing HOST=$host with DEBUG on.
  DEBUG pages and the demo admin (admin / cardroom-admin) would be open to the
  network. Serve on 127.0.0.1, or run with DEBUG=false (no demo admin) and
  ALLOWED_HOSTS set to the names clients use, e.g.
    make run HOST=$host DEBUG=false ALLOWED_HOSTS=cardroom.lan
MESSAGE
  exit 2
fi
[ "${1:-}" = --check-only ] && exit 0

BIN=$bin "$(dirname "$0")/prepare.sh"

shown=$host
[ "$host" = "0.0.0.0" ] && shown=127.0.0.1
echo "Cardroom: http://$shown:$port/  admin: http://$shown:$port/admin/  API docs: http://$shown:$port/api/docs/ (DEBUG $debug)"
exec "$bin/daphne" --bind "$host" --port "$port" config.asgi:application
