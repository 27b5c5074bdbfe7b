// What every SDK method returns: a promise of the parsed body that can also give the HTTP facts of the answer —
// `await coinplane.wallets.create(…)` is the wallet, `await coinplane.wallets.create(…).withResponse()` is
// `{ data, status, headers, requestId, idempotentReplayed, response }` (openai-node's `.withResponse()`).
//
// The request starts at once (as with any promise); awaiting the data and calling `withResponse()` share it. The
// data promise is derived only when someone awaits it, so a caller who uses only `withResponse()` never gets an
// unhandled rejection from the other.

/** The HTTP facts of a successful call. */
export interface ResponseInfo {
  /** The HTTP status (e.g. 200, 201, 202). */
  status: number;
  /** The response headers (rate limit, `Location`, …). */
  headers: Headers;
  /** `X-Request-Id`: quote it to support. */
  requestId: string | undefined;
  /** True when the API replayed the stored answer of an earlier request with the same Idempotency-Key
   * (`Idempotent-Replayed: true`): the operation did not run again. */
  idempotentReplayed: boolean;
  /** The `Response` itself (its body already read into `data`). */
  response: Response;
}

/** The parsed body of a call together with its HTTP facts. */
export interface WithResponse<T> extends ResponseInfo {
  data: T;
}

/** What the transport hands over: the parsed body and the response it came from. */
export interface ParsedResponse<T> {
  data: T;
  response: Response;
}

export function responseInfo(response: Response): ResponseInfo {
  return {
    status: response.status,
    headers: response.headers,
    requestId: response.headers.get("x-request-id") ?? undefined,
    idempotentReplayed: response.headers.get("idempotent-replayed")?.trim().toLowerCase() === "true",
    response,
  };
}

/** A promise of the parsed body, with `withResponse()` for the status, headers and request id. */
export class ApiPromise<T> extends Promise<T> {
  // Derived promises (`then`, `catch`, `finally`) are plain promises; nothing constructs an ApiPromise from an executor.
  static override get [Symbol.species]() {
    return Promise;
  }

  readonly #parsed: Promise<ParsedResponse<T>>;
  #data: Promise<T> | undefined;

  constructor(parsed: Promise<ParsedResponse<T>>) {
    // The base promise is never used: then/catch/finally below read from `parsed`.
    super((resolve) => resolve(undefined as T));
    this.#parsed = parsed;
  }

  /** The parsed body plus the HTTP facts of the answer: status, headers, request id, Idempotent-Replayed. Rejects with
   * the same error as the call. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#parsed.then(({ data, response }) => ({ data, ...responseInfo(response) }));
  }

  #value(): Promise<T> {
    this.#data ??= this.#parsed.then(({ data }) => data);
    return this.#data;
  }

  // biome-ignore lint/suspicious/noThenProperty: a Promise subclass overrides then on purpose (see the header)
  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    // biome-ignore lint/suspicious/noExplicitAny: Promise's own signature, so `.then(f, (e: SomeError) => …)` keeps compiling
    onrejected?: ((reason: any) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#value().then(onfulfilled, onrejected);
  }

  // biome-ignore lint/suspicious/noExplicitAny: Promise's own signature, so `.catch((e: SomeError) => …)` keeps compiling
  override catch<R = never>(onrejected?: ((reason: any) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.#value().catch(onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#value().finally(onfinally);
  }
}
