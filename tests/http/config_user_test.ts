/**
 * `GET /config` names who is signed in and their preset role, and for each
 * action their role lacks, the least role that has it, so the UI can say
 * "Signed in as vic · viewer" and which role a hidden control needs. A
 * custom `can` decides by rules of its own: no role is named then.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { readFixture } from "../helpers/fixture.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import type { BoardOptions } from "../../src/options.ts";
import type { ConfigResponse } from "../../src/contract/config.ts";

/** `GET /config` as `user` ("name:role", or "" for nobody) on a board with an auth hook. */
async function configFor(user: string, options: BoardOptions = {}): Promise<ConfigResponse> {
  const source = createMemorySource({ seed: readFixture() });
  const board = createBoard(source, {
    auth: (request) => {
      const [name, role] = (request.headers.get("x-user") ?? "").split(":");
      return name ? { name, role } : undefined;
    },
    ...options,
  });
  try {
    const response = await board.fetch(
      new Request("http://board.test/board/api/config", { headers: { "x-user": user } }),
    );
    assert.equal(response.status, 200);
    return await response.json();
  } finally {
    await source.close();
  }
}

Deno.test("GET /config names the signed-in user, their role and the role each missing action needs", async () => {
  const viewer = await configFor("vic:viewer");
  assert.deepEqual(viewer.user, { name: "vic", role: "viewer" });
  assert.equal(viewer.roleNeeded["job.retry"], "operator");
  assert.equal(viewer.roleNeeded["payload.read"], "operator");
  assert.equal(viewer.roleNeeded["audit.read"], "admin");
  assert.equal(viewer.roleNeeded["search"], undefined, "a viewer may search");

  const operator = await configFor("oz:operator");
  assert.deepEqual(operator.user, { name: "oz", role: "operator" });
  assert.deepEqual(operator.roleNeeded, { "audit.read": "admin" });

  const admin = await configFor("root:admin");
  assert.deepEqual(admin.roleNeeded, {});
});

Deno.test("GET /config names no role under a custom can, and no user without one", async () => {
  const custom = await configFor("ann:viewer", { can: (_user, action) => action === "export" });
  assert.deepEqual(custom.user, { name: "ann", role: null });
  assert.deepEqual(custom.roleNeeded, {});

  const open = createMemorySource({ seed: readFixture() });
  try {
    const response = await createBoard(open).fetch(new Request("http://x/board/api/config"));
    const config: ConfigResponse = await response.json();
    assert.equal(config.user, null);
    assert.deepEqual(config.roleNeeded, {});
  } finally {
    await open.close();
  }
});

Deno.test("GET /config on a read-only board needs no role for the mutations nobody may do", async () => {
  const viewer = await configFor("vic:viewer", { readOnly: true });
  assert.equal(viewer.roleNeeded["job.retry"], undefined);
  assert.equal(viewer.roleNeeded["payload.read"], "operator");
});
