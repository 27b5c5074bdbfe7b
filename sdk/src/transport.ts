// The fetch that openapi-fetch calls: per-attempt timeout, retries with exponential backoff and full jitter (honouring
// Retry-After), request/response hooks, and typed errors for failures without a response. The request — including its
// Idempotency-Key — is cloned for each attempt, so every retry carries the same key.
import { parseRetryAfter } from "./error-response.ts";
import { CoinplaneAbortError, CoinplaneConnectionError, CoinplaneError, CoinplaneTimeoutError } from "./errors.ts";

export interface RetryPolicy {
  /** First backoff ceiling; attempt n waits a random time in [0, min(maxDelayMs, initialDelayMs·2ⁿ)] ("full jitter"). */
  initialDelayMs: number;
  /** Cap of the backoff ceiling. */
  maxDelayMs: number;
  /** Longest `Retry-After` the SDK waits for; a longer one surfaces the error (with `retryAfterSeconds`) at once. */
  maxRetryAfterMs: number;
}

export interface RequestHookEvent {
  operationId: string | undefined;
  method: string;
  url: string;
  /** 0 for the first attempt. */
  attempt: number;
  /** Request headers, `authorization` redacted. */
  headers: Record<string, string>;
}

export interface ResponseHookEvent extends RequestHookEvent {
  /** HTTP status, undefined when no response arrived. */
  status: number | undefined;
  requestId: string | undefined;
  durationMs: number;
  /** The failure of an attempt without a response (connection error, timeout). */
  error?: CoinplaneError;
  /** Set when the SDK will retry after this many milliseconds. */
  retryInMs?: number;
}

export interface Hooks {
  /** Before every attempt (retries included). */
  onRequest?: (event: RequestHookEvent) => void | Promise<void>;
  /** After every attempt, with its outcome. */
  onResponse?: (event: ResponseHookEvent) => void | Promise<void>;
}

export interface TransportConfig {
  fetch: typeof fetch;
  maxRetries: number;
  timeoutMs: number;
  retry: RetryPolicy;
  hooks: Hooks;
  /** Injectable for tests. */
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal | null) => Promise<void>;
}

export interface CallContext {
  operationId?: string;
  maxRetries?: number;
  timeoutMs?: number;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);
const IN_PROGRESS_CODES = new Set(["IDEMPOTENCY_IN_PROGRESS", "idempotency_in_progress"]);

/** Full-jitter exponential backoff: a random delay in [0, min(max, initial·2^attempt)]. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

function defaultSleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function redactedHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, key) => {
    out[key] = key === "authorization" ? "Bearer [redacted]" : value;
  });
  return out;
}

function inProgress(status: number, text: string): boolean {
  if (status !== 409) return false;
  try {
    const code = (JSON.parse(text) as { code?: unknown }).code;
    return typeof code === "string" && IN_PROGRESS_CODES.has(code);
  } catch {
    return false;
  }
}

/** Whether an HTTP status is worth retrying: 429, 5xx except 501, and 409 IDEMPOTENCY_IN_PROGRESS. */
export function isRetryableStatus(status: number, bodyText = ""): boolean {
  return status === 429 || (status >= 500 && status !== 501) || inProgress(status, bodyText);
}

export class Transport {
  private readonly random: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal | null) => Promise<void>;

  private readonly config: TransportConfig;

  constructor(config: TransportConfig) {
    this.config = config;
    this.random = config.random ?? Math.random;
    this.sleep = config.sleep ?? defaultSleep;
  }

  /** A fetch bound to one call's context, as openapi-fetch expects. */
  fetchFor(context: CallContext = {}): typeof fetch {
    return ((input: string | URL | Request, init?: RequestInit) => this.send(new Request(input, init), context)) as typeof fetch;
  }

  async send(request: Request, context: CallContext = {}): Promise<Response> {
    const maxRetries = context.maxRetries ?? this.config.maxRetries;
    const timeoutMs = context.timeoutMs ?? this.config.timeoutMs;
    const { hooks, retry } = this.config;
    const userSignal = request.signal;
    // A write without an Idempotency-Key is never repeated: it could run twice.
    const repeatable = SAFE_METHODS.has(request.method) || request.headers.has("idempotency-key");
    for (let attempt = 0; ; attempt++) {
      const base: RequestHookEvent = {
        operationId: context.operationId,
        method: request.method,
        url: request.url,
        attempt,
        headers: redactedHeaders(request.headers),
      };
      await hooks.onRequest?.(base);
      const started = Date.now();
      const outcome = await this.attempt(request, userSignal, timeoutMs, context.operationId);
      const durationMs = Date.now() - started;
      const canRetry = repeatable && attempt < maxRetries;

      if (outcome.error) {
        const retryInMs =
          canRetry && !(outcome.error instanceof CoinplaneAbortError) ? backoffDelay(attempt, retry, this.random) : undefined;
        await hooks.onResponse?.({ ...base, status: undefined, requestId: undefined, durationMs, error: outcome.error, retryInMs });
        if (retryInMs === undefined) throw outcome.error;
        await this.wait(retryInMs, userSignal);
        continue;
      }

      const { response, text } = outcome;
      let retryInMs: number | undefined;
      if (canRetry && isRetryableStatus(response.status, text)) {
        const retryAfter = parseRetryAfter(response.headers.get("retry-after"));
        if (retryAfter === undefined) retryInMs = backoffDelay(attempt, retry, this.random);
        else if (retryAfter * 1000 <= retry.maxRetryAfterMs) retryInMs = Math.ceil(retryAfter * 1000);
      }
      await hooks.onResponse?.({
        ...base,
        status: response.status,
        requestId: response.headers.get("x-request-id") ?? undefined,
        durationMs,
        retryInMs,
      });
      if (retryInMs === undefined) return response;
      await this.wait(retryInMs, userSignal);
    }
  }

  private async wait(ms: number, signal: AbortSignal | null) {
    try {
      await this.sleep(ms, signal);
    } catch (cause) {
      throw new CoinplaneAbortError({ message: "The request was aborted", code: "REQUEST_ABORTED", cause });
    }
  }

  /** One attempt under its own timeout; the body is read inside the timeout, so a stalled body times out too. */
  private async attempt(
    request: Request,
    userSignal: AbortSignal | null,
    timeoutMs: number,
    operationId: string | undefined,
  ): Promise<{ error: CoinplaneError; response?: undefined; text?: undefined } | { error?: undefined; response: Response; text: string }> {
    if (userSignal?.aborted) {
      return {
        error: new CoinplaneAbortError({
          message: "The request was aborted",
          code: "REQUEST_ABORTED",
          operationId,
          cause: userSignal.reason,
        }),
      };
    }
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onUserAbort = () => controller.abort(userSignal?.reason);
    userSignal?.addEventListener("abort", onUserAbort, { once: true });
    try {
      const attemptRequest = new Request(request.clone(), { signal: controller.signal });
      const raw = await this.config.fetch(attemptRequest);
      const text = NULL_BODY_STATUSES.has(raw.status) ? "" : await raw.text();
      const response = new Response(NULL_BODY_STATUSES.has(raw.status) ? null : text, {
        status: raw.status,
        statusText: raw.statusText,
        headers: raw.headers,
      });
      return { response, text };
    } catch (cause) {
      if (cause instanceof CoinplaneError) return { error: cause };
      if (timedOut) {
        return {
          error: new CoinplaneTimeoutError({ message: `The request timed out after ${timeoutMs} ms`, code: "TIMEOUT", operationId, cause }),
        };
      }
      if (userSignal?.aborted) {
        return { error: new CoinplaneAbortError({ message: "The request was aborted", code: "REQUEST_ABORTED", operationId, cause }) };
      }
      const detail =
        cause instanceof Error ? `${cause.message}${cause.cause instanceof Error ? `: ${cause.cause.message}` : ""}` : String(cause);
      return {
        error: new CoinplaneConnectionError({
          message: `Could not reach the Coinplane API (${detail})`,
          code: "CONNECTION_ERROR",
          operationId,
          cause,
        }),
      };
    } finally {
      clearTimeout(timer);
      userSignal?.removeEventListener("abort", onUserAbort);
    }
  }
}
