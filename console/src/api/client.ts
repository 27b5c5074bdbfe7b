// The console's only way to the server: the public contract, through openapi-fetch typed by the generated `paths`.
// Session requests carry the member's cookie (__Host-cp_session, same origin) and `Coinplane-Environment`, which picks
// sandbox or production for the page the member is on.
import createClient, { type Client } from "openapi-fetch";
import type { paths } from "../../../sdk/src/generated/openapi.ts";

export type Environment = "sandbox" | "production";
export type Api = Client<paths>;

export interface Problem {
  status: number;
  code?: string;
  title?: string;
  detail?: string;
  requestId?: string;
}

/** A failed call: the problem body when there was one, status 0 when the server was not reached. */
export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail ?? problem.title ?? `HTTP ${problem.status}`);
  }
  get status(): number {
    return this.problem.status;
  }
}

const clients = new Map<Environment, Api>();

export function api(environment: Environment): Api {
  let client = clients.get(environment);
  if (!client) {
    client = createClient<paths>({
      baseUrl: window.location.origin,
      credentials: "same-origin",
      headers: { "Coinplane-Environment": environment },
    });
    clients.set(environment, client);
  }
  return client;
}

/** The data of a typed call, or an ApiError carrying the problem the server answered. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch {
    throw new ApiError({ status: 0, title: "The server could not be reached" });
  }
  if (result.response.ok) return result.data as T;
  const body = (result.error ?? {}) as Partial<Problem> & { error?: { message?: string; code?: string } };
  throw new ApiError({
    status: result.response.status,
    code: body.code ?? body.error?.code,
    title: body.title,
    detail: body.detail ?? body.error?.message,
    requestId: body.requestId ?? result.response.headers.get("x-request-id") ?? undefined,
  });
}

/** Idempotency keys for the console's own writes: one per click, so a retried click is not a second write. */
export function idempotencyKey(): string {
  return `console-${crypto.randomUUID()}`;
}
