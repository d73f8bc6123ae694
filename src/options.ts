/**
 * Board options and their validation. Every option is checked once, when the
 * board is created, and a bad one throws a message that names the option and
 * what it allows.
 *
 * @module
 */

import { AUDIT_DEFAULT_MAX_AGE_MS, AUDIT_DEFAULT_MAX_ENTRIES } from "./contract/audit.ts";
import { DEFAULT_MAX_IDLE_MS, DEFAULT_MAX_WAIT_MS } from "./contract/health.ts";
import { LATENCY_CACHE_TASKS } from "./contract/latency.ts";
import { parseDuration } from "./duration.ts";
import type { AlertsConfig, AlertsFile } from "./contract/alerts.ts";
import type { Formatters } from "./contract/formatters.ts";
import { AlertConfigError, parseAlertsConfig } from "./alerts/config.ts";
import { isHostEntry } from "./auth/allowed_hosts.ts";
import { type Can, presetCan } from "./auth/permissions.ts";
import type { TraceLinkConfig } from "./contract/trace_links.ts";
import { checkTracing, TracingOptionError } from "./tracing_options.ts";
import type { BoardStore } from "./store/types.ts";
import { missingStoreMembers } from "./store/methods.ts";

export type { Formatters };

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
  /**
   * A duration after which a session ends however often it was renewed
   * (default none: with `sessionTtl` false too, a copied cookie never expires).
   */
  maxSessionAge?: string | number;
  /**
   * Login throttling, on by default: after `attempts` failed sign-ins of one
   * username (default 5), or `addressAttempts` from one client address
   * (default 20), each further attempt waits `delay` (default `"1s"`),
   * doubled per failure up to `maxDelay` (default `"15m"`; 429 with
   * Retry-After meanwhile). At most `maxEntries` usernames and addresses are
   * tracked (default 10,000; the least recently failed go first). `false`
   * turns it off, for a host that throttles logins itself.
   */
  loginThrottle?: false | LoginThrottleOptions;
}

/** The limits of login throttling (see {@link SessionAuthOptions.loginThrottle}). */
export interface LoginThrottleOptions {
  /** Failed sign-ins of one username before a delay (default 5). */
  attempts?: number;
  /** Failed sign-ins from one client address before a delay (default 20). */
  addressAttempts?: number;
  /** The first delay (default `"1s"`), doubled per further failure. */
  delay?: string | number;
  /** The longest delay (default `"15m"`, at most a day); also how long a quiet key is remembered. */
  maxDelay?: string | number;
  /** Usernames and addresses tracked at most (default 10,000). */
  maxEntries?: number;
}

/**
 * A hook run on every API request: a Response stops the request; undefined
 * lets it through, and so does a user object, which also names who acts in
 * the audit trail (by its `name`, `username`, `email` or `id`).
 */
export type AuthHook = (
  request: Request,
) => Response | BoardUser | undefined | Promise<Response | BoardUser | undefined>;

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
  /**
   * Who may do what: `can(user, action, target)`, sync or async, is asked
   * before every action (`job.retry`, `bulk.start`, ... `payload.read`,
   * `export`, `search`, `audit.read`: the `ACTIONS` catalogue) with `target`
   * the task, job id, schedule or workflow its route names (`*` for none);
   * false is 403 `FORBIDDEN` naming the action, audited. Absent: the presets
   * `viewer`, `operator` and `admin` from the user's `role` (a user with no
   * known role is a viewer, and so is a request whose hook or `identify`
   * names nobody; see `docs/auth.md`). Without auth everything is allowed,
   * and `readOnly` still refuses every mutation.
   */
  can?: Can;
  /**
   * With an auth hook: who is asking, for `can` and the presets (the user the
   * hook itself returns, when absent). Naming nobody (null) makes the request
   * a viewer's under the presets.
   */
  identify?: (
    request: Request,
  ) => BoardUser | null | undefined | Promise<BoardUser | null | undefined>;
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
   * the board itself sees HTTPS), and the last `X-Forwarded-For` entry as
   * the client's address for login throttling. Turn on only behind a proxy
   * that sets them.
   */
  trustProxy?: boolean;
  /**
   * The names the board answers to (`Host`, and `X-Forwarded-Host` under
   * `trustProxy`); any other gets 403 `HOST_NOT_ALLOWED`, which stops DNS
   * rebinding. Entries: `board.example.com`, `.example.com` (it and every
   * subdomain), `10.0.0.5`, `[::1]`; with `:port`, that port only. Unset,
   * `board.listen()` on loopback answers `localhost`, `127.0.0.1`, `[::1]`
   * and its hostname, on a named address that name too; an embedded board
   * (and `listen` on every interface) answers any host: set it there.
   */
  allowedHosts?: string[];
  /**
   * At most about how many entries each log of the audit trail (actions,
   * refusals) keeps (default 50,000): a safety net far above what
   * {@link BoardOptions.auditMaxAge} keeps at a team's pace (`XADD MAXLEN ~`,
   * so a few more may stay).
   */
  auditMaxEntries?: number;
  /**
   * How long the audit trail keeps an entry (default `"30d"`; from an hour
   * to 400 days, or ms): older ones are trimmed (`XTRIM MINID`).
   */
  auditMaxAge?: string | number;
  /**
   * What the health verdict tolerates. `maxWaitMs`: a task whose oldest
   * waiting job has waited longer is not healthy (a warning naming the job);
   * default 600,000 (10 min), from 1,000 to 604,800,000 (7 d). `maxIdleMs`:
   * a task with waiting jobs none of which a worker took for longer is
   * critical (`noProgress`); default 300,000 (5 min), same range.
   */
  health?: { maxWaitMs?: number; maxIdleMs?: number };
  /**
   * `GET {basePath}/metrics` (Prometheus text format). On by default and
   * guarded like the API (session or hook); `token` (16 to 256 printable
   * characters) also lets a scraper in with `Authorization: Bearer <token>`,
   * and is then required when the board has no login. `maxTasks` (1 to 500,
   * default 500): how many tasks get series of their own, those holding the
   * most jobs; the rest are summed under `task="(other)"`. `false` turns it off.
   */
  metrics?: { token?: string; maxTasks?: number } | false;
  /**
   * Alert rules and the sinks they tell (the JSON of `--alerts FILE`, see
   * `docs/alerts.md`): `{ evaluateEvery?, sinks: [{ name, type: "webhook" |
   * "slack", url, secret?, timeout?, retries? }], rules: [{ name, kind, tasks?,
   * threshold?, for?, repeat?, sinks }] }`. A bad field throws naming it
   * (`alerts.rules[0].threshold`). Sinks, their URLs and secrets come only
   * from here.
   */
  alerts?: AlertsFile;
  /**
   * `{basePath}/mcp`, the board as an MCP server for agents (see
   * `docs/mcp.md`). On by default with reading tools only; `actions: true`
   * adds a tool for each action the caller may do. `false` turns it off.
   */
  mcp?: McpOptions | false;
  /**
   * Links from a job page to its trace and logs (see `docs/tracing.md`).
   * `traceUrl`: an http(s) URL template naming `{traceId}`, e.g.
   * `"https://tempo.example/trace/{traceId}"`. `logsUrl`: one with the last
   * attempt's window, `{from}` and `{to}` (ms; `now` while it runs), e.g.
   * `"https://grafana.example/explore?from={from}&to={to}&job={jobId}"`.
   * Both may name `{jobId}`, `{task}` and `{traceId}`. `path`: the dotted
   * keys to the W3C traceparent in a job's data (default `_trace`, where
   * `withTraceparent()` from `@x/queue-board/tracing` writes it).
   */
  tracing?: { traceUrl?: string; logsUrl?: string; path?: string };
  /**
   * Where the board keeps its own state (audit trail, sessions, leases, bulk
   * operations, alert rules and states, ...): `createRedisBoardStore()`,
   * `createMemoryBoardStore()` or a `BoardStore` of one's own (from
   * `@x/queue-board/source`). Absent: the store the source brings (a taskora
   * App or a Redis URL: the same Redis, through the same connection; the
   * memory source: its own), else one in this board's memory.
   */
  store?: BoardStore;
}

/** The `mcp` option: whether agents get tools that change the queue, and their tokens. */
export interface McpOptions {
  /** Tools for the actions `can()` allows the caller (default false: reading only). */
  actions?: boolean;
  /**
   * Under session login: agents that sign in with `Authorization: Bearer
   * <token>`, each a board user, keyed by the SHA-256 of its token (64 hex
   * digits, e.g. `printf %s "$TOKEN" | sha256sum`).
   */
  tokens?: Record<string, BoardUser>;
}

/** Session login after validation. */
export interface ResolvedSessionAuth {
  cookiePassword: string;
  authenticate: SessionAuthOptions["authenticate"];
  cookieName: string;
  /** Rolling lifetime in ms, or null for no server-side expiry. */
  sessionTtlMs: number | null;
  /** Absolute lifetime in ms from the login, or null for none. */
  maxSessionAgeMs: number | null;
  /** null when turned off. */
  loginThrottle: ResolvedLoginThrottle | null;
}

/** Login throttling after validation. */
export interface ResolvedLoginThrottle {
  attempts: number;
  addressAttempts: number;
  delayMs: number;
  maxDelayMs: number;
  maxEntries: number;
}

/** Options after validation, with defaults filled in. */
export interface ResolvedOptions {
  basePath: string;
  readOnly: boolean;
  auth: ResolvedSessionAuth | AuthHook | null;
  /** The `can` option, or the presets. */
  can: Can;
  /** The `identify` option (only with an auth hook), or null. */
  identify: BoardOptions["identify"] | null;
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
  /** null when unset: any host (see `BoardOptions.allowedHosts` for `listen`). */
  allowedHosts: string[] | null;
  auditMaxEntries: number;
  auditMaxAgeMs: number;
  health: { maxWaitMs: number; maxIdleMs: number };
  /** null when `metrics: false`. */
  metrics: { token: string | null; maxTasks: number } | null;
  /** null without the `alerts` option. */
  alerts: AlertsConfig | null;
  /** null when `mcp: false`. */
  mcp: { actions: boolean; tokens: ReadonlyMap<string, BoardUser> } | null;
  /** null without the `tracing` option. */
  tracing: TraceLinkConfig | null;
  /** The `store` option, or null: the source's, or the board's own. */
  store: BoardStore | null;
}

/**
 * The keys of an options type, from an object that names each one: `deno
 * check` fails when a key is added to the type and not here, or the other
 * way round.
 */
function keysOf<K extends string>(keys: Record<K, true>): readonly K[] {
  return Object.keys(keys) as K[];
}

/** The names of {@link BoardOptions}' keys: any other key is refused. */
export const KNOWN_OPTIONS: readonly string[] = keysOf<keyof BoardOptions>({
  basePath: true,
  readOnly: true,
  auth: true,
  can: true,
  identify: true,
  title: true,
  logo: true,
  favicon: true,
  theme: true,
  refreshInterval: true,
  statsInterval: true,
  redact: true,
  cors: true,
  formatters: true,
  auditMaxEntries: true,
  auditMaxAge: true,
  trustProxy: true,
  allowedHosts: true,
  health: true,
  metrics: true,
  alerts: true,
  mcp: true,
  tracing: true,
  store: true,
});

const THEMES = ["light", "dark", "auto"] as const;

const SESSION_AUTH_KEYS: readonly string[] = keysOf<keyof SessionAuthOptions>({
  cookiePassword: true,
  authenticate: true,
  cookieName: true,
  sessionTtl: true,
  maxSessionAge: true,
  loginThrottle: true,
});

const LOGIN_THROTTLE_KEYS: readonly string[] = keysOf<keyof LoginThrottleOptions>({
  attempts: true,
  addressAttempts: true,
  delay: true,
  maxDelay: true,
  maxEntries: true,
});

const FORMATTER_KEYS: readonly string[] = keysOf<keyof Formatters>({ data: true, result: true });

const HEALTH_KEYS: readonly string[] = keysOf<keyof NonNullable<BoardOptions["health"]>>({
  maxWaitMs: true,
  maxIdleMs: true,
});

const METRICS_KEYS: readonly string[] = keysOf<
  keyof Exclude<BoardOptions["metrics"], false | undefined>
>({ token: true, maxTasks: true });

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** A whole number from `min` to `max` (or `fallback` when absent) for option `name`. */
function wholeNumber(name: string, value: unknown, fallback: number, min: number, max: number) {
  const n = value ?? fallback;
  if (typeof n !== "number" || !Number.isInteger(n) || n < min || n > max) {
    throw new BoardOptionsError(name, `a whole number from ${min} to ${max}`, n);
  }
  return n;
}

/** A duration from 1 ms to a day (or `fallback` when absent) for option `name`. */
function durationMs(name: string, value: unknown, fallback: number): number {
  const ms = value === undefined ? fallback : parseDuration(value);
  if (ms === null || ms < 1 || ms > DAY_MS) {
    throw new BoardOptionsError(
      name,
      'a duration from 1 ms to a day, like "1s", "15m" or ms',
      value,
    );
  }
  return ms;
}

function checkLoginThrottle(throttle: unknown): ResolvedLoginThrottle | null {
  if (throttle === false) return null;
  const name = "auth.loginThrottle";
  if (throttle !== undefined && (throttle === null || typeof throttle !== "object")) {
    throw new BoardOptionsError(
      name,
      "false or { attempts?, addressAttempts?, delay?, maxDelay?, maxEntries? }",
      throttle,
    );
  }
  const given = (throttle ?? {}) as LoginThrottleOptions;
  for (const key of Object.keys(given)) {
    if (!LOGIN_THROTTLE_KEYS.includes(key)) {
      throw new BoardOptionsError(`${name}.${key}`, "absent", key);
    }
  }
  const delayMs = durationMs(`${name}.delay`, given.delay, 1000);
  const maxDelayMs = durationMs(`${name}.maxDelay`, given.maxDelay, 15 * 60_000);
  if (maxDelayMs < delayMs) {
    throw new BoardOptionsError(`${name}.maxDelay`, "at least the delay", given.maxDelay);
  }
  return {
    attempts: wholeNumber(`${name}.attempts`, given.attempts, 5, 1, 1000),
    addressAttempts: wholeNumber(`${name}.addressAttempts`, given.addressAttempts, 20, 1, 100_000),
    delayMs,
    maxDelayMs,
    maxEntries: wholeNumber(`${name}.maxEntries`, given.maxEntries, 10_000, 100, 1_000_000),
  };
}

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
  const allowed =
    "a hook function or { cookiePassword, authenticate, cookieName?, sessionTtl?, maxSessionAge?, loginThrottle? }";
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
  const maxSessionAgeMs = session.maxSessionAge === undefined
    ? null
    : parseDuration(session.maxSessionAge);
  if (maxSessionAgeMs === 0 || (session.maxSessionAge !== undefined && maxSessionAgeMs === null)) {
    throw new BoardOptionsError(
      "auth.maxSessionAge",
      'a duration like "12h", "7d" or a number of ms',
      session.maxSessionAge,
    );
  }
  for (const key of Object.keys(session)) {
    if (!SESSION_AUTH_KEYS.includes(key)) {
      throw new BoardOptionsError(
        `auth.${key}`,
        `absent: session auth takes ${SESSION_AUTH_KEYS.join(", ")}`,
        key,
      );
    }
  }
  return {
    cookiePassword: session.cookiePassword,
    authenticate: session.authenticate,
    cookieName,
    sessionTtlMs,
    maxSessionAgeMs,
    loginThrottle: checkLoginThrottle(session.loginThrottle),
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

function checkAllowedHosts(hosts: unknown): string[] | null {
  if (hosts === undefined) return null;
  const allowed =
    'a non-empty array of host names or addresses (["board.example.com", ".example.com", ' +
    '"10.0.0.5", "[::1]"], each with an optional ":port")';
  if (!Array.isArray(hosts) || hosts.length === 0) {
    throw new BoardOptionsError("allowedHosts", allowed, hosts);
  }
  const bad = hosts.findIndex((host) => typeof host !== "string" || !isHostEntry(host));
  if (bad >= 0) {
    throw new BoardOptionsError(
      "allowedHosts",
      allowed,
      hosts[bad],
      "no scheme, path or wildcard; IPv6 in brackets",
    );
  }
  return hosts.map((host: string) => host.toLowerCase());
}

function checkFormatters(formatters: unknown): Formatters {
  if (formatters === undefined) return {};
  const allowed = "{ data?: (value, task) => unknown, result?: (value, task) => unknown }";
  if (formatters === null || typeof formatters !== "object") {
    throw new BoardOptionsError("formatters", allowed, formatters);
  }
  for (const [key, fn] of Object.entries(formatters)) {
    if (!FORMATTER_KEYS.includes(key) || typeof fn !== "function") {
      throw new BoardOptionsError(`formatters.${key}`, allowed, fn);
    }
  }
  return formatters as Formatters;
}

function checkHealth(health: unknown): { maxWaitMs: number; maxIdleMs: number } {
  const allowed =
    "{ maxWaitMs?, maxIdleMs?: whole numbers of milliseconds from 1000 to 604800000 }";
  if (health === undefined) {
    return { maxWaitMs: DEFAULT_MAX_WAIT_MS, maxIdleMs: DEFAULT_MAX_IDLE_MS };
  }
  if (health === null || typeof health !== "object" || Array.isArray(health)) {
    throw new BoardOptionsError("health", allowed, health);
  }
  for (const key of Object.keys(health)) {
    if (!HEALTH_KEYS.includes(key)) throw new BoardOptionsError(`health.${key}`, "absent", key);
  }
  const span = (name: "maxWaitMs" | "maxIdleMs", fallback: number): number => {
    const ms = (health as Record<string, unknown>)[name] ?? fallback;
    if (typeof ms !== "number" || !Number.isInteger(ms) || ms < 1000 || ms > 604_800_000) {
      throw new BoardOptionsError(`health.${name}`, allowed, ms);
    }
    return ms;
  };
  return {
    maxWaitMs: span("maxWaitMs", DEFAULT_MAX_WAIT_MS),
    maxIdleMs: span("maxIdleMs", DEFAULT_MAX_IDLE_MS),
  };
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
    if (!METRICS_KEYS.includes(key)) {
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

function checkMcpTokens(tokens: unknown, auth: ResolvedOptions["auth"]): Map<string, BoardUser> {
  if (tokens === undefined) return new Map();
  if (auth === null || typeof auth === "function") {
    throw new BoardOptionsError(
      "mcp.tokens",
      "absent without session login (an auth hook reads bearer tokens itself)",
      "tokens",
    );
  }
  if (tokens === null || typeof tokens !== "object" || Array.isArray(tokens)) {
    throw new BoardOptionsError("mcp.tokens", "an object: token's SHA-256 (hex) -> user", tokens);
  }
  for (const [digest, user] of Object.entries(tokens)) {
    if (!/^[0-9a-f]{64}$/.test(digest)) {
      throw new BoardOptionsError(
        "mcp.tokens",
        "keys that are SHA-256 digests (64 hex digits)",
        "a key",
      );
    }
    if (user === null || typeof user !== "object" || Array.isArray(user)) {
      throw new BoardOptionsError(`mcp.tokens.${digest.slice(0, 8)}…`, "a user object", user);
    }
  }
  return new Map(Object.entries(tokens as Record<string, BoardUser>));
}

function checkMcp(
  mcp: unknown,
  auth: ResolvedOptions["auth"],
): ResolvedOptions["mcp"] {
  if (mcp === false) return null;
  if (mcp === undefined) return { actions: false, tokens: new Map() };
  if (mcp === null || typeof mcp !== "object" || Array.isArray(mcp)) {
    throw new BoardOptionsError("mcp", "false or { actions?, tokens? }", mcp);
  }
  for (const key of Object.keys(mcp)) {
    if (key !== "actions" && key !== "tokens") {
      throw new BoardOptionsError(`mcp.${key}`, "absent", key);
    }
  }
  const { actions = false, tokens } = mcp as McpOptions;
  if (typeof actions !== "boolean") {
    throw new BoardOptionsError("mcp.actions", "a boolean", actions);
  }
  return { actions, tokens: checkMcpTokens(tokens, auth) };
}

function checkAlerts(alerts: unknown): AlertsConfig | null {
  if (alerts === undefined) return null;
  try {
    return parseAlertsConfig(alerts);
  } catch (error) {
    if (!(error instanceof AlertConfigError)) throw error;
    const field = error.param === "alerts" ? "alerts" : `alerts.${error.param}`;
    throw new BoardOptionsError(field, error.allowed, "a value that is not");
  }
}

function checkTracingOption(tracing: unknown): TraceLinkConfig | null {
  try {
    return checkTracing(tracing);
  } catch (error) {
    if (!(error instanceof TracingOptionError)) throw error;
    throw new BoardOptionsError(error.option, error.allowed, error.got);
  }
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
  const auditMaxAgeMs = options.auditMaxAge === undefined
    ? AUDIT_DEFAULT_MAX_AGE_MS
    : parseDuration(options.auditMaxAge);
  if (auditMaxAgeMs === null || auditMaxAgeMs < HOUR_MS || auditMaxAgeMs > 400 * DAY_MS) {
    throw new BoardOptionsError(
      "auditMaxAge",
      'a duration from an hour to 400 days, like "30d", or ms',
      options.auditMaxAge,
    );
  }
  const auth = checkAuth(options.auth);
  if (options.can !== undefined && typeof options.can !== "function") {
    throw new BoardOptionsError("can", "a function (user, action, target) => boolean", options.can);
  }
  if (options.identify !== undefined && typeof options.identify !== "function") {
    throw new BoardOptionsError("identify", "a function (request) => user", options.identify);
  }
  if (options.identify !== undefined && typeof auth !== "function") {
    throw new BoardOptionsError(
      "identify",
      "absent without an auth hook (session login's user is what authenticate returned)",
      "a function",
    );
  }
  const redact = options.redact ?? [];
  if (!Array.isArray(redact) || !redact.every((k) => typeof k === "string" && k !== "")) {
    throw new BoardOptionsError("redact", "an array of non-empty key names", redact);
  }
  return {
    basePath: normaliseBasePath(options.basePath ?? "/board"),
    readOnly: options.readOnly ?? false,
    auth,
    can: options.can ?? presetCan,
    identify: options.identify ?? null,
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
    allowedHosts: checkAllowedHosts(options.allowedHosts),
    auditMaxEntries,
    auditMaxAgeMs,
    health: checkHealth(options.health),
    metrics: checkMetrics(options.metrics),
    alerts: checkAlerts(options.alerts),
    mcp: checkMcp(options.mcp, auth),
    tracing: checkTracingOption(options.tracing),
    store: checkStore(options.store),
  };
}

function checkStore(store: unknown): BoardStore | null {
  if (store === undefined) return null;
  const missing = missingStoreMembers(store);
  if (missing.length > 0) {
    throw new BoardOptionsError("store", "a BoardStore", store, `missing ${missing.join(", ")}`);
  }
  return store as BoardStore;
}
