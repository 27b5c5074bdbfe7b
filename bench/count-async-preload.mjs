// Preloaded into the server by bench/async-per-request.ts (node --import): counts the promises and other async
// resources the process creates, and writes the counts to the file named by COINPLANE_ASYNC_COUNT_FILE on SIGUSR2.
// With COINPLANE_ASYNC_SITES=1 it also counts each promise by the function that created it (the first stack frame
// outside this file and Node's internals), as "site:<function> <file>:<line>" keys. Not for production: an async hook
// slows every promise, and a stack per promise far more.
import { createHook } from "node:async_hooks";
import { writeFileSync } from "node:fs";

const counts = {};
const sites = process.env.COINPLANE_ASYNC_SITES === "1";
const holder = {};

/** The promise's creator: the first frame that is neither this hook nor Node's own async plumbing. */
function siteOf() {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 12;
  Error.captureStackTrace(holder, siteOf);
  Error.stackTraceLimit = limit;
  let native = "";
  for (const line of holder.stack.split("\n").slice(1)) {
    if (line.includes("count-async-preload") || line.includes("node:internal/async_hooks")) continue;
    const frame = line
      .trim()
      .replace(/^at /, "")
      .replace(/(file:\/\/)?\/[^ ()]*?\/(server|node_modules|bench|sdk)\//, "$2/");
    // A promise made by a built-in (`then`, `new Promise`, `Promise.all`) is charged to the function that called it.
    if (frame.endsWith("(<anonymous>)")) {
      native ||= `${frame.replace(" (<anonymous>)", "")} in `;
      continue;
    }
    return native + frame;
  }
  return `${native}(no frame)`;
}

createHook({
  init(_id, type) {
    counts[type] = (counts[type] ?? 0) + 1;
    if (sites && type === "PROMISE") {
      const key = `site:${siteOf()}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
  },
}).enable();
process.on("SIGUSR2", () => writeFileSync(process.env.COINPLANE_ASYNC_COUNT_FILE ?? "/dev/null", JSON.stringify(counts)));
