// The stack's own floor under each hot-path request (issue 39): what Express 5, express-openapi-validator and `pg` do
// for that request, and nothing else. Where the database floor (bench/database-floor.ts) sends round trips and answers
// a row, this app also takes the request's body, validates it against the contract with express-openapi-validator as
// the server configures it (the same bundled spec, options and formats), sends the request's round trips and answers
// the request's own answer (recorded from Coinplane by bench/stack-floor-requests.ts). No authentication, rate limit, request
// id, log line, metrics, security headers, idempotency or domain: the steps the contract adds on top.
//
// Each part is at its cheapest, so that the share of the database floor this app reaches is a ceiling for any request
// path on this stack that does these things: the body is read and given to JSON.parse (no body-parser chain), the
// validator's route match runs once per route and its record is reused (as server/middleware/operation-lookup.ts
// does), the answer is written with Node's own calls (a replay's as stored text, the others through JSON.stringify),
// and the writes send the database floor's statement (the wallet by id) in place of their own inserts, so
// PostgreSQL's cost of a write, and the bank transfer's fourth round trip (the simulated bank's), are not in it.
//
// With STACK_FLOOR_CONTRACT=1 it is "the contract floor": the same, plus what the contract makes every request do and
// every answer carry, each at its cheapest (bench/contract-floor-steps.ts: request id, deadline, in-flight count, key,
// scope, rate limit, the Idempotency-Key's fingerprint, Coinplane's whole header block, a log line, the response
// histogram) — the most any implementation of Coinplane's contract on this stack could reach.
//
// Env: DATABASE_URL, WALLET_ID (the benchmark's wallet), STACK_FLOOR_ANSWERS (a JSON file: the answers to return).
// A request's `x-floor-round-trips` header says how many round trips it sends (1 by default); `x-floor-replay`, that it
// answers a stored text (the replay) rather than an answer it serialises.
import { readFileSync } from "node:fs";
import express, { type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from "kysely";
import pg from "pg";
import type { AuthContext } from "../server/context.ts";
import type { DB } from "../server/db/kysely.ts";
import { selectWalletsWithAssets } from "../server/domain/wallets/select-wallets-with-assets.ts";
import { toWalletDto, type WalletWithAssets } from "../server/domain/wallets/wallet-dto.ts";
import { validatorSteps } from "../server/middleware/openapi-validator.ts";
import { loadSpec } from "../server/spec/load-spec.ts";
import { contractSteps, type RecordedHeaders } from "./contract-floor-steps.ts";

interface Answer {
  status: number;
  body: unknown;
  headers: RecordedHeaders;
}
const answers = JSON.parse(readFileSync(process.env.STACK_FLOOR_ANSWERS ?? "", "utf8")) as {
  walletGet: Answer;
  payment: Answer;
  bankTransfer: Answer;
  bankTransferReplay: Answer;
};
const withContract = process.env.STACK_FLOOR_CONTRACT === "1";
// A replay answers the text it stored (as Coinplane does); a write serialises its answer.
const storedBankTransfer = JSON.stringify(answers.bankTransferReplay.body);

/** JSON written with Node's own response calls: the cheapest way this stack answers (no res.json / res.send). */
function sendJson(_req: Request, res: Response, status: number, text: string) {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** A route's steps before validation and its answer: none and two headers, or the contract's at their cheapest. */
function routeSteps(scope: string, answer: Answer) {
  if (!withContract) return { before: [] as RequestHandler[], send: sendJson };
  const steps = contractSteps(scope, answer.headers);
  return { before: [steps.admit as RequestHandler], send: steps.answer };
}
const walletId = process.env.WALLET_ID ?? "";
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });

// The GET's own statement (the wallet and its assets aggregated as JSON, which `pg` parses), its SQL text compiled
// once from the server's query builder, for the wallet's own organization and environment.
const owner = (await pool.query('SELECT "organizationId", environment FROM "Wallet" WHERE id = $1', [walletId])).rows[0] as {
  organizationId: string;
  environment: AuthContext["environment"];
};
const compiler = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
const walletRead = selectWalletsWithAssets(compiler, owner).where("w.id", "=", walletId).compile();

const sendRoundTrips = async (req: Request, name: string, text: string, values: readonly unknown[]) => {
  const roundTrips = Number(req.headers["x-floor-round-trips"] ?? 1);
  let row: unknown;
  for (let i = 0; i < roundTrips; i++) row = (await pool.query({ name, text, values: values as unknown[] })).rows[0];
  return row;
};
const floorRead = (req: Request) => sendRoundTrips(req, "floor_wallet", 'SELECT * FROM "Wallet" WHERE id = $1', [walletId]);

/** The body read and parsed, nothing else (every request here is UTF-8 JSON with a Content-Length). */
function jsonBody(req: Request, _res: Response, next: NextFunction) {
  if (req.headers["content-length"] === undefined) return next();
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    try {
      req.body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      next();
    } catch (error) {
      next(error);
    }
  });
}

// express-openapi-validator's own steps exactly as the server configures them (server/middleware/openapi-validator.ts).
const { match: matchSteps, validate: requestSteps } = validatorSteps(loadSpec(), false);
const validateRequest = requestSteps[0] as RequestHandler;

/** The validator's request validation for one route, its route match learned on the route's first request. */
function validated(): RequestHandler {
  type Matched = Request & { openapi?: Record<string, unknown> };
  let record: Record<string, unknown> | undefined;
  return function validateWithLearnedMatch(req, res, next) {
    if (record) {
      (req as Matched).openapi = { ...record, pathParams: req.params };
      return validateRequest(req, res, next);
    }
    const run = (i: number): void => {
      const step = matchSteps[i];
      if (!step) {
        const { pathParams: _own, ...learned } = (req as Matched).openapi ?? {};
        record = learned;
        validateRequest(req, res, next);
        return;
      }
      step(req, res, (error?: unknown) => (error ? next(error) : run(i + 1)));
    };
    run(0);
  };
}

const app = express();
app.disable("x-powered-by");
app.set("etag", false);
app.use(jsonBody);
const walletGet = routeSteps("wallets:read", answers.walletGet);
app.get("/api/v1/wallets/:id", ...walletGet.before, validated(), async (req, res) => {
  const row = await sendRoundTrips(req, "floor_wallet_get", walletRead.sql, walletRead.parameters);
  // The contract floor answers the contract's shape, Coinplane's own mapping of the row (what the caller gets, byte for
  // byte); the stack floor the row as it came.
  walletGet.send(req, res, 200, JSON.stringify(withContract ? toWalletDto(row as WalletWithAssets) : row));
});
const payment = routeSteps("payments:write", answers.payment);
app.post("/api/v1/payments", ...payment.before, validated(), async (req, res) => {
  await floorRead(req);
  payment.send(req, res, answers.payment.status, JSON.stringify(answers.payment.body));
});
const bankTransfer = routeSteps("payments:write", answers.bankTransfer);
const bankTransferReplay = routeSteps("payments:write", answers.bankTransferReplay);
if (withContract) {
  // The replay and the fresh write answer different header blocks (Idempotent-Replayed), so each has its own steps.
  app.post("/api/v2/agent/payments/bank-transfer", (req, res, next) => {
    const [admit] = (req.headers["x-floor-replay"] ? bankTransferReplay : bankTransfer).before as [RequestHandler];
    admit(req, res, next);
  });
}
app.post("/api/v2/agent/payments/bank-transfer", validated(), async (req, res) => {
  await floorRead(req);
  if (req.headers["x-floor-replay"]) bankTransferReplay.send(req, res, answers.bankTransferReplay.status, storedBankTransfer);
  else bankTransfer.send(req, res, answers.bankTransfer.status, JSON.stringify(answers.bankTransfer.body));
});
app.get("/", (_req, res) => {
  res.json({ ready: true });
});
app.use((error: { status?: number; message?: string }, _req: Request, res: Response, _next: NextFunction) => {
  res.status(error.status ?? 500).json({ error: error.message });
});
const server = app.listen(Number(process.env.PORT ?? 4604), "127.0.0.1");
// Coinplane's keep-alive (server/serve.ts), so that the Keep-Alive header has the same bytes.
server.keepAliveTimeout = 65_000;
