// What `npm run bench` measures against a running Coinplane: setup through the public API, then one autocannon request
// list per scenario. Every scenario must answer 2xx; a non-2xx count in the table means the figure is not valid.
import { randomUUID } from "node:crypto";
import type { Request } from "autocannon";

export const ADMIN_TOKEN = "bench-admin-token-0123456789abcdef";

export interface Scenario {
  name: string;
  /** Key into the targets table in bench/results.md. */
  id: "wallet_get" | "payment_post" | "payment_post_keyed" | "v2_write" | "v2_replay";
  requests: Request[];
}

const EVM = "0x52908400098527886E0F7030069857D2E4169EE7";
const PAYMENT = JSON.stringify({ amount: "125.50", stablecoin: "USDC", chain: "base", toAddress: EVM });
const SEPA_TRANSFER = JSON.stringify({
  amount: "1250.00",
  currency: "EUR",
  rail: "sepa",
  purposeCode: "SUPP",
  reference: "INV-2026-0042",
  source: { type: "iban", iban: "DE89370400440532013000", bic: "COBADEFFXXX", accountHolderName: "Acme Trading GmbH", country: "DE" },
  destination: { type: "iban", iban: "FR1420041010050500013M02606", bic: "PSSTFRPPXXX", accountHolderName: "Dupont SARL", country: "FR" },
  jurisdiction: ["DE", "FR"],
  operatorJurisdiction: "DE",
  senderJurisdiction: "DE",
  receiverJurisdiction: "FR",
});

async function post(url: string, path: string, token: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status >= 300) throw new Error(`setup ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Creates a key, a wallet and a first transfer through the API; returns the scenarios that use them. */
export async function prepareScenarios(url: string): Promise<Scenario[]> {
  const { key } = (await post(url, "/api/admin/keys", ADMIN_TOKEN, {
    organizationId: `org_bench_${randomUUID().slice(0, 8)}`,
    environment: "sandbox",
    scopes: ["wallets:write", "payments:write"],
  })) as { key: string };
  const auth = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const wallet = await post(url, "/api/v1/wallets", key, { chain: "base", label: "bench" });
  const replayKey = randomUUID();
  await post(url, "/api/v2/agent/payments/bank-transfer", key, SEPA_TRANSFER, { "idempotency-key": replayKey });
  let counter = 0;
  return [
    {
      id: "wallet_get",
      name: "GET /api/v1/wallets/{id}",
      requests: [{ method: "GET", path: `/api/v1/wallets/${wallet.id}`, headers: auth }],
    },
    {
      id: "payment_post",
      name: "POST /api/v1/payments",
      requests: [
        {
          method: "POST",
          path: "/api/v1/payments",
          headers: auth,
          body: PAYMENT,
        },
      ],
    },
    {
      // What the SDK sends: it puts an Idempotency-Key on every write (issue 28 item 6).
      id: "payment_post_keyed",
      name: "POST /api/v1/payments (new Idempotency-Key each, as the SDK sends)",
      requests: [
        {
          method: "POST",
          path: "/api/v1/payments",
          body: PAYMENT,
          setupRequest: (req) => ({ ...req, headers: { ...auth, "idempotency-key": `bench-pay-${process.pid}-${++counter}` } }),
        },
      ],
    },
    {
      id: "v2_write",
      name: "POST /api/v2/agent/payments/bank-transfer (new Idempotency-Key each)",
      requests: [
        {
          method: "POST",
          path: "/api/v2/agent/payments/bank-transfer",
          body: SEPA_TRANSFER,
          setupRequest: (req) => ({ ...req, headers: { ...auth, "idempotency-key": `bench-${process.pid}-${++counter}` } }),
        },
      ],
    },
    {
      id: "v2_replay",
      name: "the same bank-transfer replayed (one Idempotency-Key)",
      requests: [
        {
          method: "POST",
          path: "/api/v2/agent/payments/bank-transfer",
          body: SEPA_TRANSFER,
          headers: { ...auth, "idempotency-key": replayKey },
        },
      ],
    },
  ];
}
