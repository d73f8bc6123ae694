/**
 * What a test process killed with SIGKILL (a test group past its time
 * limit) leaves behind: nothing. Run by `deno run`, this file plays the
 * killed test: it starts a redis-server, a PostgreSQL server and a board
 * process through the helpers, prints their ports, and waits to be killed.
 * Its test starts it in a process group of its own (`setsid`), kills the
 * process alone, and waits for every port to close; the group is killed
 * afterwards whatever happened, so a failing run leaves nothing either.
 */

import assert from "node:assert/strict";
import { startBoardProcesses } from "../helpers/board_processes.ts";
import { startPostgres } from "../helpers/postgres_server.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";

/** What the killed process started, as it prints it. */
interface Started {
  what: string;
  port: number;
}

/** Whether something listens on `port` of 127.0.0.1. */
async function listening(port: number): Promise<boolean> {
  try {
    (await Deno.connect({ hostname: "127.0.0.1", port })).close();
    return true;
  } catch {
    return false;
  }
}

/** The test process: starts one of each, prints what it started, and waits to be killed. */
async function playKilledTest(): Promise<void> {
  const redis = await startRedis();
  const postgres = await startPostgres();
  const { boards: [board] } = await startBoardProcesses({
    count: 1,
    cliArgs: ["--redis", redis.url],
  });
  const started: Started[] = [
    { what: "redis-server", port: redis.port },
    { what: "postgres", port: postgres.port },
    { what: "board process", port: board.port },
  ];
  console.log(JSON.stringify(started));
  setInterval(() => {}, 60_000); // until killed
}

/** The first line `child` prints, parsed. */
async function firstLine(child: Deno.ChildProcess): Promise<Started[]> {
  let text = "";
  for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
    text += chunk;
    if (text.includes("\n")) break;
  }
  return JSON.parse(text.slice(0, text.indexOf("\n")));
}

if (import.meta.main) await playKilledTest();

Deno.test("a test process killed with SIGKILL leaves no redis-server, postgres or board process running", async () => {
  const child = new Deno.Command("setsid", {
    args: [Deno.execPath(), "run", "--allow-all", import.meta.filename!],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  try {
    const started = await firstLine(child);
    for (const { what, port } of started) assert.ok(await listening(port), `${what} listens`);
    Deno.kill(child.pid, "SIGKILL");
    await child.status;
    const left = async () => {
      const open = await Promise.all(started.map(({ port }) => listening(port)));
      return started.filter((_, i) => open[i]).map(({ what, port }) => `${what} (${port})`);
    };
    await waitFor(async () => (await left()).length === 0, {
      what: `${started.map(({ what }) => what).join(", ")} to be gone with the killed process`,
    }).catch(async (error) => {
      throw new Error(`still listening: ${(await left()).join(", ")}`, { cause: error });
    });
  } finally {
    // setsid made the child a group's leader: what it left, if anything, goes with the group.
    try {
      Deno.kill(-child.pid, "SIGKILL");
    } catch {
      // nothing left in it
    }
    await child.status;
  }
});
