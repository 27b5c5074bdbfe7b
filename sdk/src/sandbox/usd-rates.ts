// The sandbox's one USD rate table: what the FX simulator quotes from (server/providers/simulators/fx-simulator.ts, and
// the partner mock's copy of it) and what the compliance policy converts amounts with for its USD limit
// (server/domain/compliance/usd-rates.ts). Not market data: fixed reference rates, so quotes and limits behave
// deterministically. The spec states the same figures (ComplianceCurrency in openapi/components/schemas/compliance.yaml).
// Pure (no import): the server and the SDK package share it, as they share ../webhooks/standard-webhooks.ts.

/** USD value of one unit of each currency, as decimal strings; USD and stablecoins at par. */
export const SANDBOX_USD_RATES: Readonly<Record<string, string>> = {
  USD: "1",
  USDC: "1",
  USDT: "1",
  DAI: "1",
  PYUSD: "1",
  EURC: "1.08",
  EUR: "1.08",
  GBP: "1.27",
  CHF: "1.13",
  CAD: "0.73",
  AUD: "0.66",
  NZD: "0.60",
  SGD: "0.74",
  HKD: "0.128",
  JPY: "0.0067",
  CNY: "0.14",
  INR: "0.012",
  AED: "0.2723",
  SEK: "0.095",
  NOK: "0.093",
  DKK: "0.145",
  PLN: "0.25",
  MXN: "0.058",
  BRL: "0.20",
  ZAR: "0.055",
};
