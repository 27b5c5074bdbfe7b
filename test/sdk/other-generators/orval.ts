// The short script on the client orval generates: wallet → payment (sent twice with one Idempotency-Key) → list → bank
// transfer → custody wallet → metric → 404 → the events of it all, narrowed by `type`. No cast.
import { randomUUID } from "node:crypto";
import {
  createBankTransfer,
  createCustodyWallet,
  createPayment,
  createWallet,
  getMetric,
  getWallet,
  listEvents,
  listPayments,
} from "./generated/orval/coinplane.js";

// orval's fetch functions take a RequestInit last: the API key goes there (the base URL is `baseUrl` of the config).
const auth = { headers: { Authorization: `Bearer ${process.env.COINPLANE_API_KEY}` } };

// Each function answers `{ data, status, headers }` for every documented status: checking `status` narrows `data`.
const unexpected = (res: { status: number; data: unknown }) => new Error(`${res.status} ${JSON.stringify(res.data)}`);

const wallet = await createWallet({ chain: "base", label: "Generated client" }, undefined, auth);
if (wallet.status !== 201) throw unexpected(wallet);

const key = randomUUID();
const body = { amount: "12.50", stablecoin: "USDC", chain: "base", toAddress: wallet.data.address } as const;
const payment = await createPayment(body, { "Idempotency-Key": key }, auth);
const replay = await createPayment(body, { "Idempotency-Key": key }, auth);
if (payment.status !== 201) throw unexpected(payment);
if (replay.status !== 201) throw unexpected(replay);

const page = await listPayments({ limit: 10 }, auth);
if (page.status !== 200) throw unexpected(page);

const transfer = await createBankTransfer(
  {
    amount: "250.00",
    currency: "EUR",
    source: { type: "iban", iban: "DE89370400440532013000", accountHolderName: "Acme Trading GmbH", country: "DE" },
    destination: { type: "iban", iban: "FR1420041010050500013M02606", accountHolderName: "Dupont SARL", country: "FR" },
    senderJurisdiction: "DE",
    receiverJurisdiction: "FR",
  },
  { "Idempotency-Key": randomUUID() },
  auth,
);
if (transfer.status !== 201) throw unexpected(transfer);

const custody = await createCustodyWallet(
  { label: "Generated client", chain: "base", type: "mpc" },
  { "Idempotency-Key": randomUUID() },
  auth,
);
if (custody.status !== 201) throw unexpected(custody);

const metric = await getMetric("payments.volume", { range: "7d" }, auth);
if (metric.status !== 200) throw unexpected(metric);

// An error answer is a value like any other: its status narrows `data` to the documented error body.
const missing = await getWallet("wal_doesnotexist", auth);
const notFound = missing.status === 404 ? { status: missing.status, code: missing.data.code } : { status: missing.status };

const events = await listEvents({ limit: 50 }, auth);
if (events.status !== 200) throw unexpected(events);
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
    wallet: { status: wallet.status, chain: wallet.data.chain },
    payment: {
      status: payment.status,
      state: payment.data.status,
      replayed: replay.headers.get("idempotent-replayed") === "true",
      sameId: replay.data.id === payment.data.id,
    },
    listed: page.data.data.some((p) => p.id === payment.data.id),
    bankTransfer: { status: transfer.status, state: transfer.data.status, currency: transfer.data.currency },
    custodyWallet: { status: custody.status, state: custody.data.status },
    metric: { status: metric.status, metricId: metric.data.metricId, points: metric.data.points.length },
    notFound,
    events: narrowed,
  }),
);
