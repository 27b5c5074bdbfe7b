// A TCP proxy on 127.0.0.1 in front of PostgreSQL, Redis or any TCP service, for fault tests:
// - `cut()` destroys every open connection and turns new ones away (accepted, then closed at once) until `restore()`;
// - `reset()` does the same with a TCP RST on both sides (ECONNRESET), as a peer or middlebox that drops state;
// - `blackHole()` is a partition: open connections stay open but nothing crosses in either direction, and new ones are
//   accepted and never answered, until `restore()`, which delivers what was held back in order (a healed network);
// - `cutWhen(pattern)` cuts at the moment the client sends bytes containing `pattern` (that chunk is not forwarded),
//   e.g. the SQL text of one INSERT in PostgreSQL's wire protocol: a fault at an exact point of a request;
// - `faultWhen(pattern, "cut-answer")` forwards that chunk and cuts when its answer comes back (the answer is not
//   forwarded): the server executed it — a COMMIT, or a statement that commits on its own, landed — but the client never
//   learns it, as when a connection dies at the instant of a commit.
import { createServer, type Server, type Socket, connect as tcpConnect } from "node:net";

export type ProxyMode = "pass" | "cut" | "blackhole";
type Fault = "cut" | "reset" | "blackhole" | "cut-answer";

export interface TcpProxy {
  port: number;
  /** `target` URL with host and port replaced by the proxy's. */
  url(target: string): string;
  cut(): void;
  reset(): void;
  blackHole(): void;
  restore(): void;
  /** Resolves with the matching chunk once the proxy has cut on it. */
  cutWhen(pattern: string | RegExp): Promise<string>;
  /** Like cutWhen, with the fault of your choice; on "blackhole" the matching chunk is held back like the rest. */
  faultWhen(pattern: string | RegExp, fault: Fault): Promise<string>;
  readonly isCut: boolean;
  readonly mode: ProxyMode;
  /** Connections currently open through the proxy (held ones included). */
  readonly openConnections: number;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket | undefined;
  /** Chunks held back during a partition, per direction. */
  toUpstream: Buffer[];
  toClient: Buffer[];
  /** A "cut-answer" fault forwarded its chunk on this pair: the next data from upstream (its answer) cuts instead. */
  cutOnAnswer?: boolean;
}

export async function startTcpProxy(upstream: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let mode: ProxyMode = "pass";
  let trigger: { pattern: string | RegExp; fault: Fault; fired: (chunk: string) => void } | undefined;

  const destroyAll = (hard: boolean) => {
    for (const pair of pairs) {
      for (const socket of [pair.client, pair.upstream]) {
        if (!socket) continue;
        if (hard && !socket.destroyed) socket.resetAndDestroy();
        else socket.destroy();
      }
    }
    pairs.clear();
  };
  const cutAll = (hard = false) => {
    mode = "cut";
    trigger = undefined;
    destroyAll(hard);
  };

  function partition() {
    mode = "blackhole";
    trigger = undefined;
    for (const pair of pairs) {
      pair.client.pause();
      pair.upstream?.pause();
    }
  }

  const forward = (from: Socket, to: Socket, chunk: Buffer) => {
    if (!to.write(chunk)) {
      from.pause();
      to.once("drain", () => {
        if (mode !== "blackhole") from.resume();
      });
    }
  };

  const connectUpstream = (pair: Pair) => {
    const upstreamSocket = tcpConnect(upstream.port, upstream.host);
    pair.upstream = upstreamSocket;
    upstreamSocket.on("error", () => pair.client.destroy());
    upstreamSocket.on("close", () => {
      pairs.delete(pair);
      pair.client.destroy();
    });
    upstreamSocket.on("data", (chunk: Buffer) => {
      if (pair.cutOnAnswer) {
        cutAll();
        return;
      }
      if (mode === "blackhole") {
        pair.toClient.push(chunk);
        upstreamSocket.pause();
        return;
      }
      forward(upstreamSocket, pair.client, chunk);
    });
  };

  const server: Server = createServer((client) => {
    client.on("error", () => {});
    if (mode === "cut") {
      client.destroy();
      return;
    }
    const pair: Pair = { client, upstream: undefined, toUpstream: [], toClient: [] };
    pairs.add(pair);
    client.on("close", () => {
      pairs.delete(pair);
      pair.upstream?.destroy();
    });
    client.on("data", (chunk: Buffer) => {
      if (trigger) {
        const text = chunk.toString("latin1");
        if (typeof trigger.pattern === "string" ? text.includes(trigger.pattern) : trigger.pattern.test(text)) {
          const { fired, fault } = trigger;
          if (fault === "cut-answer" && pair.upstream) {
            trigger = undefined;
            pair.cutOnAnswer = true;
            forward(client, pair.upstream, chunk);
            fired(text);
            return;
          }
          if (fault === "blackhole") {
            partition();
            pair.toUpstream.push(chunk);
            client.pause();
          } else cutAll(fault === "reset");
          fired(text);
          return;
        }
      }
      if (mode === "blackhole" || !pair.upstream) {
        pair.toUpstream.push(chunk);
        client.pause();
        return;
      }
      forward(client, pair.upstream, chunk);
    });
    // A connection opened during a partition is accepted and held: its upstream connects when the network heals.
    if (mode === "blackhole") client.pause();
    else connectUpstream(pair);
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
    cut: () => cutAll(false),
    reset: () => cutAll(true),
    blackHole: partition,
    restore() {
      const healing = mode === "blackhole";
      mode = "pass";
      trigger = undefined;
      if (!healing) return;
      for (const pair of pairs) {
        if (pair.client.destroyed) continue;
        if (!pair.upstream) connectUpstream(pair);
        const upstreamSocket = pair.upstream as Socket;
        for (const chunk of pair.toUpstream.splice(0)) upstreamSocket.write(chunk);
        for (const chunk of pair.toClient.splice(0)) pair.client.write(chunk);
        pair.client.resume();
        upstreamSocket.resume();
      }
    },
    cutWhen(pattern) {
      return new Promise((resolve) => {
        trigger = { pattern, fault: "cut", fired: resolve };
      });
    },
    faultWhen(pattern, fault) {
      return new Promise((resolve) => {
        trigger = { pattern, fault, fired: resolve };
      });
    },
    get isCut() {
      return mode === "cut";
    },
    get mode() {
      return mode;
    },
    get openConnections() {
      return pairs.size;
    },
    async close() {
      cutAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
