#!/usr/bin/env bash
# Start the machine's PostgreSQL and Redis unless they already answer, wait
# until both do, and make sure the `cardroom` database exists.
#
# Idempotent: running services are left alone. The start commands are Debian's
# (its postgresql and redis-server packages; CI runs this as root on a fresh
# clone). docs/operations.md, "Running", describes it.
set -euo pipefail

pg_answers() { pg_isready --quiet --host=127.0.0.1 --port=5432; }
redis_answers() { [ "$(redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null)" = "PONG" ]; }

wait_for() {
  local name=$1 check=$2
  for _ in $(seq 1 60); do
    if "$check"; then
      return 0
    fi
    sleep 0.5
  done
  echo "services-up: $name did not answer within 30 seconds" >&2
  exit 1
}

if ! pg_answers; then
  echo "services-up: starting PostgreSQL"
  # Fails harmlessly when the cluster is already starting; wait_for decides.
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start || true
fi
if ! redis_answers; then
  echo "services-up: starting Redis"
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" \
    --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log
fi
wait_for PostgreSQL pg_answers
wait_for Redis redis_answers

# Create database $2 unless it exists, connecting to the server through the
# maintenance database URL $1.
database_ensure() {
  if [ -z "$(echo "SELECT 1 FROM pg_database WHERE datname = :'name'" \
    | psql "$1" --tuples-only --no-align --quiet -v name="$2")" ]; then
    createdb --maintenance-db="$1" "$2"
    echo "services-up: created the database $2"
  fi
}

# `make up` and ad-hoc `manage.py` runs use this database; tests create their own.
# No user named: libpq's default (PGUSER, else this machine's user name), as for
# `make up`'s default DATABASE_URL.
database_ensure postgres://127.0.0.1:5432/postgres cardroom
# `make up` passes the DATABASE_URL it runs on: one on this machine gets its
# database too (else migrate would wait DB_POOL_TIMEOUT, then fail).
if [ -n "${DATABASE_URL:-}" ]; then
  target=$(python3 - "$DATABASE_URL" <<'PY'
import sys
from urllib.parse import unquote, urlsplit

url = urlsplit(sys.argv[1])
name = unquote(url.path.lstrip("/"))
if url.scheme.startswith("postgres") and url.hostname in ("127.0.0.1", "localhost") and name:
    print(url._replace(path="/postgres", query="").geturl(), name)
PY
  )
  if [ -n "$target" ]; then
    database_ensure "${target%% *}" "${target#* }"
  fi
fi
echo "services-up: PostgreSQL and Redis are answering"
