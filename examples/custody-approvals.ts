// Agent API (v2) custody under four-eyes control: request a custody wallet, have a second person approve, activate it;
// then request a transfer, approve, submit and reconcile it; the approver finds what waits on them in the list of pending
// approval requests, and the wallet's transfers are listed at the end. The requester is a service with an API key; the
// approver is a person — a member signed in with a session and a verified second factor, as only people decide
// approvals (docs/members.md). In production that person approves in the console (/console). Custody fails closed without a reviewed
// connection, so the example connects the custody simulator first (operator step).
// Run: npm run example -- examples/custody-approvals.ts   (against `npm start`)
import { approverSession, connectSimulator, run, sandboxClient, step } from "./setup.ts";

await run(async () => {
  await connectSimulator("custody");
  const requester = await sandboxClient(["wallets:write"], "alice@example.com");
  // A fresh address per run, so the example runs again against the same server.
  const approver = await approverSession(`bob+${Date.now()}@example.com`);

  // Wallet: shape 1 (request) → approval by another actor → shape 2 (activate).
  const requested = await requester.custody.createWallet({ label: "Example treasury", chain: "base", type: "mpc" });
  step("walletRequested", { custodyWalletId: requested.custodyWalletId, status: requested.status });
  const walletApproval = String(requested.approvalRequestId);
  await approver.approvals.approve(walletApproval, { reason: "Example: wallet approved" });
  const wallet = await requester.custody.createWallet({ custodyWalletId: requested.custodyWalletId, approvalRequestId: walletApproval });
  step("walletActive", { custodyWalletId: wallet.custodyWalletId, status: wallet.status, address: wallet.address });

  // Transfer: shape 1 (request) → approval → shape 2 (submit) → shape 3 (reconcile at the current version).
  const transfer = await requester.custody.createTransfer({
    walletId: wallet.custodyWalletId,
    destination: "0x52908400098527886E0F7030069857D2E4169EE7",
    asset: "USDC",
    amountMinor: "2500000",
    note: "Example payout",
  });
  step("transferRequested", {
    custodyTransferId: transfer.custodyTransferId,
    approvalRequestId: transfer.approvalRequestId,
    status: transfer.status,
  });
  // The approver's inbox: the pending approval requests (every page), newest first.
  const waiting = await approver.approvals.list({ status: "pending" }).toArray({ limit: 100 });
  step(
    "pendingApprovals",
    waiting.map((a) => a.approvalRequestId),
  );
  const transferApproval = String(transfer.approvalRequestId);
  await approver.approvals.approve(transferApproval, { reason: "Example: payout approved" });
  const submitted = await requester.custody.createTransfer({
    custodyTransferId: transfer.custodyTransferId,
    approvalRequestId: transferApproval,
  });
  step("transferSubmitted", { status: submitted.status, version: submitted.version });
  const reconciled = await requester.custody.createTransfer({
    custodyTransferId: transfer.custodyTransferId,
    expectedVersion: submitted.version,
  });
  step("transferReconciled", { status: reconciled.status, version: reconciled.version });
  const status = await requester.custody.transferStatus({ custodyTransferId: transfer.custodyTransferId });
  step("transferStatus", { status: status.status });
  const transfers: string[] = [];
  for await (const t of requester.custody.listTransfers({ walletId: wallet.custodyWalletId, limit: 10 }))
    transfers.push(t.custodyTransferId);
  step("walletTransfers", transfers);
});
