// `npm run -s samples:setup`: the one setup step the reference's code samples (`x-codeSamples`, scripts/code-samples.ts)
// assume. Against a running sandbox it creates, for one organization, an API key with every scope and one resource of
// each kind the samples name, then prints `export NAME=value` lines for them: `eval "$(npm run -s samples:setup)"` and
// every sample runs as printed. Progress goes to stderr, so only the exports reach `eval`.
//
// Reads COINPLANE_URL (default http://localhost:8080), ADMIN_TOKEN (else ./.data/admin-token, written by `npm start`)
// and COINPLANE_ORG (default org_demo). Everything it creates is simulated sandbox state of that organization.
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { generate } from "otplib";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field
type Json = Record<string, any>;

const SCOPES = ["wallets", "payments", "cards", "compliance", "projects", "analytics", "fx", "webhooks"].map((r) => `${r}:write`);
const SIGNER = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359";
const TREASURY = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const PAYOUT_ADDRESS = "0x52908400098527886E0F7030069857D2E4169EE7";
const SEPA = {
  source: { type: "iban", iban: "DE89370400440532013000", bic: "COBADEFFXXX", accountHolderName: "Acme Trading GmbH", country: "DE" },
  destination: { type: "iban", iban: "FR1420041010050500013M02606", accountHolderName: "Dupont Fournitures SARL", country: "FR" },
  senderJurisdiction: "DE",
  receiverJurisdiction: "FR",
};

export interface SetupOptions {
  baseUrl: string;
  adminToken: string;
  organizationId: string;
  log?: (line: string) => void;
}

class SetupError extends Error {}

function client(baseUrl: string) {
  return async (token: string, method: string, path: string, body?: unknown, idempotent = false): Promise<Json> => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (idempotent) headers["idempotency-key"] = randomUUID();
    const url = `${baseUrl}${path}`;
    const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }).catch((error) => {
      // fetch says only "fetch failed"; the address and the cause (ECONNREFUSED, ENOTFOUND, …) are what to fix.
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new SetupError(
        `cannot reach ${url}: ${cause?.code ?? cause?.message ?? (error as Error).message} (is the server running? COINPLANE_URL)`,
      );
    });
    const text = await res.text();
    if (!res.ok) throw new SetupError(`${method} ${path} answered ${res.status}: ${text}`);
    return text ? (JSON.parse(text) as Json) : {};
  };
}

/** Creates the samples' resources and returns the variables to export, in a stable order. */
export async function setUpSamples(options: SetupOptions): Promise<Record<string, string>> {
  const { baseUrl, adminToken, organizationId } = options;
  const log = options.log ?? (() => {});
  // Programme names and cardholder emails are unique per organization, and the setup may run again.
  const run = randomUUID().slice(0, 8);
  const call = client(baseUrl);
  const admin = (method: string, path: string, body?: unknown) => call(adminToken, method, path, body);

  log("keys: yours (every scope) and a second actor's (it raises the approval request you approve)");
  const key = await admin("POST", "/api/admin/keys", {
    organizationId,
    environment: "sandbox",
    scopes: SCOPES,
    actor: "you@example.com",
    label: "samples",
  });
  const second = await admin("POST", "/api/admin/keys", {
    organizationId,
    environment: "sandbox",
    scopes: SCOPES,
    actor: "colleague@example.com",
    label: "samples: second actor",
  });
  const you = (method: string, path: string, body?: unknown) => call(key.key, method, path, body, method !== "GET");
  const colleague = (method: string, path: string, body?: unknown) => call(second.key, method, path, body, method !== "GET");

  log("provider connections: the reviewed custody and fx simulators");
  await admin("POST", "/api/admin/connections", {
    organizationId,
    environment: "sandbox",
    category: "custody",
    providerSlug: "simulator",
    reviewed: true,
  });
  await admin("POST", "/api/admin/connections", {
    organizationId,
    environment: "sandbox",
    category: "fx",
    providerSlug: "simulator",
    reviewed: true,
  });
  // A connection no other sample relies on, for the delete-connection sample.
  const spare = await admin("POST", "/api/admin/connections", {
    organizationId,
    environment: "sandbox",
    category: "compliance_screening",
    providerSlug: "simulator",
    reviewed: false,
  });

  log("sandbox wallet and payment");
  const wallet = await you("POST", "/api/v1/wallets", { chain: "base", label: "samples" });
  const payment = await you("POST", "/api/v1/payments", { amount: "10.00", stablecoin: "USDC", chain: "base", toAddress: PAYOUT_ADDRESS });

  log("a launched sandbox token (issuer, contract address, a mint request) and a fresh contract project");
  const token = await you("POST", "/api/v2/agent/contracts/generate", {
    template: "fiat_backed_stablecoin",
    asset: "CPUSD",
    network: "sandbox",
  });
  for (const stage of ["compile", "validate", "simulate"]) await you("POST", `/api/v2/agent/contracts/${token.projectId}/${stage}`, {});
  const deployed = await you("POST", `/api/v2/agent/contracts/${token.projectId}/deploy`, {
    signers: [SIGNER],
    initialSupply: { to: TREASURY, amountMinor: "1000000000000" },
  });
  await you("POST", `/api/v2/agent/contracts/${token.projectId}/verify`, {});
  const launched = await you("POST", `/api/v2/agent/contracts/${token.projectId}/launch`, {});
  const issuerId = String(launched.output.issuerId);
  const mint = await you("POST", "/api/v2/agent/treasury/mint", { issuerId, amountMinor: "1000000", signerAddress: SIGNER, to: TREASURY });
  const project = await you("POST", "/api/v2/agent/contracts/generate", {
    template: "fiat_backed_stablecoin",
    asset: "CPUSD",
    network: "sandbox",
  });

  log("provider selection, bank transfer, corridor run");
  const selection = await you("POST", "/api/v2/agent/providers/select", { category: "fx", operation: "quote" });
  const transfer = await you("POST", "/api/v2/agent/payments/bank-transfer", { amount: "1250.00", currency: "EUR", ...SEPA });
  const corridor = await you("POST", "/api/v2/agent/payments/corridor/simulate", {
    person: { firstName: "Lena", lastName: "Fischer", dateOfBirth: "1988-04-17", country: "DE" },
    source: { ...SEPA.source, accountHolderName: "Lena Fischer" },
    destination: {
      account: {
        type: "aba",
        routingNumber: "011000015",
        accountNumber: "4417123456",
        accountType: "checking",
        accountHolderName: "Jonas Fischer",
        country: "US",
      },
      currency: "USD",
    },
    amount: "250.00",
    currency: "EUR",
    custody: { asset: "USDC", chain: "base" },
    senderJurisdiction: "DE",
    receiverJurisdiction: "US",
  });

  log("custody: a wallet activated under four eyes, a transfer requested, and a pending approval request for you");
  const requested = await colleague("POST", "/api/v2/agent/custody/wallets", { label: "samples", chain: "base", type: "mpc" });
  // Only people decide approvals (a member's session with a verified second factor): you, as an owner of the organization.
  const person = await signInAsOwner(baseUrl, adminToken, organizationId, run);
  await person.call("POST", `/api/v2/agent/approvals/${requested.approvalRequestId}/approve`, { reason: "samples setup" });
  log("the member the sign-in sample names (the spec example's email and password)");
  await ensureExampleMember(baseUrl, adminToken, organizationId);
  log("the TOTP samples' members: one without a second factor, one with an enrolment pending");
  const totp = await totpSampleMembers(baseUrl, adminToken, organizationId, run);
  const viewer = await person.call("POST", "/api/v2/agent/member-invitations", { email: `viewer-${run}@example.com`, role: "viewer" });
  const viewerMember = await acceptInvitation(baseUrl, tokenOf(viewer.invitationUrl), `samples viewer ${run}`);
  const unused = await person.call("POST", "/api/v2/agent/member-invitations", { email: `invitee-${run}@example.com`, role: "viewer" });
  const custodyWallet = await colleague("POST", "/api/v2/agent/custody/wallets", {
    custodyWalletId: requested.custodyWalletId,
    approvalRequestId: requested.approvalRequestId,
  });
  const custodyTransfer = await you("POST", "/api/v2/agent/custody/transfers", {
    walletId: custodyWallet.custodyWalletId,
    destination: PAYOUT_ADDRESS,
    asset: "USDC",
    amountMinor: "2500000",
    amount: "2.5",
  });
  const pending = await colleague("POST", "/api/v2/agent/custody/wallets", {
    label: "samples: pending approval",
    chain: "base",
    type: "mpc",
  });

  log("cards: a prefunded programme, a funded card, a pending authorization");
  const programme = await you("POST", "/api/v2/agent/cards/programmes", {
    name: `Samples ${run}`,
    network: "visa",
    binSponsor: "Sutton Bank",
    jurisdictions: ["US"],
    fundingAsset: "USDC",
    fundingModel: "prefunded",
  });
  const card = await you("POST", "/api/v2/agent/cards/issue", {
    programmeId: programme.programmeId,
    cardholder: {
      name: "Jenny Rosen",
      email: `jenny.rosen+${run}@example.com`,
      billingAddress: { line1: "1 Main Street", city: "Springfield", postalCode: "62701", state: "IL", country: "US" },
    },
  });
  await you("POST", `/api/v2/agent/cards/${card.cardId}/fund`, { amount: "500.00", asset: "USDC" });
  const authorization = await you("POST", `/api/v2/agent/cards/${card.cardId}/test-helpers/authorizations`, { amount: "42.17" });

  log("webhooks: an endpoint (to a local address nothing listens on), a test event and its delivery");
  const endpoint = await you("POST", "/api/v2/agent/webhook-endpoints", { url: "http://localhost:3000/webhooks", enabledEvents: ["*"] });
  const test = await you("POST", `/api/v2/agent/webhook-endpoints/${endpoint.id}/test`, {});
  const deliveries = await you("GET", `/api/v2/agent/webhook-endpoints/${endpoint.id}/deliveries`);
  const delivery = deliveries.data?.[0];
  if (!delivery) throw new SetupError("the test event has no delivery");

  return {
    COINPLANE_URL: baseUrl,
    KEY: key.key,
    ADMIN_TOKEN: adminToken,
    ORG_ID: organizationId,
    WALLET_ID: wallet.id,
    PAYMENT_ID: payment.id,
    PROJECT_ID: project.projectId,
    APPROVAL_ID: pending.approvalRequestId,
    SELECTION_RECEIPT_ID: selection.selectionReceiptId,
    BANK_TRANSFER_ID: transfer.transferId,
    WORKFLOW_RUN_ID: corridor.workflowRunId,
    CUSTODY_WALLET_ID: custodyWallet.custodyWalletId,
    CUSTODY_TRANSFER_ID: custodyTransfer.custodyTransferId,
    ISSUER_ID: issuerId,
    CONTRACT_ADDRESS: deployed.output.contractAddress,
    ISSUANCE_REQUEST_ID: mint.issuanceRequestId ?? mint.id,
    PROGRAMME_ID: programme.programmeId,
    CARD_ID: card.cardId,
    CARDHOLDER_ID: card.cardholderId,
    AUTHORIZATION_ID: authorization.authorizationId ?? authorization.id,
    ENDPOINT_ID: endpoint.id,
    DELIVERY_ID: delivery.id,
    EVENT_ID: test.eventId ?? delivery.eventId,
    KEY_ID: second.id,
    CONNECTION_ID: spare.id,
    SESSION: person.session,
    SESSION_UNVERIFIED: person.unverifiedSession,
    RECOVERY_CODE: person.recoveryCode,
    SESSION_WITHOUT_FACTOR: totp.withoutFactor,
    SESSION_ENROLLING: totp.enrolling,
    TOTP_CODE: await generate({ secret: totp.secret }),
    MEMBER_ID: viewerMember.id,
    INVITATION_TOKEN: tokenOf(unused.invitationUrl),
  };
}

const tokenOf = (invitationUrl: string) => new URL(invitationUrl).hash.replace(/^#token=/, "");

async function json(res: Response, what: string): Promise<Json> {
  const text = await res.text();
  if (!res.ok) throw new SetupError(`${what} answered ${res.status}: ${text}`);
  return text ? (JSON.parse(text) as Json) : {};
}

async function acceptInvitation(baseUrl: string, token: string, name: string, password: string = randomUUID()): Promise<Json> {
  const res = await fetch(`${baseUrl}/api/v2/agent/member-invitations/accept`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token, name, password }),
  });
  return json(res, "accepting an invitation");
}

/** The createSession sample signs in with the spec's example credentials: a member with them exists (made once;
 * the setup may run again against the same server, so an existing one that signs in is kept). */
export const EXAMPLE_MEMBER = { email: "alice@acme.example", password: "correct-horse-battery-staple" };

async function ensureExampleMember(baseUrl: string, adminToken: string, organizationId: string): Promise<void> {
  const signIn = () =>
    fetch(`${baseUrl}/api/v2/agent/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: baseUrl },
      body: JSON.stringify(EXAMPLE_MEMBER),
    });
  const existing = await signIn();
  await existing.text();
  if (existing.ok) return;
  const invited = await json(
    await fetch(`${baseUrl}/api/admin/organizations/${encodeURIComponent(organizationId)}/member-invitations`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ email: EXAMPLE_MEMBER.email, role: "viewer" }),
    }),
    "inviting the sign-in sample's member",
  );
  await acceptInvitation(baseUrl, tokenOf(invited.invitationUrl), "Alice (sign-in sample)", EXAMPLE_MEMBER.password);
}

/** A member of the organization (the operator's invitation, accepted with a password), signed in: its session and a
 * same-origin caller with it. */
async function joinAndSignIn(baseUrl: string, adminToken: string, organizationId: string, email: string, role: string) {
  const password = randomUUID();
  const invited = await json(
    await fetch(`${baseUrl}/api/admin/organizations/${encodeURIComponent(organizationId)}/member-invitations`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ email, role }),
    }),
    `inviting ${email}`,
  );
  await acceptInvitation(baseUrl, tokenOf(invited.invitationUrl), email.split("@")[0] as string, password);
  const signIn = async () => {
    const signedIn = await fetch(`${baseUrl}/api/v2/agent/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: baseUrl },
      body: JSON.stringify({ email, password }),
    });
    await json(signedIn, `signing in as ${email}`);
    const session = /__Host-cp_session=([^;]*)/.exec(signedIn.headers.get("set-cookie") ?? "")?.[1];
    if (!session) throw new SetupError("signing in set no session cookie");
    return session;
  };
  const session = await signIn();
  const call = async (method: string, path: string, body?: unknown): Promise<Json> =>
    json(
      await fetch(`${baseUrl}${path}`, {
        method,
        headers: { cookie: `__Host-cp_session=${session}`, origin: baseUrl, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
      `${method} ${path}`,
    );
  return { session, call, signIn };
}

/** An owner of the organization, signed in with a verified TOTP second factor (what deciding approvals needs), with a
 * second session not yet verified and one of its recovery codes (the verifySessionSecondFactor sample). */
async function signInAsOwner(baseUrl: string, adminToken: string, organizationId: string, run: string) {
  const owner = await joinAndSignIn(baseUrl, adminToken, organizationId, `samples-owner-${run}@example.com`, "owner");
  const { secret } = await owner.call("POST", "/api/v2/agent/members/me/totp");
  const { recoveryCodes } = await owner.call("POST", "/api/v2/agent/members/me/totp/confirm", { code: await generate({ secret }) });
  return { ...owner, unverifiedSession: await owner.signIn(), recoveryCode: recoveryCodes[0] as string };
}

/** The TOTP samples' members: one without a second factor (beginTotpEnrollment), and one whose enrolment is pending,
 * with its secret (confirmTotpEnrollment; the code is computed as the setup ends, for it lasts about 30 s). */
async function totpSampleMembers(baseUrl: string, adminToken: string, organizationId: string, run: string) {
  const withoutFactor = await joinAndSignIn(baseUrl, adminToken, organizationId, `samples-no-factor-${run}@example.com`, "viewer");
  const enrolling = await joinAndSignIn(baseUrl, adminToken, organizationId, `samples-enrolling-${run}@example.com`, "viewer");
  const { secret } = await enrolling.call("POST", "/api/v2/agent/members/me/totp");
  return { withoutFactor: withoutFactor.session, enrolling: enrolling.session, secret: secret as string };
}

/** `export NAME='value'` lines, single-quoted for the shell. */
export function exportLines(variables: Record<string, string>): string {
  return Object.entries(variables)
    .map(([name, value]) => {
      if (typeof value !== "string" || value === "") throw new SetupError(`setup produced no value for ${name}`);
      return `export ${name}='${value.replace(/'/g, `'\\''`)}'`;
    })
    .join("\n");
}

function adminTokenFromEnvironment(): string {
  const fromEnv = process.env.ADMIN_TOKEN?.trim();
  if (fromEnv) return fromEnv;
  if (existsSync("./.data/admin-token")) return readFileSync("./.data/admin-token", "utf8").trim();
  throw new SetupError("ADMIN_TOKEN is not set and ./.data/admin-token does not exist (start the server with `npm start` first)");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const baseUrl = (process.env.COINPLANE_URL || "http://localhost:8080").replace(/\/+$/, "");
  try {
    const variables = await setUpSamples({
      baseUrl,
      adminToken: adminTokenFromEnvironment(),
      organizationId: process.env.COINPLANE_ORG || "org_demo",
      log: (line) => console.error(`samples:setup: ${line}`),
    });
    console.log(exportLines(variables));
  } catch (error) {
    console.error(`samples:setup failed: ${error instanceof Error ? error.message : String(error)}`);
    // `eval "$(npm run -s samples:setup)"` would run nothing and succeed; `false` makes the eval fail as the script did.
    console.log("false");
    process.exitCode = 1;
  }
}
