import assert from "node:assert/strict";
import { REDACTED } from "../../src/contract/masks.ts";
import { draftOf, maskedPaths, patchOf } from "../../ui/pages/schedules/schedule_patch.ts";

const config = {
  task: "sync",
  every: 60_000,
  data: { region: "eu", token: REDACTED, targets: [{ url: "a", token: REDACTED }] },
};

Deno.test("maskedPaths() names every field of the data shown masked, in order", () => {
  assert.deepEqual(maskedPaths(config.data), ["token", "targets.0.token"]);
  assert.deepEqual(maskedPaths({ region: "eu" }), []);
  assert.deepEqual(maskedPaths(undefined), []);
});

Deno.test("patchOf() sends data edited around its masks: the server keeps what they hide", () => {
  const draft = draftOf(config);
  const edited = { ...draft, data: draft.data.replace('"eu"', '"us"') };
  assert.deepEqual(patchOf(config, edited), {
    body: { data: { ...config.data, region: "us" } },
  });
});
