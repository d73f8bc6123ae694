/**
 * The one fetch wrapper of the UI. Every request goes to `<base>api/<path>`;
 * a failed request rejects with an {@link ApiError} carrying the API's
 * `{ error, code }` body, so pages can show the server's own message. How
 * each request ended is reported to `onOutcome` (the page's connectivity),
 * so one failed fetch is enough to mark the data on screen stale.
 *
 * @module
 */
import type {
  AnswerOf,
  ItemOf,
  JsonPath,
  LinesPath,
  Method,
  PagedPath,
  PathOf,
  QueryValue,
  RequestOf,
  SentAnswerOf,
} from "../../src/contract/endpoints.ts";
import type { ErrorBody } from "../../src/contract/errors.ts";
import type { RequestOutcome } from "./connectivity.ts";

/** A failed API request: the server's message and code, or a network failure. */
export class ApiError extends Error {
  /** HTTP status, or 0 when the server could not be reached. */
  readonly status: number;
  /** The API's error code (`STORE_UNAVAILABLE`, `OUTCOME_UNKNOWN`, …), `NETWORK` or `HTTP_<status>`. */
  readonly code: string;
  /** The parameter an `INVALID_PARAM` answer names, when it names one. */
  readonly param?: string;
  /** When to ask again, ms, when the answer said (`Retry-After` in seconds: a board still counting). */
  readonly retryAfterMs?: number;

  /** Creates an error from a status, code and message (the parameter at fault, when to ask again). */
  constructor(
    status: number,
    code: string,
    message: string,
    param?: string,
    retryAfterMs?: number,
  ) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    if (param !== undefined) this.param = param;
    if (retryAfterMs !== undefined) this.retryAfterMs = retryAfterMs;
  }
}

/**
 * What the operator reads when a change was sent but not confirmed (504
 * `OUTCOME_UNKNOWN`): it may have happened, so trying again blindly could
 * do it twice.
 */
export const OUTCOME_UNKNOWN_MESSAGE =
  "Not confirmed: the change was sent, but the store did not " +
  "say whether it was applied. It may have been, or may be shortly. Check before you try again.";

/** One page of a paginated list and the `X-Total-Count` the server sent with it. */
export interface Page<T> {
  items: T[];
  total: number;
}

/**
 * An answer with the place it was asked for: the offset of its first row
 * and the page size. A pager describes the rows shown by these, not by the
 * URL, which runs ahead of the rows while the next page loads.
 */
export type Placed<T> = T & { offset: number; limit: number };

/** `answer`, once in, with the place it was asked for. */
export async function placedAt<T>(
  answer: Promise<T>,
  offset: number,
  limit: number,
): Promise<Placed<T>> {
  return { ...await answer, offset, limit };
}

/** Options of a read. */
export interface ReadInit {
  signal?: AbortSignal;
}

/** Options of a mutation. */
export interface SendInit {
  /** Sent as the `Idempotency-Key` header: the same key for a retry of the same click. */
  idempotencyKey?: string;
  /** Aborts the request (a long dry run the user stopped). */
  signal?: AbortSignal;
}

/** The request to `M P` with `Init`: optional when the route needs no part of it. */
type RequestArgs<M extends Method, P extends PathOf<M>, Init> = Record<never, never> extends
  RequestOf<M, P> ? [request?: RequestOf<M, P> & Init]
  : [request: RequestOf<M, P> & Init];

/** A mutation's method. */
export type SendMethod = Exclude<Method, "GET">;

/**
 * A client bound to one board base path. Each call names a route of
 * `src/contract/endpoints.ts` by its pattern and gets that route's answer
 * type: `api.get("/tasks/{task}/stats", { params: { task } })`.
 */
export interface Api {
  /** GETs a route answering JSON and parses the body. */
  get<P extends JsonPath>(
    path: P,
    ...request: RequestArgs<"GET", P, ReadInit>
  ): Promise<AnswerOf<"GET", P>>;
  /**
   * GETs a route answering JSON, and when its figures were read: the
   * `X-As-Of` header (ms since the epoch), null when the answer says none.
   */
  getAsOf<P extends JsonPath>(
    path: P,
    ...request: RequestArgs<"GET", P, ReadInit>
  ): Promise<{ body: AnswerOf<"GET", P>; asOf: number | null }>;
  /** GETs one page of a list: the array body and its `X-Total-Count`. */
  getPage<P extends PagedPath>(
    path: P,
    ...request: RequestArgs<"GET", P, ReadInit>
  ): Promise<Page<ItemOf<P>>>;
  /** GETs a streamed answer (NDJSON); errors before the first byte are thrown as for `get`. */
  stream<P extends LinesPath>(
    path: P,
    ...request: RequestArgs<"GET", P, ReadInit>
  ): Promise<Response>;
  /** Sends a mutation (`POST`, `PUT`, `DELETE`) with its JSON body (`{}` when it has none). */
  send<M extends SendMethod, P extends PathOf<M>, const R extends RequestOf<M, P> & SendInit>(
    method: M,
    path: P,
    request: R,
  ): Promise<SentAnswerOf<M, P, R>>;
  /** Sends a mutation that needs no parameter and no body. */
  send<M extends SendMethod, P extends BarePath<M>>(method: M, path: P): Promise<AnswerOf<M, P>>;
}

/** The paths of `M` whose request may be left out. */
type BarePath<M extends Method> = {
  [P in PathOf<M>]: Record<never, never> extends RequestOf<M, P> ? P : never;
}[PathOf<M>];

/** The parts of a request that make its URL. */
interface UrlParts {
  /** The path parameters (their types are the entry's: {@link RequestOf}). */
  params?: object;
  query?: Record<string, QueryValue>;
}

/**
 * The URL (relative to `<base>api/`) of a GET route, for what the browser
 * fetches itself: a download link, the event stream.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { urlOf } from "./api.ts";
 *
 * const url = urlOf("/dlq/export", { query: { task: "send email", format: "csv" } });
 * assert.equal(url, "dlq/export?task=send+email&format=csv");
 * ```
 */
export function urlOf<P extends PathOf<"GET">>(
  path: P,
  ...[request]: RequestArgs<"GET", P, Record<never, never>>
): string {
  return fill(path, request);
}

/**
 * `pattern` (relative to `api/`) with its `{name}`s filled in and its query
 * appended: a list repeats its parameter, an absent value is left out.
 */
function fill(pattern: string, { params = {}, query = {} }: UrlParts = {}): string {
  const values = new Map<string, string>(Object.entries(params));
  const path = pattern.slice(1).replaceAll(
    /\{(\w+)\}/g,
    (_, name: string) => encodeURIComponent(values.get(name) ?? ""),
  );
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const one of typeof value === "object" ? value : [value]) {
      if (one !== undefined) search.append(name, String(one));
    }
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/** The session ended: the login page of a base path ending in `/` brings the user back here. */
export function goToLogin(basePath: string): void {
  location.assign(`${basePath}login?redirect=${encodeURIComponent(location.pathname)}`);
}

/** Creates the API client for a base path ending in `/` (e.g. `/board/`). */
export function createApi(
  basePath: string,
  onOutcome: (outcome: RequestOutcome) => void = () => {},
): Api {
  const root = `${basePath}api/`;

  const request = async (path: string, init: RequestInit): Promise<Response> => {
    let res: Response;
    try {
      res = await fetch(root + path, { credentials: "same-origin", ...init });
    } catch (err) {
      if (init.signal?.aborted) throw err;
      onOutcome("unreachable");
      // A change whose request failed may have reached the server all the same.
      const message = init.method === undefined
        ? "Cannot reach the board server"
        : "Cannot reach the board server: this change may or may not have been applied. " +
          "Check before you try again.";
      throw new ApiError(0, "NETWORK", message);
    }
    if (res.status === 401) goToLogin(basePath);
    if (res.ok) {
      onOutcome("ok");
      return res;
    }
    const error = await toError(res);
    onOutcome(error.code === "STORE_UNAVAILABLE" ? "store-down" : "answered");
    throw error;
  };
  const read = (pattern: string, { signal, ...parts }: UrlParts & ReadInit = {}) =>
    request(fill(pattern, parts), { headers: { accept: "application/json" }, signal });

  async function send(
    method: SendMethod,
    pattern: string,
    { body, idempotencyKey, signal, ...parts }: UrlParts & SendInit & { body?: unknown } = {},
  ): Promise<unknown> {
    const res = await request(fill(pattern, parts), {
      method,
      headers: {
        accept: "application/json",
        "content-type": "application/json",
        ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}),
      },
      body: JSON.stringify(body ?? {}),
      signal,
    });
    return await res.json();
  }

  return {
    async get(path, ...[init]) {
      return await (await read(path, init)).json();
    },
    async getAsOf(path, ...[init]) {
      const res = await read(path, init);
      const asOf = Number(res.headers.get("x-as-of") ?? NaN);
      return { body: await res.json(), asOf: Number.isFinite(asOf) ? asOf : null };
    },
    async getPage(path, ...[init]) {
      const res = await read(path, init);
      const items = await res.json();
      const total = Number(res.headers.get("x-total-count"));
      return { items, total: Number.isFinite(total) ? total : items.length };
    },
    stream: (path, ...[init]) => {
      const { signal, ...parts }: UrlParts & ReadInit = init ?? {};
      return request(fill(path, parts), {
        headers: { accept: "application/x-ndjson" },
        signal,
      });
    },
    send,
  };
}

async function toError(res: Response): Promise<ApiError> {
  // The contract's ErrorBody, checked field by field: a proxy may answer with anything.
  let body: { [field in keyof ErrorBody]?: unknown } | null = null;
  try {
    body = await res.json();
  } catch {
    // not JSON: fall back to the status line
  }
  const code = typeof body?.code === "string" ? body.code : `HTTP_${res.status}`;
  const message = code === "OUTCOME_UNKNOWN"
    ? OUTCOME_UNKNOWN_MESSAGE
    : typeof body?.error === "string" && body.error
    ? body.error
    : `Request failed: ${res.status} ${res.statusText}`.trim();
  const param = typeof body?.param === "string" ? body.param : undefined;
  const retryAfterS = Number(res.headers.get("retry-after") ?? NaN);
  const retryAfterMs = Number.isFinite(retryAfterS) ? retryAfterS * 1000 : undefined;
  return new ApiError(res.status, code, message, param, retryAfterMs);
}
