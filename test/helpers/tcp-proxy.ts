// A TCP proxy on 127.0.0.1 in front of PostgreSQL, Redis or any TCP service, for fault tests: `cut()` destroys every
// open connection and turns new ones away (accepted, then closed at once) until `restore()`. `cutWhen(pattern)` cuts at
// the moment the client sends bytes containing `pattern` (that chunk is not forwarded), e.g. the SQL text of one
// INSERT in PostgreSQL's wire protocol: a fault at an exact point of a request, without timing games.
import { createServer, type Server, type Socket, connect as tcpConnect } from "node:net";

export interface TcpProxy {
  port: number;
  /** `target` URL with host and port replaced by the proxy's. */
  url(target: string): string;
  cut(): void;
  restore(): void;
  /** Resolves with the matching chunk once the proxy has cut on it. */
  cutWhen(pattern: string | RegExp): Promise<string>;
  readonly isCut: boolean;
  close(): Promise<void>;
}

export async function startTcpProxy(upstream: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<[Socket, Socket]>();
  let cut = false;
  let trigger: { pattern: string | RegExp; fired: (chunk: string) => void } | undefined;

  const cutAll = () => {
    cut = true;
    for (const [client, server] of pairs) {
      client.destroy();
      server.destroy();
    }
    pairs.clear();
  };

  const server: Server = createServer((client) => {
    client.on("error", () => {});
    if (cut) {
      client.destroy();
      return;
    }
    const upstreamSocket = tcpConnect(upstream.port, upstream.host);
    upstreamSocket.on("error", () => client.destroy());
    const pair: [Socket, Socket] = [client, upstreamSocket];
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstreamSocket.destroy();
    };
    client.on("close", drop);
    upstreamSocket.on("close", drop);
    client.on("data", (chunk: Buffer) => {
      if (trigger) {
        const text = chunk.toString("latin1");
        if (typeof trigger.pattern === "string" ? text.includes(trigger.pattern) : trigger.pattern.test(text)) {
          const fired = trigger.fired;
          trigger = undefined;
          cutAll();
          fired(text);
          return;
        }
      }
      if (!upstreamSocket.write(chunk)) {
        client.pause();
        upstreamSocket.once("drain", () => client.resume());
      }
    });
    upstreamSocket.on("data", (chunk: Buffer) => {
      if (!client.write(chunk)) {
        upstreamSocket.pause();
        client.once("drain", () => upstreamSocket.resume());
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;

  return {
    port,
    url(target) {
      const url = new URL(target);
      url.hostname = "127.0.0.1";
      url.port = String(port);
      return url.toString();
    },
    cut: cutAll,
    restore() {
      cut = false;
      trigger = undefined;
    },
    cutWhen(pattern) {
      return new Promise((resolve) => {
        trigger = { pattern, fired: resolve };
      });
    },
    get isCut() {
      return cut;
    },
    async close() {
      cutAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
