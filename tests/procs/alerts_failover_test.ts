/**
 * Alert evaluation across board processes: two CLI boards (`--alerts FILE`)
 * on one Redis, a local receiver, and a `backlog` rule on jobs a real
 * taskora App enqueues with no worker running. The board that sent the
 * firing notice is killed with SIGKILL while the alert fires: the other
 * takes the lease over and tells nothing again (the states and what was
 * told are in Redis); once a real worker drains the jobs, the resolve
 * arrives, once.
 */

import assert from "node:assert/strict";
import type { AlertNotice, AlertsOverview } from "../../src/contract/alerts.ts";
import {
  BACKLOG_EVALUATE_EVERY_MS,
  writeBacklogAlertsFile,
} from "../helpers/backlog_alerts_file.ts";
import {
  type BoardProcesses,
  SHORT_LEASE,
  startBoardProcesses,
} from "../helpers/board_processes.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { webhookReceiver } from "../helpers/webhook_receiver.ts";
import { createTaskora, redisAdapter } from "../../../shared/taskora/taskora.js";

const EVERY_MS = BACKLOG_EVALUATE_EVERY_MS;
/**
 * The lease runs out 3 s (`SHORT_LEASE`) after the killed leader last renewed it; a pass
 * follows within 5 s. A guard against a hang only.
 */
const TAKEOVER_LIMIT_MS = 60_000;

Deno.test("kill -9 the leader while a rule fires: the other board takes over, tells nothing twice, and the resolve arrives once", async () => {
  const redis = await startRedis();
  const hook = webhookReceiver();
  const { path: file, remove } = await writeBacklogAlertsFile(hook.url);
  const app = createTaskora({ adapter: redisAdapter(redis.url) });
  let done = 0;
  const mail = app.task("mail", { handler: () => void done++ });
  const started: BoardProcesses[] = [];
  const start = async () => {
    const processes = await startBoardProcesses({
      count: 1,
      cliArgs: ["--redis", redis.url, "--alerts", file, ...SHORT_LEASE],
    });
    started.push(processes);
    return processes.boards[0];
  };
  const notices = () => hook.received.map((r) => JSON.parse(r.body) as AlertNotice);
  const overviewOf = async (origin: string): Promise<AlertsOverview> =>
    await (await fetch(`${origin}/board/api/alerts`)).json();
  try {
    for (let i = 0; i < 5; i++) await mail.dispatch({ i }).ensureEnqueued();
    // The first board alone: it leads, evaluates and tells the firing.
    const first = await start();
    await waitFor(() => notices().some((n) => n.state === "firing"), {
      what: "the firing notice from the first board",
      limitMs: TAKEOVER_LIMIT_MS,
    });
    const [firing] = notices();
    assert.deepEqual([firing.rule, firing.task, firing.figure], ["mail backlog", "mail", 5]);
    const second = await start();

    await first.kill();
    const killedAt = Date.now();
    // The second board takes the lease once it runs out, and evaluates: twice, to be sure.
    await waitFor(async () => {
      const { asOf } = await overviewOf(second.origin);
      return asOf !== null && asOf > killedAt + EVERY_MS;
    }, { what: "two passes of the second board after the kill", limitMs: TAKEOVER_LIMIT_MS });
    const stillFiring = await overviewOf(second.origin);
    assert.deepEqual([stillFiring.firing, stillFiring.rules[0].state], [1, "firing"]);
    assert.deepEqual(notices().map((n) => [n.key, n.state]), [[firing.key, "firing"]], "told once");

    // A real worker drains the queue: the next pass resolves, and says so once.
    await app.start();
    await waitFor(() => done === 5, { what: "the worker to run the five jobs" });
    await waitFor(() => notices().some((n) => n.state === "resolved"), {
      what: "the resolve notice",
      limitMs: TAKEOVER_LIMIT_MS,
    });
    // A pass's asOf is its start, before it tells: the resolving pass's is before this.
    const resolvedAt = Date.now();
    await waitFor(async () => ((await overviewOf(second.origin)).asOf ?? 0) > resolvedAt, {
      what: "a pass after the resolve",
      limitMs: TAKEOVER_LIMIT_MS,
    });
    assert.deepEqual(notices().map((n) => [n.key, n.state]), [
      [firing.key, "firing"],
      [firing.key, "resolved"],
    ]);
  } finally {
    await app.close();
    for (const processes of started) await processes.stop();
    await hook.close();
    await remove();
    await redis.stop();
  }
});
