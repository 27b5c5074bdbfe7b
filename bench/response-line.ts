// The response line's cost with and without the redaction pass (server/middleware/request-id.ts), alternating, in one
// process: `npx tsx bench/response-line.ts > /dev/null` (it prints on stderr). The line is the one every request
// writes, to a sink that drops it, so the figure is pino's serialisation alone (the write to stdout is the same either
// way). Then the write alone: the same line written synchronously to this process's stdout by pino's default
// destination (sonic-boom); run it with `> /dev/null`, where the benchmarks send Coinplane's lines. The sampling profile charges that write far more than it
// costs (docs/performance.md, eleventh session). (Into a pipe, the loop measures how fast the reader drains it.)
import pino from "pino";
import { createLogger } from "../server/logger.ts";

const LINES = 300_000;
const sink = { write(_line: string) {} };
const redacted = createLogger("info", sink);
const unredacted = redacted.child({}, { redact: [] });

const responseLine = () => ({
  requestId: "req_2YVq9M3bR6t8KxW1pZ7cNdQe",
  traceId: undefined,
  method: "GET",
  path: "/api/v1/wallets/wal_2YVq9M3bR6t8KxW1pZ7cNd",
  status: 200,
  durationMs: 1.2345,
  organizationId: "org_bench",
  apiKeyId: "key_2YVq9M3bR6t8KxW1pZ7cNd",
  mcpTools: undefined,
});

function microsecondsPerLine(logger: typeof redacted): number {
  const started = performance.now();
  for (let i = 0; i < LINES; i++) logger.info(responseLine(), "request");
  return ((performance.now() - started) * 1000) / LINES;
}

for (let round = 1; round <= 3; round++) {
  const withPass = microsecondsPerLine(redacted);
  const without = microsecondsPerLine(unredacted);
  console.error(`round ${round}: with the redaction pass ${withPass.toFixed(2)} µs per line, without ${without.toFixed(2)} µs`);
}

const stdout = pino.destination({ dest: 1, sync: true });
const line = `${JSON.stringify({ level: 30, time: Date.now(), ...responseLine(), msg: "request" })}\n`;
for (let round = 1; round <= 3; round++) {
  const started = performance.now();
  for (let i = 0; i < LINES; i++) stdout.write(line);
  const perLine = ((performance.now() - started) * 1000) / LINES;
  console.error(`round ${round}: the line written to stdout ${perLine.toFixed(2)} µs per line`);
}
