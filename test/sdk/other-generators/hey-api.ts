// The short script on the client @hey-api/openapi-ts generates: wallet → payment (sent twice with one Idempotency-Key)
// → list → bank transfer → custody wallet → metric → 404 → the events of it all, narrowed by `type`. No cast.
import { randomUUID } from "node:crypto";
import { client } from "./generated/hey-api/client.gen.js";
import {
  createBankTransfer,
  createCustodyWallet,
  createPayment,
  createWallet,
  getMetric,
  getWallet,
  listEvents,
  listPayments,
} from "./generated/hey-api/sdk.gen.js";

const apiKey = process.env.COINPLANE_API_KEY;
client.setConfig({
  baseUrl: process.env.COINPLANE_URL ?? "http://localhost:8080",
  // Called for each security scheme an operation accepts: the key answers the bearer scheme (`apiKey`) only, else it
  // would also go out as the `session` cookie.
  auth: (scheme) => (scheme.scheme === "bearer" ? apiKey : undefined),
});

const wallet = await createWallet({ body: { chain: "base", label: "Generated client" }, throwOnError: true });

const key = randomUUID();
const body = { amount: "12.50", stablecoin: "USDC", chain: "base", toAddress: wallet.data.address } as const;
const payment = await createPayment({ body, headers: { "Idempotency-Key": key }, throwOnError: true });
const replay = await createPayment({ body, headers: { "Idempotency-Key": key }, throwOnError: true });

const page = await listPayments({ query: { limit: 10 }, throwOnError: true });

const transfer = await createBankTransfer({
  body: {
    amount: "250.00",
    currency: "EUR",
    source: { type: "iban", iban: "DE89370400440532013000", accountHolderName: "Acme Trading GmbH", country: "DE" },
    destination: { type: "iban", iban: "FR1420041010050500013M02606", accountHolderName: "Dupont SARL", country: "FR" },
    senderJurisdiction: "DE",
    receiverJurisdiction: "FR",
  },
  headers: { "Idempotency-Key": randomUUID() },
  throwOnError: true,
});

const custody = await createCustodyWallet({
  body: { label: "Generated client", chain: "base", type: "mpc" },
  headers: { "Idempotency-Key": randomUUID() },
  throwOnError: true,
});

const metric = await getMetric({ path: { metricId: "payments.volume" }, query: { range: "7d" }, throwOnError: true });

// Without throwOnError an error answer is a value: `error` is typed by the operation's documented error bodies.
const missing = await getWallet({ path: { id: "wal_doesnotexist" } });

const events = await listEvents({ query: { limit: 50 }, throwOnError: true });
const narrowed: Record<string, string> = {};
for (const event of events.data.data) {
  switch (event.type) {
    case "wallet.created":
      narrowed[event.type] = event.data.chain;
      break;
    case "payment.created":
      narrowed[event.type] = event.data.amount;
      break;
    case "bank_transfer.created":
      narrowed[event.type] = event.data.currency;
      break;
    case "custody_wallet.created":
      narrowed[event.type] = event.data.label;
      break;
  }
}

console.log(
  JSON.stringify({
    wallet: { status: wallet.response.status, chain: wallet.data.chain },
    payment: {
      status: payment.response.status,
      state: payment.data.status,
      replayed: replay.response.headers.get("idempotent-replayed") === "true",
      sameId: replay.data.id === payment.data.id,
    },
    listed: page.data.data.some((p) => p.id === payment.data.id),
    bankTransfer: { status: transfer.response.status, state: transfer.data.status, currency: transfer.data.currency },
    custodyWallet: { status: custody.response.status, state: custody.data.status },
    metric: { status: metric.response.status, metricId: metric.data.metricId, points: metric.data.points.length },
    notFound: { status: missing.response?.status, code: missing.error?.code },
    events: narrowed,
  }),
);
