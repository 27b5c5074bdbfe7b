// The contract's own per-request steps at their cheapest, for the stack floor run as "the contract floor"
// (bench/stack-floor.ts with STACK_FLOOR_CONTRACT=1; issue 39). The stack floor answers with two headers and does
// nothing a caller or an operator of Coinplane is promised; these are the things every hot-path request must still do
// however it is built, each written the cheapest way this stack allows, fused into one middleware and one answer:
//
//   - a request id (a caller's well-formed X-Request-Id kept, else `req_` + 24 base62 characters from a random pool);
//   - the request deadline (one timer, cleared when the answer is written) and the in-flight count (graceful drain);
//   - authentication: the bearer key's SHA-256 looked up in a map (Coinplane's read cache holds the record after the
//     first request; here the first sight of a hash stands for that cached record) and the scope checked;
//   - the key's rate limit: a fixed-window counter per key, its five headers written with the answer;
//   - a keyed request's Idempotency-Key read and the request's fingerprint taken with Coinplane's own function (SHA-256
//     of method, path and canonical body), a replay's compared with the stored one;
//   - the answer's whole header block, as Coinplane sent it (recorded by bench/stack-floor-requests.ts) — security
//     headers, Cache-Control, the request id, the rate limit — written with the body in one writeHead of a flat array;
//   - one JSON log line per response, built as a template string (no logger, no redaction: its fields are fixed) and
//     written synchronously to stdout, as pino's default destination writes (CONTRACT_FLOOR_LOG=async: buffered);
//   - the response-time histogram: a bucket search and three additions on a series bound per route.
//
// The answers are Coinplane's, byte for byte but the per-request values (the GET maps its row with Coinplane's own
// toWalletDto; the writes answer what Coinplane answered). Not in it, though Coinplane does them: tracing hooks, the
// operation's deprecation check, the router's walk over the pages beside the API, the writes' domain work and inserts
// (the stack floor's read stands for them, and for the claim's and the stored answer's).
import { createHash } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { NextFunction, Request, Response } from "express";
import pino from "pino";
import { fingerprintRequest, parseIdempotencyKey } from "../server/idempotency/idempotency-key.ts";
import { randomBase62 } from "../server/lib/ids.ts";

/** A header block recorded from Coinplane's answer: the names and values that never change between two answers. */
export type RecordedHeaders = Array<[string, string]>;

/** Headers Node writes itself, or that this module writes per request. */
const PER_REQUEST = new Set([
  "date",
  "connection",
  "keep-alive",
  "content-length",
  "transfer-encoding",
  "x-request-id",
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
  "ratelimit",
  "ratelimit-policy",
]);

/** The fixed part of a recorded header block. */
export function fixedHeaders(recorded: RecordedHeaders): RecordedHeaders {
  return recorded.filter(([name]) => !PER_REQUEST.has(name.toLowerCase()));
}

const CALLER_ID = /^[A-Za-z0-9._:-]{8,128}$/;
const REQUEST_DEADLINE_MS = 30_000;
// The benchmark's key's budget, as bench/coinplane-server.ts configures Coinplane (so the headers carry the same bytes).
const LIMIT = 1_000_000_000;
const WINDOW_SECONDS = 60;
const POLICY = `"default";q=${LIMIT};w=${WINDOW_SECONDS}`;
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Window {
  started: number;
  used: number;
}
interface Series {
  counts: Float64Array;
  sum: number;
  count: number;
}
interface Caller {
  requestId: string;
  remaining: number;
  resetSeconds: number;
  started: number;
}
interface KeyRecord {
  keyHash: string;
  apiKeyId: string;
  organizationId: string;
  scopes: string[];
}
/** What admit learned, kept on the response for the answer (a property, not a map: the cheapest). */
const CALLER = Symbol("caller");
type CallerResponse = Response & { [CALLER]: Caller };

const keys = new Map<string, KeyRecord>();
/** Every route's scope: the benchmark's key holds them all, as Coinplane's does. */
const granted = new Set<string>();
const windows = new Map<string, Window>();
// CONTRACT_FLOOR_LOG=async: the line buffered and written by sonic-boom in 4 KiB batches instead, to show what an
// asynchronous log destination would buy (it would lose the last lines on a crash, which Coinplane's does not).
const asyncLog = process.env.CONTRACT_FLOOR_LOG === "async";
const out = pino.destination({ dest: 1, sync: !asyncLog, ...(asyncLog ? { minLength: 4096 } : {}) });
let inFlight = 0;
let drainWatched = false;

/** What the in-flight count is for: on SIGTERM, exit once nothing is in flight (Coinplane's graceful stop). */
function exitWhenDrained() {
  if (drainWatched) return;
  drainWatched = true;
  process.once("SIGTERM", function drain() {
    if (inFlight === 0) process.exit(0);
    setTimeout(drain, 10);
  });
}

function bearer(headers: IncomingHttpHeaders): string | undefined {
  const value = headers.authorization;
  return value?.startsWith("Bearer ") ? value.slice(7) : undefined;
}

function observe(series: Series, seconds: number) {
  let i = 0;
  while (i < BUCKETS.length && seconds > (BUCKETS[i] as number)) i++;
  (series.counts as Float64Array)[i] = (series.counts[i] as number) + 1;
  series.sum += seconds;
  series.count++;
}

// Each step a named function, so that `npm run bench:profile` charges it to the stage of the same name in Coinplane
// (bench/request-stages.ts, CONTRACT_FLOOR_STAGES).

function requestIdOf(req: Request): string {
  const incoming = req.headers["x-request-id"];
  return typeof incoming === "string" && CALLER_ID.test(incoming) ? incoming : `req_${randomBase62(24)}`;
}

/** The key's record, found by its hash (the first sight of a hash stands for the read cache's record). */
function keyRecordOf(req: Request): KeyRecord | undefined {
  const key = bearer(req.headers);
  if (key === undefined) return undefined;
  const keyHash = createHash("sha256").update(key).digest("hex");
  let record = keys.get(keyHash);
  if (!record) {
    record = { keyHash, apiKeyId: `key_${keyHash.slice(0, 24)}`, organizationId: "org_floor", scopes: [...granted] };
    keys.set(keyHash, record);
  }
  return record;
}

const hasScope = (record: KeyRecord, scope: string) => record.scopes.includes(scope);

/** One request of the key's window spent; undefined when the window is spent. */
function spend(record: KeyRecord, now: number): { remaining: number; resetSeconds: number } | undefined {
  let window = windows.get(record.keyHash);
  if (!window || now - window.started >= WINDOW_SECONDS * 1000) {
    window = { started: now, used: 0 };
    windows.set(record.keyHash, window);
  }
  window.used++;
  if (window.used > LIMIT) return undefined;
  return { remaining: LIMIT - window.used, resetSeconds: Math.ceil((window.started + WINDOW_SECONDS * 1000 - now) / 1000) };
}

/** Replayed keys' fingerprints (the stored claim's, which a replay's round trip reads in Coinplane). */
const replayed = new Map<string, string>();

/** A keyed request's key read and its fingerprint taken (SHA-256 over method, path and canonical body, as Coinplane
 * stores and compares it: a retry with its keys reordered is the same request); a replay's compared with the stored
 * one. False when the key is malformed or reused with another request. */
function fingerprintMatches(req: Request): boolean {
  const header = req.headers["idempotency-key"];
  if (header === undefined) return true;
  const key = typeof header === "string" ? parseIdempotencyKey(header) : null;
  if (key === null) return false;
  const fingerprint = fingerprintRequest(req.method, req.path, req.body);
  if (!req.headers["x-floor-replay"]) return true;
  const stored = replayed.get(key);
  if (stored === undefined) replayed.set(key, fingerprint);
  return stored === undefined || stored === fingerprint;
}

const watchDeadline = (res: Response) => setTimeout(() => res.destroy(), REQUEST_DEADLINE_MS);

/** The contract's steps for one route: `scope` the route requires, `headers` its recorded answer's fixed block. */
export function contractSteps(scope: string, headers: RecordedHeaders) {
  const fixed = fixedHeaders(headers).flat();
  const series: Series = { counts: new Float64Array(BUCKETS.length + 1), sum: 0, count: 0 };
  granted.add(scope);
  exitWhenDrained();

  function admit(req: Request, res: Response, next: NextFunction) {
    const requestId = requestIdOf(req);
    const record = keyRecordOf(req);
    if (!record) return refuse(res, 401, requestId);
    if (!hasScope(record, scope)) return refuse(res, 403, requestId);
    const budget = spend(record, Date.now());
    if (!budget) return refuse(res, 429, requestId);
    if (!fingerprintMatches(req)) return refuse(res, 422, requestId);
    const caller: Caller = { requestId, ...budget, started: performance.now() };
    (res as CallerResponse)[CALLER] = caller;
    inFlight++;
    const deadline = watchDeadline(res);
    res.once("finish", function logAndCount() {
      clearTimeout(deadline);
      inFlight--;
      const durationMs = performance.now() - caller.started;
      observe(series, durationMs / 1000);
      out.write(
        `{"level":30,"time":${Date.now()},"requestId":"${requestId}","method":"${req.method}","path":${JSON.stringify(req.path)},"status":${res.statusCode},"durationMs":${durationMs},"organizationId":"${record.organizationId}","apiKeyId":"${record.apiKeyId}","msg":"request"}\n`,
      );
    });
    next();
  }

  /** The answer with its whole header block, in one writeHead. */
  function answer(_req: Request, res: Response, status: number, text: string) {
    const caller = (res as CallerResponse)[CALLER];
    res.writeHead(status, [
      ...fixed,
      "x-request-id",
      caller.requestId,
      "x-ratelimit-limit",
      String(LIMIT),
      "x-ratelimit-remaining",
      String(caller.remaining),
      "x-ratelimit-reset",
      String(caller.resetSeconds),
      "ratelimit",
      `"default";r=${caller.remaining};t=${caller.resetSeconds}`,
      "ratelimit-policy",
      POLICY,
      "content-length",
      String(Buffer.byteLength(text)),
    ]);
    res.end(text);
  }

  return { admit, answer };
}

function refuse(res: Response, status: number, requestId: string) {
  const text = `{"error":{"code":"REFUSED","requestId":"${requestId}"}}`;
  res.writeHead(status, ["content-type", "application/json; charset=utf-8", "content-length", String(text.length)]);
  res.end(text);
}
