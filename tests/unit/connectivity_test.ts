import assert from "node:assert/strict";
import { createConnectivity } from "../../ui/lib/connectivity.ts";

Deno.test("connectivity is live once the stream opens and Redis answers", () => {
  const link = createConnectivity();
  assert.equal(link.status.value, "connecting");
  link.streamOpened();
  link.statsReceived({ connected: true, at: 1000 });
  assert.equal(link.status.value, "live");
  assert.equal(link.asOf.value, null);
  assert.equal(link.recoveries.value, 0, "the first open is no recovery");
});

Deno.test("a stats frame without Redis marks the data stale as of the last good read", () => {
  const link = createConnectivity();
  link.streamOpened();
  link.statsReceived({ connected: true, at: 1000 });
  link.statsReceived({ connected: true, at: 4000 });
  link.statsReceived({ connected: false, at: 4000 });
  assert.equal(link.status.value, "store-down");
  assert.equal(link.asOf.value, 4000);
  link.statsReceived({ connected: false, at: 4000 });
  assert.equal(link.asOf.value, 4000, "the age stays frozen while Redis is down");

  link.statsReceived({ connected: true, at: 13_000 });
  assert.equal(link.status.value, "live");
  assert.equal(link.asOf.value, null);
  assert.equal(link.recoveries.value, 1, "views reload once on the first good frame");
  link.statsReceived({ connected: true, at: 16_000 });
  assert.equal(link.recoveries.value, 1);
});

Deno.test("a STORE_UNAVAILABLE answer says Redis is down before any frame does", () => {
  const link = createConnectivity();
  link.streamOpened();
  link.requestEnded("ok");
  link.requestEnded("store-down");
  assert.equal(link.status.value, "store-down");
  assert.ok(link.asOf.value !== null && link.asOf.value <= Date.now());
  link.requestEnded("answered");
  assert.equal(link.status.value, "store-down", "a 404 says nothing about Redis");
  link.requestEnded("ok");
  assert.equal(link.status.value, "live");
  assert.equal(link.recoveries.value, 1);
});

Deno.test("the stream down with the board answering is polling; no answer at all is offline", () => {
  const link = createConnectivity();
  link.streamOpened();
  link.streamFailed();
  assert.equal(link.status.value, "polling");
  link.requestEnded("ok");
  assert.equal(link.status.value, "polling");
  link.requestEnded("unreachable");
  assert.equal(link.status.value, "offline");
  assert.notEqual(link.asOf.value, null);

  link.streamOpened();
  assert.equal(link.status.value, "live");
  assert.equal(link.recoveries.value, 1, "back from offline and a reopened stream: one reload");
});

Deno.test("a frame from a board that never read Redis gives no age", () => {
  const link = createConnectivity();
  link.streamOpened();
  link.statsReceived({ connected: false, at: null });
  assert.equal(link.status.value, "store-down");
  assert.equal(link.asOf.value, null);
});
