#!/usr/bin/env bash
# The web process: HTTP and WebSockets of config.asgi under uvicorn, with
# uvloop and httptools (measured faster than daphne for the HTTP API:
# docs/performance.md) and the `websockets` library's sans-I/O protocol for
# live play (lower latency under load than its legacy one). The HTTP protocol
# is uvicorn's httptools one with Cardroom's URL limit
# (config/uvicorn_http.py: a URL over 16 KiB answers 414). `make up`
# (through scripts/up.sh), docker-compose.yml and the Dockerfile all start it.
# `make run` keeps daphne, Django's own runserver integration.
#
#   HOST, PORT     where to listen (127.0.0.1:8000)
#   WEB_WORKERS    uvicorn worker processes (default: one per core when
#                  REDIS_URL is set, so that every process shares the channel
#                  layer; else 1)
#   BIN            where uvicorn is installed (.venv/bin; "" for the PATH)
#   LOG_LEVEL      uvicorn's level (info, either case); above info the access
#                  log is off
#   ASGI_APP       the application (config.asgi:application; bench/ws_load.py
#                  serves its own, Cardroom plus a bare relay, the same way)
#
# uvicorn logs as Django does (config/uvicorn-logging.json): one line per
# record on stderr, "<time> <LEVEL> <logger>: <message>", with secret query
# parameters (?token=<key> of API clients' WebSockets) shown as [redacted]
# (config.logs.RedactSecrets). --log-level still sets uvicorn's loggers'
# level over that file's.
#
# A WebSocket message over 64 KiB closes the socket with 1009 (message too
# big) before it is buffered: Cardroom reads none over 16 384 characters
# (games.consumers.MAX_MESSAGE_CHARS) and answers those up to 64 KiB with
# request_too_large; uvicorn's own default would take in 16 MiB each.
set -euo pipefail

bin=${BIN-.venv/bin}
log_config="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/config/uvicorn-logging.json"
level=$(echo "${LOG_LEVEL:-info}" | tr '[:upper:]' '[:lower:]')
# uvicorn builds each request's access line before its logger drops it, so
# with a level above info (the lines never printed) it is switched off.
access_log=()
case $level in warning | error | critical) access_log=(--no-access-log) ;; esac
if [[ -z "${WEB_WORKERS:-}" ]]; then
    if [[ -n "${REDIS_URL:-}" ]]; then WEB_WORKERS=$(nproc); else WEB_WORKERS=1; fi
fi
exec "${bin:+$bin/}uvicorn" "${ASGI_APP:-config.asgi:application}" \
    --host "${HOST:-127.0.0.1}" --port "${PORT:-8000}" \
    --workers "$WEB_WORKERS" \
    --loop uvloop --http config.uvicorn_http:HttpToolsProtocol \
    --ws websockets-sansio --ws-max-size 65536 \
    --lifespan off --no-proxy-headers --no-server-header \
    --log-config "$log_config" --log-level "$level" "${access_log[@]}"
