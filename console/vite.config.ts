// The console's build: a static single-page app served by the server at /console (server/http/console-app.ts).
// JSX goes through Vite's own transform (tsconfig "jsx": "react-jsx"), so no plugin is needed; the output has no inline
// script, so the server's Content-Security-Policy can be `script-src 'self'`.
import { defineConfig } from "vite";

export default defineConfig({
  root: import.meta.dirname,
  base: "/console/",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // The index.html's only script is the entry chunk; no modulepreload polyfill (it would be inlined in the entry).
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 600,
  },
});
