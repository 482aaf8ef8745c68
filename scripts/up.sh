#!/usr/bin/env bash
# The full stack's processes, in the foreground: a Celery worker and Celery beat
# in the background, the web process (scripts/web.sh: uvicorn) in front. Ctrl-C
# (or the web process exiting) stops all three.
# `make up` calls this after starting the services and migrating, with
# DATABASE_URL and REDIS_URL set.
set -euo pipefail

bin=${BIN:-.venv/bin}
var_dir=${CARDROOM_VAR_DIR:-var}
mkdir -p "$var_dir"

trap 'kill $(jobs -p) 2>/dev/null || true; wait' EXIT

level=${LOG_LEVEL:-INFO}
"$bin/celery" -A config worker --loglevel="$level" --concurrency=2 &
"$bin/celery" -A config beat --loglevel="$level" --schedule "$var_dir/celerybeat-schedule" &
BIN=$bin "$(dirname "$0")/web.sh"
