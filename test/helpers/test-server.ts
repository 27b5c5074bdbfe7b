// Starts the real app on a random port over a fresh database, with the response contract checked: every answer to a spec
// operation is checked against the contract (status, headers, body; test/helpers/response-contract.ts). A response that
// breaks it is replaced by a 500 and recorded, and close() fails while any was recorded.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { DestinationStream } from "pino";
import { createApp } from "../../server/app.ts";
import { type Config, loadConfig } from "../../server/config.ts";
import { type Database, openDatabase } from "../../server/db/open-database.ts";
import { closeCompiler, configureCompiler } from "../../server/domain/contracts/compile-solidity.ts";
import { createLogger } from "../../server/logger.ts";
import type { KeyUsageRecorder } from "../../server/middleware/key-usage.ts";
import { createRateLimiter, type RateLimiter } from "../../server/rate-limit/rate-limiter.ts";
import { loadSpec, type OpenApiDocument } from "../../server/spec/load-spec.ts";
import { startWebhookDelivery, type WebhookDeliveryWorker } from "../../server/webhooks/delivery-worker.ts";
import { contractCheckedHandler } from "./contract-checked-handler.ts";
import { type ContractFinding, formatFinding, ResponseContract } from "./response-contract.ts";
import { createTestDatabase, type TestDatabase } from "./test-database.ts";

export interface CreateKeyOptions {
  organizationId?: string;
  environment?: "sandbox" | "production";
  scopes: string[];
  actor?: string;
  /** The key's spending limits (issue 37), e.g. `[{ asset: "USDC", perCall: "100", per24h: "1000" }]`. */
  spendingLimits?: { asset: string; perCall?: string; per24h?: string }[];
}

export interface TestServer {
  url: string;
  db: Database;
  testDb: TestDatabase;
  config: Config;
  adminToken: string;
  createKey(options: CreateKeyOptions): Promise<{ id: string; key: string }>;
  /** The webhook delivery worker, when started with `webhookDelivery: true`. */
  webhookDelivery?: WebhookDeliveryWorker;
  /** Responses that broke the contract so far (each was answered 500 instead). */
  contractFindings: ContractFinding[];
  /** API keys' "last used", written shortly after an answer (a test counting statements flushes it first). */
  keyUsage: KeyUsageRecorder;
  close(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  rateLimiter?: RateLimiter;
  /** Where the server's log lines go (the level is LOG_LEVEL from `env`); default stdout. */
  logDestination?: DestinationStream;
  /** Start the webhook delivery worker (config.webhooks, e.g. WEBHOOK_POLL_INTERVAL_MS in `env`); default off. */
  webhookDelivery?: boolean;
  /** Another instance on this server's database (PostgreSQL only): a second app sharing it, as in a scale-out. */
  sameDatabaseAs?: TestServer;
  /** The spec the app serves and enforces (default: the bundled one), e.g. a copy with an operation deprecated; the
   * responses are checked against it too. */
  spec?: OpenApiDocument;
  /** Check every response against the contract (default true); the validating proxy test checks from outside instead. */
  checkContract?: boolean;
  /** Called with each request once its answer is sent (e.g. to read `req.ctx`, what the chain learnt about it). */
  observe?: (req: IncomingMessage, res: ServerResponse) => void;
}

let sharedContract: ResponseContract | undefined;
const contract = (spec?: OpenApiDocument) => {
  if (spec) return new ResponseContract(spec);
  sharedContract ??= new ResponseContract(loadSpec());
  return sharedContract;
};

export async function startTestServer(options: StartOptions = {}): Promise<TestServer> {
  const testDb = options.sameDatabaseAs ? sharedDatabase(options.sameDatabaseAs.testDb) : await createTestDatabase({ migrated: true });
  const adminToken = "test-admin-token-0123456789";
  const config = loadConfig({
    ADMIN_TOKEN: adminToken,
    SCHEDULER_SECRET: "test-scheduler-secret",
    // Fixed 32-byte key (base64) sealing webhook endpoint secrets.
    WEBHOOK_SECRETS_KEY: "dGVzdC13ZWJob29rLXNlY3JldHMta2V5LTMyYnl0ZXM=",
    // The server's own response validation (express-openapi-validator) off: every answer already goes through the
    // contract check below (status, headers, body against the spec: test/helpers/response-contract.ts), and the
    // validator compiles each operation's response schemas on its first request, ≈0.3 s of CPU per operation in every
    // test worker (test/http/not-implemented.test.ts, which reaches every operation: 48 → 15 s). VALIDATE_RESPONSES=true
    // itself stays tested: the server processes of test/system run with it (server-process.ts), and so does
    // test/http/sandbox-chain.test.ts.
    VALIDATE_RESPONSES: "false",
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    RATE_LIMIT_PER_KEY: "100000",
    RATE_LIMIT_PER_ORG: "100000",
    // Many tests send 401s on purpose from one address; test/http/rate-limit.test.ts sets a small budget.
    RATE_LIMIT_AUTH_FAILURES: "100000",
    // Hang guards, not the behaviour under test: with two test workers on a busy 2-core machine a solc compile can take
    // longer than the production 15 s, and a request that compiles longer than the 30 s request deadline.
    // test/http/compile-event-loop.test.ts sets a short compile deadline to test the timeout.
    COMPILE_TIMEOUT_MS: "120000",
    REQUEST_TIMEOUT_MS: "120000",
    // Members sign in from one address in many tests; test/http/members.test.ts checks the per-account throttle.
    SIGN_IN_ATTEMPTS_PER_ADDRESS: "100000",
    // Cheap password hashes: the cost parameters are the operator's; what tests check is the flow.
    PASSWORD_SCRYPT_N: "1024",
    ...options.env,
  });
  configureCompiler(config.compile);
  const db = await openDatabase({
    url: testDb.url,
    poolSize: 5,
    pgliteTemplate: testDb.pgliteTemplate,
  });
  const rateLimiter = options.rateLimiter ?? createRateLimiter({ ...config.rateLimit, redisUrl: config.redisUrl });
  await rateLimiter.ready();
  const logger = createLogger(config.logLevel, options.logDestination);
  const { app, keyUsage } = createApp({ config, db, logger, rateLimiter, spec: options.spec });
  const webhookDelivery = options.webhookDelivery ? startWebhookDelivery({ db: db.kysely, config: config.webhooks, logger }) : undefined;
  const contractFindings: ContractFinding[] = [];
  const handler = options.checkContract === false ? app : contractCheckedHandler(app, contract(options.spec), contractFindings);
  const { observe } = options;
  const server = createServer(
    observe
      ? (req, res) => {
          res.once("finish", () => observe(req, res));
          handler(req, res);
        }
      : handler,
  );
  server.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    db,
    testDb,
    config,
    adminToken,
    webhookDelivery,
    contractFindings,
    keyUsage,
    async createKey({ organizationId = "org_test", environment = "sandbox", scopes, actor, spendingLimits }) {
      const res = await fetch(`${url}/api/admin/keys`, {
        method: "POST",
        headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
        body: JSON.stringify({
          organizationId,
          environment,
          scopes,
          ...(actor ? { actor } : {}),
          ...(spendingLimits ? { spendingLimits } : {}),
        }),
      });
      if (res.status !== 201) throw new Error(`createKey failed: ${res.status} ${await res.text()}`);
      return (await res.json()) as { id: string; key: string };
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await webhookDelivery?.stop();
      await rateLimiter.close();
      await keyUsage.flush();
      await closeCompiler();
      await db.close();
      await testDb.drop();
      if (contractFindings.length > 0)
        throw new Error(`responses broke the contract:\n${[...new Set(contractFindings.map(formatFinding))].join("\n")}`);
    },
  };
}

/** The other instance's database, which that instance drops when it closes. */
function sharedDatabase(owner: TestDatabase): TestDatabase {
  if (owner.kind !== "postgres") throw new Error("several instances on one database need PostgreSQL");
  return { ...owner, drop: async () => {} };
}

/** fetch with a bearer key and JSON body. */
export function api(base: string, key?: string) {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await res.text();
    // biome-ignore lint/suspicious/noExplicitAny: tests assert on arbitrary response bodies
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, json, text };
  };
}
