// The compatibility check CI runs (npm run check:compat, scripts/compat.ts): the current spec is compatible with the
// released one; a removed response field, an optional request field made required or a removed operation fails it;
// additive changes pass, and so does a description beside a reference; an operation removed after its sunset passes, before it fails; deprecations must give the
// policy's notice (docs/compatibility.md).
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { compareSpecs, deprecationErrors, MIN_NOTICE_DAYS } from "../../scripts/compat.ts";
import { ROOT } from "./sandbox.ts";

// biome-ignore lint/suspicious/noExplicitAny: specs are edited by path
type Json = Record<string, any>;

const run = promisify(execFile);
const read = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), "utf8")) as Json;
const current = read("openapi/generated/openapi.json");
const scratch = mkdtempSync(path.join(tmpdir(), "coinplane-compat-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The v1 wallet operations of the current spec (every component kept): a quick, real baseline. */
function walletsSpec(): Json {
  const spec = structuredClone(current);
  spec.paths = Object.fromEntries(Object.entries(spec.paths).filter(([p]) => p.startsWith("/api/v1/wallets")));
  return spec;
}
function changed(edit: (spec: Json) => void): Json {
  const spec = walletsSpec();
  edit(spec);
  return spec;
}
const wheres = (report: ReturnType<typeof compareSpecs>) => report.breaking.map((c) => c.where);

describe("the current spec against the released one", () => {
  it("is compatible, and every deprecation gives the policy's notice", { timeout: 120_000 }, () => {
    const report = compareSpecs(read("openapi/released/openapi.json"), current);
    expect(report.breaking).toEqual([]);
    expect(report.deprecationErrors).toEqual([]);
  });
});

describe("breaking changes fail", () => {
  it("a response field removed", () => {
    const report = compareSpecs(
      walletsSpec(),
      changed((s) => {
        delete s.components.schemas.Wallet.properties.label;
      }),
    );
    expect(wheres(report)).toEqual(expect.arrayContaining(["POST /api/v1/wallets", "GET /api/v1/wallets/{id}"]));
  });

  it("an optional request field made required", () => {
    const report = compareSpecs(
      walletsSpec(),
      changed((s) => {
        s.components.schemas.CreateWalletRequest.required.push("label");
      }),
    );
    expect(wheres(report)).toEqual(["POST /api/v1/wallets"]);
    expect(report.breaking[0]?.description).toMatch(/required/);
  });

  it("an operation removed", () => {
    const report = compareSpecs(
      walletsSpec(),
      changed((s) => {
        delete s.paths["/api/v1/wallets/{id}/balance"];
      }),
    );
    expect(wheres(report)).toEqual(["GET /api/v1/wallets/{id}/balance"]);
  });
});

describe("additive changes pass", () => {
  it("a new optional request field, a new response field, a new operation, new samples", () => {
    const report = compareSpecs(
      walletsSpec(),
      changed((s) => {
        s.components.schemas.CreateWalletRequest.properties.nickname = { type: "string", maxLength: 40 };
        s.components.schemas.Wallet.properties.nickname = { type: "string" };
        s.paths["/api/v1/wallets/{id}/archive"] = {
          post: { operationId: "archiveWallet", responses: { "200": { description: "Archived." } } },
        };
        s.paths["/api/v1/wallets"].post["x-codeSamples"] = [{ lang: "Shell", label: "curl", source: "curl …" }];
      }),
    );
    expect(report.breaking).toEqual([]);
  });

  it("an inline schema given a name, referenced with a description beside it (either form), is no change", () => {
    const named = (form: (ref: Json) => Json) =>
      changed((s) => {
        s.components.schemas.WalletBalanceTotal = { ...s.components.schemas.Wallet.properties.balance };
        s.components.schemas.Wallet.properties.balance = form({ $ref: "#/components/schemas/WalletBalanceTotal" });
      });
    expect(
      compareSpecs(
        walletsSpec(),
        named((ref) => ({ allOf: [ref], description: "The balance." })),
      ).breaking,
    ).toEqual([]);
    expect(
      compareSpecs(
        walletsSpec(),
        named((ref) => ({ ...ref, description: "The balance." })),
      ).breaking,
    ).toEqual([]);
    // The referenced schema is still compared: one of another type breaks, described or not.
    const narrowed = changed((s) => {
      s.components.schemas.Chain = { type: "integer" };
      s.components.schemas.Wallet.properties.chain = { allOf: [{ $ref: "#/components/schemas/Chain" }], description: "The chain." };
    });
    expect(wheres(compareSpecs(walletsSpec(), narrowed))).toContain("POST /api/v1/wallets");
  });

  it("a response that guarantees more: a header or a response field made required", () => {
    const report = compareSpecs(
      walletsSpec(),
      changed((s) => {
        const ok = s.paths["/api/v1/wallets/{id}"].get.responses["200"];
        s.paths["/api/v1/wallets/{id}"].get.responses["200"] = {
          ...ok,
          headers: { ...ok.headers, "X-Extra": { required: true, schema: { type: "string" } } },
        };
        s.components.schemas.Wallet.required = [...new Set([...(s.components.schemas.Wallet.required ?? []), "label"])];
      }),
    );
    expect(report.breaking).toEqual([]);
  });

  it("but a request header or field made required still fails", () => {
    const report = compareSpecs(
      walletsSpec(),
      changed((s) => {
        s.components.schemas.CreateWalletRequest.required = [...(s.components.schemas.CreateWalletRequest.required ?? []), "label"];
      }),
    );
    expect(wheres(report)).toContain("POST /api/v1/wallets");
  });
});

describe("a declared correction", () => {
  const removedField = () =>
    changed((s) => {
      delete s.components.schemas.Wallet.properties.label;
    });
  const correction = (released: string) => [{ released, where: ["GET /api/v1/wallets/{id}"], reason: "test" }];

  it("allows the flagged differences of its operations, against the release it names only", () => {
    const base = walletsSpec();
    const version = String(base.info.version);
    const allowed = compareSpecs(base, removedField(), new Date(), correction(version));
    expect(allowed.corrections.map((c) => c.where)).toContain("GET /api/v1/wallets/{id}");
    expect(wheres(allowed)).not.toContain("GET /api/v1/wallets/{id}");
    // Other operations hit by the same change still fail.
    expect(wheres(allowed)).toContain("POST /api/v1/wallets");
    const stale = compareSpecs(base, removedField(), new Date(), correction(`${version}-older`));
    expect(stale.corrections).toEqual([]);
    expect(wheres(stale)).toContain("GET /api/v1/wallets/{id}");
  });
});

describe("deprecation, then removal after the sunset", () => {
  const deprecated = (sunset: string) =>
    changed((s) => {
      Object.assign(s.paths["/api/v1/wallets/{id}/balance"].get, { deprecated: true, "x-deprecated-at": "2026-01-01", "x-sunset": sunset });
    });
  const removed = changed((s) => {
    delete s.paths["/api/v1/wallets/{id}/balance"];
  });

  it("deprecating is not breaking", () => {
    expect(compareSpecs(walletsSpec(), deprecated("2026-07-01")).breaking).toEqual([]);
  });

  it("removing after the sunset passes, and is reported as such", () => {
    const report = compareSpecs(deprecated("2026-07-01"), removed, new Date("2026-07-02T00:00:00Z"));
    expect(report.breaking).toEqual([]);
    expect(report.sunsetRemovals.map((c) => c.where)).toEqual(["GET /api/v1/wallets/{id}/balance"]);
  });

  it("removing before the sunset fails", () => {
    const report = compareSpecs(deprecated("2026-07-01"), removed, new Date("2026-06-30T00:00:00Z"));
    expect(wheres(report)).toEqual(["GET /api/v1/wallets/{id}/balance"]);
  });

  it(`a deprecation needs both dates and at least ${MIN_NOTICE_DAYS} days between them`, () => {
    const withDates = (dates: Json) =>
      changed((s) => {
        Object.assign(s.paths["/api/v1/wallets"].get, { deprecated: true, ...dates });
      });
    expect(deprecationErrors(withDates({ "x-deprecated-at": "2026-01-01", "x-sunset": "2026-06-30" }))).toEqual([]); // 180 days
    expect(deprecationErrors(withDates({ "x-deprecated-at": "2026-01-01", "x-sunset": "2026-02-01" }))).toEqual([
      `GET /api/v1/wallets: 31 days between x-deprecated-at and x-sunset (at least ${MIN_NOTICE_DAYS})`,
    ]);
    expect(deprecationErrors(withDates({ "x-sunset": "2027-01-01" }))[0]).toMatch(/x-deprecated-at is not a date/);
    expect(deprecationErrors(withDates({ "x-deprecated-at": "2026-01-01" }))[0]).toMatch(/x-sunset is not a date/);
  });
});

describe("npm run check:compat", () => {
  const write = (name: string, spec: Json) => {
    const file = path.join(scratch, name);
    writeFileSync(file, JSON.stringify(spec));
    return file;
  };
  const check = (released: string, current: string) =>
    run(process.execPath, ["--import", "tsx", "scripts/check-compat.ts", "--released", released, "--current", current], { cwd: ROOT }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );

  it("exits 1 and names the change on a breaking change, 0 on an additive one", { timeout: 120_000 }, async () => {
    const base = write("released.json", walletsSpec());
    const breaking = await check(
      base,
      write(
        "breaking.json",
        changed((s) => {
          s.components.schemas.CreateWalletRequest.required.push("label");
        }),
      ),
    );
    expect(breaking.code).toBe(1);
    expect(breaking.stderr).toContain("breaking: POST /api/v1/wallets:");
    const additive = await check(
      base,
      write(
        "additive.json",
        changed((s) => {
          s.components.schemas.Wallet.properties.nickname = { type: "string" };
        }),
      ),
    );
    expect(additive.code, additive.stderr).toBe(0);
    expect(additive.stdout).toContain("compatible with the released spec");
  });
});
