import assert from "node:assert/strict";
import { errorPattern, groupDeadLetters } from "../../src/source/dead_letters.ts";

Deno.test("errorPattern() replaces numbers, ids and hex strings, keeps words", () => {
  assert.equal(errorPattern("timeout after 3012 ms"), "timeout after <n> ms");
  assert.equal(errorPattern("timeout after 2.5 s"), "timeout after <n> s");
  assert.equal(
    errorPattern("job 7deea1e0-af8c-4c24-bb84-c89069ee4b0a not found"),
    "job <id> not found",
  );
  assert.equal(errorPattern("bad pointer 0x7ffe12 in deadbeef01"), "bad pointer <hex> in <hex>");
  assert.equal(errorPattern("  Mailbox full  "), "Mailbox full");
  assert.equal(
    errorPattern("facade decade"),
    "facade decade",
    "hex-like words without digits stay",
  );
});

Deno.test("groupDeadLetters() groups by pattern, most frequent first, with first and last seen", () => {
  const groups = groupDeadLetters([
    { id: "a", task: "mail", error: "SMTP timeout after 3000 ms", failedAt: 10 },
    { id: "b", task: "sms", error: "SMTP timeout after 2990 ms", failedAt: 30 },
    { id: "c", task: "mail", error: null, failedAt: 20 },
    { id: "d", task: "mail", error: "SMTP timeout after 12 ms", failedAt: 5 },
  ]);
  assert.deepEqual(groups, [
    {
      pattern: "SMTP timeout after <n> ms",
      sample: "SMTP timeout after 2990 ms",
      count: 3,
      tasks: ["mail", "sms"],
      firstSeen: 5,
      lastSeen: 30,
      sampleJobIds: ["a", "b", "d"],
    },
    {
      pattern: "(no error message)",
      sample: "(no error message)",
      count: 1,
      tasks: ["mail"],
      firstSeen: 20,
      lastSeen: 20,
      sampleJobIds: ["c"],
    },
  ]);
});
