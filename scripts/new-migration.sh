#!/usr/bin/env bash
# Authors a migration schema-to-schema: the committed prisma/schema/ (HEAD) → the working copy.
# Usage: npm run migration:new -- <name> [file.prisma]
#   With a file, only that file's working copy is taken over HEAD's folder, so work in progress in other schema files
#   (e.g. another engineer's) does not leak into this migration.
set -euo pipefail
cd "$(dirname "$0")/.."
name="${1:?usage: npm run migration:new -- <name> [prisma/schema/<file>.prisma]}"
only="${2:-}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/before" "$tmp/after"
git archive HEAD prisma/schema | tar -x -C "$tmp/before"
if [ -n "$only" ]; then
  cp -r "$tmp/before/prisma" "$tmp/after/"
  cp "$only" "$tmp/after/prisma/schema/"
  to="$tmp/after/prisma/schema"
else
  to="prisma/schema"
fi
dir="prisma/migrations/$(date -u +%Y%m%d%H%M%S)_${name}"
mkdir -p "$dir"
npx prisma migrate diff --from-schema-datamodel "$tmp/before/prisma/schema" --to-schema-datamodel "$to" --script > "$dir/migration.sql"
echo "wrote $dir/migration.sql"
