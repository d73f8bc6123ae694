/**
 * The TaskSource port reads and acts on the queue, and nothing else: no
 * member of it is one of the `BoardStore`'s (what the board keeps itself
 * lives behind that port alone), and it does not grow back. Read from
 * `deno doc`, so the count is the interface's, optional members included.
 */

import assert from "node:assert/strict";
import { missingStoreMembers } from "../../src/store/methods.ts";
import { docSymbols } from "../helpers/deno_doc.ts";

/**
 * Today's count. Issue 34 asks for at most 45: the rest of the way is
 * grouping members by resource, not a removal; lower this as it goes.
 */
const MAX_TASK_SOURCE_MEMBERS = 59;

/** The members of the interface `name` in `entry`, as `deno doc` lists them. */
async function interfaceMembers(entry: string, name: string): Promise<string[]> {
  const symbol = (await docSymbols(entry)).find((symbol) => symbol.name === name);
  assert.ok(symbol, `${entry} declares ${name}`);
  return symbol.declarations.flatMap(({ def }) =>
    [...def?.methods ?? [], ...def?.properties ?? []].map((member) => member.name)
  );
}

const members = await interfaceMembers("src/source/types.ts", "TaskSource");

Deno.test("TaskSource has no member of the BoardStore: the board's own state is the store's", () => {
  const storeMembers = new Set(missingStoreMembers({}));
  assert.ok(storeMembers.has("appendAudit") && storeMembers.has("feed"), "the store's members");
  // Both ports release what they opened.
  const shared = members.filter((member) => storeMembers.has(member) && member !== "close");
  assert.deepEqual(shared, []);
});

Deno.test(`TaskSource has at most ${MAX_TASK_SOURCE_MEMBERS} members`, () => {
  assert.ok(
    members.includes("listTasks") && members.includes("getJobStates"),
    "the port's members",
  );
  assert.ok(
    members.length <= MAX_TASK_SOURCE_MEMBERS,
    `${members.length} members: ${members.join(", ")}`,
  );
});
