#!/usr/bin/env bash
# Authors a migration schema-to-schema: the last committed prisma/schema.prisma → the working copy.
# Usage: npm run migration:new -- <name>
set -euo pipefail
cd "$(dirname "$0")/.."
name="${1:?usage: npm run migration:new -- <name>}"
dir="prisma/migrations/$(date -u +%Y%m%d%H%M%S)_${name}"
before="$(mktemp --suffix=.prisma)"
git show HEAD:prisma/schema.prisma > "$before"
mkdir -p "$dir"
npx prisma migrate diff --from-schema-datamodel "$before" --to-schema-datamodel prisma/schema.prisma --script > "$dir/migration.sql"
rm -f "$before"
echo "wrote $dir/migration.sql"
