#!/usr/bin/env bash
# The full stack's processes: a Celery worker, Celery beat and the web process
# (scripts/web.sh: uvicorn). Ctrl-C, or any one of the three exiting (a worker
# that cannot reach its broker, a crash), stops all three, with the status of
# the one that exited: the stack never runs on without its worker or beat.
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
BIN=$bin "$(dirname "$0")/web.sh" &

status=0
wait -n || status=$?
echo "up.sh: a process of the stack exited (status $status); stopping the others" >&2
exit "$status"
