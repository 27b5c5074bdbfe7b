#!/usr/bin/env bash
# Regenerates every generated file and fails when the committed ones were stale (or edited by hand).
set -euo pipefail
cd "$(dirname "$0")/.."
npm run --silent generate >/dev/null
paths=(openapi/generated server/generated sdk/src/generated docs/webhooks.md)
if ! git diff --quiet -- "${paths[@]}" || [ -n "$(git status --porcelain -- "${paths[@]}")" ]; then
  echo "Generated files are stale. Run 'npm run generate' and commit the result:" >&2
  git status --short -- "${paths[@]}" >&2
  exit 1
fi
echo "generated files are up to date"
