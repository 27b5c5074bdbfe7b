// Process crashes and graceful shutdown of a real server process.
// 1. SIGKILL between commit and response (FAULT_INJECT=crash-after-commit:createBankTransfer, a test-only hook): the
//    client's connection dies without an answer; a fresh instance on the same database replays the committed result to
//    the retry with the same Idempotency-Key (same ids), and the database holds one effect.
// 2. SIGTERM while requests are in flight: they complete with their normal status, new connections are refused,
//    readiness reports `draining` to a request already on the wire, and the process exits 0.
import { randomUUID } from "node:crypto";
import { connect } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, createSystemFixture, type ServerProcess, type SystemFixture } from "../helpers/server-process.ts";
import { api } from "../helpers/test-server.ts";
import { BANK_TRANSFER, sepaTransfer } from "./bodies.ts";

const ORG = "org_sys_crash";

let fixture: SystemFixture;
let direct: pg.Client;
let key: string;
/** The instance started after the crash; the drain test stops it. */
let fresh: ServerProcess;

beforeAll(async () => {
  fixture = await createSystemFixture();
  direct = new pg.Client({ connectionString: fixture.db.url });
  await direct.connect();
});

afterAll(async () => {
  await direct?.end().catch(() => {});
  await fixture?.close();
});

const count = async (sql: string, params: unknown[]) => Number((await direct.query(sql, params)).rows[0].count);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** An HTTP/1.1 request over a raw socket, sent in two parts: `first` now, the rest when `finish()` is called. The server
 * sees a request in progress (headers or body incomplete) in between. */
function splitRequest(port: number, raw: string, splitAt: number): { finish(): void; response: Promise<RawResponse> } {
  const socket = connect(port, "127.0.0.1");
  socket.write(raw.slice(0, splitAt));
  let data = "";
  socket.on("data", (chunk: Buffer) => {
    data += chunk.toString();
  });
  const response = new Promise<RawResponse>((resolve, reject) => {
    socket.on("error", reject);
    socket.on("close", () => {
      const [head = "", ...rest] = data.split("\r\n\r\n");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()] as const),
      );
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: rest.join("\r\n\r\n") });
    });
  });
  return { finish: () => socket.write(raw.slice(splitAt)), response };
}

describe("SIGKILL between commit and response", () => {
  it("the connection dies unanswered; a fresh instance replays the committed result to the retry; one effect", async () => {
    const crashing = await fixture.start({ env: { FAULT_INJECT: "crash-after-commit:createBankTransfer" } });
    key = await createKey(crashing, { organizationId: ORG, scopes: ["payments:write"] });
    const reference = "SYS-CRASH-AFTER-COMMIT";
    const headers = { "idempotency-key": randomUUID() };

    await expect(api(crashing.url, key)("POST", BANK_TRANSFER, sepaTransfer(reference), headers)).rejects.toThrow();
    expect(await crashing.exited).toEqual({ code: null, signal: "SIGKILL" });
    // Committed before the crash: the transfer and its completed idempotency record, together.
    const rows = (await direct.query(`SELECT id FROM "BankTransfer" WHERE reference = $1`, [reference])).rows;
    expect(rows.length).toBe(1);
    const record = (
      await direct.query(`SELECT state, "responseStatus" FROM "IdempotencyRecord" WHERE key = $1`, [headers["idempotency-key"]])
    ).rows;
    expect(record).toEqual([{ state: "completed", responseStatus: 201 }]);

    fresh = await fixture.start({ env: { LOG_LEVEL: "info" } });
    const retried = await api(fresh.url, key)("POST", BANK_TRANSFER, sepaTransfer(reference), headers);
    expect(retried.status, retried.text).toBe(201);
    expect(retried.headers.get("idempotent-replayed")).toBe("true");
    expect(retried.json.id).toBe(rows[0].id);
    expect(retried.json.reference).toBe(reference);
    expect(await count(`SELECT count(*) FROM "BankTransfer" WHERE reference = $1`, [reference])).toBe(1);
    expect(await count(`SELECT count(*) FROM "ActivityEvent" WHERE "resourceId" = $1`, [rows[0].id])).toBe(1);
  }, 180_000);
});

describe("SIGTERM drains", () => {
  it("in-flight requests complete normally, new connections are refused, readiness says draining, exit code 0", async () => {
    expect(fresh, "the crash test starts the instance this test stops").toBeDefined();
    const body = JSON.stringify(sepaTransfer("SYS-DRAIN"));
    const head =
      `POST ${BANK_TRANSFER} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n` +
      `Idempotency-Key: ${randomUUID()}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`;
    // The headers and half the body now, the rest after SIGTERM.
    const post = splitRequest(fresh.port, head + body, head.length + Math.floor(body.length / 2));
    const readiness = splitRequest(fresh.port, "GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 20);
    await sleep(300);

    const started = Date.now();
    fresh.kill("SIGTERM");
    await sleep(500);
    // The listener is closed: a new connection is refused.
    await expect(fetch(`${fresh.url}/healthz`)).rejects.toThrow();
    const refused = await new Promise<string>((resolve) => {
      const socket = connect(fresh.port, "127.0.0.1");
      socket.on("connect", () => resolve("connected"));
      socket.on("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? "error"));
    });
    expect(refused).toBe("ECONNREFUSED");

    readiness.finish();
    const ready = await readiness.response;
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body)).toMatchObject({ status: "draining", checks: { database: "ok" } });

    post.finish();
    const created = await post.response;
    expect(created.status, created.body).toBe(201);
    const transfer = JSON.parse(created.body);
    expect(transfer).toMatchObject({ reference: "SYS-DRAIN", status: "pending" });

    expect(await fresh.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(10_000);
    const { stdout } = fresh.output();
    expect(stdout).toContain("shutting down: draining in-flight requests");
    expect(stdout).not.toContain("shutdown timeout");
    expect(await count(`SELECT count(*) FROM "BankTransfer" WHERE id = $1`, [transfer.id])).toBe(1);
  });
});

describe("SIGTERM with clients that already hung up", () => {
  it("waits for their handlers before closing the database: each write commits whole, no pool-closed errors, exit 0", async () => {
    const server = await fixture.start({ env: { LOG_LEVEL: "info" } });
    const abandoner = await createKey(server, { organizationId: `${ORG}_abandon`, scopes: ["payments:write"] });
    const prefix = `SYS-ABANDON-${randomUUID().slice(0, 8)}`;
    // Whole requests sent on raw sockets that are destroyed at once: the server is left working for nobody. Before the
    // in-flight tracking, server.close() resolved as soon as the sockets were gone and the pool closed under them.
    const sockets = Array.from({ length: 16 }, (_, i) => {
      const body = JSON.stringify(sepaTransfer(`${prefix}-${i}`));
      const socket = connect(server.port, "127.0.0.1");
      socket.on("error", () => {});
      socket.write(
        `POST ${BANK_TRANSFER} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${abandoner}\r\nContent-Type: application/json\r\n` +
          `Idempotency-Key: ${randomUUID()}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      return socket;
    });
    await sleep(150);
    for (const socket of sockets) socket.destroy();
    server.kill("SIGTERM");

    expect(await server.exited).toEqual({ code: 0, signal: null });
    const { stdout } = server.output();
    expect(stdout).not.toContain("Cannot use a pool after calling end");
    expect(stdout).not.toContain("shutdown timeout");
    // Every transfer that exists is whole: its completed idempotency record committed with it, nothing left in progress.
    const transfers = await count(`SELECT count(*) FROM "BankTransfer" WHERE reference LIKE $1`, [`${prefix}-%`]);
    const completed = await count(
      `SELECT count(*) FROM "IdempotencyRecord" WHERE "organizationId" = $1 AND state = 'completed' AND "responseStatus" = 201`,
      [`${ORG}_abandon`],
    );
    const inProgress = await count(`SELECT count(*) FROM "IdempotencyRecord" WHERE "organizationId" = $1 AND state = 'in_progress'`, [
      `${ORG}_abandon`,
    ]);
    expect(transfers).toBeGreaterThan(0);
    expect(completed).toBe(transfers);
    expect(inProgress).toBe(0);
  }, 120_000);
});
