/**
 * Trace links in a real browser: a job dispatched to a real taskora App
 * through `withTraceparent()` inside an OpenTelemetry span, failing its
 * first attempt, shows on its page a Trace link (header and each attempt)
 * and a Logs link (header: the last attempt; each attempt: its own); clicking the trace link opens the tracing tool (a
 * stand-in served by the browser's routing) at that span's trace id.
 */

// deno-lint-ignore-file no-explicit-any
import assert from "node:assert/strict";
import { createTaskora, redisAdapter } from "../../../shared/taskora/taskora.js";
import { dispatchInSpan, setUpOpenTelemetry } from "../helpers/open_telemetry.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { browserTest, withBoard } from "./harness.ts";

const tracing = {
  traceUrl: "https://tempo.example/trace/{traceId}",
  logsUrl: "https://grafana.example/explore?from={from}&to={to}&job={jobId}",
};

browserTest("a job dispatched in a span links to that span's trace from its page", async () => {
  const tearDown = setUpOpenTelemetry();
  try {
    await withBoard({ tracing }, async ({ page, redis, root }) => {
      const app: any = createTaskora({ adapter: redisAdapter(redis.url) });
      let runs = 0;
      const mail = app.task("traced-mail", {
        retry: { attempts: 2, backoff: "fixed", delay: 1 },
        handler: () => {
          runs += 1;
          if (runs === 1) throw new Error("first try fails");
          return "sent";
        },
      });
      await app.start();
      try {
        const { id, traceId } = await dispatchInSpan(mail, { to: "ada" });
        await waitFor(() => runs === 2 || undefined, { what: "the second attempt" });
        const traceUrl = `https://tempo.example/trace/${traceId}`;
        const logsOf = new RegExp(
          `^https://grafana\\.example/explore\\?from=\\d+&to=\\d+&job=${id}$`,
        );
        await page.context().route(
          "https://tempo.example/**",
          (route) => route.fulfill({ contentType: "text/html", body: "<title>trace</title>" }),
        );

        await page.goto(`${root}jobs/${id}`);
        await page.getByText("Completed", { exact: true }).first().waitFor();
        const trace = page.getByRole("link", { name: "Open the job's trace" });
        assert.equal(await trace.getAttribute("href"), traceUrl);
        assert.equal(await trace.getAttribute("rel"), "noopener noreferrer");
        const logs = page.getByRole("link", { name: "Open the logs of the job's last attempt" });
        assert.match(
          (await logs.getAttribute("href"))!,
          logsOf,
        );
        const [opened] = await Promise.all([page.waitForEvent("popup"), trace.click()]);
        await opened.waitForLoadState();
        assert.equal(opened.url(), traceUrl);
        await opened.close();

        await page.getByRole("tab", { name: /Attempts/ }).click();
        const attemptTrace = page.getByRole("link", { name: "Open the trace of attempt 1" });
        assert.equal(await attemptTrace.getAttribute("href"), traceUrl);
        const attemptLogs = page.getByRole("link", { name: "Open the logs of attempt 1" });
        assert.match(
          (await attemptLogs.getAttribute("href"))!,
          logsOf,
        );
      } finally {
        await app.close();
      }
    });
  } finally {
    tearDown();
  }
});
