#!/usr/bin/env bash
# Prints the bin folder of a Node.js of the given major line (22, 24), for PATH="$(bash scripts/node-line.sh 24):$PATH".
# The machine's own node when it is already that line; otherwise the official binary as the npm registry ships it (the
# `node-linux-<arch>` package the `node` package installs), fetched once into a cache folder and reused.
set -euo pipefail
major="${1:?usage: scripts/node-line.sh <major, e.g. 22 or 24>}"
if command -v node >/dev/null && [[ "$(node -p 'process.versions.node.split(".")[0]')" == "$major" ]]; then
  dirname "$(command -v node)"
  exit 0
fi
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "node-line: no npm-registry Node build for $(uname -m)" >&2; exit 1 ;;
esac
cache="${COINPLANE_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/coinplane-node}/$major"
bin="$cache/node_modules/node-linux-$arch/bin"
if [[ ! -x "$bin/node" ]]; then
  mkdir -p "$cache"
  # A package whose only content is the binary: no install script runs.
  npm install --prefix "$cache" --no-save --no-audit --no-fund --no-package-lock --loglevel=error "node-linux-$arch@$major" >&2
fi
"$bin/node" --version >&2
echo "$bin"
