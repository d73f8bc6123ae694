import assert from "node:assert/strict";
import { RecentJobIds } from "../../src/source/redis/recent_job_ids.ts";

Deno.test("RecentJobIds finds served ids by their start, sorted, at most `limit`", () => {
  const ids = new RecentJobIds();
  ids.note([
    { id: "beef-2", task: "mail" },
    { id: "beef-1", task: "mail" },
    { id: "cafe-1", task: "resize" },
  ]);
  assert.deepEqual(ids.find("beef", 10), [
    { id: "beef-1", task: "mail" },
    { id: "beef-2", task: "mail" },
  ]);
  assert.deepEqual(ids.find("beef", 1), [{ id: "beef-1", task: "mail" }]);
  assert.deepEqual(ids.find("cafe-1", 10), [{ id: "cafe-1", task: "resize" }]);
  assert.deepEqual(ids.find("dead", 10), []);
});

Deno.test("RecentJobIds keeps only the newest `capacity` ids, a served one counting as new", () => {
  const ids = new RecentJobIds(3);
  ids.note(["a", "b", "c"].map((id) => ({ id, task: "t" })));
  ids.note([{ id: "a", task: "t" }]); // served again: now the newest
  ids.note([{ id: "d", task: "t" }, { id: "e", task: "t" }]);
  assert.equal(ids.size, 3);
  assert.deepEqual(["a", "b", "c", "d", "e"].filter((id) => ids.find(id, 1).length), [
    "a",
    "d",
    "e",
  ]);
});
