/**
 * What an open tab asks the board while jobs run, in a real browser on real
 * Redis holding the taskora fixture, with the page's clock under the test's
 * control: job events arrive on the event stream one per page second for
 * 30 page seconds, and the requests the page makes meanwhile are counted.
 * Views that job events do not change follow the stream and poll at most
 * every 30 s.
 *
 * Fixture facts used below: `d8e1df37…` is an active `transcode` job; the
 * `heartbeat` schedule runs the `report` task, its last run `49e833ba…`.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { connectClient } from "../helpers/redis_server.ts";
import { type BoardPage, browserTest, withBoard } from "./harness.ts";

const ACTIVE_TRANSCODE = "d8e1df37-39dd-4863-9508-f7c9bd517880";
const HEARTBEAT_LAST_JOB = "49e833ba-6ef4-41a3-9c4a-827a99ffcd1b";
/** Page seconds the jobs run for while requests are counted. */
const SECONDS = 30;

/** Counts the job events the page's EventSource hands to the page. */
function countJobEvents(): void {
  const add = EventSource.prototype.addEventListener;
  const counted = globalThis as unknown as { __jobEvents: number };
  counted.__jobEvents = 0;
  EventSource.prototype.addEventListener = function (
    this: EventSource,
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ) {
    if (!type.startsWith("job:")) return add.call(this, type, listener, options);
    const handle = typeof listener === "function" ? listener : listener.handleEvent.bind(listener);
    return add.call(this, type, (event: Event) => {
      counted.__jobEvents++;
      handle(event);
    }, options);
  } as typeof EventSource.prototype.addEventListener;
}

const jobEventsSeen = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { __jobEvents: number }).__jobEvents);

/**
 * Writes one job event of `task` per page second for {@link SECONDS}
 * seconds (each one seen by the page before its clock moves on), and
 * returns how many requests to `apiPath` the page made meanwhile.
 */
async function requestsWhileJobsRun(
  { page, redis }: BoardPage,
  apiPath: string,
  event: (second: number) => Record<string, string>,
  task: string,
): Promise<number> {
  const writer = await connectClient(redis.url);
  let requests = 0;
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.endsWith(`/api/${apiPath}`)) requests++;
  });
  try {
    for (let second = 0; second < SECONDS; second++) {
      const seen = await jobEventsSeen(page);
      await writer.xAdd(`taskora:{${task}}:events`, "*", event(second));
      // Delivery is real I/O: wait for it in real time, then move the page's clock.
      for (let tries = 0; tries < 100 && await jobEventsSeen(page) === seen; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.ok(await jobEventsSeen(page) > seen, `event ${second} reached the page`);
      await page.clock.runFor(1000);
    }
  } finally {
    await writer.close();
  }
  return requests;
}

/**
 * Opens `url` with the clock installed and the stream live, then stops the
 * clock: from here only the test moves it, however long delivery takes.
 */
async function openLive(page: Page, url: string, ready: string): Promise<void> {
  await page.addInitScript(countJobEvents);
  await page.clock.install();
  await page.goto(url);
  await page.getByText(ready).first().waitFor();
  await page.locator(".live-live").waitFor();
  // The page's clock runs on while this reaches it: pause a little ahead of now, never behind.
  await page.clock.pauseAt(await page.evaluate(() => Date.now()) + 2_000);
}

browserTest(
  "a job page asks for the migration lock at most once in 30 s of running jobs",
  async () => {
    await withBoard({}, async (ctx) => {
      await openLive(ctx.page, `${ctx.root}jobs/${ACTIVE_TRANSCODE}`, "transcode");
      const asked = await requestsWhileJobsRun(
        ctx,
        "migration-lock",
        (second) => ({ event: "progress", jobId: ACTIVE_TRANSCODE, value: String(second) }),
        "transcode",
      );
      assert.ok(asked <= 1, `${asked} requests to /migration-lock in ${SECONDS} s`);
    });
  },
);

browserTest(
  "the schedules page re-reads its list at most once in 30 s of scheduled runs",
  async () => {
    await withBoard({}, async (ctx) => {
      await openLive(ctx.page, `${ctx.root}schedules`, "heartbeat");
      const asked = await requestsWhileJobsRun(
        ctx,
        "schedules",
        // The schedule's task runs: new jobs, and its last run finishing.
        (second): Record<string, string> =>
          second % 2 === 0
            ? { event: "waiting", jobId: `run-${second}` }
            : { event: "completed", jobId: HEARTBEAT_LAST_JOB, duration: "5", result: "null" },
        "report",
      );
      assert.ok(asked <= 1, `${asked} requests to /schedules in ${SECONDS} s`);
    });
  },
);
