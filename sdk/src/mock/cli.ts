#!/usr/bin/env node
// `coinplane-mock` / `npm run mock`: the partner mock on PORT (default 4010).
// `coinplane-mock emit <eventType> --url … --secret whsec_…`: send one signed webhook event instead (emit-command.ts).
import { runEmitCommand } from "./emit-command.ts";
import { startMockServer } from "./server.ts";

if (process.argv[2] === "emit") process.exit(await runEmitCommand(process.argv.slice(3)));

const port = Number(process.env.PORT ?? 4010);
const host = process.env.HOST ?? "127.0.0.1";
const mock = await startMockServer({ port, host });
console.log(
  `Coinplane partner mock listening on ${mock.url} (X-Mock-Error / X-Mock-Status / X-Mock-Example headers; see the getting-started guide)`,
);
const stop = () => {
  void mock.close().then(() => process.exit(0));
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
