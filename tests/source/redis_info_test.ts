/**
 * Reading fields of an INFO reply: the overview takes four of its lines.
 */

import assert from "node:assert/strict";
import { infoField } from "../../src/source/redis/info.ts";

const MEMORY =
  "# Memory\r\nused_memory:1081736\r\nused_memory_human:1.03M\r\nused_memory_rss:0\r\n";

Deno.test("a field is read whole, up to its line's end", () => {
  assert.equal(infoField(MEMORY, "used_memory"), "1081736");
  assert.equal(infoField(MEMORY, "used_memory_human"), "1.03M");
});

Deno.test("a field is never a prefix or a suffix of another's name", () => {
  assert.equal(infoField(MEMORY, "used_memor"), undefined);
  assert.equal(infoField(MEMORY, "memory"), undefined);
  assert.equal(infoField(MEMORY, "human"), undefined);
});

Deno.test("the first and the last line, with or without CR, are read", () => {
  assert.equal(infoField("redis_version:7.2.4\r\nuptime_in_seconds:9", "redis_version"), "7.2.4");
  assert.equal(infoField("redis_version:7.2.4\r\nuptime_in_seconds:9", "uptime_in_seconds"), "9");
  assert.equal(infoField("redis_version:7.2.4\nos:Linux\n", "os"), "Linux");
});

Deno.test("a field missing, or an empty reply, is undefined", () => {
  assert.equal(infoField(MEMORY, "redis_version"), undefined);
  assert.equal(infoField("", "redis_version"), undefined);
});
