/**
 * `auditRefusals` records what is turned away before the audit middleware:
 * a 429 from anything in front of the API (with its own code, if it names
 * one), within each client's limit; answers that are not refusals are left
 * to the audit middleware.
 */

import assert from "node:assert/strict";
import { Hono } from "hono";
import { auditRefusals } from "../../src/audit/gate.ts";
import { auditedRoutes } from "../../src/audit/route_actions.ts";
import type { ApiDeps } from "../../src/api/deps.ts";
import { createApi } from "../../src/api/mod.ts";
import { createAuditTrail } from "../../src/audit/trail.ts";
import { REFUSALS_PER_MINUTE } from "../../src/audit/client_limit.ts";
import { createPresenter } from "../../src/contract/present.ts";
import { resolveOptions } from "../../src/options.ts";
import { createMemoryBoardStore } from "../../src/store/memory/mod.ts";

function gatedApp() {
  const trail = createAuditTrail(createMemoryBoardStore(), 1_000, { now: () => 0 });
  const app = new Hono();
  app.use(
    "/api/*",
    auditRefusals({
      trail,
      present: createPresenter(resolveOptions({})),
      basePath: "/",
      trustProxy: true,
      routes: auditedRoutes(createApi({ options: resolveOptions({}) } as ApiDeps)),
    }),
  );
  app.post("/api/schedules/:name/pause", (c) => c.json({ error: "Slow down", code: "SLOW" }, 429));
  app.get("/api/overview", (c) => c.text("busy", 429));
  app.get("/api/tasks", (c) => c.json({ error: "No", code: "NOT_FOUND" }, 404));
  return { app, trail };
}

Deno.test("a 429 in front of the API is recorded with its code, per client within the limit", async () => {
  const { app, trail } = gatedApp();
  const from = (address: string) => ({ headers: { "x-forwarded-for": address } });
  assert.equal((await app.request("/api/schedules/nightly/pause", { method: "POST" })).status, 429);
  for (let n = 0; n < 100; n++) await app.request("/api/overview", from("10.0.0.1"));
  await app.request("/api/overview", from("10.0.0.2"));
  assert.equal((await app.request("/api/tasks")).status, 404);

  const { entries } = await trail.list({ limit: 200 });
  assert.equal(entries.length, 1 + REFUSALS_PER_MINUTE + 1, "the 404 is the audit middleware's");
  assert.deepEqual(
    [entries[0], entries.at(-1)!].map((e) => [e.action, e.target, e.status, e.code]),
    [
      ["access.refused", "GET /overview", 429, "TOO_MANY_REQUESTS"],
      ["schedule.pause", "nightly", 429, "SLOW"],
    ],
  );
});

Deno.test("refusals from the addresses of one IPv6 /64 are counted as one client's", async () => {
  const { app, trail } = gatedApp();
  // A host holds a whole /64: counted per address, it would get a budget per address.
  for (let n = 1; n <= 100; n++) {
    await app.request("/api/overview", { headers: { "x-forwarded-for": `2001:db8:7:9::${n}` } });
  }
  await app.request("/api/overview", { headers: { "x-forwarded-for": "2001:db8:7:a::1" } });
  const { entries } = await trail.list({ limit: 200 });
  assert.equal(entries.length, REFUSALS_PER_MINUTE + 1, "the /64, then another /64");
});
