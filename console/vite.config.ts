// The console's build: a static single-page app served by the server at /console (server/http/console-app.ts).
// JSX goes through Vite's own transform (tsconfig "jsx": "react-jsx"), so no plugin is needed; the output has no inline
// script, so the server's Content-Security-Policy can be `script-src 'self'`.
import { defineConfig } from "vite";

/** React Router marks its modules "use client" (a React Server Components hint); a client-only bundle has no server
 * components, so dropping the directive changes nothing. Only that warning, only for node_modules, is silenced: every
 * other warning (and this one for our own sources) still prints. */
export function isDependencyUseClientWarning(log: { code?: string; message: string; id?: string }): boolean {
  return (
    log.code === "MODULE_LEVEL_DIRECTIVE" && log.message.includes('"use client"') && /[\\/]node_modules[\\/]/.test(log.id ?? log.message)
  );
}

export default defineConfig({
  root: import.meta.dirname,
  base: "/console/",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // The index.html's only script is the entry chunk; no modulepreload polyfill (it would be inlined in the entry).
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      onLog(level, log, handler) {
        if (isDependencyUseClientWarning(log)) return;
        handler(level, log);
      },
    },
  },
});
