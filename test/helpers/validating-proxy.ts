// A validating proxy: forwards each request to the server unchanged and checks the answer as it comes off the wire
// (status declared for the operation, headers declared and required ones present, body valid) before passing it on.
// It sees what a client sees — real header lines, after every middleware — so it also catches what an in-process
// check could miss.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { ContractFinding, ResponseContract } from "./response-contract.ts";

export interface ValidatingProxy {
  url: string;
  findings: ContractFinding[];
  /** Status answered per operation, for coverage assertions. */
  statuses: Map<string, Set<number>>;
  /** Responses checked (answers to spec operations). */
  checked(): number;
  close(): Promise<void>;
}

export async function startValidatingProxy(target: string, contract: ResponseContract): Promise<ValidatingProxy> {
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const findings: ContractFinding[] = [];
  const statuses = new Map<string, Set<number>>();
  let checked = 0;

  const server = http.createServer((req, res) => {
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers, agent },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () => {
          const body = Buffer.concat(chunks);
          const headers: Record<string, string | string[] | undefined> = {};
          for (const [name, value] of Object.entries(answer.headers)) headers[name.toLowerCase()] = value;
          const status = answer.statusCode ?? 0;
          const problems = contract.check({
            method: req.method ?? "GET",
            path: req.url ?? "/",
            status,
            headers,
            body: body.toString("utf8"),
          });
          if (problems) {
            checked++;
            findings.push(...problems);
            const operationId = problems[0]?.operationId ?? operationOf(contract, req);
            if (operationId) statuses.set(operationId, (statuses.get(operationId) ?? new Set()).add(status));
          }
          // Hop-by-hop framing is the proxy's own; everything else goes back as received.
          const { connection: _c, "keep-alive": _k, "transfer-encoding": _t, ...rest } = answer.headers;
          res.writeHead(status, { ...rest, "content-length": String(body.length) });
          res.end(body);
        });
      },
    );
    forward.on("error", (error) => {
      res.writeHead(502, { "content-type": "text/plain" });
      res.end(`proxy: ${error.message}`);
    });
    req.pipe(forward);
  });
  server.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    findings,
    statuses,
    checked: () => checked,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      agent.destroy();
    },
  };
}

function operationOf(contract: ResponseContract, req: http.IncomingMessage): string | undefined {
  return contract.operationId(req.method ?? "GET", (req.url ?? "/").split("?")[0] as string);
}
