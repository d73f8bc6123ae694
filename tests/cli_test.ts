/**
 * The standalone server: flags, the environment, and the demo it starts with
 * no Redis configured.
 */

import assert from "node:assert/strict";
import { parseCli, UsageError } from "../src/cli.ts";
import type { SessionAuthOptions } from "../src/options.ts";
import { hashPassword, MIN_ITERATIONS } from "../src/auth/password_hash.ts";
import { boundCommand } from "./helpers/bound_command.ts";
import { waitFor } from "./helpers/wait_for.ts";
import { toolNames, withClient } from "./helpers/mcp_client.ts";

const noEnv = () => undefined;
const CLI = new URL("../src/cli.ts", import.meta.url).pathname;

function env(values: Record<string, string>) {
  return (name: string) => values[name];
}

Deno.test("parseCli() reads flags and the environment, flags first", () => {
  const config = parseCli(
    ["--redis", "redis://127.0.0.1:6390", "--prefix", "prod", "--base-path", "/q", "--read-only"],
    env({ PORT: "4000", REDIS_URL: "redis://ignored" }),
  );
  assert.equal(config.redisUrl, "redis://127.0.0.1:6390");
  assert.equal(config.prefix, "prod");
  assert.equal(config.port, 4000);
  assert.deepEqual(config.options, { basePath: "/q", readOnly: true });
  const defaults = parseCli(["--redact", "password, apiKey", "--title", "Ops"], noEnv);
  assert.equal(defaults.port, 3000);
  assert.equal(parseCli(["--port", "0"], noEnv).port, 0, "any free port: the start line names it");
  assert.equal(defaults.redisUrl, null);
  assert.deepEqual(defaults.options, { redact: ["password", "apiKey"], title: "Ops" });
});

Deno.test("parseCli() listens on 127.0.0.1 unless --host or BOARD_HOST says otherwise", () => {
  assert.equal(parseCli([], noEnv).hostname, "127.0.0.1");
  assert.equal(parseCli([], env({ HOST: "workstation" })).hostname, "127.0.0.1", "not HOST");
  assert.equal(parseCli([], env({ BOARD_HOST: "0.0.0.0" })).hostname, "0.0.0.0");
  assert.equal(parseCli(["--host", "::"], env({ BOARD_HOST: "0.0.0.0" })).hostname, "::");
  for (const host of ["10.0.0.5", "board.internal", "::1", "fe80::1", "::ffff:10.0.0.5"]) {
    assert.equal(parseCli(["--host", host], noEnv).hostname, host);
  }
});

Deno.test("parseCli() refuses bad flags with a clear message", () => {
  const cases: Array<[string[], RegExp]> = [
    [["--port", "abc"], /--port/],
    [["--port", "70000"], /--port/],
    [["--redis", "http://x"], /--redis/],
    [["--bogus"], /bogus/],
    [["stray"], /stray|positional/i],
    [["--session-ttl", "1h"], /BOARD_USERNAME/],
    [["--host", "1.2.3.4:80"], /--host.*without a port/],
    [["--host", "[::1]"], /--host/],
    [["--host", "http://0.0.0.0"], /--host/],
    [["--host", "a b"], /--host/],
    [["--host", ""], /--host/],
  ];
  for (const [args, message] of cases) {
    assert.throws(
      () => parseCli(args, noEnv),
      (e: Error) => e instanceof UsageError && message.test(e.message),
    );
  }
});

Deno.test("parseCli() reads --lease as the board's lease period; a bad one is refused", () => {
  assert.equal(parseCli(["--lease", "3s"], noEnv).options.leaseMs, 3000);
  assert.equal(parseCli([], noEnv).options.leaseMs, undefined, "the board's default");
  assert.throws(
    () => parseCli(["--lease", "soon"], noEnv),
    (e: Error) => e instanceof UsageError && /--lease/.test(e.message),
  );
});

Deno.test("parseCli() reads --export-cap as the most rows an export holds; a bad one is refused", () => {
  assert.equal(parseCli(["--export-cap", "5000"], noEnv).options.exportCap, 5000);
  assert.equal(parseCli([], noEnv).options.exportCap, undefined, "the board's default");
  for (const bad of ["0", "100001", "2.5", "many"]) {
    assert.throws(
      () => parseCli(["--export-cap", bad], noEnv),
      (e: Error) => e instanceof UsageError && /--export-cap .*from 1 to 100000/.test(e.message),
      bad,
    );
  }
});

Deno.test("session login comes on with all three BOARD_* variables, never with some", () => {
  const all = { BOARD_USERNAME: "ops", BOARD_PASSWORD: "pw", BOARD_COOKIE_SECRET: "s".repeat(32) };
  const config = parseCli(["--session-ttl", "8h"], env(all));
  const auth = config.options.auth as SessionAuthOptions;
  assert.equal(auth.sessionTtl, "8h");
  assert.throws(
    () => parseCli([], env({ BOARD_USERNAME: "ops" })),
    /missing BOARD_PASSWORD, BOARD_COOKIE_SECRET/,
  );
  assert.throws(() => parseCli([], env({ ...all, BOARD_COOKIE_SECRET: "short" })), /32/);
  assert.throws(() => parseCli(["--session-ttl", "soon"], env(all)), /--session-ttl/);
});

Deno.test("the env credentials are checked by authenticate: the single user is an admin", async () => {
  const all = { BOARD_USERNAME: "ops", BOARD_PASSWORD: "pw", BOARD_COOKIE_SECRET: "s".repeat(32) };
  const auth = parseCli([], env(all)).options.auth as SessionAuthOptions;
  const request = new Request("http://board.test/");
  const check = (username: string, password: string) =>
    auth.authenticate({ username, password }, request);
  assert.deepEqual(await check("ops", "pw"), { name: "ops", role: "admin" });
  assert.equal(await check("ops", "pW"), null);
  assert.equal(await check("op", "pw"), null);
});

async function run(args: string[], envVars: Record<string, string> = {}) {
  const command = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-net", "--allow-env", "--allow-read", CLI, ...args],
    env: envVars,
    stdout: "piped",
    stderr: "piped",
  });
  return await command.output();
}

Deno.test("--help prints usage; a bad flag exits non-zero with the reason", async () => {
  const help = await run(["--help"]);
  assert.equal(help.code, 0);
  assert.match(new TextDecoder().decode(help.stdout), /Usage: deno task start/);
  const bad = await run(["--port", "nope"]);
  assert.equal(bad.code, 2);
  assert.match(new TextDecoder().decode(bad.stderr), /--port must be a number/);
});

/**
 * Starts the CLI on the memory demo and waits for its start line. Port 0: the
 * system picks a free one and the line names it, so no parallel test can take
 * it between a pick and the listen.
 */
async function startDemo(args: string[] = [], envVars: Record<string, string> = {}) {
  const child = boundCommand(Deno.execPath(), {
    args: [
      "run",
      "--allow-net",
      "--allow-env",
      "--allow-read",
      CLI,
      "--port",
      "0",
      ...args,
    ],
    env: { REDIS_URL: "", ...envVars },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let printed = "";
  while (!printed.includes("listening on")) {
    const { value, done } = await lines.read();
    if (done) break;
    printed += value;
  }
  const port = Number(
    printed.match(/^queue-board listening on http:\/\/127\.0\.0\.1:(\d+)\//)?.[1],
  );
  return { child, port, printed, lines };
}

Deno.test("with no Redis configured it serves the live demo and says so in one line", async () => {
  const { child, port, printed, lines } = await startDemo();
  try {
    // The README: it "prints one line saying what is exposed".
    assert.equal(
      printed,
      `queue-board listening on http://127.0.0.1:${port}/board ` +
        "(mutations on, login off, redaction off; live demo: no --redis or REDIS_URL)\n",
    );
    const overview = await (await fetch(`http://127.0.0.1:${port}/board/api/overview`)).json();
    assert.ok(overview.tasks.length >= 5, "the simulator's tasks");
    // The History pages work in the demo: it records the simulated jobs in memory.
    const history = await fetch(`http://127.0.0.1:${port}/board/api/history/jobs`);
    assert.equal(history.status, 200, await history.clone().text());
    await history.body?.cancel();
    const page = await fetch(`http://127.0.0.1:${port}/board/`);
    assert.equal(page.status, 200);
    await page.body?.cancel();
  } finally {
    child.kill("SIGTERM");
    await lines.cancel();
    await child.stderr.cancel();
    const status = await child.status;
    assert.equal(status.code, 0, "a clean shutdown on SIGTERM");
  }
});

Deno.test("the start line says what BOARD_HOST, --read-only and --redact expose", async () => {
  const { child, port, printed, lines } = await startDemo(
    ["--read-only", "--redact", "password,token"],
    { BOARD_HOST: "127.0.0.1" },
  );
  try {
    assert.ok(
      printed.includes(
        `listening on http://127.0.0.1:${port}/board ` +
          "(mutations off, login off, redaction on (2 keys); live demo: no --redis or REDIS_URL)\n",
      ),
      printed,
    );
    const config = await fetch(`http://127.0.0.1:${port}/board/api/config`);
    assert.equal((await config.json()).readOnly, true);
  } finally {
    child.kill("SIGTERM");
    await lines.cancel();
    await child.stderr.cancel();
    await child.status;
  }
});

Deno.test("with login and no --session-ttl, the start line names the flag that sets one", async () => {
  const { child, printed, lines } = await startDemo([], {
    BOARD_USERNAME: "ada",
    BOARD_PASSWORD: "lovelace",
    BOARD_COOKIE_SECRET: "c".repeat(32),
  });
  try {
    assert.match(
      printed,
      /login on \(a copied session cookie never expires: set sessionTtl, or --session-ttl on the CLI\)/,
    );
  } finally {
    child.kill("SIGTERM");
    await lines.cancel();
    await child.stderr.cancel();
    await child.status;
  }
});

Deno.test("SIGTERM ends the open event streams and the process exits 0", async () => {
  const { child, port, lines } = await startDemo();
  const events = await fetch(`http://127.0.0.1:${port}/board/api/events`);
  assert.equal(events.status, 200);
  const stream = events.body!.getReader();
  assert.equal((await stream.read()).done, false, "the stream is open and sending");
  child.kill("SIGTERM");
  // A watchdog, not a timing assertion: before the fix the process never
  // exited, and a test that hangs says nothing. The CLI's own bound is 5 s.
  const watchdog = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const status = await child.status;
  clearTimeout(watchdog);
  assert.equal(status.signal, null, "it exited by itself, not killed by the watchdog");
  assert.equal(status.code, 0);
  while (!(await stream.read()).done) { /* the frames sent before the end */ }
  const stderr = await new Response(child.stderr).text();
  assert.doesNotMatch(
    stderr,
    /stopping anyway/,
    "the streams ended; the grace period was not needed",
  );
  await lines.cancel();
});

Deno.test("parseCli() reads --redis-cluster and --redis-sentinel, or their env", () => {
  const cluster = parseCli(["--redis-cluster", "10.0.0.1:7000, redis-b:7001,[::1]:7002"], noEnv);
  assert.deepEqual(cluster.redisCluster, [
    { host: "10.0.0.1", port: 7000 },
    { host: "redis-b", port: 7001 },
    { host: "::1", port: 7002 },
  ]);
  assert.equal(cluster.redisUrl, null);
  assert.equal(cluster.redisSentinel, null);
  const sentinel = parseCli([], env({ REDIS_SENTINEL: "mymaster@s1:26379,s2:26379" }));
  assert.deepEqual(sentinel.redisSentinel, {
    name: "mymaster",
    sentinels: [{ host: "s1", port: 26379 }, { host: "s2", port: 26379 }],
  });
  assert.deepEqual(
    parseCli([], env({ REDIS_CLUSTER: "h:1" })).redisCluster,
    [{ host: "h", port: 1 }],
  );
});

Deno.test("parseCli() refuses a bad cluster or sentinel list, or two Redis targets", () => {
  const cases: Array<[string[], RegExp]> = [
    [["--redis-cluster", "host"], /--redis-cluster takes host:port/],
    [["--redis-cluster", "host:0"], /--redis-cluster.*"host:0"/],
    [["--redis-cluster", "host:99999"], /--redis-cluster/],
    [["--redis-cluster", "a b:1"], /--redis-cluster/],
    [["--redis-cluster", ","], /at least one/],
    [["--redis-sentinel", "s1:26379"], /--redis-sentinel takes the master's name/],
    [["--redis-sentinel", "@s1:26379"], /--redis-sentinel/],
    [["--redis-sentinel", "m@"], /at least one/],
    [["--redis-sentinel", "m@s1"], /--redis-sentinel takes host:port/],
    [["--redis", "redis://x", "--redis-cluster", "h:1"], /one of --redis/],
    [["--redis-cluster", "h:1", "--redis-sentinel", "m@h:2"], /one of --redis/],
  ];
  for (const [args, message] of cases) {
    assert.throws(
      () => parseCli(args, noEnv),
      (e: Error) => e instanceof UsageError && message.test(e.message),
      args.join(" "),
    );
  }
});

Deno.test("parseCli() takes the allowed hosts from --allowed-host (repeated or a list) or BOARD_ALLOWED_HOSTS", () => {
  assert.equal(parseCli([], noEnv).options.allowedHosts, undefined, "the default is listen()'s");
  assert.deepEqual(
    parseCli(["--allowed-host", "board.example.com", "--allowed-host", ".corp.example"], noEnv)
      .options.allowedHosts,
    ["board.example.com", ".corp.example"],
  );
  assert.deepEqual(
    parseCli([], env({ BOARD_ALLOWED_HOSTS: "board.example.com, 127.0.0.1:3000" })).options
      .allowedHosts,
    ["board.example.com", "127.0.0.1:3000"],
  );
  assert.deepEqual(
    parseCli(["--allowed-host", "a.example,b.example"], env({ BOARD_ALLOWED_HOSTS: "ignored" }))
      .options.allowedHosts,
    ["a.example", "b.example"],
  );
});

Deno.test("--users FILE signs in several users, each with its role and a PBKDF2 hash", async () => {
  const users = [
    { name: "ada", role: "operator", password: await hashPassword("lovelace", MIN_ITERATIONS) },
    { name: "vic", role: "viewer", password: await hashPassword("hugo", MIN_ITERATIONS) },
  ];
  const files: Record<string, string> = { "users.json": JSON.stringify(users) };
  const read = (path: string) => {
    if (!(path in files)) throw new Deno.errors.NotFound(path);
    return files[path];
  };
  const secret = { BOARD_COOKIE_SECRET: "s".repeat(32) };
  const auth = parseCli(["--users", "users.json"], env(secret), read).options
    .auth as SessionAuthOptions;
  const request = new Request("http://board.test/");
  const check = (username: string, password: string) =>
    auth.authenticate({ username, password }, request);
  assert.deepEqual(await check("ada", "lovelace"), { name: "ada", role: "operator" });
  assert.deepEqual(await check("vic", "hugo"), { name: "vic", role: "viewer" });
  assert.equal(await check("ada", "hugo"), null);
  assert.equal(await check("eve", "lovelace"), null);

  const refused = (args: string[], vars: Record<string, string>, what: RegExp) =>
    assert.throws(
      () => parseCli(args, env(vars), read),
      (e) => e instanceof UsageError && what.test(e.message),
    );
  refused(["--users", "users.json"], {}, /BOARD_COOKIE_SECRET/);
  refused(["--users", "none.json"], secret, /--users.*none\.json/);
  refused(
    ["--users", "users.json"],
    { ...secret, BOARD_USERNAME: "x", BOARD_PASSWORD: "y" },
    /BOARD_USERNAME/,
  );
  for (
    const [bad, what] of [
      ["[{", /JSON/],
      [JSON.stringify([{ ...users[0], role: "root" }]), /role/],
      [JSON.stringify([{ ...users[0], password: "lovelace" }]), /hash-password/],
      [JSON.stringify([users[0], users[0]]), /twice/],
      [JSON.stringify([]), /at least one/],
    ] as const
  ) {
    files["bad.json"] = bad;
    refused(["--users", "bad.json"], secret, what);
  }
});

Deno.test("--alerts FILE takes the alerts JSON, and names the bad field of a bad one", () => {
  const alerts = {
    evaluateEvery: "15s",
    sinks: [{ name: "chat", type: "slack", url: "https://hooks.slack.com/services/x" }],
    rules: [{ name: "stuck", kind: "backlog", threshold: 100, for: "1m", sinks: ["chat"] }],
  };
  const files: Record<string, string> = { "alerts.json": JSON.stringify(alerts) };
  const read = (path: string) => {
    if (!(path in files)) throw new Deno.errors.NotFound(path);
    return files[path];
  };
  assert.deepEqual(parseCli(["--alerts", "alerts.json"], noEnv, read).options.alerts, alerts);
  const refused = (path: string, what: RegExp) =>
    assert.throws(
      () => parseCli(["--alerts", path], noEnv, read),
      (e) => e instanceof UsageError && what.test(e.message),
    );
  refused("none.json", /--alerts none\.json/);
  files["bad.json"] = "{";
  refused("bad.json", /--alerts bad\.json: not JSON/);
  files["bad.json"] = JSON.stringify({ ...alerts, rules: [{ ...alerts.rules[0], for: "soon" }] });
  refused("bad.json", /--alerts bad\.json: Invalid rules\[0\]\.for: must be a duration/);
});

Deno.test("parseCli() trusts the proxy with --trust-proxy or BOARD_TRUST_PROXY, never by default", () => {
  assert.equal(parseCli([], noEnv).options.trustProxy, undefined);
  assert.equal(parseCli(["--trust-proxy"], noEnv).options.trustProxy, true);
  for (const on of ["1", "true", "TRUE", "yes"]) {
    assert.equal(parseCli([], env({ BOARD_TRUST_PROXY: on })).options.trustProxy, true, on);
  }
  for (const off of ["", "0", "false", "no"]) {
    assert.equal(parseCli([], env({ BOARD_TRUST_PROXY: off })).options.trustProxy, undefined, off);
  }
  assert.throws(
    () => parseCli([], env({ BOARD_TRUST_PROXY: "maybe" })),
    (e: Error) => e instanceof UsageError && /BOARD_TRUST_PROXY/.test(e.message),
  );
});

Deno.test("--trust-proxy behind a proxy: a flood from one client locks out no other, cookies are Secure", async () => {
  const login = {
    BOARD_USERNAME: "ops",
    BOARD_PASSWORD: "pw",
    BOARD_COOKIE_SECRET: "s".repeat(32),
  };
  const { child, port, lines } = await startDemo(["--trust-proxy"], login);
  // What nginx sends (docs/proxies.md): every request from its own address, the client's appended.
  const viaProxy = (client: string, username: string, password: string) =>
    fetch(`http://127.0.0.1:${port}/board/auth/login`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "sec-fetch-site": "same-origin",
        "x-forwarded-for": client,
        "x-forwarded-proto": "https",
      },
      body: new URLSearchParams({ username, password }).toString(),
    });
  try {
    const flood: number[] = [];
    for (let i = 0; i < 25; i++) {
      const response = await viaProxy("198.51.100.66", `guess-${i}`, "x");
      flood.push(response.status);
      await response.body?.cancel();
    }
    assert.ok(flood.includes(429), "the flooding client is throttled by its own address");
    const user = await viaProxy("198.51.100.7", "ops", "pw");
    assert.equal(user.status, 303, "another client behind the same proxy still signs in");
    assert.match(user.headers.get("set-cookie") ?? "", /; Secure/i, "HTTPS at the proxy");
    await user.body?.cancel();
  } finally {
    child.kill("SIGTERM");
    await lines.cancel();
    await child.stderr.cancel();
    await child.status;
  }
});

Deno.test("the demo evaluates alert rules, so its Alerts page shows them at work", async () => {
  const { child, port, lines } = await startDemo();
  try {
    const alerts = `http://127.0.0.1:${port}/board/api/alerts`;
    const evaluated = await waitFor(async () => {
      const overview = await (await fetch(alerts)).json();
      return overview.asOf !== null && overview;
    }, { what: "the demo's first alert evaluation" });
    assert.equal(evaluated.enabled, true);
    assert.ok(evaluated.rules.length >= 2, "a rule or two");
    const rule = await (await fetch(`http://127.0.0.1:${port}/board/api/config`)).json();
    assert.ok(rule.allowed.includes("alerts.update"), "rules can be made on the page too");
  } finally {
    child.kill("SIGTERM");
    await lines.cancel();
    await child.stderr.cancel();
    await child.status;
  }
});

Deno.test("parseCli() records the job history with --history or BOARD_HISTORY, in PostgreSQL with --history-postgres", () => {
  assert.equal(parseCli([], noEnv).options.history, undefined, "the default: off");
  assert.equal(parseCli(["--history"], noEnv).options.history, true);
  assert.equal(parseCli([], env({ BOARD_HISTORY: "1" })).options.history, true);
  assert.equal(parseCli([], env({ BOARD_HISTORY: "0" })).options.history, undefined);
  const url = "postgres://board@127.0.0.1:5432/history";
  assert.deepEqual(parseCli(["--history-postgres", url], noEnv).options.history, { postgres: url });
  assert.deepEqual(parseCli([], env({ BOARD_HISTORY_POSTGRES: url })).options.history, {
    postgres: url,
  });
});

Deno.test("parseCli() turns the MCP endpoint's actions on with --mcp-actions or BOARD_MCP_ACTIONS, off with --no-mcp or BOARD_MCP=0", () => {
  assert.equal(parseCli([], noEnv).options.mcp, undefined, "the default: reading tools only");
  assert.deepEqual(parseCli(["--mcp-actions"], noEnv).options.mcp, { actions: true });
  assert.deepEqual(parseCli([], env({ BOARD_MCP_ACTIONS: "yes" })).options.mcp, { actions: true });
  assert.equal(parseCli([], env({ BOARD_MCP_ACTIONS: "0" })).options.mcp, undefined);
  assert.equal(parseCli(["--no-mcp"], noEnv).options.mcp, false);
  assert.equal(parseCli([], env({ BOARD_MCP: "0" })).options.mcp, false);
  assert.equal(parseCli([], env({ BOARD_MCP: "1" })).options.mcp, undefined);
  const refused = (args: string[], vars: Record<string, string>, what: RegExp) =>
    assert.throws(
      () => parseCli(args, env(vars)),
      (e) => e instanceof UsageError && what.test(e.message),
    );
  refused(["--no-mcp", "--mcp-actions"], {}, /--no-mcp.*--mcp-actions/);
  refused([], { BOARD_MCP: "0", BOARD_MCP_ACTIONS: "1" }, /--no-mcp.*--mcp-actions/);
  refused([], { BOARD_MCP: "maybe" }, /BOARD_MCP must be/);
  refused([], { BOARD_MCP_ACTIONS: "sure" }, /BOARD_MCP_ACTIONS must be/);
});

Deno.test("--mcp-tokens FILE gives agents' tokens by digest, each the user of a login", async () => {
  const digest = "ae30582fa821c0da8c83c781b4755829fb7f21bd861d07e69f745586c79ae2e2";
  const other = "b".repeat(64);
  const users = [
    { name: "ada", role: "operator", password: await hashPassword("lovelace", MIN_ITERATIONS) },
    { name: "vic", role: "viewer", password: await hashPassword("hugo", MIN_ITERATIONS) },
  ];
  const files: Record<string, string> = {
    "users.json": JSON.stringify(users),
    "tokens.json": JSON.stringify({ [digest]: "ada", [other.toUpperCase()]: "vic" }),
  };
  const read = (path: string) => {
    if (!(path in files)) throw new Deno.errors.NotFound(path);
    return files[path];
  };
  const secret = { BOARD_COOKIE_SECRET: "s".repeat(32) };
  const withUsers = ["--users", "users.json", "--mcp-actions", "--mcp-tokens", "tokens.json"];
  assert.deepEqual(parseCli(withUsers, env(secret), read).options.mcp, {
    actions: true,
    tokens: {
      [digest]: { name: "ada", role: "operator" },
      [other]: { name: "vic", role: "viewer" },
    },
  });
  const single = { ...secret, BOARD_USERNAME: "ops", BOARD_PASSWORD: "pw" };
  files["ops.json"] = JSON.stringify({ [digest]: "ops" });
  assert.deepEqual(parseCli(["--mcp-tokens", "ops.json"], env(single), read).options.mcp, {
    actions: false,
    tokens: { [digest]: { name: "ops", role: "admin" } },
  });

  const refused = (args: string[], vars: Record<string, string>, what: RegExp) =>
    assert.throws(
      () => parseCli(args, env(vars), read),
      (e) => e instanceof UsageError && what.test(e.message),
    );
  refused(["--mcp-tokens", "ops.json"], {}, /--mcp-tokens needs session login/);
  refused(["--mcp-tokens", "ops.json", "--no-mcp"], single, /--no-mcp.*--mcp-tokens/);
  refused(["--mcp-tokens", "none.json"], single, /--mcp-tokens none\.json/);
  for (
    const [bad, what] of [
      ["{", /not JSON/],
      ["[]", /an object/],
      ["{}", /at least one/],
      [JSON.stringify({ "not-a-digest": "ops" }), /"not-a-digest".*64 hex digits/],
      [JSON.stringify({ [digest]: "eve" }), /"eve" is no user/],
      [JSON.stringify({ [digest]: { name: "ops" } }), /username/],
      [JSON.stringify({ [digest]: "ops", [digest.toUpperCase()]: "ops" }), /twice/],
    ] as const
  ) {
    files["bad.json"] = bad;
    refused(["--mcp-tokens", "bad.json"], single, what);
    refused(["--mcp-tokens", "bad.json"], single, /^--mcp-tokens bad\.json: /);
  }
});

Deno.test("the CLI's MCP endpoint lists tools that act only with --mcp-actions, and is gone with --no-mcp", async () => {
  /** The tools an MCP client is listed by a CLI started with `args`, and its start line. */
  const listed = async (args: string[]) => {
    const { child, port, printed, lines } = await startDemo(args);
    try {
      let names: string[] = [];
      await withClient({ url: `http://127.0.0.1:${port}/board/mcp` }, {}, async (client) => {
        names = await toolNames(client);
      });
      return { names, printed };
    } finally {
      child.kill("SIGTERM");
      await lines.cancel();
      await child.stderr.cancel();
      await child.status;
    }
  };
  const reading = await listed([]);
  assert.ok(reading.names.includes("get_overview"), reading.names.join());
  assert.equal(reading.names.filter((name) => name.startsWith("post_")).length, 0);
  assert.doesNotMatch(reading.printed, /MCP/, "the default is not announced");
  const acting = await listed(["--mcp-actions"]);
  assert.ok(acting.names.includes("post_jobs_jobId_retry"), acting.names.join());
  assert.ok(acting.names.includes("post_bulk"));
  assert.match(
    acting.printed,
    /\(mutations on, login off, redaction off, MCP actions on; live demo/,
  );

  const { child, port, printed, lines } = await startDemo([], { BOARD_MCP: "0" });
  try {
    assert.match(printed, /redaction off, MCP off; live demo/);
    const response = await fetch(`http://127.0.0.1:${port}/board/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    // No endpoint: the page fallback's refusal of a POST, no JSON-RPC answer.
    assert.equal(response.status, 405);
    assert.doesNotMatch(await response.text(), /jsonrpc|tools/);
  } finally {
    child.kill("SIGTERM");
    await lines.cancel();
    await child.stderr.cancel();
    await child.status;
  }
});

Deno.test("--mcp-tokens through the CLI: each agent's token opens the tools of its user's role; an unknown one is 401", async () => {
  const dir = await Deno.makeTempDir();
  const sha256 = async (text: string) =>
    Array.from(
      new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))),
      (byte) => byte.toString(16).padStart(2, "0"),
    ).join("");
  const password = await hashPassword("unused", MIN_ITERATIONS);
  await Deno.writeTextFile(
    `${dir}/users.json`,
    JSON.stringify([
      { name: "ops", role: "operator", password },
      { name: "vic", role: "viewer", password },
    ]),
  );
  await Deno.writeTextFile(
    `${dir}/tokens.json`,
    JSON.stringify({
      [await sha256("oncall-token")]: "ops",
      [await sha256("triage-token")]: "vic",
    }),
  );
  const { child, port, lines } = await startDemo(
    ["--users", `${dir}/users.json`, "--mcp-tokens", `${dir}/tokens.json`, "--mcp-actions"],
    { BOARD_COOKIE_SECRET: "s".repeat(32) },
  );
  const url = `http://127.0.0.1:${port}/board/mcp`;
  const toolsOf = async (token: string) => {
    let names: string[] = [];
    await withClient({ url }, { authorization: `Bearer ${token}` }, async (client) => {
      names = await toolNames(client);
    });
    return names;
  };
  try {
    assert.ok((await toolsOf("oncall-token")).includes("post_jobs_jobId_retry"), "the operator's");
    const viewer = await toolsOf("triage-token");
    assert.ok(viewer.includes("get_overview"));
    assert.ok(!viewer.includes("post_jobs_jobId_retry"), "a viewer may not retry");
    const unknown = await fetch(url, {
      method: "POST",
      headers: {
        authorization: "Bearer guessed-token",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    await unknown.body?.cancel();
    assert.equal(unknown.status, 401);
  } finally {
    child.kill("SIGTERM");
    await lines.cancel();
    await child.stderr.cancel();
    await child.status;
    await Deno.remove(dir, { recursive: true });
  }
});
