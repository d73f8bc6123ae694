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

  /** Creates an error from a status, code and message. */
  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
  }
}

/** A client bound to one board base path. */
export interface Api {
  /** GETs `<base>api/<path>` and parses the JSON body. */
  get<T>(path: string, init?: { signal?: AbortSignal }): Promise<T>;
}

/** Creates the API client for a base path ending in `/` (e.g. `/board/`). */
export function createApi(basePath: string): Api {
  const root = `${basePath}api/`;
  return {
    async get<T>(path: string, init: { signal?: AbortSignal } = {}): Promise<T> {
      let res: Response;
      try {
        res = await fetch(root + path, {
          headers: { accept: "application/json" },
          credentials: "same-origin",
          signal: init.signal,
        });
      } catch (err) {
        if (init.signal?.aborted) throw err;
        throw new ApiError(0, "NETWORK", "Cannot reach the board server");
      }
      if (!res.ok) throw await toError(res);
      return await res.json() as T;
    },
  };
}

async function toError(res: Response): Promise<ApiError> {
  let body: { error?: unknown; code?: unknown } | null = null;
  try {
    body = await res.json();
  } catch {
    // not JSON: fall back to the status line
  }
  const message = typeof body?.error === "string" && body.error
    ? body.error
    : `Request failed: ${res.status} ${res.statusText}`.trim();
  const code = typeof body?.code === "string" ? body.code : `HTTP_${res.status}`;
  return new ApiError(res.status, code, message);
}
