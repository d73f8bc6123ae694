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
 * Issue 34's cap: variants of one act are one member with an option or a
 * discriminant (see `docs/development.md`), not a member each.
 */
const MAX_TASK_SOURCE_MEMBERS = 45;

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

Deno.test("TaskSource is grouped by resource, a section comment each, in the port's order", async () => {
  const text = await Deno.readTextFile(new URL("../../src/source/types.ts", import.meta.url));
  const body = text.slice(text.indexOf("export interface TaskSource {"));
  const sections = [...body.matchAll(/^ {2}\/\/ ([^:.]+)[:.]/gm)].map(([, name]) => name);
  assert.deepEqual(sections, [
    "Tasks",
    "Jobs",
    "Schedules",
    "Workflows",
    "Dead letters",
    "Throughput",
    "Events",
    "Locks and backlog",
    "Lifecycle",
  ]);
});
