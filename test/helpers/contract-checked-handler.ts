// Wraps the app's request listener so every answer to a spec operation is checked against the contract before it is
// sent (test/helpers/response-contract.ts). A response that breaks it — an undeclared status, an undeclared or missing
// required header, a body off its schema — is replaced by a 500 naming the problems, and recorded, so the test that
// caused it fails on its own assertions and the suite fails when the server closes.
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { type ContractFinding, formatFinding, type ResponseContract } from "./response-contract.ts";

export function contractCheckedHandler(app: RequestListener, contract: ResponseContract, findings: ContractFinding[]): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    const collect = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === "function") return;
      chunks.push(
        Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, (typeof encoding === "string" ? encoding : "utf8") as BufferEncoding),
      );
    };
    // Streams are held until the end, so the whole answer can be judged before any of it leaves.
    res.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => {
      collect(chunk, encoding);
      const done = typeof encoding === "function" ? encoding : callback;
      if (typeof done === "function") queueMicrotask(() => (done as () => void)());
      return true;
    }) as ServerResponse["write"];
    res.end = ((chunk?: unknown, encoding?: unknown, callback?: unknown) => {
      collect(chunk, encoding);
      const body = Buffer.concat(chunks);
      const headers: Record<string, string | string[] | undefined> = {};
      for (const [name, value] of Object.entries(res.getHeaders()))
        headers[name.toLowerCase()] = Array.isArray(value) ? value : value === undefined ? undefined : String(value);
      const problems =
        res.headersSent || req.method === undefined
          ? undefined
          : contract.check({ method: req.method, path: req.url ?? "/", status: res.statusCode, headers, body: body.toString("utf8") });
      const done = [chunk, encoding, callback].find((a) => typeof a === "function");
      if (problems && problems.length > 0) {
        findings.push(...problems);
        const text = JSON.stringify({ error: "response breaks the contract", problems: problems.map(formatFinding) });
        for (const name of res.getHeaderNames()) res.removeHeader(name);
        res.statusCode = 500;
        res.setHeader("content-type", "application/json; charset=utf-8");
        res.setHeader("content-length", Buffer.byteLength(text));
        if (req.method === "HEAD") return end(done);
        return end(text, "utf8", done);
      }
      if (body.length > 0 && req.method !== "HEAD") {
        if (!res.hasHeader("content-length") && !res.hasHeader("transfer-encoding")) res.setHeader("content-length", body.length);
        write(body);
      }
      return end(done);
    }) as ServerResponse["end"];
    app(req, res);
  };
}
