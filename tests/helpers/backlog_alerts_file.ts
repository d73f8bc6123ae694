/**
 * The alerts file the multi-process tests start CLI boards with
 * (`--alerts FILE`): one sink, a local receiver, and one `backlog` rule
 * about the `mail` task that fires above 2 waiting jobs.
 *
 * @module
 */

import type { AlertsFile } from "../../src/contract/alerts.ts";

/** How often the file's rules are evaluated, ms. */
export const BACKLOG_EVALUATE_EVERY_MS = 5000;

/**
 * Writes the file to a temporary path; `remove` deletes it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeBacklogAlertsFile } from "./backlog_alerts_file.ts";
 * const { path, remove } = await writeBacklogAlertsFile("http://127.0.0.1:9/hook");
 * assert.equal(JSON.parse(await Deno.readTextFile(path)).rules[0].name, "mail backlog");
 * await remove();
 * ```
 */
export async function writeBacklogAlertsFile(
  hookUrl: string,
): Promise<{ path: string; remove: () => Promise<void> }> {
  const alerts: AlertsFile = {
    evaluateEvery: BACKLOG_EVALUATE_EVERY_MS,
    sinks: [{ name: "ops", type: "webhook", url: hookUrl, secret: "s".repeat(32) }],
    rules: [{
      name: "mail backlog",
      kind: "backlog",
      tasks: ["mail"],
      threshold: 2,
      sinks: ["ops"],
    }],
  };
  const path = await Deno.makeTempFile({ suffix: ".json" });
  await Deno.writeTextFile(path, JSON.stringify(alerts));
  return { path, remove: () => Deno.remove(path) };
}
