/**
 * `redact` covers an error taskora stores as plain text (the message a
 * handler threw), not only a JSON one: a real taskora 0.5.0 worker on Redis
 * fails a job with `password=hunter2` in its message, and with
 * `redact: ["password"]` no answer holds the value, not the job page, the
 * task's failed list, the dead-letter groups or the history, and a history
 * search for it finds nothing.
 */

// deno-lint-ignore-file no-explicit-any
import assert from "node:assert/strict";
import { waitFor } from "../helpers/wait_for.ts";
import { taskOf, waitForState, withApp } from "./harness.ts";

const SECRET = "hunter2";
const SHOWN = "login refused: password=[REDACTED] for ada";

/** A task whose one attempt fails with the secret in its plain-text error. */
function login(app: any) {
  app.task("login", {
    retry: { attempts: 1 },
    handler: (_data: unknown, ctx: { heartbeat(): void }) => {
      // Renewing the lock before the end keeps taskora's stall check from running it again.
      ctx.heartbeat();
      throw new Error(`login refused: password=${SECRET} for ada`);
    },
  });
}

Deno.test("a plain-text error's redacted value shows nowhere: job page, list, dead letters, history", async () => {
  await withApp("redis", login, async (world) => {
    const id = String(await taskOf(world.app, "login").dispatch({ user: "ada" }));
    const page = await waitForState(world, id, "failed");
    assert.equal(page.error, SHOWN, "the job page");
    const summary = await waitFor(async () => {
      const { status, body } = await world.get(`/history/tasks/login/jobs/${id}`);
      return status === 200 && body;
    }, { what: "the failure recorded" });
    assert.deepEqual(summary.attempts.map((attempt: any) => attempt.error), [SHOWN]);
    const answers = {
      page,
      summary,
      list: await world.get("/tasks/login/jobs?state=failed"),
      deadLetters: await world.get("/dlq"),
      history: await world.get("/history/jobs?task=login"),
      attempts: await world.get(`/jobs/${id}/attempts`),
    };
    for (const [name, answer] of Object.entries(answers)) {
      const text = JSON.stringify(answer);
      assert.ok(!text.includes(SECRET), `${name}: ${text}`);
    }
    assert.equal(answers.list.body[0].error, SHOWN);
    assert.equal(answers.deadLetters.body.groups.length, 1);
    const found = await world.get(`/history/jobs?error=${SECRET}`);
    assert.equal(found.status, 200);
    assert.deepEqual(found.body.jobs, [], "no job is found by the value redaction hides");
  }, { boardOn: "url", board: { redact: ["password"], history: true } });
});
