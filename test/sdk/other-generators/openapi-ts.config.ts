// openapi-ts.config.ts — `npx openapi-ts` reads it from the current folder.
import { defineConfig } from "@hey-api/openapi-ts";

export default defineConfig({
  // The served contract (http://localhost:8080/openapi.json) saved to a file, or that URL.
  input: "openapi.json",
  output: {
    path: "generated/hey-api",
    // `.js` on every relative import, as `moduleResolution: "NodeNext"` needs. Set, not detected: the detection looks
    // for a tsconfig.json above the generator's own folder in node_modules, not above this file.
    module: { extension: ".js" },
  },
  plugins: ["@hey-api/client-fetch", "@hey-api/typescript", "@hey-api/sdk"],
});
