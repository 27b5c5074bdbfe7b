// Preloaded into the server by bench/async-per-request.ts (node --import): counts the promises and other async
// resources the process creates, and writes the counts to the file named by COINPLANE_ASYNC_COUNT_FILE on SIGUSR2.
// Not for production: an async hook slows every promise.
import { createHook } from "node:async_hooks";
import { writeFileSync } from "node:fs";

const counts = {};
createHook({
  init(_id, type) {
    counts[type] = (counts[type] ?? 0) + 1;
  },
}).enable();
process.on("SIGUSR2", () => writeFileSync(process.env.COINPLANE_ASYNC_COUNT_FILE ?? "/dev/null", JSON.stringify(counts)));
