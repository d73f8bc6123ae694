/**
 * The standalone server: `deno task start`. With no Redis configured it
 * serves a live demo on the in-memory task system.
 *
 * ```sh
 * deno run -A jsr:@x/queue-board/cli --redis redis://127.0.0.1:6379 --read-only
 * ```
 *
 * @module
 */

import { parseArgs } from "node:util";
import { createBoard } from "./board.ts";
import { parseDuration } from "./duration.ts";
import { timingSafeEqual } from "hono/utils/buffer";
import type { BoardOptions, BoardUser, McpOptions, SessionAuthOptions } from "./options.ts";
import { createMemorySource } from "./source/memory/mod.ts";
import { createRedisSource, type RedisNodeAddress } from "./source/redis/mod.ts";
import type { TaskSource } from "./source/types.ts";
import { parseUsers, usersAuthenticate } from "./cli_users.ts";
import { parseMcpTokens } from "./cli_mcp_tokens.ts";
import { parseAlertsConfig } from "./alerts/config.ts";
import { DEMO_ALERTS } from "./alerts/demo.ts";
import type { AlertsFile } from "./contract/alerts.ts";
import { EXPORT_CAP } from "./contract/config.ts";

/** The jobs the demo's history keeps, newest first (about 1 KB each). */
const DEMO_HISTORY_SUMMARIES = 20_000;

/** The text `--help` prints. */
export const USAGE = `queue-board: the admin dashboard for taskora queues

Usage: deno task start [options]

Options:
  --redis <url>        Redis that taskora writes to (env REDIS_URL).
                       Without it (or the two below), a live demo runs on an
                       in-memory task system.
  --redis-cluster <host:port,...>
                       A Redis Cluster instead: some of its nodes (env REDIS_CLUSTER)
  --redis-sentinel <name@host:port,...>
                       A Sentinel set instead: the master's name and some
                       sentinels (env REDIS_SENTINEL)
  --prefix <prefix>    taskora's key prefix option (keys taskora:<prefix>:...)
  --port <port>        Port to listen on (env PORT, default 3000; 0: any free port)
  --host <address>     Interface to listen on (env BOARD_HOST, default 127.0.0.1:
                       this machine only; 0.0.0.0 for every interface)
  --allowed-host <name>
                       A name the board answers to, e.g. board.example.com or
                       .example.com (and its subdomains); repeat it or give a
                       list (env BOARD_ALLOWED_HOSTS). Other Host headers get
                       403. Default: localhost, 127.0.0.1, [::1] and --host;
                       any name when --host is 0.0.0.0 or ::
  --base-path <path>   Path the board is served under (default /board)
  --trust-proxy        Behind a proxy (nginx): take the client's address from
                       the last X-Forwarded-For entry, HTTPS from
                       X-Forwarded-Proto, the name from X-Forwarded-Host
                       (env BOARD_TRUST_PROXY=1). Only when the proxy sets them
  --read-only          Disable every mutation
  --redact <a,b>       Keys to mask in job data, results, errors and log meta
  --title <title>      Title shown in the header
  --lease <dur>        How long a board's leases hold unrenewed, e.g. 3s (default
                       10s): another board on the same Redis takes over a dead
                       one's background work, alerts and bulk operations within
                       about this
  --export-cap <rows>  The most rows an export (CSV, NDJSON) holds, 1 to 100000
                       (default 100000)
  --session-ttl <dur>  Rolling session expiry, e.g. 30m or 1d (with session login)
  --users <file>       Session login for several users: a JSON array of
                       { name, role (viewer, operator, admin), password (a hash
                       from deno task hash-password) }; needs BOARD_COOKIE_SECRET
  --alerts <file>      Alert rules and the sinks they tell: JSON
                       { evaluateEvery, sinks, rules } (see docs/alerts.md)
  --mcp-actions        Agents at <base path>/mcp get tools that act (retry,
                       cancel, bulk), as their user may (env BOARD_MCP_ACTIONS=1);
                       without it, reading tools only
  --mcp-tokens <file>  Agents' bearer tokens, with session login: JSON
                       { "<sha256 hex of a token>": "<username>" }, each agent
                       acting as a --users user (or BOARD_USERNAME)
  --no-mcp             No MCP endpoint (env BOARD_MCP=0)
  --history            Record the job history in Redis (env BOARD_HISTORY=1;
                       see docs/history.md)
  --history-postgres <url>
                       Record the job history in PostgreSQL instead
                       (env BOARD_HISTORY_POSTGRES)
  -h, --help           Show this help

Session login is on when BOARD_USERNAME, BOARD_PASSWORD and BOARD_COOKIE_SECRET
(32+ characters) are all set; that one user is an admin.
`;

/** A command-line mistake: printed with the usage hint, exit code 2. */
export class UsageError extends Error {}

/** What the command line asks for. */
export interface CliConfig {
  /** `--redis` (or `REDIS_URL`): the Redis taskora writes to; null without it. */
  redisUrl: string | null;
  /** `--redis-cluster`: some nodes of the cluster. */
  redisCluster: RedisNodeAddress[] | null;
  /** `--redis-sentinel`: the master's name and some sentinels. */
  redisSentinel: { name: string; sentinels: RedisNodeAddress[] } | null;
  /** `--prefix`: taskora's key prefix option, when set. */
  prefix: string | undefined;
  /** `--port` (or `PORT`): the port to listen on. */
  port: number;
  /** The interface to listen on. */
  hostname: string;
  /** The board's options the flags and the environment set. */
  options: BoardOptions;
  /** `--help`: print {@link USAGE} and exit. */
  help: boolean;
}

/** Parses flags (and the environment) into a configuration; throws {@link UsageError}. */
export function parseCli(
  args: string[],
  env: (name: string) => string | undefined,
  readText: (path: string) => string = Deno.readTextFileSync,
): CliConfig {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        redis: { type: "string" },
        "redis-cluster": { type: "string" },
        "redis-sentinel": { type: "string" },
        prefix: { type: "string" },
        port: { type: "string" },
        host: { type: "string" },
        "allowed-host": { type: "string", multiple: true },
        "base-path": { type: "string" },
        "read-only": { type: "boolean" },
        "trust-proxy": { type: "boolean" },
        redact: { type: "string" },
        title: { type: "string" },
        lease: { type: "string" },
        "export-cap": { type: "string" },
        "session-ttl": { type: "string" },
        users: { type: "string" },
        alerts: { type: "string" },
        "mcp-actions": { type: "boolean" },
        "mcp-tokens": { type: "string" },
        "no-mcp": { type: "boolean" },
        history: { type: "boolean" },
        "history-postgres": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const flags = parsed.values;
  const rawPort = flags.port ?? (env("PORT") || "3000");
  const port = Number(rawPort);
  // 0 asks the system for any free port; the start line names the one it gave.
  if (!/^\d+$/.test(rawPort) || port > 65535) {
    throw new UsageError(`--port must be a number from 0 to 65535 (got "${rawPort}")`);
  }
  // BOARD_HOST, not HOST: tcsh and some images export HOST as the machine's
  // name, and which interface the board is exposed on must be asked for.
  const hostname = flags.host ?? (env("BOARD_HOST") || "127.0.0.1");
  if (!isHost(hostname)) {
    throw new UsageError(
      `--host must be an IP address or a host name, without a port or brackets (got "${hostname}")`,
    );
  }
  const redisUrl = flags.redis ?? (env("REDIS_URL") || null);
  if (redisUrl !== null && !/^rediss?:\/\//.test(redisUrl)) {
    throw new UsageError(`--redis must be a redis:// or rediss:// URL (got "${redisUrl}")`);
  }
  const clusterNodes = flags["redis-cluster"] ?? (env("REDIS_CLUSTER") || null);
  const redisCluster = clusterNodes === null ? null : nodeList("--redis-cluster", clusterNodes);
  const sentinelSpec = flags["redis-sentinel"] ?? (env("REDIS_SENTINEL") || null);
  const redisSentinel = sentinelSpec === null ? null : sentinelOf(sentinelSpec);
  const targets = [redisUrl, redisCluster, redisSentinel].filter((target) => target !== null);
  if (targets.length > 1) {
    throw new UsageError("give one of --redis, --redis-cluster and --redis-sentinel");
  }
  const options: BoardOptions = {};
  const login = flags.users === undefined
    ? sessionFromEnv(env, flags["session-ttl"])
    : sessionFromUsers(flags.users, readText, env, flags["session-ttl"]);
  if (login) options.auth = login.auth;
  if (flags["base-path"] !== undefined) options.basePath = flags["base-path"];
  if (flags["read-only"]) options.readOnly = true;
  if (flags["trust-proxy"] || switchOf("BOARD_TRUST_PROXY", env("BOARD_TRUST_PROXY"))) {
    options.trustProxy = true;
  }
  const allowedHosts = flags["allowed-host"]?.join(",") ?? env("BOARD_ALLOWED_HOSTS");
  if (allowedHosts) options.allowedHosts = listOf(allowedHosts);
  if (flags.title !== undefined) options.title = flags.title;
  if (flags.lease !== undefined) options.leaseMs = leaseOf(flags.lease);
  if (flags["export-cap"] !== undefined) options.exportCap = exportCapOf(flags["export-cap"]);
  if (flags.redact !== undefined) options.redact = listOf(flags.redact);
  if (flags.alerts !== undefined) options.alerts = alertsFrom(flags.alerts, readText);
  const mcp = mcpOf(flags, env, readText, login);
  if (mcp !== undefined) options.mcp = mcp;
  const history = historyOf(flags, env);
  if (history !== undefined) options.history = history;
  return {
    redisUrl,
    redisCluster,
    redisSentinel,
    prefix: flags.prefix,
    port,
    hostname,
    options,
    help: flags.help ?? false,
  };
}

/** An on/off variable: `1`, `true`, `yes` or `0`, `false`, `no` (any case); unset or empty is off. */
function switchOf(name: string, value: string | undefined): boolean {
  const word = (value ?? "").trim().toLowerCase();
  if (word === "" || word === "0" || word === "false" || word === "no") return false;
  if (word === "1" || word === "true" || word === "yes") return true;
  throw new UsageError(`${name} must be 1, true or yes, or 0, false or no (got "${value}")`);
}

/** The items of a comma-separated list, trimmed, empty ones dropped. */
function listOf(value: string): string[] {
  return value.split(",").map((item) => item.trim()).filter(Boolean);
}

/** Parses `host:port,host:port` (IPv6 in brackets: `[::1]:7000`). */
function nodeList(flag: string, value: string): RedisNodeAddress[] {
  const nodes = value.split(",").map((item) => item.trim()).filter(Boolean).map((item) => {
    const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(item);
    const port = Number(match?.[3]);
    if (!match || port < 1 || port > 65535) {
      throw new UsageError(`${flag} takes host:port pairs separated by commas (got "${item}")`);
    }
    return { host: match[1] ?? match[2], port };
  });
  if (nodes.length === 0) throw new UsageError(`${flag} needs at least one host:port`);
  return nodes;
}

/** Parses `name@host:port,host:port`. */
function sentinelOf(value: string): { name: string; sentinels: RedisNodeAddress[] } {
  const at = value.indexOf("@");
  const name = value.slice(0, Math.max(at, 0));
  if (at < 1 || !/^[A-Za-z0-9._-]+$/.test(name)) {
    throw new UsageError(
      `--redis-sentinel takes the master's name, @, then sentinels: name@host:port,... (got "${value}")`,
    );
  }
  return { name, sentinels: nodeList("--redis-sentinel", value.slice(at + 1)) };
}

/** The Redis source the configuration names, and how to log it; null for the demo. */
function redisSourceOf(config: CliConfig): { source: TaskSource; where: string } | null {
  const prefix = config.prefix;
  // The source's lease (discovery, the reconcile) is as long as the board's.
  const leaseMs = config.options.leaseMs;
  const nodes = (list: RedisNodeAddress[]) => list.map((n) => `${n.host}:${n.port}`).join(",");
  if (config.redisCluster) {
    return {
      source: createRedisSource({ cluster: { rootNodes: config.redisCluster }, prefix, leaseMs }),
      where: `Redis Cluster ${nodes(config.redisCluster)}`,
    };
  }
  if (config.redisSentinel) {
    return {
      source: createRedisSource({ sentinel: config.redisSentinel, prefix, leaseMs }),
      where: `Redis Sentinel ${config.redisSentinel.name}@${nodes(config.redisSentinel.sentinels)}`,
    };
  }
  if (config.redisUrl) {
    return {
      source: createRedisSource({ url: config.redisUrl, prefix, leaseMs }),
      where: `Redis ${redactUrl(config.redisUrl)}`,
    };
  }
  return null;
}

/** An IPv4 address, a host name, or an IPv6 address without brackets. */
function isHost(value: string): boolean {
  return /^[A-Za-z0-9.-]+$/.test(value) || /^[0-9A-Fa-f.]*(:[0-9A-Fa-f.]*){2,}$/.test(value);
}

const AUTH_ENV = ["BOARD_USERNAME", "BOARD_PASSWORD", "BOARD_COOKIE_SECRET"] as const;

/** Session login and the users it signs in, by name (what `--mcp-tokens` names). */
export interface CliLogin {
  /** The `auth` option. */
  auth: SessionAuthOptions;
  /** Each user it signs in, by username, as `authenticate` returns it. */
  users: ReadonlyMap<string, BoardUser>;
}

/**
 * Session login from `BOARD_USERNAME`, `BOARD_PASSWORD` and
 * `BOARD_COOKIE_SECRET`: all three or none. Credentials are compared in
 * constant time.
 */
export function sessionFromEnv(
  env: (name: string) => string | undefined,
  sessionTtl: string | undefined,
): CliLogin | null {
  const missing = AUTH_ENV.filter((name) => !env(name));
  if (missing.length === AUTH_ENV.length) {
    if (sessionTtl !== undefined) {
      throw new UsageError(`--session-ttl needs session login: set ${AUTH_ENV.join(", ")}`);
    }
    return null;
  }
  if (missing.length > 0) {
    throw new UsageError(
      `session login needs all of ${AUTH_ENV.join(", ")} (missing ${missing.join(", ")})`,
    );
  }
  const [username, password, secret] = AUTH_ENV.map((name) => env(name)!);
  if (secret.length < 32) {
    throw new UsageError("BOARD_COOKIE_SECRET must be at least 32 characters");
  }
  // The single-admin shortcut: one user, who may do everything.
  const admin = { name: username, role: "admin" };
  const auth: SessionAuthOptions = {
    cookiePassword: secret,
    sessionTtl: checkedTtl(sessionTtl),
    async authenticate(credentials) {
      const [userMatches, passwordMatches] = await Promise.all([
        timingSafeEqual(credentials.username, username),
        timingSafeEqual(credentials.password, password),
      ]);
      return userMatches && passwordMatches ? admin : null;
    },
  };
  return { auth, users: new Map([[username, admin]]) };
}

/**
 * Session login for the users of the file at `path` (`--users`), signed with
 * `BOARD_COOKIE_SECRET`; `BOARD_USERNAME`/`BOARD_PASSWORD` go with it not.
 */
function sessionFromUsers(
  path: string,
  readText: (path: string) => string,
  env: (name: string) => string | undefined,
  sessionTtl: string | undefined,
): CliLogin {
  if (env("BOARD_USERNAME") || env("BOARD_PASSWORD")) {
    throw new UsageError("give --users or BOARD_USERNAME and BOARD_PASSWORD, not both");
  }
  const secret = env("BOARD_COOKIE_SECRET") ?? "";
  if (secret.length < 32) {
    throw new UsageError("--users needs BOARD_COOKIE_SECRET, at least 32 characters");
  }
  let users;
  try {
    users = parseUsers(readText(path));
  } catch (error) {
    throw new UsageError(`--users ${path}: ${(error as Error).message}`);
  }
  return {
    auth: {
      cookiePassword: secret,
      sessionTtl: checkedTtl(sessionTtl),
      authenticate: usersAuthenticate(users),
    },
    users: new Map(users.map(({ name, role }) => [name, { name, role }])),
  };
}

/**
 * The `mcp` option of `--no-mcp` (`BOARD_MCP=0`), `--mcp-actions`
 * (`BOARD_MCP_ACTIONS`) and `--mcp-tokens`; undefined leaves the default
 * (reading tools, no tokens).
 */
function mcpOf(
  flags: { "no-mcp"?: boolean; "mcp-actions"?: boolean; "mcp-tokens"?: string },
  env: (name: string) => string | undefined,
  readText: (path: string) => string,
  login: CliLogin | null,
): McpOptions | false | undefined {
  // Unset or empty leaves the endpoint on: only an explicit 0, false or no turns it off.
  const off = flags["no-mcp"] === true ||
    (Boolean(env("BOARD_MCP")?.trim()) && !switchOf("BOARD_MCP", env("BOARD_MCP")));
  const actions = flags["mcp-actions"] === true ||
    switchOf("BOARD_MCP_ACTIONS", env("BOARD_MCP_ACTIONS"));
  const tokensPath = flags["mcp-tokens"];
  if (off) {
    const conflict = actions ? "--mcp-actions" : tokensPath !== undefined ? "--mcp-tokens" : null;
    if (conflict) throw new UsageError(`give --no-mcp (BOARD_MCP=0) or ${conflict}, not both`);
    return false;
  }
  if (tokensPath === undefined) return actions ? { actions } : undefined;
  if (!login) {
    throw new UsageError(
      `--mcp-tokens needs session login: --users, or ${AUTH_ENV.join(", ")}`,
    );
  }
  try {
    return { actions, tokens: parseMcpTokens(readText(tokensPath), login.users) };
  } catch (error) {
    throw new UsageError(`--mcp-tokens ${tokensPath}: ${(error as Error).message}`);
  }
}

/**
 * The `history` option of `--history` (`BOARD_HISTORY`) and
 * `--history-postgres` (`BOARD_HISTORY_POSTGRES`); undefined leaves it off.
 */
function historyOf(
  flags: { history?: boolean; "history-postgres"?: string },
  env: (name: string) => string | undefined,
): BoardOptions["history"] {
  const postgres = flags["history-postgres"] ??
    (env("BOARD_HISTORY_POSTGRES")?.trim() || undefined);
  if (postgres !== undefined) return { postgres };
  return flags.history === true || switchOf("BOARD_HISTORY", env("BOARD_HISTORY")) || undefined;
}

/** The alerts JSON of the file at `path` (`--alerts`), checked so a bad field is named at start. */
function alertsFrom(path: string, readText: (path: string) => string): AlertsFile {
  let file: unknown;
  try {
    file = JSON.parse(readText(path));
  } catch (error) {
    const why = error instanceof SyntaxError ? `not JSON: ${error.message}` : String(error);
    throw new UsageError(`--alerts ${path}: ${why}`);
  }
  try {
    parseAlertsConfig(file);
  } catch (error) {
    throw new UsageError(`--alerts ${path}: ${(error as Error).message}`);
  }
  return file as AlertsFile;
}

/** `--lease`, in ms; the board's options check its range. */
function leaseOf(lease: string): number {
  const ms = parseDuration(lease);
  if (ms === null) {
    throw new UsageError(`--lease must be a duration like 3s or 10s (got "${lease}")`);
  }
  return ms;
}

/** `--export-cap`: a whole number of rows, at most {@link EXPORT_CAP}. */
function exportCapOf(cap: string): number {
  const rows = Number(cap);
  if (!/^\d+$/.test(cap) || rows < 1 || rows > EXPORT_CAP) {
    throw new UsageError(`--export-cap must be a whole number from 1 to 100000 (got "${cap}")`);
  }
  return rows;
}

/** `--session-ttl`, checked: false when absent. */
function checkedTtl(sessionTtl: string | undefined): string | false {
  if (sessionTtl !== undefined && parseDuration(sessionTtl) === null) {
    throw new UsageError(
      `--session-ttl must be a duration like 30s, 5m, 2h or 1d (got "${sessionTtl}")`,
    );
  }
  return sessionTtl ?? false;
}

/** Runs the server; resolves when it has shut down. */
export async function main(args: string[]): Promise<number> {
  let config: CliConfig;
  try {
    config = parseCli(args, (name) => Deno.env.get(name));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`queue-board: ${error.message}\nRun with --help for usage.`);
    return 2;
  }
  if (config.help) {
    console.log(USAGE);
    return 0;
  }
  const redis = redisSourceOf(config);
  const source: TaskSource = redis?.source ?? createMemorySource({ simulate: true });
  // A newcomer sees the Alerts and History pages at work, unless options said otherwise.
  if (!redis) {
    config.options.alerts ??= DEMO_ALERTS;
    // In the process: bounded so a demo left running for days stays small.
    config.options.history ??= { maxSummaries: DEMO_HISTORY_SUMMARIES };
  }
  let board;
  try {
    board = createBoard(source, config.options);
  } catch (error) {
    console.error((error as Error).message);
    await source.close();
    return 2;
  }
  // Listened for before the start line: a supervisor that stops the board as soon as it says it
  // listens must not find the signal ignored (caught by the runtime, heard by nobody).
  const stop = stopSignals();
  let server;
  try {
    server = await board.listen({
      port: config.port,
      hostname: config.hostname,
      // Where the data comes from ends the start line: the one line the CLI prints.
      detail: redis?.where ?? "live demo: no --redis or REDIS_URL",
    });
  } catch (error) {
    console.error(
      `queue-board: cannot listen on ${config.hostname} port ${config.port}: ${
        (error as Error).message
      }`,
    );
    stop.dispose();
    await board.close();
    await source.close();
    return 1;
  }
  try {
    await Promise.race([stop.received, server.finished]);
  } finally {
    stop.dispose();
  }
  // Stop taking connections, then end the event streams: shutdown() waits for
  // open responses, and a browser's stream never ends by itself.
  const finished = server.shutdown();
  const stopped = await settlesWithin(
    (async () => {
      await board.close();
      await finished;
      await source.close();
    })(),
    SHUTDOWN_GRACE_MS,
  );
  if (!stopped) {
    console.error(`queue-board: still closing after ${SHUTDOWN_GRACE_MS} ms: stopping anyway`);
  }
  return 0;
}

/** How long a shutdown waits for open requests and the store before it exits anyway. */
export const SHUTDOWN_GRACE_MS = 5_000;

/** The first stop signal's arrival, and how to stop listening for it. */
interface StopSignals {
  /** Resolves on the first SIGINT or SIGTERM (SIGBREAK on Windows). */
  received: Promise<void>;
  dispose: () => void;
}

/** Starts listening for SIGINT and SIGTERM (SIGINT and SIGBREAK on Windows). */
function stopSignals(): StopSignals {
  const signals: Deno.Signal[] = Deno.build.os === "windows"
    ? ["SIGINT", "SIGBREAK"]
    : ["SIGINT", "SIGTERM"];
  const { promise, resolve } = Promise.withResolvers<void>();
  const heard = () => resolve();
  for (const signal of signals) Deno.addSignalListener(signal, heard);
  return {
    received: promise,
    dispose: () => signals.forEach((signal) => Deno.removeSignalListener(signal, heard)),
  };
}

/** Whether `work` settled within `ms`; its error is thrown. */
async function settlesWithin(work: Promise<void>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), ms));
  try {
    return await Promise.race([work.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Hides the password of a Redis URL for logs. */
function redactUrl(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, "//$1:***@");
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
