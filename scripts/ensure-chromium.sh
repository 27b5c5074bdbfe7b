#!/usr/bin/env bash
# Installs Debian's Chromium (/usr/bin/chromium) for the browser tests when it is missing. Never downloads a browser build
# of its own: the Debian package is the only source (playwright-core drives it with executablePath).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
echo "Chromium is missing; installing Debian's chromium package" >&2
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium >/dev/null
[ -x /usr/bin/chromium ] || { echo "chromium did not install to /usr/bin/chromium" >&2; exit 1; }
