#!/usr/bin/env bash
# Makes sure PgBouncer is installed (Debian's package, 1.18: transaction mode keeps no prepared statements). The pooler
# tests and benches start a private one per file on a free port (scripts/pgbouncer.ts), never a shared one.
set -uo pipefail
BIN="${PGBOUNCER_BIN:-/usr/sbin/pgbouncer}"
if [ ! -x "$BIN" ]; then
  echo "PgBouncer is not installed ($BIN); installing Debian's pgbouncer" >&2
  if command -v apt-get >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get install -y --no-install-recommends pgbouncer >/dev/null || { $SUDO apt-get update >/dev/null && $SUDO apt-get install -y --no-install-recommends pgbouncer >/dev/null; }
    # The package's own service is not the one the tests use.
    $SUDO systemctl disable --now pgbouncer >/dev/null 2>&1 || true
  fi
fi
[ -x "$BIN" ] || { echo "PgBouncer is required for the pooler tests ($BIN; apt-get install pgbouncer)" >&2; exit 1; }
"$BIN" --version | head -n1
