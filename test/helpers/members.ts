// People in tests: an invitation (the operator's), accepted with a password, signed in, and — when asked — a TOTP second
// factor enrolled and verified in the session. Approvals are decided only by such members (issue 24).
import { api, type TestServer } from "./test-server.ts";
import { freshTotp } from "./totp.ts";

type Answer = Awaited<ReturnType<ReturnType<typeof api>>>;

export type Role = "owner" | "developer" | "approver" | "viewer";

export interface JoinedMember {
  id: string;
  email: string;
  password: string;
  /** The session cookie's value. */
  session: string;
  /** The TOTP secret, when a second factor was enrolled. */
  totpSecret?: string;
  /** Headers of a same-origin session request (cookie, Origin, JSON). */
  headers(extra?: Record<string, string>): Record<string, string>;
  /** A session request to this server (answer as `api`'s: status, headers, json, text). */
  call(method: string, path: string, body?: unknown, extra?: Record<string, string>): Promise<Answer>;
}

/** What joining a member needs of a server: its origin and the operator's token. An in-process TestServer is one; so is
 * a spawned server process (`{ url, adminToken: ADMIN_TOKEN }`, test/helpers/server-process.ts). */
export type MemberServer = Pick<TestServer, "url" | "adminToken">;

let counter = 0;

export const PASSWORD = "correct-horse-battery-staple";

/** The session cookie a Set-Cookie header sets. */
export function sessionFrom(res: Response): string {
  const value = /__Host-cp_session=([^;]*)/.exec(res.headers.get("set-cookie") ?? "")?.[1];
  if (!value) throw new Error(`no session cookie in ${res.status} ${res.headers.get("set-cookie")}`);
  return value;
}

export function sessionHeaders(
  server: Pick<TestServer, "url">,
  session: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return { cookie: `__Host-cp_session=${session}`, origin: server.url, "content-type": "application/json", ...extra };
}

export async function invite(server: MemberServer, organizationId: string, email: string, role: Role): Promise<string> {
  const res = await fetch(`${server.url}/api/admin/organizations/${organizationId}/member-invitations`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ email, role }),
  });
  if (res.status !== 201) throw new Error(`invite failed: ${res.status} ${await res.text()}`);
  const { invitationUrl } = (await res.json()) as { invitationUrl: string };
  return new URL(invitationUrl).hash.replace(/^#token=/, "");
}

export async function signIn(server: Pick<TestServer, "url">, email: string, password: string): Promise<Response> {
  return fetch(`${server.url}/api/v2/agent/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ email, password }),
  });
}

/** A TOTP code not handed out before (the server accepts each code once). */
export const totpCode = (secret: string) => freshTotp(secret);

export async function joinMember(
  server: MemberServer,
  organizationId: string,
  options: { role: Role; secondFactor?: boolean; email?: string },
): Promise<JoinedMember> {
  const email = options.email ?? `member${++counter}-${Date.now()}@${organizationId.replace(/_/g, "-")}.example`;
  const token = await invite(server, organizationId, email, options.role);
  const accepted = await fetch(`${server.url}/api/v2/agent/member-invitations/accept`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token, name: `Member ${counter}`, password: PASSWORD }),
  });
  if (accepted.status !== 201) throw new Error(`accept failed: ${accepted.status} ${await accepted.text()}`);
  const { id } = (await accepted.json()) as { id: string };
  const signedIn = await signIn(server, email, PASSWORD);
  if (signedIn.status !== 201) throw new Error(`sign-in failed: ${signedIn.status} ${await signedIn.text()}`);
  const session = sessionFrom(signedIn);
  const call = (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) =>
    api(server.url)(method, path, body, sessionHeaders(server, session, extra));
  const member: JoinedMember = { id, email, password: PASSWORD, session, headers: (extra) => sessionHeaders(server, session, extra), call };
  if (options.secondFactor) {
    const begun = await call("POST", "/api/v2/agent/members/me/totp");
    if (begun.status !== 200) throw new Error(`TOTP enrolment failed: ${begun.status} ${begun.text}`);
    const { secret } = begun.json as { secret: string };
    const confirmed = await call("POST", "/api/v2/agent/members/me/totp/confirm", { code: await totpCode(secret) });
    if (confirmed.status !== 200) throw new Error(`TOTP confirmation failed: ${confirmed.status} ${confirmed.text}`);
    member.totpSecret = secret;
  }
  return member;
}

type Call = ReturnType<typeof api>;

/**
 * Session requests by one member to the server at `url`, in `environment`: the Origin is that server's own, so the same
 * session (stored in the shared database) is used through any instance of a scaled-out deployment.
 */
export function sessionCaller(url: string, member: JoinedMember, environment: "sandbox" | "production" = "sandbox"): Call {
  const call = api(url);
  return (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) =>
    call(method, path, body, sessionHeaders({ url }, member.session, { "coinplane-environment": environment, ...extra }));
}
const DECISION = /^\/api\/v2\/agent\/approvals\/[^/?]+\/(approve|reject)(\?|$)/;

/**
 * A caller that decides approvals as a person and does everything else with an API key: approving and rejecting go
 * through the session of a member (approver, second factor verified) in the key's environment; any other request
 * carries the key. Tests written when keys decided keep their assertions with it (issue 24: only people decide).
 */
export async function deciderWithKey(
  server: TestServer,
  organizationId: string,
  key: string | undefined,
  options: { environment?: "sandbox" | "production"; role?: Role; email?: string; member?: JoinedMember } = {},
): Promise<Call & { member: JoinedMember }> {
  const member =
    options.member ??
    (await joinMember(server, organizationId, { role: options.role ?? "approver", secondFactor: true, email: options.email }));
  const byKey = api(server.url, key);
  const environment = options.environment ?? (key?.startsWith("cp_production_") ? "production" : "sandbox");
  const call: Call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    DECISION.test(path)
      ? member.call(method, path, body, { ...headers, "coinplane-environment": environment })
      : byKey(method, path, body, headers);
  return Object.assign(call, { member });
}
