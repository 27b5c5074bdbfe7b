// The signed-in member: GET /api/v2/agent/sessions/current once per page load, shared by every page. It is asked for
// by the shell of signed-in pages only (the sign-in and invitation pages make no request that would answer 401); a 401
// sends the member to the sign-in page, with the page they were on to come back to.
import { createContext, type ReactNode, useCallback, useContext, useState } from "react";
import { api, unwrap } from "./client.ts";

export interface SessionInfo {
  memberId: string;
  email: string;
  name: string;
  role: string;
  organizationId: string;
  organizationName: string;
  secondFactorVerified: boolean;
  totpEnabled: boolean;
}

type SessionState =
  | { state: "idle" }
  | { state: "loading" }
  | { state: "signed-out" }
  | { state: "error"; error: unknown }
  | { state: "ok"; session: SessionInfo };

interface SessionContextValue {
  current: SessionState;
  refresh(): Promise<void>;
  signedOut(): void;
}

const SessionContext = createContext<SessionContextValue>({ current: { state: "idle" }, refresh: async () => {}, signedOut: () => {} });

type Loose = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** The session body as the contract returns it, read field by field so a missing optional field is not an error. */
export function readSession(body: unknown): SessionInfo {
  const b = (body ?? {}) as Loose;
  const member = (b.member ?? {}) as Loose;
  const organization = (b.organization ?? {}) as Loose;
  const session = (b.session ?? b) as Loose;
  return {
    memberId: str(member.id ?? member.memberId),
    email: str(member.email),
    name: str(member.name) || str(member.email),
    role: str(member.role),
    organizationId: str(organization.id ?? organization.organizationId ?? member.organizationId ?? b.organizationId),
    organizationName: str(organization.name) || str(organization.id ?? member.organizationId ?? b.organizationId),
    secondFactorVerified: Boolean(session.secondFactorVerified ?? session.secondFactorVerifiedAt ?? b.secondFactorVerified),
    totpEnabled: Boolean(member.totpEnabled ?? member.secondFactorEnabled ?? b.totpEnabled),
  };
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [current, setCurrent] = useState<SessionState>({ state: "idle" });
  const refresh = useCallback(async () => {
    try {
      const body = await unwrap(api("sandbox").GET("/api/v2/agent/sessions/current"));
      setCurrent({ state: "ok", session: readSession(body) });
    } catch (error) {
      const status = (error as { status?: number }).status;
      setCurrent(status === 401 ? { state: "signed-out" } : { state: "error", error });
    }
  }, []);
  const signedOut = useCallback(() => setCurrent({ state: "signed-out" }), []);
  return <SessionContext.Provider value={{ current, refresh, signedOut }}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionContextValue {
  return useContext(SessionContext);
}

/** The signed-in member (only under the shell, which renders pages once the session is known). */
export function useMember(): SessionInfo {
  const { current } = useSession();
  if (current.state !== "ok") throw new Error("useMember outside a signed-in page");
  return current.session;
}
