// orval.config.ts — `npx orval --config orval.config.ts`.
import { defineConfig } from "orval";

export default defineConfig({
  coinplane: {
    input: { target: "openapi.json" },
    output: {
      target: "generated/orval/coinplane.ts",
      client: "fetch",
      // One file: types and functions, no relative import to resolve.
      mode: "single",
      // Header parameters in the signatures. Without it orval leaves them out, and the Idempotency-Key that v2 writes
      // require would have to go by hand into each call's RequestInit.
      headers: true,
      // Read for its module settings: NodeNext gives `.js` imports when another mode splits the output.
      tsconfig: "tsconfig.json",
      // An expression placed before every path. Without a baseUrl the functions fetch relative URLs (`/api/v1/…`),
      // which Node's fetch refuses.
      baseUrl: { runtime: "process.env.COINPLANE_URL" },
    },
  },
});
