// The Dockerfile's build stage, run outside Docker (no image registry is reachable here, so `docker build` cannot run in
// CI): its COPY lines copy the same files into an empty folder, its RUN lines run there in order, and the stage must end
// with the compiled server, console and docs portal in dist/. A Dockerfile that forgets a workspace's package.json
// before `npm ci` fails here as the image build would ("failed to resolve import "react" from console/src/main.tsx").
// Costly (a whole `npm ci` and `npm run build`): `npm ci` runs with --prefer-offline, from npm's local cache.
import { execFile, execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/server-process.ts";

const run = promisify(execFile);
const scratch = mkdtempSync(path.join(tmpdir(), "coinplane-image-build-"));
// A whole node_modules to delete: minutes on a loaded machine.
afterAll(() => rm(scratch, { recursive: true, force: true }), 600_000);

/** The build stage's instructions: from the first FROM up to the next one. */
function buildStage(dockerfile: string): Array<{ op: "COPY" | "RUN"; args: string }> {
  const stages = dockerfile.split(/^FROM .*$/m);
  return (stages[1] ?? "")
    .split("\n")
    .map((line) => /^(COPY|RUN) (.+)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ op: m[1] as "COPY" | "RUN", args: m[2] as string }));
}

/** The files `COPY . .` sends: the build context, which .dockerignore trims to (at most) what git tracks or would. */
function contextFiles(): string[] {
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" });
  return listed.split("\0").filter((file) => file !== "" && existsSync(path.join(ROOT, file)));
}

function copy(args: string, into: string): void {
  const parts = args.split(/\s+/);
  const dest = parts.at(-1) as string;
  for (const source of parts.slice(0, -1)) {
    if (source === ".") {
      for (const file of contextFiles()) cpSync(path.join(ROOT, file), path.join(into, file), { recursive: true });
      continue;
    }
    const target = dest.endsWith("/") ? path.join(into, dest, path.basename(source)) : path.join(into, dest);
    mkdirSync(path.dirname(target), { recursive: true });
    cpSync(path.join(ROOT, source), target);
  }
}

/** The machine's certificate trust, which npm needs to reach the registry where a proxy presents its own certificate
 * authority (as on the CI machine). Without it every registry request failed with SELF_SIGNED_CERT_IN_CHAIN and
 * `npm prune`, fetching an unresolved peer's manifest (@faker-js/faker) not in the cache, retried until the step's
 * bound: the "stall" of earlier runs, which passed only while the cache held that manifest. */
function tlsTrust(): Record<string, string> {
  const names = [
    "NODE_EXTRA_CA_CERTS",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "HTTPS_PROXY",
    "https_proxy",
    "HTTP_PROXY",
    "http_proxy",
    "NO_PROXY",
    "no_proxy",
  ];
  return Object.fromEntries(names.flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name] as string]])));
}

describe("the Dockerfile's build stage, outside Docker", () => {
  it("installs every workspace's dependencies and builds the server, the console and the docs portal", async () => {
    const steps = buildStage(readFileSync(path.join(ROOT, "Dockerfile"), "utf8"));
    expect(steps.some((step) => step.op === "RUN" && /\bnpm ci\b/.test(step.args))).toBe(true);
    const started = performance.now();
    for (const step of steps) {
      if (step.op === "COPY") {
        copy(step.args, scratch);
        continue;
      }
      // The same command, from npm's local cache when it holds the packages (no registry round trip per package) — for
      // `npm prune` too, which asks the registry for the manifests of the peers the lock leaves unresolved: one such
      // request stalled in CI (no CPU used for 13 min until this test's 780 s bound; npm's own fetch timeout is 5 min,
      // retried twice). A stalled request now gives up after 60 s and is retried.
      const command = step.args.replace(/\bnpm (ci|prune)\b/g, "npm $1 --prefer-offline");
      const result = await run("bash", ["-c", command], {
        cwd: scratch,
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", npm_config_fetch_timeout: "60000", ...tlsTrust() },
        maxBuffer: 64 * 1024 * 1024,
        timeout: 780_000,
      }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
        throw new Error(`RUN ${step.args} failed: ${error.message}\n${error.stdout ?? ""}\n${error.stderr ?? ""}`);
      });
      expect(result.stderr).not.toMatch(/failed to resolve import/i);
    }
    for (const file of ["dist/server/main.js", "dist/console/dist/index.html", "dist/docs/portal/index.html"]) {
      expect(existsSync(path.join(scratch, file)), file).toBe(true);
    }
    console.log(`image build stage: ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }, 900_000);
});
