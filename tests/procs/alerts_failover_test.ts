/**
 * Alert evaluation across board processes: two CLI boards (`--alerts FILE`)
 * started at once on one Redis, a local receiver, and a `backlog` rule on jobs a real
 * taskora App enqueues with no worker running. The board that sent the
 * firing notice is killed with SIGKILL while the alert fires: the other
 * takes the lease over and tells nothing again (the states and what was
 * told are in Redis); once a real worker drains the jobs, the resolve
 * arrives, once.
 */

import assert from "node:assert/strict";
import type { AlertNotice, AlertsOverview } from "../../src/contract/alerts.ts";
import { writeBacklogAlertsFile } from "../helpers/backlog_alerts_file.ts";
import {
  type BoardProcesses,
  SHORT_LEASE,
  startBoardProcesses,
} from "../helpers/board_processes.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { ownerOfLocalPort } from "../helpers/socket_owner.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { webhookReceiver } from "../helpers/webhook_receiver.ts";
import { createTaskora, redisAdapter } from "../../../shared/taskora/taskora.js";

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
  const notices = () => hook.received.map((r) => JSON.parse(r.body) as AlertNotice);
  const overviewOf = async (origin: string): Promise<AlertsOverview> =>
    await (await fetch(`${origin}/board/api/alerts`)).json();
  let processes: BoardProcesses | null = null;
  try {
    for (let i = 0; i < 5; i++) await mail.dispatch({ i }).ensureEnqueued();
    // Both boards at once: one takes the lease, evaluates and tells the firing.
    processes = await startBoardProcesses({
      count: 2,
      cliArgs: ["--redis", redis.url, "--alerts", file, ...SHORT_LEASE],
    });
    const { boards } = processes;
    await waitFor(() => notices().some((n) => n.state === "firing"), {
      what: "the firing notice from the leading board",
      limitMs: TAKEOVER_LIMIT_MS,
    });
    const [firing] = notices();
    assert.deepEqual([firing.rule, firing.task, firing.figure], ["mail backlog", "mail", 5]);
    // The leader is the board that sent it: the one holding the connection the notice came on.
    const leaderPid = await ownerOfLocalPort(
      hook.received[0].senderPort,
      boards.map((board) => board.pid),
    );
    const leader = boards.find((board) => board.pid === leaderPid);
    const second = boards.find((board) => board !== leader);
    assert.ok(leader && second, "one of the two boards sent the firing notice");

    await leader.kill();
    const killedAt = Date.now();
    // The second board takes the lease once it runs out, and evaluates: the pass that would
    // tell the firing again if the states were not shared (a twin fails the last assertion).
    await waitFor(async () => {
      const { asOf } = await overviewOf(second.origin);
      return asOf !== null && asOf > killedAt;
    }, { what: "a pass of the second board after the kill", limitMs: TAKEOVER_LIMIT_MS });
    const stillFiring = await overviewOf(second.origin);
    assert.deepEqual([stillFiring.firing, stillFiring.rules[0].state], [1, "firing"]);

    // A real worker drains the queue: the next pass resolves, and says so once; the notices of
    // the takeover's pass, a period earlier, are all in by then.
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
    await processes?.stop();
    await hook.close();
    await remove();
    await redis.stop();
  }
});
