// Events of approval requests and issuance requests (issue 16): created, approved, rejected once each with the resource
// as its GET answers it; expired once, by the expiry sweeper (sweepExpiredApprovals, which the delivery worker runs on
// its tick), however often and however concurrently it runs. A refused decision (an API key: SESSION_REQUIRED; the
// requester's own member session: OWN_APPROVAL_REQUEST) emits nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepExpiredApprovals } from "../../server/domain/approvals/sweep-expired-approvals.ts";
import { checkInvariants } from "../../server/domain/reconcile/invariants.ts";
import { HOLDER, type LaunchedToken, launchToken, SIGNER } from "../helpers/contracts.ts";
import { eventsOf, eventTypesOf, expectOneEvent } from "../helpers/events.ts";
import { deciderWithKey, type JoinedMember, joinMember } from "../helpers/members.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { connect, expireApproval, idem } from "../helpers/v2.ts";

const ORG = "org_evt_apr";
const T = "/api/v2/agent/treasury";
const APPROVALS = "/api/v2/agent/approvals";

type Call = ReturnType<typeof api>;
let server: TestServer;
let alice: Call;
let bob: Call;
/** A member (owner, second factor verified) and the API key she created: what that key requests records her as its
 * requester, so her own session may not decide it (four eyes). */
let carol: JoinedMember;
let carolKey: Call;
let token: LaunchedToken;

const ok = async (res: Promise<{ status: number; json: unknown; text: string }>, status = 200) => {
  const answer = await res;
  expect(answer.status, answer.text).toBe(status);
  return answer.json as Record<string, string> & { approvalRequestId: string; issuanceRequestId: string; custodyWalletId: string };
};
const mint = (amountMinor: string, caller = alice) =>
  ok(caller("POST", `${T}/mint`, { issuerId: token.issuerId, amountMinor, signerAddress: SIGNER, to: HOLDER }, idem()), 201);
const getApproval = (id: string) => ok(alice("GET", `${APPROVALS}/${id}`));
const getIssuance = (id: string) => ok(alice("GET", `${T}/issuance-requests/${id}`));
const expire = (approvalRequestId: string) => expireApproval(server, approvalRequestId);

beforeAll(async () => {
  server = await startTestServer();
  alice = api(
    server.url,
    (await server.createKey({ organizationId: ORG, scopes: ["wallets:write", "projects:write"], actor: "alice" })).key,
  );
  bob = await deciderWithKey(server, ORG, (await server.createKey({ organizationId: ORG, scopes: ["wallets:write"], actor: "bob" })).key);
  carol = await joinMember(server, ORG, { role: "owner", secondFactor: true });
  const carolsKey = await carol.call("POST", "/api/v2/agent/api-keys", {
    environment: "sandbox",
    scopes: ["wallets:write", "projects:write"],
    label: "Carol's treasury key",
  });
  expect(carolsKey.status, carolsKey.text).toBe(201);
  carolKey = api(server.url, carolsKey.json.secret);
  await connect(server, { organizationId: ORG, category: "custody" });
  token = await launchToken(alice);
}, 120_000);
afterAll(() => server?.close());

describe("approval and issuance request events", () => {
  it("created: issuance_request.created and approval_request.created, each = its GET", async () => {
    const minted = await mint("1000");
    await expectOneEvent(server, "issuance_request.created", minted.issuanceRequestId, await getIssuance(minted.issuanceRequestId), {
      simulated: true,
    });
    // In the sandbox, what an approval lets happen runs on a simulator: its events say so.
    await expectOneEvent(server, "approval_request.created", minted.approvalRequestId, await getApproval(minted.approvalRequestId), {
      simulated: true,
    });
  });

  it("approved by a second member (refused to an API key and to the requester's own session): approval_request.approved and issuance_request.approved; a refused decision emits nothing", async () => {
    const minted = await mint("2000", carolKey);
    // Only people decide: an API key is refused before anything else is looked at.
    const byKey = await alice("POST", `${APPROVALS}/${minted.approvalRequestId}/approve`, {});
    expect(byKey.status, byKey.text).toBe(403);
    expect(byKey.json.code).toBe("SESSION_REQUIRED");
    // Four eyes: the member whose key requested the mint, in her own verified session, may not approve it.
    const own = await carol.call("POST", `${APPROVALS}/${minted.approvalRequestId}/approve`, {}, { "coinplane-environment": "sandbox" });
    expect(own.status, own.text).toBe(403);
    expect(own.json.code).toBe("OWN_APPROVAL_REQUEST");
    const approved = await ok(bob("POST", `${APPROVALS}/${minted.approvalRequestId}/approve`, {}));
    expect(approved.status).toBe("approved");
    expect(await getApproval(minted.approvalRequestId)).toEqual(approved);
    await expectOneEvent(server, "approval_request.approved", minted.approvalRequestId, approved);
    await expectOneEvent(server, "issuance_request.approved", minted.issuanceRequestId, await getIssuance(minted.issuanceRequestId));
    expect((await bob("POST", `${APPROVALS}/${minted.approvalRequestId}/reject`, {})).status).toBe(409);
    expect(await eventTypesOf(server, minted.approvalRequestId)).toEqual(["approval_request.created", "approval_request.approved"]);
  });

  it("rejected: approval_request.rejected and issuance_request.rejected", async () => {
    const minted = await mint("3000");
    const rejected = await ok(bob("POST", `${APPROVALS}/${minted.approvalRequestId}/reject`, { reason: "not needed" }));
    await expectOneEvent(server, "approval_request.rejected", minted.approvalRequestId, rejected);
    await expectOneEvent(server, "issuance_request.rejected", minted.issuanceRequestId, await getIssuance(minted.issuanceRequestId));
    expect(await eventTypesOf(server, minted.issuanceRequestId)).toEqual(["issuance_request.created", "issuance_request.rejected"]);
  });

  it("expired undecided: the sweeper emits approval_request.expired and issuance_request.expired once, even when run concurrently", async () => {
    const minted = await mint("4000");
    await expire(minted.approvalRequestId);
    await Promise.all(Array.from({ length: 5 }, () => sweepExpiredApprovals(server.db.kysely, { now: new Date() })));
    await sweepExpiredApprovals(server.db.kysely, { now: new Date() });
    const approval = await getApproval(minted.approvalRequestId);
    expect(approval.status).toBe("expired");
    await expectOneEvent(server, "approval_request.expired", minted.approvalRequestId, approval);
    const issuance = await getIssuance(minted.issuanceRequestId);
    expect(issuance.status).toBe("expired");
    await expectOneEvent(server, "issuance_request.expired", minted.issuanceRequestId, issuance);
  });

  it("a decision racing the sweep loses: once expired was announced, no approval follows it", async () => {
    const minted = await mint("4500");
    // The sweep has run (its clock past expiresAt) while the decision's clock still read a time before it.
    await server.db.kysely
      .updateTable("ApprovalRequest")
      .set({ expirySweptAt: new Date() })
      .where("id", "=", minted.approvalRequestId)
      .execute();
    const late = await bob("POST", `${APPROVALS}/${minted.approvalRequestId}/approve`, {});
    expect(late.status).toBe(409);
    expect(await eventTypesOf(server, minted.approvalRequestId)).toEqual(["approval_request.created"]);
  });

  it("approved but unused past expiresAt: the approval reads expired (event), the issuance request stays approved (no event)", async () => {
    const minted = await mint("5000");
    await ok(bob("POST", `${APPROVALS}/${minted.approvalRequestId}/approve`, {}));
    await expire(minted.approvalRequestId);
    await sweepExpiredApprovals(server.db.kysely, { now: new Date() });
    await expectOneEvent(server, "approval_request.expired", minted.approvalRequestId, await getApproval(minted.approvalRequestId));
    expect((await getIssuance(minted.issuanceRequestId)).status).toBe("approved");
    expect(await eventsOf(server, minted.issuanceRequestId, "issuance_request.expired")).toEqual([]);
  });

  it("a used (consumed) or rejected approval past expiresAt emits nothing; nothing due costs no transaction", async () => {
    const wallet = await ok(alice("POST", "/api/v2/agent/custody/wallets", { label: "Ops", chain: "base", type: "mpc" }, idem()), 201);
    await ok(bob("POST", `${APPROVALS}/${wallet.approvalRequestId}/approve`, {}));
    await ok(
      alice(
        "POST",
        "/api/v2/agent/custody/wallets",
        { custodyWalletId: wallet.custodyWalletId, approvalRequestId: wallet.approvalRequestId },
        idem(),
      ),
    );
    await expire(wallet.approvalRequestId);
    expect((await getApproval(wallet.approvalRequestId)).status).toBe("approved");
    const swept = await sweepExpiredApprovals(server.db.kysely, { now: new Date() });
    expect(swept).toEqual({ swept: 1, expired: 0 });
    expect(await eventsOf(server, wallet.approvalRequestId, "approval_request.expired")).toEqual([]);
    const before = server.db.statements.snapshot();
    expect(await sweepExpiredApprovals(server.db.kysely, { now: new Date() })).toEqual({ swept: 0, expired: 0 });
    const after = server.db.statements.snapshot();
    expect(after.transactions - before.transactions).toBe(0);
  });
});

describe("check:invariants over issuance requests (issue 26)", () => {
  const invariants = () => checkInvariants(server.db.kysely, { now: new Date(), graceSeconds: 0, eventRetentionDays: 30 });
  const retype = (resourceId: string, from: string, to: string) =>
    server.db.kysely.updateTable("Event").set({ type: to }).where("resourceId", "=", resourceId).where("type", "=", from).execute();

  it("finds nothing after every status above; names a status without its event and an event without its status", async () => {
    expect(await invariants()).toEqual([]);
    const minted = await mint("6000");
    const id = minted.issuanceRequestId;
    await ok(bob("POST", `${APPROVALS}/${minted.approvalRequestId}/approve`, {}));
    await retype(id, "issuance_request.approved", "issuance_request.rejected");
    expect(await invariants()).toEqual([
      { check: "state_without_event", id, detail: "issuance_request.approved: 0 event(s), expected 1" },
      { check: "event_without_state", id, detail: "issuance_request.rejected for a state the issuance request never entered" },
    ]);
    await retype(id, "issuance_request.rejected", "issuance_request.approved");
    expect(await invariants()).toEqual([]);
  });

  it("names an undecided request past its expiry that the sweeper has not announced (beyond the grace), until it does", async () => {
    const minted = await mint("7000");
    await expire(minted.approvalRequestId);
    expect(await invariants()).toEqual([
      { check: "state_without_event", id: minted.issuanceRequestId, detail: "issuance_request.expired: 0 event(s), expected 1" },
    ]);
    await sweepExpiredApprovals(server.db.kysely, { now: new Date() });
    expect(await invariants()).toEqual([]);
  });
});
