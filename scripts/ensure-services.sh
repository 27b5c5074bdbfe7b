#!/usr/bin/env bash
# Makes sure the PostgreSQL and Redis the test suite uses are up on this machine (they normally are; this starts them
# with the machine's own commands if a previous run left them stopped). Test databases are created by the tests.
set -uo pipefail
if ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
  echo "PostgreSQL is not answering on 127.0.0.1:5432; starting it" >&2
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
  for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 1; done
fi
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  echo "Redis is not answering on 127.0.0.1:6379; starting it" >&2
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /tmp >/dev/null || true
  for _ in $(seq 1 30); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 1; done
fi
pg_isready -h 127.0.0.1 -p 5432 -q || { echo "PostgreSQL is required for the test suite (127.0.0.1:5432, user postgres)" >&2; exit 1; }
redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 || { echo "Redis is required for the test suite (127.0.0.1:6379)" >&2; exit 1; }
bash "$(dirname "$0")/ensure-pgbouncer.sh" >/dev/null || exit 1
