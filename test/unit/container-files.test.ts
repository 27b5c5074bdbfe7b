// The Dockerfile and compose.yaml, which no test here can run (this machine reaches no image registry), are held to the
// code they deploy: every variable compose sets is one server/config.ts reads, the image starts the compiled server the
// way `npm run start:prod` does, and the image's Node line is the one .nvmrc names.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import YAML from "yaml";
import { configVariableNames, PRODUCTION_REQUIRED } from "../../server/config.ts";
import { ROOT } from "../helpers/server-process.ts";

const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
}
const compose = YAML.parse(read("compose.yaml"), { merge: true }) as { services: Record<string, ComposeService> };
const ours = Object.entries(compose.services).filter(([, service]) => service.image === "coinplane");
const dockerfile = read("Dockerfile");
const readme = read("README.md");
const required = [...PRODUCTION_REQUIRED].sort();
/** `NAME=` assignments (shell or `-e NAME=`) in a piece of text. */
const assigned = (text: string) => [...new Set([...text.matchAll(/(?:^|[\s-])([A-Z][A-Z0-9_]+)=/g)].map((m) => m[1] as string))].sort();

describe("compose.yaml", () => {
  it("runs two replicas of the image, PostgreSQL and Redis, with health checks on the backing services", () => {
    const replicas = ours.filter(([, service]) => service.command === undefined);
    expect(replicas.map(([name]) => name)).toEqual(["coinplane-1", "coinplane-2"]);
    expect(Object.keys(compose.services)).toEqual(expect.arrayContaining(["postgres", "redis"]));
    for (const name of ["postgres", "redis"]) expect((compose.services[name] as { healthcheck?: unknown }).healthcheck).toBeDefined();
  });

  it("sets only variables server/config.ts reads", () => {
    const known = new Set(configVariableNames());
    for (const name of [
      "DATABASE_URL",
      "REDIS_URL",
      "METRICS_TOKEN",
      "WEBHOOK_SECRETS_KEY",
      "MIGRATE_ON_START",
      "OTEL_EXPORTER_OTLP_ENDPOINT",
    ])
      expect(known.has(name), name).toBe(true);
    for (const [name, service] of ours) {
      const unknown = Object.keys(service.environment ?? {}).filter((variable) => !known.has(variable));
      expect(unknown, `${name} sets variables config.ts never reads`).toEqual([]);
    }
  });

  it("migrates with the compiled migrate script before the replicas start", () => {
    expect(compose.services.migrate?.command).toEqual(["node", "dist/scripts/migrate.js"]);
    const build = JSON.parse(read("tsconfig.build.json")) as { include: string[] };
    expect(build.include).toContain("scripts/migrate.ts");
    for (const [, service] of ours.filter(([, s]) => s.command === undefined)) {
      expect(service.environment?.MIGRATE_ON_START).toBe("false");
      expect((service as { depends_on?: Record<string, { condition: string }> }).depends_on?.migrate?.condition).toBe(
        "service_completed_successfully",
      );
    }
  });
});

describe("Dockerfile", () => {
  const stages = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]);

  it("starts the compiled server exactly as npm run start:prod does", () => {
    const cmd = [...dockerfile.matchAll(/^CMD (\[.*\])$/gm)].at(-1)?.[1];
    const startProd = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts["start:prod"];
    expect(startProd).toBe("exec node dist/server/main.js");
    expect(JSON.parse(cmd ?? "[]")).toEqual(startProd?.replace(/^exec /, "").split(" "));
  });

  it("is multi-stage, on the Node LTS slim image .nvmrc names, and runs as a non-root user", () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const major = read(".nvmrc").trim();
    for (const image of stages) expect(image).toMatch(new RegExp(`^node:${major}-[a-z]+-slim$`));
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^RUN npm run build/m);
  });
});

describe("the one list of production settings (server/config.ts PRODUCTION_REQUIRED)", () => {
  it("is what loadServerConfig refuses to start without", () => {
    expect(required).toEqual(["ADMIN_TOKEN", "DATABASE_URL", "METRICS_TOKEN", "WEBHOOK_SECRETS_KEY"]);
  });

  it('README "Secrets" names exactly it as required', () => {
    const bullet = /^- \*\*Secrets\*\*:([\s\S]*?)(?=^- \*\*|^$)/m.exec(readme)?.[1] ?? "";
    const requiredPart = bullet.split("Optional:")[0] ?? "";
    const named = [...new Set([...requiredPart.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]))].filter(
      (name) => name !== "NODE_ENV" && configVariableNames().includes(name as string),
    );
    expect(named.sort()).toEqual(required);
  });

  it("the start:cluster example sets every one of them", () => {
    const example = /```bash\n((?:(?!```)[\s\S])*npm run start:cluster[\s\S]*?)```/.exec(readme)?.[1] ?? "";
    expect(assigned(example)).toEqual(expect.arrayContaining(required));
  });

  it("the Dockerfile's docker run line sets exactly them", () => {
    const line = dockerfile.split("\n").find((l) => l.startsWith("#") && l.includes("docker run")) ?? "";
    expect(assigned(line)).toEqual(required);
  });

  it("compose.yaml sets every one of them on each replica", () => {
    for (const [name, service] of ours.filter(([, s]) => s.command === undefined)) {
      expect(Object.keys(service.environment ?? {}), name).toEqual(expect.arrayContaining(required));
    }
  });
});

describe("Dockerfile build stage", () => {
  it("copies every workspace's package.json (and the lock) before npm ci", () => {
    const workspaces = (JSON.parse(read("package.json")) as { workspaces: string[] }).workspaces;
    const beforeInstall = dockerfile.slice(0, dockerfile.search(/^RUN npm ci/m));
    const copied = [...beforeInstall.matchAll(/^COPY (?!--from)(.+)$/gm)].flatMap((m) => (m[1] as string).split(/\s+/).slice(0, -1));
    expect(copied).toEqual(expect.arrayContaining(["package.json", "package-lock.json", ...workspaces.map((w) => `${w}/package.json`)]));
  });
});
