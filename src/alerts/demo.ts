/**
 * The alert rules of the CLI's live demo (no Redis configured), so a
 * newcomer sees the Alerts page evaluate rules, fire and resolve on the
 * simulated deployment rather than "Alerts are off". Its one sink posts to
 * a closed local port: a notice is reported failed at once, never sent
 * anywhere (the history says so).
 *
 * @module
 */

import type { AlertsFile } from "../contract/alerts.ts";

/** The demo's alerts: a rule that fires on the busier simulated tasks, two that stay calm. */
export const DEMO_ALERTS: AlertsFile = {
  evaluateEvery: "5s",
  sinks: [{
    name: "demo",
    type: "webhook",
    // Port 9 (discard) on loopback: refused at once, nothing leaves the machine.
    url: "http://127.0.0.1:9/queue-board-demo",
    secret: "queue-board-demo-secret-not-for-real-use",
    retries: 0,
  }],
  rules: [
    { name: "Failed jobs piling up", kind: "failed", threshold: 10, sinks: ["demo"] },
    { name: "Backlog", kind: "backlog", threshold: 100, for: "1m", sinks: ["demo"] },
    { name: "Queue stuck", kind: "noProgress", threshold: "5m", sinks: ["demo"] },
  ],
};
