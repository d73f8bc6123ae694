import assert from "node:assert/strict";
import { type BoundedRun, runBounded } from "../../scripts/bounded_command.ts";
import { waitFor } from "../helpers/wait_for.ts";

/** Whether process `pid` still runs (a zombie has ended: it only waits to be reaped). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(Deno.readTextFileSync(`/proc/${pid}/stat`));
  } catch {
    return false;
  }
}

/** The pid a command wrote to `file`, once it has. */
async function pidIn(file: string): Promise<number> {
  return await waitFor(async () => Number(await Deno.readTextFile(file).catch(() => "")) || null, {
    what: `a pid in ${file}`,
  });
}

/**
 * Runs `script` under `bash` with `runBounded` (output captured), `$1`
 * naming a file it may write a pid to, and hands `body` the run (not
 * awaited), that file and the run's limit.
 */
async function withBashRun(
  script: string,
  body: (run: Promise<BoundedRun>, pidFile: string, limit: AbortController) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "bounded-command-" });
  const limit = new AbortController();
  const pidFile = `${dir}/pid`;
  try {
    const run = runBounded("bash", ["-c", script, "bash", pidFile], {
      capture: true,
      limit: limit.signal,
    });
    await body(run, pidFile, limit);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("runBounded() at its limit kills what the command started too, not only the command", async () => {
  // A test group's deno test and the redis-server one of its tests started.
  const script = 'sleep 600 >/dev/null 2>&1 & echo $! > "$1"; wait';
  await withBashRun(script, async (run, pidFile, limit) => {
    const server = await pidIn(pidFile);
    limit.abort();
    const { success, timedOut } = await run;
    assert.equal(success, false);
    assert.equal(timedOut, true);
    await waitFor(() => !running(server), { what: `process ${server} to be killed` });
  });
});

Deno.test("runBounded() leaves nothing running after a command that ended on its own", async () => {
  // A test that left its server running when its file ended.
  const script = 'sleep 600 >/dev/null 2>&1 & echo $! > "$1"; echo done';
  await withBashRun(script, async (run, pidFile) => {
    const { success, timedOut, output } = await run;
    assert.equal(success, true);
    assert.equal(timedOut, false);
    assert.equal(output, "done\n");
    const left = await pidIn(pidFile);
    await waitFor(() => !running(left), { what: `process ${left} to be killed` });
  });
});

Deno.test("runBounded() at its limit lets deno test name the tests still running before it is killed", async () => {
  // With --parallel, deno test prints a test only when it ends: killed outright, a hung test
  // left no trace in the output.
  const dir = await Deno.makeTempDir({ prefix: "bounded-command-" });
  try {
    const started = `${dir}/started`;
    await Deno.writeTextFile(
      `${dir}/hangs_test.ts`,
      `Deno.test("the alert fires", async () => {
        await Deno.writeTextFile(${JSON.stringify(started)}, "yes");
        await new Promise(() => setInterval(() => {}, 60_000));
      });\n`,
    );
    const limit = new AbortController();
    const run = runBounded(Deno.execPath(), ["test", "-A", "--no-check", "--parallel", dir], {
      capture: true,
      env: { NO_COLOR: "1" },
      limit: limit.signal,
    });
    await waitFor(() => Deno.readTextFile(started), { what: "the hung test to start" });
    limit.abort();
    const { success, timedOut, output } = await run;
    assert.equal(success, false);
    assert.equal(timedOut, true);
    assert.match(output, /pending:\s+the alert fires => \S*hangs_test\.ts:1:6/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
