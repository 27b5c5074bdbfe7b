#!/usr/bin/env node
// `coinplane-mock` / `npm run mock`: the partner mock on PORT (default 4010).
// `coinplane-mock emit <eventType> --url … --secret whsec_…`: send one signed webhook event instead (emit-command.ts).
import { mockApiKeys } from "./api-keys.ts";
import { runEmitCommand } from "./emit-command.ts";
import { startMockServer } from "./server.ts";

if (process.argv[2] === "emit") process.exit(await runEmitCommand(process.argv.slice(3)));

const port = Number(process.env.PORT ?? 4010);
const host = process.env.HOST ?? "127.0.0.1";
const mock = await startMockServer({ port, host });
console.log(
  [
    `Coinplane partner mock listening on ${mock.url} (X-Mock-Error / X-Mock-Status / X-Mock-Example headers; see the getting-started guide)`,
    "Test keys (Authorization: Bearer <key>):",
    `  ${mockApiKeys.sandbox}  sandbox, every scope`,
    `  ${mockApiKeys.sandboxReadOnly}  sandbox, read scopes only (writes: 403)`,
    `  ${mockApiKeys.production}  production (the sandbox API /api/v1: 403)`,
  ].join("\n"),
);
const stop = () => {
  void mock.close().then(() => process.exit(0));
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
