/**
 * The overview's "Group by prefix": names split at `.`, `:` or `/` as
 * before, and kebab-case or snake_case names at `-` or `_`, deep enough that
 * the split gives groups (a word every name shares is not one), and a name
 * whose word no other name shares stays a group of its own. Opening a group
 * (`prefix=`) lists exactly the names it counted.
 */

import assert from "node:assert/strict";
import { groupsOf, type ListedTask, taskMatches } from "../../src/contract/task_list.ts";
import { JOB_STATES, type QueueStats } from "../../src/contract/states.ts";

function listed(name: string): ListedTask {
  const stats = Object.fromEntries(JOB_STATES.map((state) => [state, 0])) as QueueStats;
  return {
    name,
    stats,
    health: { status: "idle", reasons: [] } as unknown as ListedTask["health"],
    latency: { oldestWaiting: null } as unknown as ListedTask["latency"],
  };
}

/** Each group's prefix and task count, and checks `prefix=` lists the same names. */
function grouped(names: readonly string[]): [string, number][] {
  const groups = groupsOf(names.map(listed));
  for (const group of groups) {
    const opened = names.filter((name) => taskMatches(name, { prefix: group.prefix }));
    assert.equal(opened.length, group.tasks, `prefix=${group.prefix} lists what it counted`);
  }
  assert.equal(groups.reduce((sum, group) => sum + group.tasks, 0), names.length);
  return groups.map((group) => [group.prefix, group.tasks]);
}

const DOMAINS = ["billing", "email", "image", "inventory", "report"];

Deno.test("1,000 kebab-case tasks group by their first word, not into 1,000 groups of one", () => {
  const names = Array.from({ length: 1000 }, (_, i) => `${DOMAINS[i % 5]}-sync-${i}`);
  assert.deepEqual(grouped(names), DOMAINS.map((domain) => [`${domain}-`, 200]));
});

Deno.test("snake_case names group at '_'", () => {
  assert.deepEqual(grouped(["send_email", "send_sms", "resize_image", "resize_video"]), [
    ["resize_", 2],
    ["send_", 2],
  ]);
});

Deno.test("a first word every name shares is skipped for the next one", () => {
  const names = [
    "acme-billing-charge",
    "acme-billing-refund",
    "acme-email-send",
    "acme-email-bounce",
  ];
  assert.deepEqual(grouped(names), [["acme-billing-", 2], ["acme-email-", 2]]);
});

Deno.test("a name whose first word no other name shares is a group of its own", () => {
  assert.deepEqual(grouped(["send-email", "resize-image", "fetch-user", "notify"]), [
    ["fetch-user", 1],
    ["notify", 1],
    ["resize-image", 1],
    ["send-email", 1],
  ]);
});

Deno.test("'.', ':' and '/' still split first, beside kebab-case groups", () => {
  const names = ["billing.charge", "billing.refund-late", "mail:send", "send-email", "send-sms"];
  assert.deepEqual(grouped(names), [["billing.", 2], ["mail:", 1], ["send-", 2]]);
});
