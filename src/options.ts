/**
 * Board options and their validation. Every option is checked once, when the
 * board is created, and a bad one throws a message that names the option and
 * what it allows.
 *
 * @module
 */

import { AUDIT_DEFAULT_MAX_ENTRIES } from "./contract/audit.ts";
import { DEFAULT_MAX_WAIT_MS } from "./contract/health.ts";
import { LATENCY_CACHE_TASKS } from "./api/latency_sampler.ts";
import { parseDuration } from "./duration.ts";

/** A signed-in user, as returned by `authenticate`. */
export interface BoardUser {
  /** Whatever `authenticate` returned: it is signed into the session cookie. */
  [key: string]: unknown;
}

/** Session login: the board shows a login form and keeps a signed cookie. */
export interface SessionAuthOptions {
  /** Secret for the cookie signature, at least 32 characters. */
  cookiePassword: string;
  /** Checks credentials; a truthy user signs in, null refuses. */
  authenticate: (
    credentials: { username: string; password: string },
    request: Request,
  ) => BoardUser | null | undefined | Promise<BoardUser | null | undefined>;
  /** Cookie name (default `queue_board_session`). */
  cookieName?: string;
  /** `false` (default) or a duration (`"30s" | "5m" | "2h" | "1d"` or ms) for rolling expiry. */
  sessionTtl?: false | string | number;
}

/**
 * A hook run on every API request: a Response stops the request; undefined
 * lets it through, and so does a user object, which also names who acts in
 * the audit trail (by its `name`, `username`, `email` or `id`).
 */
export type AuthHook = (
  request: Request,
) => Response | BoardUser | undefined | Promise<Response | BoardUser | undefined>;

/** Functions that reshape job values before redaction, per task. */
export interface Formatters {
  /** Reshapes a job's data before it is shown. */
  data?: (value: unknown, task: string) => unknown;
  /** Reshapes a job's result before it is shown. */
  result?: (value: unknown, task: string) => unknown;
}

/** Options of {@link createBoard}. All are optional. */
export interface BoardOptions {
  /**
   * Path the board is served under (default `/board`). Must start with `/`;
   * trailing slashes are dropped. Refused when no request could reach it:
   * percent-encoded characters, `?`, `#`, `;`, `*`, a segment starting with
   * `:`, `.`/`..` segments, a leading `//`, and characters browsers percent-encode.
   */
  basePath?: string;
  /** Refuse every mutation with 403 and hide mutation controls. */
  readOnly?: boolean;
  /** Session login or an API hook. */
  auth?: SessionAuthOptions | AuthHook;
  /** Title shown in the header and the browser tab (default `queue-board`). */
  title?: string;
  /** URL of a logo image for the header. */
  logo?: string;
  /** URL of the favicon. */
  favicon?: string;
  /** Default theme (default `auto`: follows the operating system). */
  theme?: "light" | "dark" | "auto";
  /** How often the UI polls when live updates are down, in ms (default 5000). */
  refreshInterval?: number;
  /** How often the event stream sends every task's counts (`stats:update`), in ms (default 3000). */
  statsInterval?: number;
  /** Keys whose values are masked in data, results, errors and log meta (case-insensitive). */
  redact?: string[];
  /** CORS for the API: only this origin is allowed. */
  cors?: { origin: string | string[] };
  /** Per-task reshaping of data and results, applied before redaction. */
  formatters?: Formatters;
  /**
   * Trust `X-Forwarded-Proto` from a TLS-terminating proxy when deciding
   * whether the session cookie is `Secure` (default false: only set it when
   * the board itself sees HTTPS). Turn on only behind a proxy that sets it.
   */
  trustProxy?: boolean;
  /**
   * About how many entries the audit trail keeps (default 10,000): older
   * ones are trimmed (`XADD MAXLEN ~`, so a few more may stay).
   */
  auditMaxEntries?: number;
  /**
   * What the health verdict tolerates. `maxWaitMs`: a task whose oldest
   * waiting job has waited longer is not healthy (a warning naming the job);
   * default 600,000 (10 min), from 1,000 to 604,800,000 (7 d).
   */
  health?: { maxWaitMs?: number };
  /**
   * `GET {basePath}/metrics` (Prometheus text format). On by default and
   * guarded like the API (session or hook); `token` (16 to 256 printable
   * characters) also lets a scraper in with `Authorization: Bearer <token>`,
   * and is then required when the board has no login. `maxTasks` (1 to 500,
   * default 500): how many tasks get series of their own, those holding the
   * most jobs; the rest are summed under `task="(other)"`. `false` turns it off.
   */
  metrics?: { token?: string; maxTasks?: number } | false;
}

/** Session login after validation. */
export interface ResolvedSessionAuth {
  cookiePassword: string;
  authenticate: SessionAuthOptions["authenticate"];
  cookieName: string;
  /** Rolling lifetime in ms, or null for no server-side expiry. */
  sessionTtlMs: number | null;
}

/** Options after validation, with defaults filled in. */
export interface ResolvedOptions {
  basePath: string;
  readOnly: boolean;
  auth: ResolvedSessionAuth | AuthHook | null;
  title: string;
  logo: string | null;
  favicon: string | null;
  theme: "light" | "dark" | "auto";
  refreshInterval: number;
  statsInterval: number;
  redact: string[];
  cors: { origin: string | string[] } | null;
  formatters: Formatters;
  trustProxy: boolean;
  auditMaxEntries: number;
  health: { maxWaitMs: number };
  /** null when `metrics: false`. */
  metrics: { token: string | null; maxTasks: number } | null;
}

const KNOWN_OPTIONS = [
  "basePath",
  "readOnly",
  "auth",
  "title",
  "logo",
  "favicon",
  "theme",
  "refreshInterval",
  "statsInterval",
  "redact",
  "cors",
  "formatters",
  "auditMaxEntries",
  "trustProxy",
  "health",
  "metrics",
];

const THEMES = ["light", "dark", "auto"] as const;

/** Thrown by {@link resolveOptions} for an option that is not allowed. */
export class BoardOptionsError extends TypeError {
  /** Names the option and what it allows, and why when that is not obvious. */
  constructor(option: string, allowed: string, got: unknown, why?: string) {
    super(
      `queue-board: option "${option}" must be ${allowed} (got ${describe(got)})${
        why ? `: ${why}` : ""
      }`,
    );
    this.name = "BoardOptionsError";
  }
}

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (value === null || typeof value !== "object") return String(value);
  return Array.isArray(value) ? "an array" : "an object";
}

/**
 * Base paths the board cannot be served under, with the reason. Requests are
 * routed by their decoded path, and the base path is also the session
 * cookie's `Path` and the UI's `<base href>`, so it must read the same in all
 * three and match only itself.
 */
const UNMATCHABLE_BASE_PATHS: [RegExp, string][] = [
  [
    /%/,
    "requests are routed by their decoded path, so a percent-encoded character never matches: write the character itself",
  ],
  [/[?#]/, "? and # start a URL's query and fragment, never part of its path"],
  [
    /^\/\//,
    "a leading // names a host: the UI's <base href> and the login redirects would leave the board",
  ],
  [/(^|\/)\.{1,2}(\/|$)/, "the URL parser resolves . and .. segments before any request is routed"],
  [/\*/, "* is a router wildcard: the board would answer paths it does not own"],
  [
    /\/:/,
    "a segment starting with : is a router parameter: the board would answer paths it does not own",
  ],
  [/;/, "; would end the session cookie's Path attribute"],
  [
    /[^A-Za-z0-9\-._~!$&'()+,=:@/]/,
    "browsers percent-encode spaces, quotes, brackets and non-ASCII characters, so the path they send would not match",
  ],
];

/**
 * Normalises a base path: one leading slash, no trailing slash, `/` for the
 * root. Throws, saying why, when it does not start with `/` or when no request
 * path could match it.
 */
export function normaliseBasePath(value: unknown): string {
  const allowed = 'a path starting with "/" made of URL path characters';
  if (typeof value !== "string" || !value.startsWith("/")) {
    throw new BoardOptionsError("basePath", allowed, value);
  }
  const trimmed = value.replace(/\/+$/, "");
  const rule = UNMATCHABLE_BASE_PATHS.find(([pattern]) => pattern.test(trimmed));
  if (rule) throw new BoardOptionsError("basePath", allowed, value, rule[1]);
  return trimmed === "" ? "/" : trimmed;
}

function optionalString(options: BoardOptions, key: "title" | "logo" | "favicon"): string | null {
  const value = options[key];
  if (value === undefined) return null;
  if (typeof value !== "string" || value.trim() === "") {
    throw new BoardOptionsError(key, "a non-empty string", value);
  }
  return value;
}

function checkAuth(auth: unknown): ResolvedSessionAuth | AuthHook | null {
  if (auth === undefined || auth === null) return null;
  if (typeof auth === "function") {
    if ("cookiePassword" in auth || "authenticate" in auth) {
      throw new BoardOptionsError(
        "auth",
        "either a hook function or a session object, not both",
        "a function with session fields",
      );
    }
    return auth as AuthHook;
  }
  const allowed = "a hook function or { cookiePassword, authenticate, cookieName?, sessionTtl? }";
  if (typeof auth !== "object") throw new BoardOptionsError("auth", allowed, auth);
  const session = auth as Partial<SessionAuthOptions>;
  if (typeof session.authenticate !== "function") {
    throw new BoardOptionsError("auth.authenticate", "a function", session.authenticate);
  }
  if (typeof session.cookiePassword !== "string" || session.cookiePassword.length < 32) {
    throw new BoardOptionsError(
      "auth.cookiePassword",
      "a string of at least 32 characters",
      typeof session.cookiePassword === "string" ? "a shorter string" : session.cookiePassword,
    );
  }
  const cookieName = session.cookieName ?? "queue_board_session";
  if (typeof cookieName !== "string" || !/^[A-Za-z0-9_\-]{1,64}$/.test(cookieName)) {
    throw new BoardOptionsError("auth.cookieName", "1 to 64 letters, digits, _ or -", cookieName);
  }
  const ttl = session.sessionTtl ?? false;
  const sessionTtlMs = ttl === false ? null : parseDuration(ttl);
  if (sessionTtlMs === 0 || (ttl !== false && sessionTtlMs === null)) {
    throw new BoardOptionsError(
      "auth.sessionTtl",
      'false or a duration like "30s", "5m", "2h", "1d" or a number of ms',
      ttl,
    );
  }
  for (const key of Object.keys(session)) {
    if (!["cookiePassword", "authenticate", "cookieName", "sessionTtl"].includes(key)) {
      throw new BoardOptionsError(
        `auth.${key}`,
        "absent: session auth takes cookiePassword, authenticate, cookieName and sessionTtl",
        key,
      );
    }
  }
  return {
    cookiePassword: session.cookiePassword,
    authenticate: session.authenticate,
    cookieName,
    sessionTtlMs,
  };
}

function checkCors(cors: unknown): { origin: string | string[] } | null {
  if (cors === undefined) return null;
  const allowed = '{ origin: "https://host" } or { origin: ["https://a", "https://b"] }';
  const origin = (cors as { origin?: unknown } | null)?.origin;
  const origins = Array.isArray(origin) ? origin : [origin];
  const valid = origins.length > 0 &&
    origins.every((o) => typeof o === "string" && o !== "*" && /^https?:\/\/[^/\s]+$/.test(o));
  if (!valid) throw new BoardOptionsError("cors", allowed, cors);
  return { origin: origin as string | string[] };
}

function checkFormatters(formatters: unknown): Formatters {
  if (formatters === undefined) return {};
  const allowed = "{ data?: (value, task) => unknown, result?: (value, task) => unknown }";
  if (formatters === null || typeof formatters !== "object") {
    throw new BoardOptionsError("formatters", allowed, formatters);
  }
  for (const [key, fn] of Object.entries(formatters)) {
    if ((key !== "data" && key !== "result") || typeof fn !== "function") {
      throw new BoardOptionsError(`formatters.${key}`, allowed, fn);
    }
  }
  return formatters as Formatters;
}

function checkHealth(health: unknown): { maxWaitMs: number } {
  const allowed = "{ maxWaitMs?: a whole number of milliseconds from 1000 to 604800000 }";
  if (health === undefined) return { maxWaitMs: DEFAULT_MAX_WAIT_MS };
  if (health === null || typeof health !== "object" || Array.isArray(health)) {
    throw new BoardOptionsError("health", allowed, health);
  }
  for (const key of Object.keys(health)) {
    if (key !== "maxWaitMs") throw new BoardOptionsError(`health.${key}`, "absent", key);
  }
  const ms = (health as { maxWaitMs?: unknown }).maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  if (typeof ms !== "number" || !Number.isInteger(ms) || ms < 1000 || ms > 604_800_000) {
    throw new BoardOptionsError("health.maxWaitMs", allowed, ms);
  }
  return { maxWaitMs: ms };
}

/** The most tasks a scrape gives series of their own: as many as the latency sampler keeps. */
const MAX_METRICS_TASKS = LATENCY_CACHE_TASKS;

function checkMetrics(metrics: unknown): { token: string | null; maxTasks: number } | null {
  if (metrics === false) return null;
  if (metrics === undefined) return { token: null, maxTasks: MAX_METRICS_TASKS };
  const allowed =
    "false or { token?: 16 to 256 printable ASCII characters, no spaces; maxTasks?: 1 to 500 }";
  if (metrics === null || typeof metrics !== "object" || Array.isArray(metrics)) {
    throw new BoardOptionsError("metrics", allowed, metrics);
  }
  for (const key of Object.keys(metrics)) {
    if (key !== "token" && key !== "maxTasks") {
      throw new BoardOptionsError(`metrics.${key}`, "absent", key);
    }
  }
  const { token, maxTasks = MAX_METRICS_TASKS } = metrics as {
    token?: unknown;
    maxTasks?: unknown;
  };
  if (token !== undefined && (typeof token !== "string" || !/^[\x21-\x7e]{16,256}$/.test(token))) {
    throw new BoardOptionsError(
      "metrics.token",
      allowed,
      typeof token === "string" ? "a string that is not" : token,
    );
  }
  if (
    typeof maxTasks !== "number" || !Number.isInteger(maxTasks) || maxTasks < 1 ||
    maxTasks > MAX_METRICS_TASKS
  ) {
    throw new BoardOptionsError("metrics.maxTasks", "a whole number from 1 to 500", maxTasks);
  }
  return { token: token ?? null, maxTasks };
}

/** A whole number of milliseconds from 500 to `max`, or the default when absent. */
function interval(option: string, value: unknown, fallback: number, max: number): number {
  const ms = value ?? fallback;
  if (typeof ms !== "number" || !Number.isInteger(ms) || ms < 500 || ms > max) {
    throw new BoardOptionsError(option, `a whole number of milliseconds from 500 to ${max}`, ms);
  }
  return ms;
}

/** Validates options and fills in defaults. Throws {@link BoardOptionsError}. */
export function resolveOptions(options: BoardOptions = {}): ResolvedOptions {
  if (options === null || typeof options !== "object") {
    throw new BoardOptionsError("options", "an object", options);
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.includes(key)) {
      throw new BoardOptionsError(
        key,
        `one of the known options (${KNOWN_OPTIONS.join(", ")})`,
        key,
      );
    }
  }
  if (options.readOnly !== undefined && typeof options.readOnly !== "boolean") {
    throw new BoardOptionsError("readOnly", "a boolean", options.readOnly);
  }
  const theme = options.theme ?? "auto";
  if (!THEMES.includes(theme)) {
    throw new BoardOptionsError("theme", '"light", "dark" or "auto"', theme);
  }
  const refreshInterval = interval("refreshInterval", options.refreshInterval, 5000, 3_600_000);
  const statsInterval = interval("statsInterval", options.statsInterval, 3000, 60_000);
  if (options.trustProxy !== undefined && typeof options.trustProxy !== "boolean") {
    throw new BoardOptionsError("trustProxy", "a boolean", options.trustProxy);
  }
  const auditMaxEntries = options.auditMaxEntries ?? AUDIT_DEFAULT_MAX_ENTRIES;
  if (
    typeof auditMaxEntries !== "number" || !Number.isInteger(auditMaxEntries) ||
    auditMaxEntries < 100 || auditMaxEntries > 1_000_000
  ) {
    throw new BoardOptionsError(
      "auditMaxEntries",
      "a whole number from 100 to 1,000,000",
      auditMaxEntries,
    );
  }
  const redact = options.redact ?? [];
  if (!Array.isArray(redact) || !redact.every((k) => typeof k === "string" && k !== "")) {
    throw new BoardOptionsError("redact", "an array of non-empty key names", redact);
  }
  return {
    basePath: normaliseBasePath(options.basePath ?? "/board"),
    readOnly: options.readOnly ?? false,
    auth: checkAuth(options.auth),
    title: optionalString(options, "title") ?? "queue-board",
    logo: optionalString(options, "logo"),
    favicon: optionalString(options, "favicon"),
    theme,
    refreshInterval,
    statsInterval,
    redact,
    cors: checkCors(options.cors),
    formatters: checkFormatters(options.formatters),
    trustProxy: options.trustProxy ?? false,
    auditMaxEntries,
    health: checkHealth(options.health),
    metrics: checkMetrics(options.metrics),
  };
}
