#!/usr/bin/env node
// `coinplane-mock` / `npm run mock`: the partner mock on PORT (default 4010).
import { startMockServer } from "./server.ts";

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
