// A reply that arrived while the event loop was blocked must win over the timeout that expired meanwhile.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IoTimeoutError, withIoTimeout } from "../../server/lib/with-io-timeout.ts";

let peer: ChildProcess;
let port: number;

beforeAll(async () => {
  // An echo server in another process, like a healthy Redis: it answers while this process's loop is blocked. A reset
  // from this side (the test destroys its socket with an echo still in flight) is ignored, not a crash on stderr.
  const script = `const s=require("net").createServer(c=>c.on("error",()=>{}).on("data",d=>c.write(d)));s.listen(0,"127.0.0.1",()=>console.log(s.address().port))`;
  peer = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  const [line] = (await once(peer.stdout as NodeJS.ReadableStream, "data")) as [Buffer];
  port = Number(line.toString().trim());
});
afterAll(() => {
  peer.kill();
});

function echo(socket: net.Socket, line: string): Promise<string> {
  return new Promise((resolve) => {
    socket.once("data", (d) => resolve(d.toString()));
    socket.write(line);
  });
}

function blockEventLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy: what a long synchronous compile does to the process
  }
}

describe("withIoTimeout", () => {
  it("resolves with a reply that arrived while the loop was blocked past the timeout", async () => {
    const socket = net.connect(port, "127.0.0.1");
    await once(socket, "connect");
    await echo(socket, "warm-up");
    const call = withIoTimeout(echo(socket, "PING"), 100, "echo");
    blockEventLoop(300);
    await expect(call).resolves.toBe("PING");
    // The plain race the limiter used to rely on (ioredis commandTimeout) loses the same contest.
    const naive = Promise.race([echo(socket, "PONG"), new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), 100))]);
    blockEventLoop(300);
    await expect(naive).rejects.toThrow("timeout");
    socket.destroy();
  });

  it("rejects with IoTimeoutError when nothing answers", async () => {
    const silent = new Promise<string>(() => {});
    await expect(withIoTimeout(silent, 50, "silent peer")).rejects.toBeInstanceOf(IoTimeoutError);
  });

  it("passes the call's own error through", async () => {
    await expect(withIoTimeout(Promise.reject(new Error("refused")), 50, "x")).rejects.toThrow("refused");
  });
});
