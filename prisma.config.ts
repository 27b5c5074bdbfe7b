// Prisma 6.19 CLI configuration. The Rust-free client ("engine: js") works offline;
// the native engines are never downloaded (see DESIGN.md / README "Database").
import path from "node:path";
import { defineConfig } from "prisma/config";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema"),
  // The CLI only needs an adapter for commands that talk to a database; we never
  // run those (migrations are applied by the server, see server/db/migrate.ts).
  adapter: async () => {
    const { PGlite } = await import("@electric-sql/pglite");
    const { PrismaPGlite } = await import("pglite-prisma-adapter");
    // pglite-prisma-adapter 0.6 is typed against an older @prisma/driver-adapter-utils; the runtime interface is the same.
    return new PrismaPGlite(new PGlite()) as never;
  },
});
