/**
 * Board options and their validation: one zod schema per options object
 * (`src/options/` holds the larger ones), composed in
 * {@link BoardOptionsSchema}. Every option is checked once, when the board
 * is created, and a bad one throws a message that names the option by its
 * path (`auth.sessionTtl`, `alerts.rules[0].threshold`) and what it allows.
 *
 * To add an option: its field, documented, in {@link BoardOptions} (the
 * public type); its schema under the same key in the shape of
 * {@link BoardOptionsSchema} (`deno check` fails until both have it), whose
 * output is what {@link ResolvedOptions} gives the board; a row in
 * `docs/options.md` (`tests/unit/docs_test.ts` fails until it is there).
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { AlertsFileSchema } from "./alerts/config.ts";
import { type Can, presetCan } from "./auth/permissions.ts";
import {
  closedObject,
  duration,
  firstRefusal,
  functionOf,
  mustShowing,
  orNull,
  picked,
  type Refusal,
  wholeNumber,
} from "./config_fields.ts";
import type { AlertsFile } from "./contract/alerts.ts";
import type { Formatters } from "./contract/formatters.ts";
import { AUDIT_DEFAULT_MAX_AGE_MS, AUDIT_DEFAULT_MAX_ENTRIES } from "./contract/audit.ts";
import { DEFAULT_MAX_IDLE_MS, DEFAULT_MAX_WAIT_MS } from "./contract/health.ts";
import { LATENCY_CACHE_TASKS } from "./contract/latency.ts";
import { EXPORT_CAP } from "./contract/config.ts";
import { DEFAULT_LEASE_MS } from "./leadership.ts";
import { BasePathSchema } from "./options/base_path.ts";
import { McpSchema } from "./options/mcp.ts";
import { AllowedHostsSchema, CorsSchema } from "./options/origins.ts";
import { AuthSchema } from "./options/session_auth.ts";
import { TracingSchema } from "./options/tracing.ts";
import { HistorySchema } from "./options/history.ts";
import { StoreSchema } from "./options/store.ts";
import type { BoardStore } from "./store/types.ts";

export type { Formatters };
export type { ResolvedLoginThrottle, ResolvedSessionAuth } from "./options/session_auth.ts";

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
  /**
   * How long each of the board's leases holds unrenewed, ms (default
   * 10,000; 1,000 to 600,000): the leader's background work, the alert
   * evaluator's, and each bulk operation's runner, renewed every third of
   * it. Another board on the store takes over from one that died within
   * about this (an operation within one and a half of it, plus one when its
   * runner led); shorter takes over sooner for more lease writes. A Redis
   * source's own lease is its `leaseMs`; a board made from a URL passes
   * this to it.
   */
  leaseMs?: number;
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
   * The most rows one export writes (a list, a search or the history as CSV
   * or NDJSON; default and at most 100,000): it is in `X-Export-Cap`, and an
   * export cut at it ends with a line that says so.
   */
  exportCap?: number;
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
   * The job history (see `docs/history.md`): the leader records every
   * attempt that ends, with its own error, and rollups per task and
   * version. Off by default; `true` keeps it in the board's Redis under its
   * root; `postgres: "postgres://…"` keeps it in PostgreSQL instead. `payloads`
   * (default false) also keeps each job's data and result, after `redact`.
   * `maxAge` (default `"7d"`, from a minute to 800 days, or ms),
   * `maxSummaries` (default 1,000,000) and `maxPerTask` (default: the
   * total) bound it. Off (absent or `false`), the board sends nothing for it.
   */
  history?: boolean | {
    postgres?: string;
    payloads?: boolean;
    maxAge?: string | number;
    maxSummaries?: number;
    maxPerTask?: number;
  };
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

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** An interval in whole ms from 500 to `max`, `fallback` when absent. */
function interval(max: number, fallback: number) {
  return wholeNumber(500, max, mustShowing(`a whole number of milliseconds from 500 to ${max}`))
    .default(fallback);
}

const flag = z.boolean({ error: mustShowing("a boolean") }).default(false);

const nonEmptyWords = mustShowing("a non-empty string");
const NonEmpty = z.string({ error: nonEmptyWords }).refine((text) => text.trim() !== "", {
  error: nonEmptyWords,
});

const formatterWords = mustShowing(
  "{ data?: (value, task) => unknown, result?: (value, task) => unknown }",
);

const FormattersSchema = closedObject(
  {
    data: functionOf<NonNullable<Formatters["data"]>>(formatterWords).optional(),
    result: functionOf<NonNullable<Formatters["result"]>>(formatterWords).optional(),
  } satisfies Record<keyof Formatters, z.ZodType>,
  formatterWords,
  formatterWords,
).default({});

const healthWords = mustShowing(
  "{ maxWaitMs?, maxIdleMs?: whole numbers of milliseconds from 1000 to 604800000 }",
);

const HealthSchema = closedObject(
  {
    maxWaitMs: wholeNumber(1000, 604_800_000, healthWords).default(DEFAULT_MAX_WAIT_MS),
    maxIdleMs: wholeNumber(1000, 604_800_000, healthWords).default(DEFAULT_MAX_IDLE_MS),
  } satisfies Record<keyof NonNullable<BoardOptions["health"]>, z.ZodType>,
  healthWords,
  mustShowing("absent"),
).default({ maxWaitMs: DEFAULT_MAX_WAIT_MS, maxIdleMs: DEFAULT_MAX_IDLE_MS });

/** The most tasks a scrape gives series of their own: as many as the latency sampler keeps. */
const MAX_METRICS_TASKS = LATENCY_CACHE_TASKS;

const metricsWords =
  "false or { token?: 16 to 256 printable ASCII characters, no spaces; maxTasks?: 1 to 500 }";

const MetricsSchema = picked((metrics: BoardOptions["metrics"]) =>
  metrics === false ? z.literal(false).transform(() => null) : closedObject(
    {
      token: orNull(
        z.string({ error: mustShowing(metricsWords) }).regex(/^[\x21-\x7e]{16,256}$/, {
          error: mustShowing(metricsWords, { shown: () => "a string that is not" }),
        }),
      ),
      maxTasks: wholeNumber(1, MAX_METRICS_TASKS, mustShowing("a whole number from 1 to 500"))
        .default(MAX_METRICS_TASKS),
    } satisfies Record<keyof Exclude<BoardOptions["metrics"], false | undefined>, z.ZodType>,
    mustShowing(metricsWords),
    mustShowing("absent"),
  )
).default({ token: null, maxTasks: MAX_METRICS_TASKS });

const redactWords = mustShowing("an array of non-empty key names");

/**
 * Every option's schema, by the key of {@link BoardOptions} it reads: its
 * output, with defaults filled in, is {@link ResolvedOptions}.
 */
const BOARD_OPTION_SCHEMAS = {
  basePath: BasePathSchema,
  readOnly: flag,
  auth: AuthSchema,
  can: functionOf<Can>(mustShowing("a function (user, action, target) => boolean"))
    .default(() => presetCan),
  identify: orNull(
    functionOf<NonNullable<BoardOptions["identify"]>>(mustShowing("a function (request) => user")),
  ),
  title: NonEmpty.default("queue-board"),
  logo: orNull(NonEmpty),
  favicon: orNull(NonEmpty),
  theme: z.enum(["light", "dark", "auto"], { error: mustShowing('"light", "dark" or "auto"') })
    .default("auto"),
  refreshInterval: interval(3_600_000, 5000),
  statsInterval: interval(60_000, 3000),
  leaseMs: wholeNumber(
    1000,
    600_000,
    mustShowing("a whole number of milliseconds from 1,000 to 600,000"),
  )
    .default(DEFAULT_LEASE_MS),
  redact: z.array(z.string({ error: redactWords }).min(1, { error: redactWords }), {
    error: redactWords,
  }).default([]),
  cors: CorsSchema,
  formatters: FormattersSchema,
  trustProxy: flag,
  allowedHosts: AllowedHostsSchema,
  auditMaxEntries: wholeNumber(100, 1_000_000, mustShowing("a whole number from 100 to 1,000,000"))
    .default(AUDIT_DEFAULT_MAX_ENTRIES),
  auditMaxAge: duration(
    HOUR_MS,
    400 * DAY_MS,
    mustShowing('a duration from an hour to 400 days, like "30d", or ms'),
  ).default(AUDIT_DEFAULT_MAX_AGE_MS),
  exportCap: wholeNumber(1, EXPORT_CAP, mustShowing("a whole number from 1 to 100,000"))
    .default(EXPORT_CAP),
  health: HealthSchema,
  metrics: MetricsSchema,
  alerts: orNull(AlertsFileSchema),
  mcp: McpSchema,
  tracing: TracingSchema,
  history: HistorySchema,
  store: StoreSchema,
} satisfies Record<keyof BoardOptions, z.ZodType>;

/** The names of {@link BoardOptions}' keys: any other key is refused. */
export const KNOWN_OPTIONS: readonly string[] = Object.keys(BOARD_OPTION_SCHEMAS);

const absentWithoutHook = mustShowing(
  "absent without an auth hook (session login's user is what authenticate returned)",
  { shown: () => "a function" },
);
const tokensWithoutSession = mustShowing(
  "absent without session login (an auth hook reads bearer tokens itself)",
  { shown: () => "tokens" },
);

/** {@link BoardOptions} validated, defaults filled in: what the board runs on. */
export const BoardOptionsSchema = closedObject(
  BOARD_OPTION_SCHEMAS,
  mustShowing("an object"),
  mustShowing(`one of the known options (${KNOWN_OPTIONS.join(", ")})`),
).transform(({ auditMaxAge, mcp, ...options }, ctx) => {
  // Options that only mean something beside another.
  const refuse = (path: string[], words: Refusal) => {
    ctx.issues.push({ code: "custom", path, input: undefined, message: words({}) });
    return z.NEVER;
  };
  if (options.identify !== null && typeof options.auth !== "function") {
    return refuse(["identify"], absentWithoutHook);
  }
  if (mcp?.tokens !== undefined && (options.auth === null || typeof options.auth === "function")) {
    return refuse(["mcp", "tokens"], tokensWithoutSession);
  }
  return {
    ...options,
    auditMaxAgeMs: auditMaxAge,
    mcp: mcp && { actions: mcp.actions, tokens: mcp.tokens ?? new Map<string, BoardUser>() },
  };
});
// Whatever the public type allows, the schema takes.
true satisfies [BoardOptions] extends [z.input<typeof BoardOptionsSchema>] ? true : false;

/** Options after validation, with defaults filled in. */
export type ResolvedOptions = z.output<typeof BoardOptionsSchema>;

/** Thrown by {@link resolveOptions} for an option that is not allowed. */
export class BoardOptionsError extends TypeError {
  /**
   * Names the option (`auth.sessionTtl`) and what it must be, with what it
   * got: `must be a boolean (got "yes")`.
   */
  constructor(option: string, requirement: string) {
    super(`queue-board: option "${option}" ${requirement}`);
    this.name = "BoardOptionsError";
  }
}

/** Validates options and fills in defaults. Throws {@link BoardOptionsError}. */
export function resolveOptions(options: BoardOptions = {}): ResolvedOptions {
  const parsed = BoardOptionsSchema.safeParse(options);
  if (parsed.success) return parsed.data;
  const { field, message } = firstRefusal(parsed.error);
  throw new BoardOptionsError(field || "options", message);
}
