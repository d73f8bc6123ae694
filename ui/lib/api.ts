/**
 * The one fetch wrapper of the UI. Every request goes to `<base>api/<path>`;
 * a failed request rejects with an {@link ApiError} carrying the API's
 * `{ error, code }` body, so pages can show the server's own message.
 *
 * @module
 */

/** A failed API request: the server's message and code, or a network failure. */
export class ApiError extends Error {
  /** HTTP status, or 0 when the server could not be reached. */
  readonly status: number;
  /** The API's error code (`STORE_UNAVAILABLE`, …), `NETWORK` or `HTTP_<status>`. */
  readonly code: string;
  /** The parameter an `INVALID_PARAM` answer names, when it names one. */
  readonly param?: string;

  /** Creates an error from a status, code and message (and the parameter at fault). */
  constructor(status: number, code: string, message: string, param?: string) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    if (param !== undefined) this.param = param;
  }
}

/** One page of a paginated list and the `X-Total-Count` the server sent with it. */
export interface Page<T> {
  items: T[];
  total: number;
}

/** Options of a read. */
export interface ReadInit {
  signal?: AbortSignal;
}

/** A client bound to one board base path. */
export interface Api {
  /** GETs `<base>api/<path>` and parses the JSON body. */
  get<T>(path: string, init?: ReadInit): Promise<T>;
  /** GETs a paginated list: the array body and its `X-Total-Count`. */
  getPage<T>(path: string, init?: ReadInit): Promise<Page<T>>;
  /** Sends a mutation (`POST`, `PUT`, `DELETE`) with an optional JSON body. */
  send<T>(method: "POST" | "PUT" | "DELETE", path: string, body?: unknown): Promise<T>;
}

/** Creates the API client for a base path ending in `/` (e.g. `/board/`). */
export function createApi(basePath: string): Api {
  const root = `${basePath}api/`;

  const request = async (path: string, init: RequestInit): Promise<Response> => {
    let res: Response;
    try {
      res = await fetch(root + path, { credentials: "same-origin", ...init });
    } catch (err) {
      if (init.signal?.aborted) throw err;
      throw new ApiError(0, "NETWORK", "Cannot reach the board server");
    }
    if (res.status === 401) {
      // The session ended: the login page brings the user back here.
      location.assign(`${basePath}login?redirect=${encodeURIComponent(location.pathname)}`);
    }
    if (!res.ok) throw await toError(res);
    return res;
  };
  const read = (path: string, init: ReadInit) =>
    request(path, { headers: { accept: "application/json" }, signal: init.signal });

  return {
    async get<T>(path: string, init: ReadInit = {}): Promise<T> {
      return await (await read(path, init)).json() as T;
    },
    async getPage<T>(path: string, init: ReadInit = {}): Promise<Page<T>> {
      const res = await read(path, init);
      const items = await res.json() as T[];
      const total = Number(res.headers.get("x-total-count"));
      return { items, total: Number.isFinite(total) ? total : items.length };
    },
    async send<T>(method: "POST" | "PUT" | "DELETE", path: string, body?: unknown): Promise<T> {
      const res = await request(path, {
        method,
        headers: { accept: "application/json", "content-type": "application/json" },
        body: JSON.stringify(body ?? {}),
      });
      return await res.json() as T;
    },
  };
}

async function toError(res: Response): Promise<ApiError> {
  let body: { error?: unknown; code?: unknown; param?: unknown } | null = null;
  try {
    body = await res.json();
  } catch {
    // not JSON: fall back to the status line
  }
  const message = typeof body?.error === "string" && body.error
    ? body.error
    : `Request failed: ${res.status} ${res.statusText}`.trim();
  const code = typeof body?.code === "string" ? body.code : `HTTP_${res.status}`;
  const param = typeof body?.param === "string" ? body.param : undefined;
  return new ApiError(res.status, code, message, param);
}
