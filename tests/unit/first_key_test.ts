import assert from "node:assert/strict";
import { firstKey } from "../../src/source/redis/client.ts";

Deno.test("firstKey() finds the key that routes a command on Redis Cluster", () => {
  assert.equal(firstKey(["HGETALL", "taskora:{a}:1"]), "taskora:{a}:1");
  assert.equal(firstKey(["EXISTS", "taskora:{a}:wait", "taskora:{a}:active"]), "taskora:{a}:wait");
  assert.equal(firstKey(["MEMORY", "USAGE", "taskora:{a}:1"]), "taskora:{a}:1");
  assert.equal(
    firstKey(["XREAD", "COUNT", "10", "STREAMS", "taskora:{a}:events", "0-0"]),
    "taskora:{a}:events",
  );
});

Deno.test("firstKey() names no key for commands any node answers", () => {
  for (
    const args of [["INFO", "server"], ["TIME"], ["SCAN", "0"], ["SCRIPT", "LOAD", "return 1"]]
  ) {
    assert.equal(firstKey(args), undefined, args[0]);
  }
});
