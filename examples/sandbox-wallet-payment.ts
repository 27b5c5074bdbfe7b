// Sandbox API (v1): create a wallet, pay from the sandbox, list payments across pages, read balances and a metric.
// Run: npm run example -- examples/sandbox-wallet-payment.ts   (against `npm start`)
import { run, sandboxClient, step } from "./setup.ts";

await run(async () => {
  const coinplane = await sandboxClient(["wallets:write", "payments:write", "analytics:read"]);

  const wallet = await coinplane.wallets.create({ chain: "base", label: "Example wallet" });
  step("wallet", wallet);

  const payment = await coinplane.payments.create(
    {
      amount: "125.50",
      stablecoin: "USDC",
      chain: "base",
      toAddress: "0x52908400098527886E0F7030069857D2E4169EE7",
      metadata: { orderId: "6735" },
    },
    { idempotencyKey: `example-order-6735-${wallet.id}` },
  );
  step("payment", payment);

  const ids: string[] = [];
  for await (const p of coinplane.payments.list({ limit: 2 })) ids.push(p.id);
  step("payments", ids);

  step("balances", await coinplane.balances.retrieve());
  step("walletBalance", await coinplane.wallets.retrieveBalance(wallet.id));
  const metric = await coinplane.metrics.retrieve("payments.count", { range: "7d" });
  step("metric", { metricId: metric.metricId, latest: metric.latest, source: metric.source });
});
