/**
 * Which board evaluates the alerts: two CLI boards on one Redis, one plain
 * (no `--alerts`) that leads the board's background work (a client watches
 * its event stream), one with a rules file. The rules are known to the
 * second board only, so it must evaluate them while the plain one leads.
 */

import assert from "node:assert/strict";
import type { AlertNotice, AlertsOverview } from "../../src/contract/alerts.ts";
import { writeBacklogAlertsFile } from "../helpers/backlog_alerts_file.ts";
import { type BoardProcesses, startBoardProcesses } from "../helpers/board_processes.ts";
import { startRedis, withClient } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { webhookReceiver } from "../helpers/webhook_receiver.ts";
import { createTaskora, redisAdapter } from "../../../shared/taskora/taskora.js";

/** The board lease in Redis (`<root>:board:lease:<name>`, see `boardKeys`). */
const BOARD_LEASE_KEY = "taskora:board:lease:board";
/** Board processes start, take leases and pass every 5 s: a guard against a hang only. */
const LIMIT_MS = 60_000;

/** Opens a board's event stream, read and dropped: a watched board competes for the lead. */
async function watch(origin: string): Promise<() => Promise<void>> {
  const response = await fetch(`${origin}/board/api/events`);
  assert.equal(response.status, 200);
  const reader = response.body!.getReader();
  const reading = (async () => {
    while (!(await reader.read()).done);
  })().catch(() => {});
  return async () => {
    await reader.cancel();
    await reading;
  };
}

Deno.test("a board's rules are evaluated while a board without alerts leads the others", async () => {
  const redis = await startRedis();
  const hook = webhookReceiver();
  const { path: file, remove } = await writeBacklogAlertsFile(hook.url);
  const app = createTaskora({ adapter: redisAdapter(redis.url) });
  const mail = app.task("mail", { handler: () => {} });
  const started: BoardProcesses[] = [];
  let unwatch = () => Promise.resolve();
  try {
    for (let i = 0; i < 5; i++) await mail.dispatch({ i }).ensureEnqueued();
    const plain = await startBoardProcesses({ count: 1, cliArgs: ["--redis", redis.url] });
    started.push(plain);
    const [{ origin: plainOrigin }] = plain.boards;
    unwatch = await watch(plainOrigin);
    await waitFor(
      () => withClient(redis.url, async (client) => await client.get(BOARD_LEASE_KEY) !== null),
      { what: "the plain board to lead", limitMs: LIMIT_MS },
    );
    const withRules = await startBoardProcesses({
      count: 1,
      cliArgs: ["--redis", redis.url, "--alerts", file],
    });
    started.push(withRules);
    const [{ origin }] = withRules.boards;

    const notices = () => hook.received.map((r) => JSON.parse(r.body) as AlertNotice);
    await waitFor(() => notices().length > 0, { what: "the firing notice", limitMs: LIMIT_MS });
    assert.deepEqual(
      notices().map((n) => [n.rule, n.state, n.task, n.figure]),
      [["mail backlog", "firing", "mail", 5]],
    );
    const overview: AlertsOverview = await (await fetch(`${origin}/board/api/alerts`)).json();
    assert.notEqual(overview.asOf, null);
    assert.deepEqual(overview.rules.map((rule) => [rule.name, rule.state]), [
      ["mail backlog", "firing"],
    ]);
    assert.equal(
      await withClient(redis.url, (client) => client.get(BOARD_LEASE_KEY)) !== null,
      true,
      "the plain board still leads the board's other work",
    );
  } finally {
    await unwatch();
    await app.close();
    for (const processes of started) await processes.stop();
    await hook.close();
    await remove();
    await redis.stop();
  }
});
